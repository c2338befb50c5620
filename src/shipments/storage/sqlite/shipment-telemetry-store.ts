import type {Statement} from '../../../storage/sqlite/better-sqlite3.js'
import type {IndexStatus, TelemetryHistoryPage, TelemetryStore, TelemetryWindow} from '../../core/stores.js'
import {documentObject, type TelemetryFields, toLatestTelemetry} from '../../core/telemetry-document.js'
import {historyPage} from '../../core/telemetry-history.js'
import type {LatestTelemetry} from '../../core/unified-state.js'
import {
  historyKeyOf,
  historyParameters,
  historyShape,
  missingTelemetryIndex,
  telemetryBatchSql,
  telemetryHistorySql,
  telemetryLookupSql,
} from '../shipment-sql.js'
import {quoteIdentifier} from '../sql-names.js'
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
  private readonly batch: string

  constructor(private readonly options: SqliteTelemetryOptions) {
    this.database = options.database ?? new ReadOnlyShipmentDatabase(options.file, options.busyTimeoutMs)
    this.lookup = telemetryLookupSql(options, 'sqlite')
    this.batch = telemetryBatchSql(options, 'sqlite')
  }

  latest(id: string, _signal?: AbortSignal): Promise<LatestTelemetry | null> {
    return this.database.lookup(() => this.document(id))
  }

  latestByIds(ids: readonly string[], _signal?: AbortSignal): Promise<Map<string, LatestTelemetry>> {
    return this.database.lookup(() => {
      const latest = new Map<string, LatestTelemetry>()
      const rows = this.statement(this.batch)?.all(JSON.stringify(ids)) as BatchRow[] | undefined
      for (const row of rows ?? []) latest.set(row.id, this.toLatest(row))
      return latest
    })
  }

  /**
   * Times are compared as text, which is time order for the ISO text the import stores (a table holding epoch
   * numbers needs bounds in the same form, which the API does not take).
   */
  history(id: string, window: TelemetryWindow, _signal?: AbortSignal): Promise<TelemetryHistoryPage> {
    return this.database.lookup(() => {
      const sql = telemetryHistorySql(this.options, 'sqlite', historyShape(window))
      const rows = (this.statement(sql)?.all(...historyParameters(id, window)) ?? []) as StoredRow[]
      return historyPage(
        rows,
        window.limit,
        (row) => this.toLatest(row),
        (row) => historyKeyOf(row.time),
      )
    })
  }

  private document(id: string): LatestTelemetry | null {
    const row = this.statement(this.lookup)?.get(id) as StoredRow | undefined
    return row ? this.toLatest(row) : null
  }

  private toLatest(row: StoredRow): LatestTelemetry {
    return toLatestTelemetry(parseDocument(row.document), row.time, this.options)
  }

  /** The compiled statement, or undefined while the table is missing. */
  private statement(sql: string): Statement | undefined {
    try {
      return this.database.statement(sql, this.options.table)
    } catch (error) {
      // Metadata imported, telemetry not yet: no telemetry, like an empty MongoDB collection.
      if (error instanceof MissingTableError) return undefined
      throw error
    }
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

interface StoredRow {
  time: unknown
  document: string | null
}

type BatchRow = StoredRow & {id: string}

/** The stored JSON text as a document; no text is an empty one. */
function parseDocument(text: string | null): Record<string, unknown> {
  return text === null || text === '' ? {} : documentObject(JSON.parse(text))
}
