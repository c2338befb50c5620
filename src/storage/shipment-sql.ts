import type {IndexStatus} from '../core/shipments/stores.js'
import type {TelemetryFields} from '../core/shipments/telemetry-document.js'
import {indexName, quoteIdentifier} from './sql-names.js'

/**
 * The shipment lookups and their index advice, one text for SQLite and PostgreSQL: both quote names alike and
 * differ only in how a statement names its parameter (`?`, `$1`).
 */
type Placeholder = '?' | '$1'

interface MetadataTable {
  table: string
  idColumn: string
}

type TelemetryTable = TelemetryFields & {table: string}

/** The row of one shipment. */
export function metadataLookupSql({table, idColumn}: MetadataTable, parameter: Placeholder): string {
  return `SELECT * FROM ${quoteIdentifier(table)} WHERE ${quoteIdentifier(idColumn)} = ${parameter} LIMIT 1`
}

/** The time and document of a shipment's latest telemetry, found through the (id, time desc) index. */
export function telemetryLookupSql({table, idField, timeField}: TelemetryTable, parameter: Placeholder): string {
  const time = quoteIdentifier(timeField)
  return (
    `SELECT ${time} AS time, "document" AS document FROM ${quoteIdentifier(table)} ` +
    `WHERE ${quoteIdentifier(idField)} = ${parameter} ORDER BY ${time} DESC LIMIT 1`
  )
}

/** The index a metadata lookup needs; unique, so an upsert by id can use it too. */
export function metadataIndexSql({table, idColumn}: MetadataTable): string {
  return `CREATE UNIQUE INDEX ${indexName(table, idColumn)} ON ${quoteIdentifier(table)} (${quoteIdentifier(idColumn)})`
}

/** The (id, time desc) index a telemetry lookup needs; unique, so an import stores the same id and time once. */
export function telemetryIndexSql({table, idField, timeField}: TelemetryTable): string {
  return (
    `CREATE UNIQUE INDEX IF NOT EXISTS ${indexName(table, idField, timeField)} ` +
    `ON ${quoteIdentifier(table)} (${quoteIdentifier(idField)}, ${quoteIdentifier(timeField)} DESC)`
  )
}

export function missingMetadataIndex(names: MetadataTable): IndexStatus {
  return missingIndex(names.table, names.idColumn, metadataIndexSql(names))
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
