import {NotFoundError, publicMessageOf, type UnavailableError, ValidationError} from '../../core/errors.js'
import {type Logger, silentLogger} from '../../core/logger.js'
import {nestsDeeperThan} from '../../core/nesting.js'
import {type Clock, systemClock} from '../../core/time.js'
import {validateBatchIds, validateShipmentId} from './shipment-id.js'

import {
  combineFailures,
  elapsedMs,
  type StoreRole,
  StoreTimeout,
  storeUnavailable,
  withinDeadline,
} from './store-failures.js'
import type {CombinedShipmentStore, IndexStatus, JointRead, ShipmentMetadataStore, TelemetryStore} from './stores.js'
import {MAX_DOCUMENT_DEPTH} from './telemetry-document.js'
import {checkHistoryQuery, encodeCursor, type HistoryQuery, type TelemetryHistory} from './telemetry-history.js'
import type {Freshness, LatestTelemetry, UnifiedBatch, UnifiedState} from './unified-state.js'

type LookupResult = 'found' | 'not_found' | 'invalid' | 'unavailable'
export type StoreOutcome = 'ok' | 'error' | 'timeout'

/** What the service reports for metrics; the app layer implements it with prom-client. */
export interface ShipmentMetrics {
  lookup(result: LookupResult): void
  storeLatency(store: StoreRole, kind: string, seconds: number, outcome: StoreOutcome): void
}

/** One store's health, for GET /health. */
interface StoreCheck {
  store: StoreRole
  kind: string
  status: 'pass' | 'fail'
  latency_ms: number
  /** Why the check failed, as API clients may see it: the store's kind and state (the log has the rest). */
  output?: string
}

export interface ShipmentServiceOptions {
  metadata: ShipmentMetadataStore
  telemetry: TelemetryStore
  /**
   * Both stores in one database, read with one query per lookup; each store is still used for health and index
   * checks and for what the joint read leaves to them.
   */
  combined?: CombinedShipmentStore
  /** How long each store may take to answer, in milliseconds. */
  timeouts: {metadata: number; telemetry: number}
  staleAfterSeconds: number
  /** Sent as Retry-After with a 503 when a store fails; default 5. */
  retryAfterSeconds?: number
  clock?: Clock
  logger?: Logger
  metrics?: ShipmentMetrics
}

/** What stores that cannot stop a read get instead of a signal of their own. */
const NEVER_ABORTED = new AbortController().signal

type Settled<T> = PromiseSettledResult<T>

/**
 * The latest telemetry of a shipment merged with its metadata row, and pages of its telemetry history; read-only.
 * Both stores are read concurrently, or with one query when a combined store reads them together.
 */
export class ShipmentService {
  private readonly metadata: ShipmentMetadataStore
  private readonly telemetry: TelemetryStore
  private readonly combined: CombinedShipmentStore | undefined
  private readonly clock: Clock
  private readonly logger: Logger
  private readonly sinks: ShipmentMetrics[] = []
  /** Reports to every sink added with addMetrics(). */
  private readonly metrics: ShipmentMetrics = {
    lookup: (result) => {
      for (const sink of this.sinks) sink.lookup(result)
    },
    storeLatency: (store, kind, seconds, outcome) => {
      for (const sink of this.sinks) sink.storeLatency(store, kind, seconds, outcome)
    },
  }
  private indexReport: Promise<Record<StoreRole, IndexStatus | undefined>> | undefined

  constructor(private readonly options: ShipmentServiceOptions) {
    this.metadata = options.metadata
    this.telemetry = options.telemetry
    this.combined = options.combined
    this.clock = options.clock ?? systemClock
    this.logger = options.logger ?? silentLogger
    if (options.metrics) this.sinks.push(options.metrics)
  }

  /** Lets a front end (the HTTP app's Prometheus registry) count lookups and time the stores; returns the undo. */
  addMetrics(metrics: ShipmentMetrics): () => void {
    this.sinks.push(metrics)
    return () => {
      const index = this.sinks.indexOf(metrics)
      if (index !== -1) this.sinks.splice(index, 1)
    }
  }

  /**
   * Counts a lookup whose request a front end refused before asking (the HTTP routes' schemas run the service's own
   * id and query checks), as the service counts the requests it refuses.
   */
  countInvalid(): void {
    this.metrics.lookup('invalid')
  }

  get sources(): UnifiedState['sources'] {
    return {metadata: this.metadata.kind, telemetry: this.telemetry.kind}
  }

  async unified(id: string): Promise<UnifiedState> {
    this.checkId(() => validateShipmentId(id))
    const [row, latest] = await this.readBoth(
      (combined, signal) => combined.find(id, signal),
      (signal) => this.metadata.findById(id, signal),
      (signal) => this.telemetry.latest(id, signal),
    )
    if (row.status === 'fulfilled' && row.value === null) throw this.notFound(id)
    const [found, telemetry] = this.settled(row, latest)
    return this.merge(id, found as Record<string, unknown>, telemetry, this.clock.now())
  }

  /**
   * One page of a shipment's telemetry, oldest first: the metadata row is read beside it (within the same timeouts)
   * only to answer an unknown shipment with NotFoundError, as unified() does.
   */
  async history(id: string, query: HistoryQuery = {}): Promise<TelemetryHistory> {
    const window = this.checkId(() => {
      validateShipmentId(id)
      return checkHistoryQuery(query)
    })
    const [row, page] = await this.readConcurrently(
      (signal) => this.metadata.findById(id, signal),
      (signal) => this.telemetry.history(id, window, signal),
    )
    if (row.status === 'fulfilled' && row.value === null) throw this.notFound(id)
    const [, {documents, next}] = this.settled(row, page)
    for (const document of documents) {
      this.refuseTooDeep(id, undefined, document, `telemetry document recorded at ${document.recorded_at}`)
    }
    this.metrics.lookup('found')
    return {
      shipment_id: id,
      telemetry: documents,
      count: documents.length,
      limit: window.limit,
      next_cursor: next === null ? null : encodeCursor(next),
    }
  }

  private notFound(id: string): NotFoundError {
    this.metrics.lookup('not_found')
    return new NotFoundError(`no shipment with id ${JSON.stringify(id)}`, {
      hint: `the metadata store (${this.metadata.kind}) has no row with that id; import shipments with: jobagent shipment import --metadata FILE`,
    })
  }

  /**
   * The unified state of each shipment of `ids` (repeats answered once, in the order asked) and the ids that name
   * no shipment: one query per store for the whole list, merged as a single lookup is. A shipment the service
   * refuses to serve (a stored document nested too deep) refuses the batch, as it refuses its single lookup.
   */
  async unifiedBatch(ids: readonly string[]): Promise<UnifiedBatch> {
    const {refused, ...answer} = await this.unifiedEach(ids)
    const [first] = refused.values()
    if (first) throw first
    return answer
  }

  /**
   * unifiedBatch for readers that answer each shipment on its own (the event streams): a shipment the service
   * refuses to serve is named in `refused` with its error, and the others are answered.
   */
  async unifiedEach(ids: readonly string[]): Promise<UnifiedBatch & {refused: Map<string, ValidationError>}> {
    const unique = this.checkId(() => validateBatchIds(ids))
    const settled = await this.readBoth(
      (combined, signal) => combined.findMany(unique, signal),
      (signal) => this.metadata.findByIds(unique, signal),
      (signal) => this.telemetry.latestByIds(unique, signal),
    )
    const [rows, latest] = this.settled(...settled)
    const now = this.clock.now()
    const answer = {
      shipments: [] as UnifiedState[],
      missing: [] as string[],
      refused: new Map<string, ValidationError>(),
    }
    for (const id of unique) {
      const row = rows.get(id)
      if (row) {
        try {
          answer.shipments.push(this.merge(id, row, latest.get(id) ?? null, now))
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error
          answer.refused.set(id, error)
        }
      } else {
        this.metrics.lookup('not_found')
        answer.missing.push(id)
      }
    }
    return answer
  }

  private checkId<T>(validate: () => T): T {
    try {
      return validate()
    } catch (error) {
      this.metrics.lookup('invalid')
      throw error
    }
  }

  /** Both values, or the error naming every store that failed (a request a store refused comes first). */
  private settled<M, T>(metadata: Settled<M>, telemetry: Settled<T>): [M, T] {
    if (metadata.status === 'rejected' || telemetry.status === 'rejected') {
      const error = combineFailures([metadata, telemetry])
      this.metrics.lookup(error instanceof ValidationError ? 'invalid' : 'unavailable')
      throw error
    }
    return [metadata.value, telemetry.value]
  }

  /** The metadata row and latest telemetry of one shipment as its UnifiedState, freshness counted at `now`. */
  private merge(id: string, row: Record<string, unknown>, latest: LatestTelemetry | null, now: Date): UnifiedState {
    this.refuseTooDeep(id, row, latest)
    this.metrics.lookup('found')
    return {
      shipment_id: id,
      metadata: row,
      telemetry: latest,
      freshness: this.freshness(latest, now),
      sources: this.sources,
      generated_at: now.toISOString(),
    }
  }

  /**
   * A stored document nested past what the import accepts (written by another tool) cannot be encoded for an
   * answer: it is refused by name (422) rather than failing the request with a stack overflow.
   */
  private refuseTooDeep(
    id: string,
    row: unknown,
    latest: LatestTelemetry | null,
    document = 'latest telemetry document',
  ): void {
    const store = nestsDeeperThan(row, MAX_DOCUMENT_DEPTH)
      ? 'metadata'
      : latest && nestsDeeperThan(latest.payload, MAX_DOCUMENT_DEPTH)
        ? 'telemetry'
        : undefined
    if (!store) return
    this.metrics.lookup('invalid')
    const what = store === 'metadata' ? 'metadata row' : document
    const message = `the ${what} of shipment ${JSON.stringify(id)} nests objects and arrays deeper than ${MAX_DOCUMENT_DEPTH} levels; jobagent serves documents up to ${MAX_DOCUMENT_DEPTH} levels deep`
    throw new ValidationError(message, {
      details: [{field: store, message}],
      hint: `store a flatter document for this shipment in the ${store} store (${store === 'metadata' ? this.metadata.kind : this.telemetry.kind})`,
    })
  }

  /**
   * What both stores hold for a lookup: read together by the combined store when there is one and it can answer,
   * else from each store concurrently. Either way a failure is settled per store, not thrown.
   */
  private async readBoth<M, T>(
    together: (combined: CombinedShipmentStore, signal: AbortSignal) => Promise<JointRead<M, T> | undefined>,
    metadata: (signal: AbortSignal) => Promise<M>,
    telemetry: (signal: AbortSignal) => Promise<T>,
  ): Promise<[Settled<M>, Settled<T>]> {
    if (this.combined) {
      const read = await this.readTogether(this.combined, together)
      if (read) return read
    }
    return this.readConcurrently(metadata, telemetry)
  }

  /**
   * One query for both stores, within the smaller of their timeouts (it answers for both at once). Its time is
   * recorded for each store, as the time that store's answer took; a failure fails both stores alike, as it
   * would have failed two queries to the same database. Undefined when the combined store leaves the lookup to
   * the stores, with nothing recorded: their reads record their own.
   */
  private async readTogether<M, T>(
    combined: CombinedShipmentStore,
    work: (combined: CombinedShipmentStore, signal: AbortSignal) => Promise<JointRead<M, T> | undefined>,
  ): Promise<[Settled<M>, Settled<T>] | undefined> {
    const timeoutMs = Math.min(this.options.timeouts.metadata, this.options.timeouts.telemetry)
    const controller = combined.abortable === false ? undefined : new AbortController()
    const signal = controller?.signal ?? NEVER_ABORTED
    const started = performance.now()
    const record = (outcome: StoreOutcome) => {
      this.recordLatency('metadata', this.metadata.kind, started, outcome)
      this.recordLatency('telemetry', this.telemetry.kind, started, outcome)
    }
    let read: JointRead<M, T> | undefined
    try {
      read = await withinDeadline(timeoutMs, () => work(combined, signal), controller)
    } catch (error) {
      record(error instanceof StoreTimeout ? 'timeout' : 'error')
      return [
        {status: 'rejected', reason: this.unavailable('metadata', this.metadata.kind, error, timeoutMs)},
        {status: 'rejected', reason: this.unavailable('telemetry', this.telemetry.kind, error, timeoutMs)},
      ]
    }
    if (!read) return undefined
    record('ok')
    return [
      {status: 'fulfilled', value: read.metadata},
      {status: 'fulfilled', value: read.telemetry},
    ]
  }

  /** Both stores at once, each within its timeout; a failure is settled, not thrown. */
  private readConcurrently<M, T>(
    metadata: (signal: AbortSignal) => Promise<M>,
    telemetry: (signal: AbortSignal) => Promise<T>,
  ): Promise<[Settled<M>, Settled<T>]> {
    // One controller for both reads: when either store times out the request fails, so both may stop.
    const controller =
      this.metadata.abortable === false && this.telemetry.abortable === false ? undefined : new AbortController()
    const signal = controller?.signal ?? NEVER_ABORTED
    return Promise.allSettled([
      this.read('metadata', this.metadata, () => metadata(signal), controller),
      this.read('telemetry', this.telemetry, () => telemetry(signal), controller),
    ])
  }

  private recordLatency(role: StoreRole, kind: string, started: number, outcome: StoreOutcome): void {
    if (this.sinks.length > 0) this.metrics.storeLatency(role, kind, elapsedMs(started) / 1000, outcome)
  }

  /** Pings both stores concurrently, each within its timeout. */
  checks(): Promise<StoreCheck[]> {
    return Promise.all([this.check('metadata'), this.check('telemetry')])
  }

  /** Pings one store within its timeout; a failure is reported, never thrown. */
  async check(role: StoreRole): Promise<StoreCheck> {
    const store = role === 'metadata' ? this.metadata : this.telemetry
    const started = performance.now()
    try {
      await this.read(role, store, () => store.ping(), undefined, false)
      return {store: role, kind: store.kind, status: 'pass', latency_ms: elapsedMs(started)}
    } catch (error) {
      const failure = error as UnavailableError
      this.logger.warning(`${role} store check failed: ${failure.message}`)
      return {
        store: role,
        kind: store.kind,
        status: 'fail',
        latency_ms: elapsedMs(started),
        output: publicMessageOf(failure),
      }
    }
  }

  /**
   * Checks once that each lookup is served by an index and logs a warning for each that is not (every lookup
   * would scan the table) or whose table is missing. Never fails: an unreachable store is the health check's business.
   */
  verifyIndexes(): Promise<Record<StoreRole, IndexStatus | undefined>> {
    this.indexReport ??= Promise.all([this.checkIndex('metadata'), this.checkIndex('telemetry')]).then(
      ([metadata, telemetry]) => ({metadata, telemetry}),
    )
    return this.indexReport
  }

  /** Waits for a pending index check, then closes both stores (and the combined store). */
  async close(): Promise<void> {
    await this.indexReport
    await Promise.all([this.metadata.close(), this.telemetry.close(), this.combined?.close()])
  }

  private async checkIndex(role: StoreRole): Promise<IndexStatus | undefined> {
    const store = role === 'metadata' ? this.metadata : this.telemetry
    if (!store.checkIndex) return undefined
    try {
      const status = await store.checkIndex()
      if (!status.ok) {
        const hint = status.hint ? `; create it with: ${status.hint}` : ''
        this.logger.warning(`${role} store (${store.kind}): ${status.message}${hint}`)
      }
      return status
    } catch (error) {
      this.logger.debug(`${role} store (${store.kind}): index check skipped: ${(error as Error).message}`)
      return undefined
    }
  }

  private freshness(latest: LatestTelemetry | null, now: Date): Freshness {
    const staleAfter = this.options.staleAfterSeconds
    const seenAt = latest ? Date.parse(latest.recorded_at) : Number.NaN
    if (!latest || Number.isNaN(seenAt)) {
      return {
        last_seen_at: latest?.recorded_at ?? null,
        age_seconds: null,
        stale: true,
        stale_after_seconds: staleAfter,
      }
    }
    // A device clock ahead of ours gives a negative age; it is fresh, not from the future.
    const age = Math.max(0, Math.floor((now.getTime() - seenAt) / 1000))
    return {
      last_seen_at: latest.recorded_at,
      age_seconds: age,
      stale: age > staleAfter,
      stale_after_seconds: staleAfter,
    }
  }

  private unavailable(role: StoreRole, kind: string, error: unknown, timeoutMs: number): UnavailableError {
    const unavailable = storeUnavailable(role, kind, error, timeoutMs, this.options.retryAfterSeconds ?? 5)
    if (!(error instanceof StoreTimeout)) this.logger.debug(unavailable.message)
    return unavailable
  }

  /** What `work` reads within the store's timeout: its value, or an UnavailableError naming the store. */
  private async read<T>(
    role: StoreRole,
    store: ShipmentMetadataStore | TelemetryStore,
    work: () => Promise<T>,
    controller: AbortController | undefined,
    recordLatency = true,
  ): Promise<T> {
    const timeoutMs = this.options.timeouts[role]
    const started = performance.now()
    try {
      const value = await withinDeadline(timeoutMs, work, controller)
      if (recordLatency) this.recordLatency(role, store.kind, started, 'ok')
      return value
    } catch (error) {
      if (recordLatency)
        this.recordLatency(role, store.kind, started, error instanceof StoreTimeout ? 'timeout' : 'error')
      // A store that cannot compare the values asked for (a time column of another type) refuses the request.
      throw error instanceof ValidationError ? error : this.unavailable(role, store.kind, error, timeoutMs)
    }
  }
}
