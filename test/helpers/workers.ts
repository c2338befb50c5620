import {execFileSync, spawn} from 'node:child_process'
import {type IncomingMessage, request} from 'node:http'
import {BIN, ROOT} from './cli.js'

export interface ServedWorkers {
  url: string
  port: number
  /** The primary. */
  pid: number
  stderr: () => string
  /** Resolves with the first match of `pattern` in stderr after `from` characters (rejects after `timeoutMs`). */
  waitFor: (pattern: RegExp, options?: {from?: number; timeoutMs?: number}) => Promise<RegExpExecArray>
  /** The pid of each worker that said it listens, by worker id. */
  workers: () => Map<number, number>
  exit: Promise<{code: number | null; signal: NodeJS.Signals | null}>
  /** SIGKILLs the primary and its workers if they still run. */
  stop: () => Promise<void>
}

/**
 * The built `jobagent serve --workers <n>` (or `program` in `cwd`: the single executable) on 127.0.0.1 and a port
 * of its choosing; resolves once all listen.
 */
export async function serveWorkers(
  home: string,
  workers: number,
  env: Record<string, string> = {},
  {program = [process.execPath, BIN], cwd = ROOT}: {program?: readonly string[]; cwd?: string} = {},
) {
  const [command = process.execPath, ...first] = program
  const child = spawn(command, [...first, 'serve', '--port', '0', '--workers', String(workers)], {
    cwd,
    env: {PATH: process.env.PATH, HOME: home, JOBAGENT_HOME: home, NO_COLOR: '1', ...env},
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  const listeners = new Set<() => void>()
  child.stderr.on('data', (chunk) => {
    stderr += chunk
    for (const listener of listeners) listener()
  })
  const exit = new Promise<{code: number | null; signal: NodeJS.Signals | null}>((resolve) =>
    child.on('close', (code, signal) => resolve({code, signal})),
  )
  const workerPids = () =>
    new Map([...stderr.matchAll(/worker (\d+) \(pid (\d+)\) listening/g)].map((m) => [Number(m[1]), Number(m[2])]))
  const stop = async () => {
    for (const pid of workerPids().values()) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {}
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await exit
  }
  const waitFor = (pattern: RegExp, {from = 0, timeoutMs = 20_000} = {}) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stderr.slice(from))
        if (!match) return
        done()
        resolve(match)
      }
      const timer = setTimeout(() => {
        done()
        reject(new Error(`no ${pattern} in stderr within ${timeoutMs} ms:\n${stderr}`))
      }, timeoutMs)
      const done = () => {
        clearTimeout(timer)
        listeners.delete(check)
      }
      listeners.add(check)
      check()
    })
  try {
    const started = await Promise.race([
      waitFor(/(\d+) workers listening on (http:\/\/\S+)/),
      exit.then(({code}) => Promise.reject(new Error(`serve exited ${code}: ${stderr}`))),
    ])
    const url = started[2] as string
    return {
      url,
      port: Number(new URL(url).port),
      pid: child.pid as number,
      stderr: () => stderr,
      waitFor,
      workers: workerPids,
      exit,
      stop,
    } satisfies ServedWorkers
  } catch (error) {
    await stop()
    throw error
  }
}

export interface Answer {
  status: number
  body: string
  /** The client's port of the connection: which worker holds it is `workerHolding(server, localPort)`. */
  localPort: number
}

/**
 * One request on a connection of its own (no keep-alive): the primary hands each connection to the next worker, so
 * requests made this way reach every worker in turn. Rejects when the connection fails.
 */
export function send(url: string, {method = 'GET', body}: {method?: string; body?: unknown} = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const outgoing = request(url, {
      method,
      agent: false,
      timeout: 10_000,
      headers: payload ? {'content-type': 'application/json', 'content-length': Buffer.byteLength(payload)} : {},
    })
    let localPort = 0
    outgoing.on('socket', (socket) => socket.on('connect', () => (localPort = socket.localPort ?? 0)))
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 10 s')))
    outgoing.on('error', reject)
    outgoing.on('response', (response: IncomingMessage) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk) => (text += chunk))
      response.on('end', () => resolve({status: response.statusCode ?? 0, body: text, localPort}))
      response.on('error', reject)
    })
    outgoing.end(payload)
  })
}

/** The samples of /metrics by worker label, from fresh connections until `want` workers answered (or `tries`). */
export async function scrapeWorkers(url: string, want: number, tries = 12): Promise<Map<string, string>> {
  const byWorker = new Map<string, string>()
  for (let i = 0; i < tries && byWorker.size < want; i++) {
    const {body} = await send(`${url}/metrics`)
    const labels = new Set([...body.matchAll(/worker="(\d+)"/g)].map((m) => m[1] as string))
    if (labels.size !== 1) throw new Error(`a scrape carries ${labels.size} worker labels`)
    byWorker.set([...labels][0] as string, body)
  }
  return byWorker
}

/** The pid of the process holding the server side of the connection from `clientPort` to `serverPort`. */
export function workerHolding(serverPort: number, clientPort: number): number | undefined {
  const out = execFileSync('ss', [
    '-tnpH',
    'state',
    'established',
    `( sport = :${serverPort} and dport = :${clientPort} )`,
  ])
  const match = /pid=(\d+)/.exec(out.toString())
  return match ? Number(match[1]) : undefined
}

export interface Stream {
  localPort: Promise<number>
  /** The data of each event received so far. */
  events: string[]
  /** Resolves once `count` events arrived (rejects after `timeoutMs` or when the stream ends first). */
  waitForEvents: (count: number, timeoutMs?: number) => Promise<void>
  /** Resolves when the server ends or drops the stream. */
  ended: Promise<void>
  close: () => void
}

/** An event stream on a connection of its own, read line by line. */
export function openStream(url: string): Stream {
  const events: string[] = []
  const wake = new Set<() => void>()
  let finished = false
  let onEnd: () => void = () => {}
  const ended = new Promise<void>((resolve) => {
    onEnd = () => {
      finished = true
      for (const listener of wake) listener()
      resolve()
    }
  })
  let onPort: (port: number) => void = () => {}
  const localPort = new Promise<number>((resolve) => (onPort = resolve))
  const outgoing = request(url, {agent: false, headers: {accept: 'text/event-stream'}})
  outgoing.on('socket', (socket) => socket.on('connect', () => onPort(socket.localPort ?? 0)))
  outgoing.on('error', () => onEnd())
  outgoing.on('response', (response) => {
    let buffer = ''
    response.setEncoding('utf8')
    response.on('data', (chunk) => {
      buffer += chunk
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
        if (data.length > 0) events.push(data.join('\n'))
        buffer = buffer.slice(end + 2)
      }
      for (const listener of wake) listener()
    })
    response.on('end', onEnd)
    response.on('error', onEnd)
    response.on('close', onEnd)
  })
  outgoing.end()
  const waitForEvents = (count: number, timeoutMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (events.length >= count) done(resolve)
        else if (finished) done(() => reject(new Error(`the stream ended after ${events.length} event(s)`)))
      }
      const timer = setTimeout(
        () => done(() => reject(new Error(`${events.length} event(s) in ${timeoutMs} ms`))),
        timeoutMs,
      )
      const done = (then: () => void) => {
        clearTimeout(timer)
        wake.delete(check)
        then()
      }
      wake.add(check)
      check()
    })
  return {localPort, events, waitForEvents, ended, close: () => outgoing.destroy()}
}

export interface Load {
  /** Stops the load and resolves with every outcome: an answer or the error of a request that failed. */
  stop: () => Promise<{answers: Answer[]; failures: Error[]}>
}

/** `concurrency` loops each sending `next()`'s request as soon as the previous one is answered. */
export function steadyLoad(concurrency: number, next: () => Promise<Answer>): Load {
  const answers: Answer[] = []
  const failures: Error[] = []
  let running = true
  const loop = async () => {
    while (running) {
      try {
        answers.push(await next())
      } catch (error) {
        failures.push(error as Error)
      }
    }
  }
  const loops = Array.from({length: concurrency}, loop)
  return {
    async stop() {
      running = false
      await Promise.all(loops)
      return {answers, failures}
    },
  }
}
