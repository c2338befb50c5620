import type pg from 'pg'
import type {IndexStatus, ShipmentMetadataStore} from '../../core/shipments/stores.js'
import {plainRow} from '../plain-values.js'
import {metadataLookupSql, missingMetadataIndex, type ServerMetadataOptions} from '../shipment-sql.js'
import {createPostgresPool, describePostgresError, pingPostgres} from './pool.js'
import {findLeadingIndex} from './shipment-index.js'

/** One row per shipment in a PostgreSQL table, read through a pool of read-only sessions. */
export class PostgresShipmentMetadataStore implements ShipmentMetadataStore {
  readonly kind = 'postgres' as const
  /** A query sent to the server runs to its end (statement_timeout bounds it). */
  readonly abortable = false
  private readonly pool: pg.Pool
  private readonly lookup: string

  constructor(private readonly options: ServerMetadataOptions) {
    this.pool = createPostgresPool({...options, readOnly: true})
    this.lookup = metadataLookupSql(options, 'postgres')
  }

  async findById(id: string, _signal?: AbortSignal): Promise<Record<string, unknown> | null> {
    try {
      // A named statement is parsed and planned once per connection.
      const result = await this.pool.query({name: 'jobagent_shipment_metadata', text: this.lookup, values: [id]})
      const row = result.rows[0] as Record<string, unknown> | undefined
      return row ? plainRow(row) : null
    } catch (error) {
      // An id that cannot be cast to the id column's type (text id, integer column) names no shipment.
      if ((error as {code?: string}).code === '22P02') return null
      throw describePostgresError(error, this.options.url, this.options.table)
    }
  }

  async checkIndex(): Promise<IndexStatus> {
    return findLeadingIndex(
      this.pool,
      this.options.table,
      [this.options.idColumn],
      missingMetadataIndex(this.options, 'postgres'),
    )
  }

  ping(): Promise<void> {
    return pingPostgres(this.pool, this.options.url)
  }

  async close(): Promise<void> {
    await this.pool.end()
  }
}
