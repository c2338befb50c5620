import {ValidationError} from '../../../core/errors.js'
import type {TelemetryWindow} from '../../core/stores.js'
import type {TelemetryFields} from '../../core/telemetry-document.js'
import {BAD_CURSOR} from '../../core/telemetry-history.js'

/** Pure builders for the MongoDB telemetry lookup and its index, kept apart from the driver so they are unit tested. */

interface LatestQuery {
  filter: Record<string, string>
  sort: Record<string, 1 | -1>
  limit: 1
  maxTimeMS: number
}

/** `find({<id>: id}).sort({<time>: -1}).limit(1)` with a server-side time limit; served by the compound index. */
export function latestTelemetryQuery(fields: TelemetryFields, id: string, maxTimeMS: number): LatestQuery {
  // The id is always a string here, so it can only ever match by equality, never act as a query operator.
  return {filter: {[fields.idField]: id}, sort: {[fields.timeField]: -1}, limit: 1, maxTimeMS}
}

/**
 * The latest document of each id of a list in one aggregation: the documents of those ids in (id, time desc)
 * order, which the compound index gives without sorting, and the first of each id. Field names are checked
 * store names and the ids are strings inside `$in`, so neither can act as an operator.
 */
export function latestTelemetryBatchPipeline(fields: TelemetryFields, ids: readonly string[]) {
  return [
    {$match: {[fields.idField]: {$in: [...ids]}}},
    {$sort: {[fields.idField]: 1, [fields.timeField]: -1}},
    {$group: {_id: `$${fields.idField}`, document: {$first: '$$ROOT'}}},
  ]
}

interface HistoryQuery {
  filter: Record<string, unknown>
  sort: Record<string, 1 | -1>
  limit: number
  maxTimeMS: number
}

/**
 * `find({<id>: id, <time>: {$gte: since, $gt: after, $lt: until}}).sort({<time>: 1}).limit(limit + 1)`: the
 * compound index walked backwards from the window's start; one document more than the page says whether more
 * follow. The bounds are BSON dates, as the import stores times; `after` is the previous page's last time as
 * stored (historyKey), so a collection holding numbers or text pages correctly too, but MongoDB compares no date
 * with a number or text: there `since` and `until` match nothing (docs/SHIPMENTS.md).
 */
export function telemetryHistoryQuery(
  fields: TelemetryFields,
  id: string,
  window: TelemetryWindow,
  maxTimeMS: number,
): HistoryQuery {
  const time: Record<string, unknown> = {}
  if (window.since !== undefined) time.$gte = new Date(window.since)
  if (window.after !== undefined) time.$gt = historyKeyValue(window.after)
  if (window.until !== undefined) time.$lt = new Date(window.until)
  const filter =
    Object.keys(time).length > 0 ? {[fields.idField]: id, [fields.timeField]: time} : {[fields.idField]: id}
  return {filter, sort: {[fields.timeField]: 1}, limit: window.limit + 1, maxTimeMS}
}

/** A stored time as a page key that keeps its BSON type: `d:` epoch milliseconds, `n:` a number, `s:` text. */
export function historyKey(value: unknown): string {
  if (value instanceof Date) return `d:${value.getTime()}`
  if (typeof value === 'number') return `n:${value}`
  return `s:${String(value)}`
}

/** The stored time a page key stands for; a key historyKey did not make is refused as a bad cursor. */
export function historyKeyValue(key: string): Date | number | string {
  const text = key.slice(2)
  const number = Number(text)
  if (key.startsWith('d:') && /^-?\d+$/.test(text)) return new Date(number)
  if (key.startsWith('n:') && text !== '' && Number.isFinite(number)) return number
  if (key.startsWith('s:')) return text
  throw new ValidationError(BAD_CURSOR, {details: [{field: 'cursor', message: BAD_CURSOR}]})
}

interface IndexSpec {
  key: Record<string, 1 | -1>
  name: string
  unique: true
}

/** {<id>: 1, <time>: -1}, unique so an import stores the same id and time once. */
export function telemetryIndexSpec(fields: TelemetryFields): IndexSpec {
  return {
    key: {[fields.idField]: 1, [fields.timeField]: -1},
    name: `${fields.idField}_1_${fields.timeField}_-1`,
    unique: true,
  }
}

/**
 * Whether one of the collection's indexes serves the lookup: its first key is the id field and its second the
 * time field, in either direction (MongoDB walks an index backwards as well as forwards).
 */
export function findLatestIndex(
  indexes: readonly {name?: string; key: Record<string, unknown>}[],
  fields: TelemetryFields,
): string | undefined {
  const match = indexes.find((index) => {
    const [first, second] = Object.keys(index.key)
    const direction = index.key[fields.timeField]
    return first === fields.idField && second === fields.timeField && (direction === 1 || direction === -1)
  })
  return match ? (match.name ?? JSON.stringify(match.key)) : undefined
}

/** An idempotent append: insert the document unless one with the same id and time exists. */
export function appendOperation(fields: TelemetryFields, id: string, time: Date, payload: Record<string, unknown>) {
  return {
    updateOne: {
      filter: {[fields.idField]: id, [fields.timeField]: time},
      update: {$setOnInsert: {...payload, [fields.idField]: id, [fields.timeField]: time}},
      upsert: true,
    },
  }
}

/** The database named in the URL path (`mongodb://host/fleet`), else `jobagent`. */
export function databaseName(url: string): string {
  const path = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]*)/.exec(url)?.[1] ?? ''
  return decodeURIComponent(path) || 'jobagent'
}
