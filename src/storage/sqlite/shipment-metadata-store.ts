import type {IndexStatus, ShipmentMetadataStore} from '../../core/shipments/stores.js'
import {plainRow} from '../plain-values.js'
import {quoteIdentifier} from '../sql-names.js'
import {ReadOnlyShipmentDatabase} from './shipment-database.js'

export interface SqliteMetadataOptions {
  file: string
  table: string
  idColumn: string
  busyTimeoutMs?: number
  /** A connection shared with the other store when both use the same file (one snapshot per turn for both). */
  database?: ReadOnlyShipmentDatabase
}

/** One row per shipment in a SQLite table, looked up by its id column (the primary key when jobagent created it). */
export class SqliteShipmentMetadataStore implements ShipmentMetadataStore {
  readonly kind = 'sqlite' as const
  /** A synchronous read is over before anything could abort it. */
  readonly abortable = false
  private readonly database: ReadOnlyShipmentDatabase
  private readonly lookup: string

  constructor(private readonly options: SqliteMetadataOptions) {
    this.database = options.database ?? new ReadOnlyShipmentDatabase(options.file, options.busyTimeoutMs)
    this.lookup = `SELECT * FROM ${quoteIdentifier(options.table)} WHERE ${quoteIdentifier(options.idColumn)} = ? LIMIT 1`
  }

  findById(id: string, _signal?: AbortSignal): Promise<Record<string, unknown> | null> {
    return this.database.lookup(() => this.row(id))
  }

  private row(id: string): Record<string, unknown> | null {
    const row = this.database.statement(this.lookup, this.options.table).get(id) as Record<string, unknown> | undefined
    return row ? plainRow(row) : null
  }

  async checkIndex(): Promise<IndexStatus> {
    const {table, idColumn} = this.options
    return this.database.indexStatus(this.lookup, table, [''], {
      ok: false,
      message: `no index on ${table} (${idColumn}): every lookup scans the table`,
      hint: `CREATE UNIQUE INDEX ${quoteIdentifier(`${table}_${idColumn}`)} ON ${quoteIdentifier(table)} (${quoteIdentifier(idColumn)})`,
    })
  }

  async ping(): Promise<void> {
    await this.database.lookup(() => this.database.statement(this.lookup, this.options.table))
  }

  async close(): Promise<void> {
    this.database.close()
  }
}
