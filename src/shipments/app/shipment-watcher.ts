import {isJobagentError, type JobagentError, NotFoundError, UnavailableError} from '../../core/errors.js'
import {type Logger, silentLogger} from '../../core/logger.js'
import {MAX_BATCH_IDS} from '../core/shipment-id.js'
import type {ShipmentService} from '../core/shipment-service.js'
import {stateTag} from '../core/state-version.js'
import type {UnifiedState} from '../core/unified-state.js'

/** How often the watcher reads the watched shipments: a new document is seen within this plus one read. */
export const DEFAULT_WATCH_INTERVAL_MS = 1000

/** What a watch is told: the state whenever its tag changes, or why it cannot be read right now. */
export type WatchEvent =
  | {type: 'state'; state: UnifiedState; tag: string}
  | {type: 'error'; error: JobagentError; shipmentId: string}

/** A shipment being watched: its state when the watch began, and how to stop. */
export interface ShipmentWatch {
  readonly state: UnifiedState
  readonly tag: string
  close(): void
}

interface WatcherOptions {
  service: Pick<ShipmentService, 'unified' | 'unifiedEach'>
  intervalMs?: number
  /** Watches open at once; one more is refused with an UnavailableError (503 with Retry-After over HTTP). */
  maxWatches?: number
  logger?: Logger
}

interface Watcher {
  readonly id: string
  /** The tag of what this watch was told last, or a marker of the error it was told. */
  told: string
  readonly listener: (event: WatchEvent) => void
}

/** Told once when a shipment disappears or reads fail; whatever is read next is then told again. */
const GONE = 'gone'
const FAILING = 'failing'

/**
 * Watches the unified state of shipments for any number of listeners with one reader: each interval it reads every
 * watched shipment in one batch call (MAX_BATCH_IDS at a time; a shipment watched by several listeners is read
 * once), compares tags and tells the listeners whose shipment changed. It reads only while something is watched,
 * and waits `intervalMs` after each read ends, so a slow store is never asked twice at once.
 */
export class ShipmentWatcher {
  private readonly watchers = new Map<string, Set<Watcher>>()
  private readonly intervalMs: number
  private readonly logger: Logger
  private timer: NodeJS.Timeout | undefined
  private reading = false
  private count = 0
  private closed = false
  private failing = false

  constructor(private readonly options: WatcherOptions) {
    this.intervalMs = options.intervalMs ?? DEFAULT_WATCH_INTERVAL_MS
    this.logger = options.logger ?? silentLogger
  }

  /** Watches open now. */
  get size(): number {
    return this.count
  }

  /**
   * Reads the shipment's state now (its errors thrown as by ShipmentService.unified) and tells `listener` about
   * every later change until the watch is closed.
   */
  async watch(id: string, listener: (event: WatchEvent) => void): Promise<ShipmentWatch> {
    this.refuseBeyondLimit()
    const state = await this.options.service.unified(id)
    this.refuseBeyondLimit()
    const tag = stateTag(state)
    const watcher: Watcher = {id, told: tag, listener}
    let shipment = this.watchers.get(id)
    if (!shipment) {
      shipment = new Set()
      this.watchers.set(id, shipment)
    }
    shipment.add(watcher)
    this.count++
    this.schedule()
    let open = true
    return {
      state,
      tag,
      close: () => {
        if (!open) return
        open = false
        this.remove(watcher)
      },
    }
  }

  /** Stops reading; the open watches hear nothing more (their owners end them). */
  close(): void {
    this.closed = true
    clearTimeout(this.timer)
    this.timer = undefined
  }

  private refuseBeyondLimit(): void {
    const max = this.options.maxWatches ?? Number.POSITIVE_INFINITY
    if (this.closed) throw new UnavailableError('the server is shutting down', {retryAfterSeconds: 1})
    if (this.count < max) return
    const message = `${max} shipment streams are open, the most this server keeps`
    throw new UnavailableError(message, {
      retryAfterSeconds: 5,
      hint: 'close a stream, or poll GET /shipments/unified?ids=... for many shipments at once',
      publicMessage: message,
    })
  }

  private remove(watcher: Watcher): void {
    const shipment = this.watchers.get(watcher.id)
    if (!shipment?.delete(watcher)) return
    this.count--
    if (shipment.size === 0) this.watchers.delete(watcher.id)
    if (this.count === 0) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
  }

  private schedule(): void {
    if (this.closed || this.timer || this.reading || this.count === 0) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.reading = true
      this.readAll()
        .catch((error: unknown) => this.logger.error(`shipment watch failed: ${(error as Error).message}`))
        .finally(() => {
          this.reading = false
          this.schedule()
        })
    }, this.intervalMs)
  }

  /** One batch call per MAX_BATCH_IDS watched shipments, one after the other. */
  private async readAll(): Promise<void> {
    // The watches of this round: one opened meanwhile has just been told its state and waits for the next round.
    const round = new Map([...this.watchers].map(([id, watchers]) => [id, [...watchers]]))
    const ids = [...round.keys()]
    for (let start = 0; start < ids.length && !this.closed; start += MAX_BATCH_IDS) {
      await this.readBatch(ids.slice(start, start + MAX_BATCH_IDS), round)
    }
  }

  private async readBatch(ids: readonly string[], round: Map<string, Watcher[]>): Promise<void> {
    let batch: Awaited<ReturnType<ShipmentService['unifiedEach']>>
    try {
      batch = await this.options.service.unifiedEach(ids)
    } catch (error) {
      // Closed meanwhile (a server shutting down closes the stores next): nobody is left to tell.
      if (this.closed) return
      this.reportFailure(error)
      for (const id of ids) this.tellError(round.get(id) ?? [], asJobagentError(error), id)
      return
    }
    this.reportRecovery()
    for (const state of batch.shipments) this.tellState(round.get(state.shipment_id) ?? [], state)
    for (const id of batch.missing) this.tellError(round.get(id) ?? [], goneError(id), id, GONE)
    // A shipment the service will not serve (a document nested too deep) is told so; the others are answered.
    for (const [id, error] of batch.refused) this.tellError(round.get(id) ?? [], error, id)
  }

  private tellState(watchers: readonly Watcher[], state: UnifiedState): void {
    const tag = stateTag(state)
    for (const watcher of watchers) {
      if (watcher.told === tag) continue
      watcher.told = tag
      watcher.listener({type: 'state', state, tag})
    }
  }

  private tellError(watchers: readonly Watcher[], error: JobagentError, shipmentId: string, marker = FAILING): void {
    for (const watcher of watchers) {
      if (watcher.told === marker) continue
      watcher.told = marker
      watcher.listener({type: 'error', error, shipmentId})
    }
  }

  private reportFailure(error: unknown): void {
    if (this.failing) return
    this.failing = true
    this.logger.warning(`shipment watch: reads fail, retrying every ${this.intervalMs} ms: ${(error as Error).message}`)
  }

  private reportRecovery(): void {
    if (!this.failing) return
    this.failing = false
    this.logger.info('shipment watch: reads succeed again')
  }
}

function goneError(id: string): NotFoundError {
  return new NotFoundError(`no shipment with id ${JSON.stringify(id)} any more`)
}

/** A failure that is no JobagentError (a bug in a store) reaches a listener as an unnamed unavailable store. */
function asJobagentError(error: unknown): JobagentError {
  return isJobagentError(error)
    ? error
    : new UnavailableError(`shipment read failed: ${(error as Error)?.message ?? String(error)}`, {cause: error})
}

interface FollowOptions {
  /** Ends the watch (Ctrl-C); the promise then resolves. */
  signal: AbortSignal
  /** Told the state at once, then each change and each failure to read. */
  onEvent: (event: WatchEvent) => void
  intervalMs?: number
}

/**
 * `jobagent shipment show ID --watch`: the same watcher as the event streams, in this process. A malformed id, an
 * unknown shipment or a store down at the start is thrown; later failures are told and the watch goes on.
 */
export async function followShipment(
  service: WatcherOptions['service'],
  id: string,
  options: FollowOptions,
): Promise<void> {
  const watcher = new ShipmentWatcher({service, ...(options.intervalMs ? {intervalMs: options.intervalMs} : {})})
  const watch = await watcher.watch(id, options.onEvent)
  try {
    options.onEvent({type: 'state', state: watch.state, tag: watch.tag})
    await new Promise<void>((resolve) => {
      if (options.signal.aborted) resolve()
      else options.signal.addEventListener('abort', () => resolve(), {once: true})
    })
  } finally {
    watch.close()
    watcher.close()
  }
}
