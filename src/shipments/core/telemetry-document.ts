import {normaliseTimestamp} from './timestamps.js'

/**
 * How deep a telemetry document (or a metadata row) may nest objects and arrays, the document itself being level
 * 1. Deeper ones are refused by the import and not served when found in a store: encoding them as JSON, BSON or
 * JSONB recurses once per level, and MongoDB itself stops at 100.
 */
export const MAX_DOCUMENT_DEPTH = 64

import type {LatestTelemetry} from './unified-state.js'

export interface TelemetryFields {
  idField: string
  timeField: string
}

/** Fields a store adds to every document; never part of the payload a user sees. */
const STORE_INTERNAL_FIELDS = new Set(['_id'])

/**
 * The shape every telemetry store returns: the time as ISO 8601 UTC and the document without its id, time and
 * store-internal fields. A time no parser recognises is passed on as text rather than failing the whole lookup.
 * Takes ownership of `document` (a fresh object from the driver): when it holds none of those fields, it is the
 * payload itself, uncopied.
 */
export function toLatestTelemetry(
  document: Record<string, unknown>,
  time: unknown,
  fields: TelemetryFields,
): LatestTelemetry {
  const recorded_at = normaliseTimestamp(time) ?? String(time)
  if (!(fields.idField in document || fields.timeField in document || hasInternalField(document))) {
    return {recorded_at, payload: document}
  }
  const payload: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(document)) {
    if (key === fields.idField || key === fields.timeField || STORE_INTERNAL_FIELDS.has(key)) continue
    payload[key] = value
  }
  return {recorded_at, payload}
}

/** A stored document as an object: a value that is not one (an array, a scalar) is kept under `value` rather than lost. */
export function documentObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {value}
}

function hasInternalField(document: Record<string, unknown>): boolean {
  for (const field of STORE_INTERNAL_FIELDS) if (field in document) return true
  return false
}
