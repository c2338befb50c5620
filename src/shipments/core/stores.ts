import type {LatestTelemetry, MetadataStoreKind, TelemetryStoreKind} from './unified-state.js'

/** Whether the lookup a store makes is served by an index, and if not, how to add one. */
export interface IndexStatus {
  ok: boolean
  /** What was found, e.g. `lookups use index telemetry_shipment_id_recorded_at`, or what is missing and what that costs. */
  message: string
  /** The statement or command that creates the missing index. */
  hint?: string
}

/** The relational database holding one row per shipment. */
export interface ShipmentMetadataStore {
  readonly kind: MetadataStoreKind
  /**
   * False for a store whose reads cannot be stopped once started (they run to completion anyway): the service then
   * passes a signal that never aborts rather than making a controller per lookup. Absent means true.
   */
  readonly abortable?: boolean
  /** Every column of the row whose id column equals `id`, or null. */
  findById(id: string, signal: AbortSignal): Promise<Record<string, unknown> | null>
  /** The rows of the shipments among `ids` that exist, by id, read in one query (ids with no row are absent). */
  findByIds(ids: readonly string[], signal: AbortSignal): Promise<Map<string, Record<string, unknown>>>
  checkIndex?(): Promise<IndexStatus>
  ping(): Promise<void>
  close(): Promise<void>
}

/** The document database holding many timestamped documents per shipment. */
export interface TelemetryStore {
  readonly kind: TelemetryStoreKind
  /**
   * False for a store whose reads cannot be stopped once started (they run to completion anyway): the service then
   * passes a signal that never aborts rather than making a controller per lookup. Absent means true.
   */
  readonly abortable?: boolean
  /** The document with the greatest time field for `id`, found through the (id, time desc) index, or null. */
  latest(id: string, signal: AbortSignal): Promise<LatestTelemetry | null>
  /** The latest document of each shipment among `ids` that has one, by id, read in one query through the index. */
  latestByIds(ids: readonly string[], signal: AbortSignal): Promise<Map<string, LatestTelemetry>>
  /**
   * The documents of `id` inside `window`, oldest first, read through the (id, time desc) index (walked backwards),
   * stopping after `window.limit`; `next` says whether more follow.
   */
  history(id: string, window: TelemetryWindow, signal: AbortSignal): Promise<TelemetryHistoryPage>
  checkIndex?(): Promise<IndexStatus>
  ping(): Promise<void>
  close(): Promise<void>
}

/** Which of a shipment's documents one page of its history holds. */
export interface TelemetryWindow {
  /** Documents recorded at or after this time (ISO 8601 UTC, as normaliseTimestamp prints it). */
  since?: string
  /** Documents recorded strictly before this time (ISO 8601 UTC). */
  until?: string
  /** Documents stored strictly after this key: `next` of the previous page, exactly as the store gave it. */
  after?: string
  /** At most this many documents. */
  limit: number
}

export interface TelemetryHistoryPage {
  documents: LatestTelemetry[]
  /**
   * The key of the last document when more documents follow inside the window, else null. The store's own text
   * for the stored time (microseconds for PostgreSQL timestamptz), so the next page neither repeats nor skips one.
   */
  next: string | null
}

/** A metadata row to upsert by id: column name -> value. */
export type MetadataRow = Record<string, unknown>

/** A telemetry document to append: its id, its time (ISO 8601 UTC) and the rest of the document. */
export interface TelemetryRecord {
  id: string
  recorded_at: string
  payload: Record<string, unknown>
}

export interface UpsertOutcome {
  inserted: number
  updated: number
}

export interface AppendOutcome {
  inserted: number
  /** Documents whose id and time were already stored (or appeared twice in the file): stored once. */
  duplicates: number
}

/** What a kind of metadata store can hold, checked against an import file before anything is written. */
export interface MetadataColumnLimits {
  /** Columns of one table at most, the id column included. */
  maxColumns: number
  /** Column names the store's driver cannot read back, with the reason. */
  unreadable?: {names: readonly string[]; reason: string}
}

/** The import side of a metadata store: creates what is missing, then upserts every row in one go. */
export interface ShipmentMetadataWriter {
  readonly kind: MetadataStoreKind
  /** Creates the table (and the columns the rows bring) if missing, then upserts all rows, all or nothing. */
  upsert(rows: readonly MetadataRow[]): Promise<UpsertOutcome>
  close(): Promise<void>
}

export interface TelemetryWriter {
  readonly kind: TelemetryStoreKind
  /** Creates the table/collection and the unique (id, time desc) index if missing, then appends. */
  append(records: readonly TelemetryRecord[]): Promise<AppendOutcome>
  close(): Promise<void>
}

/** What a joint read of both stores returns: the metadata store's answer and the telemetry store's. */
export interface JointRead<M, T> {
  metadata: M
  telemetry: T
}

/**
 * Metadata and telemetry kept in one database, read together: one query answers for both stores. The service
 * still holds the two stores (health, index checks) and reads them separately whenever a joint read answers
 * undefined: a state of the database (a table or column missing, an id the id column's type cannot hold) whose
 * answer each store gives in its own way.
 */
export interface CombinedShipmentStore {
  /** As for the stores: false when a read, once sent, cannot be stopped. Absent means true. */
  readonly abortable?: boolean
  /** The row of `id` (null when none) and its latest document (null when none), as findById and latest answer. */
  find(
    id: string,
    signal: AbortSignal,
  ): Promise<JointRead<Record<string, unknown> | null, LatestTelemetry | null> | undefined>
  /** The rows and latest documents of `ids`, as findByIds and latestByIds answer, in one query. */
  findMany(
    ids: readonly string[],
    signal: AbortSignal,
  ): Promise<JointRead<Map<string, Record<string, unknown>>, Map<string, LatestTelemetry>> | undefined>
  close(): Promise<void>
}
