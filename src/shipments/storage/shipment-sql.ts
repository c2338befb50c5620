import type {Logger} from '../../core/logger.js'
import type {IndexStatus, TelemetryWindow} from '../core/stores.js'
import type {TelemetryFields} from '../core/telemetry-document.js'
import {type IdentifierQuote, indexName, quoteIdentifier} from './sql-names.js'

/**
 * The shipment lookups and their index advice, one text for SQLite, PostgreSQL and MySQL/MariaDB: they differ only
 * in how they quote names (`"x"`, `` `x` ``), name a parameter (`?`, `$1`) and pass a list of ids.
 */
type SqlDialect = 'sqlite' | 'postgres' | 'mysql'

const QUOTE: Record<SqlDialect, IdentifierQuote> = {sqlite: '"', postgres: '"', mysql: '`'}
const PARAMETER: Record<SqlDialect, string> = {sqlite: '?', postgres: '$1', mysql: '?'}

/**
 * The condition "the id column is one of the ids of the list parameter": SQLite reads the list as a JSON array,
 * PostgreSQL as an array, and mysql2 expands an array bound to `IN (?)` into the list of its values.
 */
const ID_IN_LIST: Record<SqlDialect, (column: string) => string> = {
  sqlite: (column) => `${column} IN (SELECT value FROM json_each(?))`,
  postgres: (column) => `${column} = ANY($1)`,
  mysql: (column) => `${column} IN (?)`,
}

interface MetadataTable {
  table: string
  idColumn: string
}

/** What a metadata store on a database server (PostgreSQL, MySQL/MariaDB) is built from. */
export interface ServerMetadataOptions extends MetadataTable {
  url: string
  poolSize: number
  timeoutMs: number
  logger: Logger
}

type TelemetryTable = TelemetryFields & {table: string}

const quoted = (name: string, dialect: SqlDialect) => quoteIdentifier(name, QUOTE[dialect])

/** The row of one shipment. */
export function metadataLookupSql({table, idColumn}: MetadataTable, dialect: SqlDialect): string {
  return `SELECT * FROM ${quoted(table, dialect)} WHERE ${quoted(idColumn, dialect)} = ${PARAMETER[dialect]} LIMIT 1`
}

/** The rows (or `columns`) of a list of shipments (one parameter: the list), each found through the id index. */
export function metadataBatchSql({table, idColumn}: MetadataTable, dialect: SqlDialect, columns = '*'): string {
  return `SELECT ${columns} FROM ${quoted(table, dialect)} WHERE ${ID_IN_LIST[dialect](quoted(idColumn, dialect))}`
}

/**
 * PostgreSQL: the rows of a list of shipments, the ids compared as text. For an id column of another type, where
 * an id the type cannot hold fails the whole list; it reads the table rather than the index.
 */
export function metadataBatchAsTextSql({table, idColumn}: MetadataTable): string {
  return `SELECT * FROM ${quoteIdentifier(table)} WHERE ${quoteIdentifier(idColumn)}::text = ANY($1::text[])`
}

/**
 * The time and document of a shipment's latest telemetry, found through the (id, time desc) index. `id` is the
 * value compared with the id field: the statement's parameter, or a column of an outer query.
 */
export function telemetryLookupSql(
  {table, idField, timeField}: TelemetryTable,
  dialect: Exclude<SqlDialect, 'mysql'>,
  id = PARAMETER[dialect],
): string {
  const time = quoteIdentifier(timeField)
  return (
    `SELECT ${time} AS time, "document" AS document FROM ${quoteIdentifier(table)} ` +
    `WHERE ${quoteIdentifier(idField)} = ${id} ORDER BY ${time} DESC LIMIT 1`
  )
}

/**
 * The id, time and document of the latest telemetry of each shipment of a list (one parameter: the list), one
 * index descent per id rather than a read of every document: PostgreSQL runs the single lookup for each id as a
 * LATERAL subquery; SQLite has no LATERAL, so it finds each id's latest time by the same descent and joins on
 * the (id, time) key.
 */
export function telemetryBatchSql(names: TelemetryTable, dialect: Exclude<SqlDialect, 'mysql'>): string {
  if (dialect === 'postgres') {
    return (
      `SELECT ids.id AS id, latest.time AS time, latest.document AS document FROM unnest($1::text[]) AS ids (id) ` +
      `CROSS JOIN LATERAL (${telemetryLookupSql(names, dialect, 'ids.id')}) AS latest`
    )
  }
  const table = quoteIdentifier(names.table)
  const id = quoteIdentifier(names.idField)
  const time = quoteIdentifier(names.timeField)
  return (
    `SELECT ids.value AS id, t.${time} AS time, t."document" AS document FROM json_each(?) AS ids ` +
    `JOIN ${table} AS t ON t.${id} = ids.value AND t.${time} = ` +
    `(SELECT ${time} FROM ${table} WHERE ${id} = ids.value ORDER BY ${time} DESC LIMIT 1)`
  )
}

/** Which bounds a page of history has: each present one is a parameter, in this order after the id. */
interface HistoryShape {
  since: boolean
  after: boolean
  until: boolean
}

/**
 * A page of one shipment's documents, oldest first, through the (id, time desc) index walked backwards: the id,
 * then `since` (inclusive), `after` (exclusive, the previous page's last key) and `until` (exclusive) where the
 * shape has them, then the limit. The bounds are compared with the column as it is (PostgreSQL reads each untyped
 * parameter as the column's type), so a timestamptz keeps its microseconds. `key` is the stored time as text.
 */
export function telemetryHistorySql(
  {table, idField, timeField}: TelemetryTable,
  dialect: Exclude<SqlDialect, 'mysql'>,
  shape: HistoryShape,
): string {
  const time = quoteIdentifier(timeField)
  let count = 0
  const parameter = () => (dialect === 'postgres' ? `$${++count}` : '?')
  const conditions = [`${quoteIdentifier(idField)} = ${parameter()}`]
  if (shape.since) conditions.push(`${time} >= ${parameter()}`)
  if (shape.after) conditions.push(`${time} > ${parameter()}`)
  if (shape.until) conditions.push(`${time} < ${parameter()}`)
  const key = dialect === 'postgres' ? `${time}::text` : time
  return (
    `SELECT ${time} AS time, ${key} AS key, "document" AS document FROM ${quoteIdentifier(table)} ` +
    `WHERE ${conditions.join(' AND ')} ORDER BY ${time} ASC LIMIT ${parameter()}`
  )
}

const EPOCH_TEXT = /^[+-]?\d+(\.\d+)?$/

/**
 * The page key of a stored time (the cursor carries it): text as it is (ISO 8601 as the import stores it, or as
 * PostgreSQL prints a timestamp), a number (epoch times in a table made by another tool) tagged `n:` so that a
 * cursor is never a bare number.
 */
export function historyKeyOf(time: unknown): string {
  const text = String(time)
  return typeof time === 'number' || typeof time === 'bigint' || EPOCH_TEXT.test(text) ? `n:${text}` : text
}

/** The stored time a page key stands for, as the statement's parameter. */
function historyKeyValue(key: string): string | number {
  return key.startsWith('n:') ? Number(key.slice(2)) : key
}

/** The parameters of telemetryHistorySql for `window`, asking for one document more to learn whether more follow. */
export function historyParameters(id: string, window: TelemetryWindow): unknown[] {
  return [
    id,
    ...(window.since === undefined ? [] : [window.since]),
    ...(window.after === undefined ? [] : [historyKeyValue(window.after)]),
    ...(window.until === undefined ? [] : [window.until]),
    window.limit + 1,
  ]
}

export function historyShape(window: TelemetryWindow): HistoryShape {
  return {since: window.since !== undefined, after: window.after !== undefined, until: window.until !== undefined}
}

/**
 * PostgreSQL: what a lookup reads from both stores in one query when they share a database: the metadata columns,
 * then `found` (true when the shipment has a document), `time` and `document` of its latest document, found by
 * the telemetry lookup run as a LATERAL subquery. The single lookup takes the id twice ($1 for the id column, whose
 * type the server infers, $2 as text for the id field); the batch takes the list ($1) and finds each row's
 * documents by its id read as text, which is how the batch keys the rows it returns.
 */
export function jointLookupSql(metadata: MetadataTable, telemetry: TelemetryTable, batch: boolean): string {
  const id = quoteIdentifier(metadata.idColumn)
  const latest = telemetryLookupSql(telemetry, 'postgres', batch ? `m.${id}::text` : '$2')
  return (
    `SELECT m.*, latest.found, latest.time, latest.document FROM ${quoteIdentifier(metadata.table)} AS m ` +
    `LEFT JOIN LATERAL (SELECT true AS found, l.time, l.document FROM (${latest}) AS l) AS latest ON true ` +
    `WHERE ${batch ? `m.${id} = ANY($1)` : `m.${id} = $1 LIMIT 1`}`
  )
}

/** The index a metadata lookup needs; unique, so an upsert by id can use it too. */
export function metadataIndexSql({table, idColumn}: MetadataTable, dialect: SqlDialect): string {
  const name = indexName(QUOTE[dialect], table, idColumn)
  return `CREATE UNIQUE INDEX ${name} ON ${quoted(table, dialect)} (${quoted(idColumn, dialect)})`
}

/** The (id, time desc) index a telemetry lookup needs; unique, so an import stores the same id and time once. */
export function telemetryIndexSql({table, idField, timeField}: TelemetryTable): string {
  return (
    `CREATE UNIQUE INDEX IF NOT EXISTS ${indexName('"', table, idField, timeField)} ` +
    `ON ${quoteIdentifier(table)} (${quoteIdentifier(idField)}, ${quoteIdentifier(timeField)} DESC)`
  )
}

export function missingMetadataIndex(names: MetadataTable, dialect: SqlDialect): IndexStatus {
  return missingIndex(names.table, names.idColumn, metadataIndexSql(names, dialect))
}

export function missingTelemetryIndex(names: TelemetryTable): IndexStatus {
  return missingIndex(names.table, `${names.idField}, ${names.timeField} DESC`, telemetryIndexSql(names))
}

function missingIndex(table: string, columns: string, hint: string): IndexStatus {
  return {ok: false, message: `no index on ${table} (${columns}): every lookup scans the table`, hint}
}

export function missingTable(table: string): IndexStatus {
  return {
    ok: false,
    message: `table ${table} does not exist: nothing is found until it is created (jobagent shipment import does that)`,
  }
}

/** What a new metadata column holds, judged from the values an import file has for it; each store names a type. */
export function columnKind(values: readonly unknown[]): 'text' | 'number' | 'boolean' | 'json' {
  const present = values.filter((value) => value !== null && value !== undefined)
  if (present.every((value) => typeof value === 'string')) return 'text'
  if (present.every((value) => typeof value === 'number')) return 'number'
  if (present.every((value) => typeof value === 'boolean')) return 'boolean'
  return 'json'
}

/** Import rows grouped by their columns, so each group is written with one multi-row statement. */
export function groupByColumns<Row extends Record<string, unknown>>(
  rows: readonly Row[],
): {columns: string[]; rows: Row[]}[] {
  const groups = new Map<string, {columns: string[]; rows: Row[]}>()
  for (const row of rows) {
    const columns = Object.keys(row)
    const key = columns.join('\u0000')
    const group = groups.get(key) ?? {columns, rows: []}
    group.rows.push(row)
    groups.set(key, group)
  }
  return [...groups.values()]
}

/**
 * The rows whose id column, read back as text, is exactly one of `ids`, keyed by it: a store that compares loosely
 * (MySQL: `'42abc'` equals 42) may return rows that were not asked for.
 */
export function rowsById(
  rows: readonly Record<string, unknown>[],
  idColumn: string,
  ids: readonly string[],
  plain: (row: Record<string, unknown>) => Record<string, unknown>,
): Map<string, Record<string, unknown>> {
  const asked = new Set(ids)
  const byId = new Map<string, Record<string, unknown>>()
  for (const row of rows) {
    const id = String(row[idColumn])
    if (asked.has(id)) byId.set(id, plain(row))
  }
  return byId
}
