import cluster, {type Worker} from 'node:cluster'
import {createServer} from 'node:net'
import {availableParallelism} from 'node:os'
import type {AppContext} from '../app/context.js'
import {ValidationError} from '../core/errors.js'
import type {Logger} from '../core/logger.js'
import {checkServeOptions, type ServeOptions, serveApi} from './serve.js'

/** The port every worker listens on, set by the primary: with --port 0 it picks one, so a replacement has the same. */
const PORT_VARIABLE = 'JOBAGENT_WORKER_PORT'
const FIRST_RESTART_DELAY_MS = 1000
const MAX_RESTART_DELAY_MS = 30_000
/** A worker that lived this long was healthy: the next restart waits the first delay again. */
const STABLE_AFTER_MS = 30_000
/** Past the workers' own shutdown bound, the primary stops waiting and kills what is left. */
const DRAIN_GRACE_MS = 5000
const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000

/** `--workers N|auto`: a positive whole number, or one worker per core the process may use. */
function workerCount(value: string | undefined): number {
  if (value === undefined) return 1
  if (value === 'auto') return availableParallelism()
  const count = /^\d+$/.test(value) ? Number(value) : Number.NaN
  if (Number.isSafeInteger(count) && count >= 1) return count
  throw new ValidationError(`invalid --workers "${value}": it takes a whole number of 1 or more, or auto`, {
    hint: `use --workers auto (one per core, ${availableParallelism()} here) or --workers 2; leave it out for one process`,
  })
}

/**
 * `jobagent serve` with `--workers`: one worker is today's single process; more are node:cluster workers on one
 * port, each serving every route, under a primary that replaces, drains and reloads them. A worker runs this same
 * command again (cluster starts the same program with the same arguments) and lands in the worker branch.
 */
export async function serveWorkers(context: AppContext, options: ServeOptions, workers: string | undefined) {
  const count = workerCount(workers)
  if (cluster.isWorker) return serveAsWorker(context, options)
  if (count === 1) return serveApi(context, options)
  // Bad settings are the primary's error, with today's message and exit code, before any worker starts.
  checkServeOptions(options)
  // Opened (and migrated) once here, so the workers never race to migrate the tracker at start; a part served
  // alone (--only) has no tracker to open.
  if (!options.only) void context.trackerDb
  await context.close()
  // An address the probe cannot take is left to the first worker, which says why as a single process does.
  const port = options.port === 0 ? await freePort(options.host).catch(() => 0) : options.port
  await new WorkerPool(count, {...options, port}, context.logger.child('server')).run()
}

/**
 * A port free on `host` now. Workers asking for port 0 would share one only while one of them listens: a worker
 * started after they all died would get another.
 */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, host, () => {
      const {port} = probe.address() as {port: number}
      probe.close(() => resolve(port))
    })
  })
}

async function serveAsWorker(context: AppContext, options: ServeOptions): Promise<void> {
  // The primary alone reloads; a hang-up sent to the whole process group must not end every worker at once.
  process.on('SIGHUP', () => {})
  const port = Number(context.env[PORT_VARIABLE] ?? options.port)
  await serveApi(context, {...options, port})
  // The IPC channel to the primary would keep the process alive after the server is closed.
  cluster.worker?.disconnect()
}

const describe = (worker: Worker) => `worker ${worker.id} (pid ${worker.process.pid})`

const seconds = (ms: number) => `${ms / 1000} s`

function exitReason(code: number | null, signal: string | null): string {
  return signal ? `was killed by ${signal}` : `exited with code ${code}`
}

/**
 * The wait before replacing a worker that died after living `livedMs`, given the wait before the last replacement:
 * the first delay after a worker that lived long enough to count as healthy, else twice the last one up to a cap,
 * so a worker that dies at start again and again waits longer each time instead of spinning.
 */
export function restartDelay(lastMs: number | undefined, livedMs: number): number {
  if (lastMs === undefined || livedMs >= STABLE_AFTER_MS) return FIRST_RESTART_DELAY_MS
  return Math.min(lastMs * 2, MAX_RESTART_DELAY_MS)
}

class WorkerPool {
  private readonly live = new Set<Worker>()
  /** Workers asked to stop (reload, shutdown): their exit is expected and starts no replacement. */
  private readonly retiring = new WeakSet<Worker>()
  private readonly startedAt = new WeakMap<Worker, number>()
  private readonly restarts = new Set<NodeJS.Timeout>()
  /** The wait before the last replacement; none yet. */
  private lastDelayMs: number | undefined
  /** Set once a worker listened: from then on a worker that dies is replaced. */
  private listened = false
  private stopping = false
  private reloading = false
  private finished: () => void = () => {}

  constructor(
    private readonly count: number,
    private readonly options: ServeOptions,
    private readonly logger: Logger,
  ) {}

  async run(): Promise<void> {
    const done = new Promise<void>((resolve) => {
      this.finished = resolve
    })
    // The first worker alone at first: a port in use or a bad store is its one clear error, not N of them.
    const first = await this.start()
    if (first.ok === false) {
      this.logger.error(`${first.reason}; no worker can start, stopping`)
      process.exitCode = first.code || 1
      return
    }
    await Promise.all(Array.from({length: this.count - 1}, () => this.start()))
    this.logger.info(`${this.live.size} workers listening on ${this.url()} (SIGHUP reloads them one at a time)`)
    this.onSignals()
    await done
    this.logger.info('Stopped')
  }

  private url(): string {
    const host = this.options.host
    return `http://${host.includes(':') ? `[${host}]` : host}:${this.options.port}`
  }

  /** Forks a worker and resolves once it listens, or with why it ended before it did. */
  private start(): Promise<{ok: true; worker: Worker} | {ok: false; code: number; reason: string}> {
    const worker = cluster.fork({[PORT_VARIABLE]: String(this.options.port)})
    this.startedAt.set(worker, performance.now())
    this.live.add(worker)
    return new Promise((resolve) => {
      worker.once('listening', () => {
        this.listened = true
        this.logger.info(`${describe(worker)} listening`)
        resolve({ok: true, worker})
      })
      worker.once('exit', (code, signal) => {
        this.live.delete(worker)
        resolve({ok: false, code, reason: `${describe(worker)} ${exitReason(code, signal)} before it listened`})
        this.onExit(worker, code, signal)
      })
    })
  }

  /** Replaces a worker that died unexpectedly; one that failed to replace another during a reload is not. */
  private onExit(worker: Worker, code: number, signal: string | null): void {
    if (!this.listened) return
    if (this.stopping || this.retiring.has(worker) || this.live.size >= this.count) {
      if (code !== 0 || signal) this.logger.warning(`${describe(worker)} ${exitReason(code, signal)}`)
      if (this.stopping && this.live.size === 0) this.finished()
      return
    }
    const delay = restartDelay(this.lastDelayMs, performance.now() - (this.startedAt.get(worker) ?? 0))
    this.lastDelayMs = delay
    this.logger.warning(`${describe(worker)} ${exitReason(code, signal)}; starting a new one in ${seconds(delay)}`)
    const timer = setTimeout(() => {
      this.restarts.delete(timer)
      void this.start()
    }, delay)
    this.restarts.add(timer)
  }

  private onSignals(): void {
    const onStop = (signal: NodeJS.Signals) => {
      if (this.stopping) return
      this.stopping = true
      for (const timer of this.restarts) clearTimeout(timer)
      this.logger.info(`${signal} received: draining ${this.live.size} worker(s)`)
      if (this.live.size === 0) this.finished()
      for (const worker of this.live) this.retire(worker)
    }
    process.on('SIGINT', onStop)
    process.on('SIGTERM', onStop)
    process.on('SIGHUP', () => {
      if (this.stopping || this.reloading) return
      this.reloading = true
      void this.reload().finally(() => {
        this.reloading = false
      })
    })
  }

  /** Asks a worker to drain (its own SIGTERM shutdown) and kills it if it outlives the shutdown bound. */
  private retire(worker: Worker): Promise<void> {
    this.retiring.add(worker)
    const ended = new Promise<void>((resolve) => {
      if (worker.isDead()) resolve()
      else worker.once('exit', () => resolve())
    })
    worker.process.kill('SIGTERM')
    const bound = (this.options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS) + DRAIN_GRACE_MS
    const kill = setTimeout(() => worker.process.kill('SIGKILL'), bound)
    return ended.finally(() => clearTimeout(kill))
  }

  /** Replaces the workers one at a time: the new one listens before the old one stops taking connections. */
  private async reload(): Promise<void> {
    const old = [...this.live]
    this.logger.info(`SIGHUP received: reloading ${old.length} worker(s) one at a time`)
    for (const worker of old) {
      if (this.stopping) return
      const next = await this.start()
      if (next.ok === false) {
        this.logger.error(`${next.reason}; reload stopped, the other workers keep serving`)
        return
      }
      if (this.live.has(worker)) await this.retire(worker)
    }
    this.logger.info(`reloaded ${old.length} worker(s)`)
  }
}
