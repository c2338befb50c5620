import type {TelemetryFields} from '../../core/shipments/telemetry-document.js'

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
