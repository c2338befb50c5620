import type pg from 'pg'
import type {IndexStatus, ShipmentMetadataStore} from '../../core/stores.js'
import {plainRow} from '../plain-values.js'
import {
  metadataBatchAsTextSql,
  metadataBatchSql,
  metadataLookupSql,
  missingMetadataIndex,
  rowsById,
  type ServerMetadataOptions,
} from '../shipment-sql.js'
import {createPostgresPool, describePostgresError, pingPostgres, RenewableStatement} from './pool.js'
import {findLeadingIndex} from './shipment-index.js'

/** One row per shipment in a PostgreSQL table, read through a pool of read-only sessions. */
export class PostgresShipmentMetadataStore implements ShipmentMetadataStore {
  readonly kind = 'postgres' as const
  /** A query sent to the server runs to its end (statement_timeout bounds it). */
  readonly abortable = false
  private readonly pool: pg.Pool
  private readonly lookup: RenewableStatement
  private readonly batch: RenewableStatement

  /** Set when the store reads through a pool it shares with the other store (and a combined store that closes it). */
  private readonly sharedPool: boolean

  constructor(private readonly options: ServerMetadataOptions & {pool?: pg.Pool}) {
    this.sharedPool = options.pool !== undefined
    this.pool = options.pool ?? createPostgresPool({...options, readOnly: true})
    this.lookup = new RenewableStatement('jobagent_shipment_metadata', metadataLookupSql(options, 'postgres'))
    this.batch = new RenewableStatement('jobagent_shipment_metadata_batch', metadataBatchSql(options, 'postgres'))
  }

  async findById(id: string, _signal?: AbortSignal): Promise<Record<string, unknown> | null> {
    try {
      const result = await this.lookup.query(this.pool, [id])
      const row = result.rows[0] as Record<string, unknown> | undefined
      return row ? plainRow(row) : null
    } catch (error) {
      // An id that cannot be cast to the id column's type (text id, integer column) names no shipment.
      if ((error as {code?: string}).code === '22P02') return null
      throw describePostgresError(error, this.options.url, this.options.table)
    }
  }

  async findByIds(ids: readonly string[], _signal?: AbortSignal): Promise<Map<string, Record<string, unknown>>> {
    const {idColumn} = this.options
    try {
      const result = await this.batch.query(this.pool, [ids])
      return rowsById(result.rows, idColumn, ids, plainRow)
    } catch (error) {
      if ((error as {code?: string}).code !== '22P02') {
        throw describePostgresError(error, this.options.url, this.options.table)
      }
    }
    // An id the id column's type cannot hold (text ids, an integer column) fails the whole list.
    try {
      return rowsById(
        (await this.pool.query(metadataBatchAsTextSql(this.options), [ids])).rows,
        idColumn,
        ids,
        plainRow,
      )
    } catch (error) {
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
    if (!this.sharedPool) await this.pool.end()
  }
}
