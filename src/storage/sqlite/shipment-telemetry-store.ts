import type {IndexStatus, TelemetryStore} from '../../core/shipments/stores.js'
import {documentObject, type TelemetryFields, toLatestTelemetry} from '../../core/shipments/telemetry-document.js'
import type {LatestTelemetry} from '../../core/shipments/unified-state.js'
import {missingTelemetryIndex, telemetryLookupSql} from '../shipment-sql.js'
import {quoteIdentifier} from '../sql-names.js'
import type {Statement} from './better-sqlite3.js'
import {MissingTableError, ReadOnlyShipmentDatabase} from './shipment-database.js'

export interface SqliteTelemetryOptions extends TelemetryFields {
  file: string
  table: string
  busyTimeoutMs?: number
  /** A connection shared with the other store when both use the same file (one snapshot per turn for both). */
  database?: ReadOnlyShipmentDatabase
}

type TableNames = Pick<SqliteTelemetryOptions, 'table' | 'idField' | 'timeField'>

/**
 * The embedded telemetry schema (created by `jobagent shipment import`):
 *   <table> (<id_field> TEXT NOT NULL, <time_field> TEXT NOT NULL, document TEXT NOT NULL,  -- document: JSON
 *            PRIMARY KEY (<id_field>, <time_field> DESC)) WITHOUT ROWID
 * The primary key is the (id, time desc) index and the table at once: documents are stored in that order, so the
 * latest one is found in a single B-tree descent, and the same id and time can only be stored once.
 * Times are stored as fixed-width ISO 8601 UTC text (`2026-04-10T00:28:23.000Z`), so text order is time order;
 * epoch numbers in a table filled by other tools sort correctly too (but do not mix the two in one table).
 */
export function telemetryTableSql(options: TableNames): string {
  const id = quoteIdentifier(options.idField)
  const time = quoteIdentifier(options.timeField)
  return (
    `CREATE TABLE IF NOT EXISTS ${quoteIdentifier(options.table)} (${id} TEXT NOT NULL, ${time} TEXT NOT NULL, ` +
    `"document" TEXT NOT NULL, PRIMARY KEY (${id}, ${time} DESC)) WITHOUT ROWID`
  )
}

export class SqliteTelemetryStore implements TelemetryStore {
  readonly kind = 'sqlite' as const
  /** A synchronous read is over before anything could abort it. */
  readonly abortable = false
  private readonly database: ReadOnlyShipmentDatabase
  private readonly lookup: string

  constructor(private readonly options: SqliteTelemetryOptions) {
    this.database = options.database ?? new ReadOnlyShipmentDatabase(options.file, options.busyTimeoutMs)
    this.lookup = telemetryLookupSql(options, 'sqlite')
  }

  latest(id: string, _signal?: AbortSignal): Promise<LatestTelemetry | null> {
    return this.database.lookup(() => this.document(id))
  }

  private document(id: string): LatestTelemetry | null {
    let statement: Statement
    try {
      statement = this.database.statement(this.lookup, this.options.table)
    } catch (error) {
      // Metadata imported, telemetry not yet: no telemetry, like an empty MongoDB collection.
      if (error instanceof MissingTableError) return null
      throw error
    }
    const row = statement.get(id) as {time: unknown; document: string | null} | undefined
    return row ? toLatestTelemetry(parseDocument(row.document), row.time, this.options) : null
  }

  async checkIndex(): Promise<IndexStatus> {
    return this.database.indexStatus(this.lookup, this.options.table, [''], missingTelemetryIndex(this.options))
  }

  ping(): Promise<void> {
    return this.database.ping(this.lookup, this.options.table)
  }

  async close(): Promise<void> {
    this.database.close()
  }
}

/** The stored JSON text as a document; no text is an empty one. */
function parseDocument(text: string | null): Record<string, unknown> {
  return text === null || text === '' ? {} : documentObject(JSON.parse(text))
}
