/** Where a store keeps its data; named in UnifiedState.sources and in every error about the store. */
export type MetadataStoreKind = 'sqlite' | 'postgres' | 'mysql'
export type TelemetryStoreKind = 'sqlite' | 'postgres' | 'mongodb'

/** The latest telemetry document of a shipment, as every store returns it. */
export interface LatestTelemetry {
  /** ISO 8601 UTC, whatever the store holds (text, epoch seconds or milliseconds, timestamptz, BSON Date). */
  recorded_at: string
  /** The document without its id field, its time field and store-internal fields (`_id`, row ids). */
  payload: Record<string, unknown>
}

export interface Freshness {
  last_seen_at: string | null
  age_seconds: number | null
  stale: boolean
  stale_after_seconds: number
}

/** The body of GET /shipments/{shipment_id}/unified and of `jobagent shipment show --json`. */
export interface UnifiedState {
  shipment_id: string
  /** Every column of the metadata row. */
  metadata: Record<string, unknown>
  telemetry: LatestTelemetry | null
  freshness: Freshness
  sources: {metadata: MetadataStoreKind; telemetry: TelemetryStoreKind}
  generated_at: string
}

/** The body of GET/POST /shipments/unified: the shipments found, in the order asked, and the ids with no shipment. */
export interface UnifiedBatch {
  shipments: UnifiedState[]
  missing: string[]
}
