import type {IndexStatus, ShipmentMetadataStore} from '../../core/shipments/stores.js'
import {plainRow} from '../plain-values.js'
import {metadataBatchSql, metadataLookupSql, missingMetadataIndex, rowsById} from '../shipment-sql.js'
import {ReadOnlyShipmentDatabase} from './shipment-database.js'

interface SqliteMetadataOptions {
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
  private readonly batch: string

  constructor(private readonly options: SqliteMetadataOptions) {
    this.database = options.database ?? new ReadOnlyShipmentDatabase(options.file, options.busyTimeoutMs)
    this.lookup = metadataLookupSql(options, 'sqlite')
    this.batch = metadataBatchSql(options, 'sqlite')
  }

  findById(id: string, _signal?: AbortSignal): Promise<Record<string, unknown> | null> {
    return this.database.lookup(() => this.row(id))
  }

  findByIds(ids: readonly string[], _signal?: AbortSignal): Promise<Map<string, Record<string, unknown>>> {
    return this.database.lookup(() => {
      const rows = this.database.statement(this.batch, this.options.table).all(JSON.stringify(ids))
      return rowsById(rows as Record<string, unknown>[], this.options.idColumn, ids, plainRow)
    })
  }

  private row(id: string): Record<string, unknown> | null {
    const row = this.database.statement(this.lookup, this.options.table).get(id) as Record<string, unknown> | undefined
    return row ? plainRow(row) : null
  }

  async checkIndex(): Promise<IndexStatus> {
    return this.database.indexStatus(
      this.lookup,
      this.options.table,
      [''],
      missingMetadataIndex(this.options, 'sqlite'),
    )
  }

  ping(): Promise<void> {
    return this.database.ping(this.lookup, this.options.table)
  }

  async close(): Promise<void> {
    this.database.close()
  }
}
