import type pg from 'pg'
import {ValidationError} from '../../../core/errors.js'
import type {Logger} from '../../../core/logger.js'
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
  telemetryIndexSql,
  telemetryLookupSql,
} from '../shipment-sql.js'
import {quoteIdentifier} from '../sql-names.js'
import {createPostgresPool, describePostgresError, pingPostgres} from './pool.js'
import {findLeadingIndex} from './shipment-index.js'

export interface PostgresTelemetryOptions extends TelemetryFields {
  url: string
  table: string
  poolSize: number
  timeoutMs: number
  logger: Logger
}

/**
 * The PostgreSQL telemetry schema (created by `jobagent shipment import`):
 *   <table> (<id_field> text NOT NULL, <time_field> timestamptz NOT NULL, document jsonb NOT NULL)
 *   UNIQUE INDEX <table>_<id_field>_<time_field> ON <table> (<id_field>, <time_field> DESC)
 * Tables filled by other tools may hold the time as timestamptz, timestamp, epoch numbers or ISO text.
 */
export function postgresTelemetryTableSql(options: Pick<PostgresTelemetryOptions, 'table' | 'idField' | 'timeField'>) {
  const table = quoteIdentifier(options.table)
  const id = quoteIdentifier(options.idField)
  const time = quoteIdentifier(options.timeField)
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (${id} text NOT NULL, ${time} timestamptz NOT NULL, "document" jsonb NOT NULL)`,
    telemetryIndexSql(options),
  ]
}

export class PostgresTelemetryStore implements TelemetryStore {
  readonly kind = 'postgres' as const
  /** A query sent to the server runs to its end (statement_timeout bounds it). */
  readonly abortable = false
  private readonly pool: pg.Pool
  private readonly lookup: string
  private readonly batch: string

  /** Set when the store reads through a pool it shares with the other store (and a combined store that closes it). */
  private readonly sharedPool: boolean

  constructor(private readonly options: PostgresTelemetryOptions & {pool?: pg.Pool}) {
    this.sharedPool = options.pool !== undefined
    this.pool = options.pool ?? createPostgresPool({...options, readOnly: true})
    this.lookup = telemetryLookupSql(options, 'postgres')
    this.batch = telemetryBatchSql(options, 'postgres')
  }

  async latest(id: string, _signal?: AbortSignal): Promise<LatestTelemetry | null> {
    try {
      const result = await this.pool.query({name: 'jobagent_shipment_telemetry', text: this.lookup, values: [id]})
      const row = result.rows[0] as {time: unknown; document: unknown} | undefined
      return row ? toLatestTelemetry(documentObject(row.document), row.time, this.options) : null
    } catch (error) {
      // Metadata imported, telemetry not yet: no telemetry, like an empty MongoDB collection.
      if ((error as {code?: string}).code === '42P01') return null
      throw describePostgresError(error, this.options.url, this.options.table)
    }
  }

  async latestByIds(ids: readonly string[], _signal?: AbortSignal): Promise<Map<string, LatestTelemetry>> {
    const latest = new Map<string, LatestTelemetry>()
    try {
      const result = await this.pool.query({name: 'jobagent_shipment_telemetry_batch', text: this.batch, values: [ids]})
      for (const row of result.rows as {id: string; time: unknown; document: unknown}[]) {
        latest.set(row.id, toLatestTelemetry(documentObject(row.document), row.time, this.options))
      }
      return latest
    } catch (error) {
      if ((error as {code?: string}).code === '42P01') return latest
      throw describePostgresError(error, this.options.url, this.options.table)
    }
  }

  async history(id: string, window: TelemetryWindow, _signal?: AbortSignal): Promise<TelemetryHistoryPage> {
    const shape = historyShape(window)
    // One prepared statement per combination of bounds (eight at most), each planned for the index.
    const name = `jobagent_shipment_history_${Number(shape.since)}${Number(shape.after)}${Number(shape.until)}`
    try {
      const result = await this.pool.query({
        name,
        text: telemetryHistorySql(this.options, 'postgres', shape),
        values: historyParameters(id, window),
      })
      return historyPage(
        result.rows as {time: unknown; key: string; document: unknown}[],
        window.limit,
        (row) => toLatestTelemetry(documentObject(row.document), row.time, this.options),
        (row) => historyKeyOf(row.key),
      )
    } catch (error) {
      if ((error as {code?: string}).code === '42P01') return {documents: [], next: null}
      throw (
        incomparableBounds(error, window, this.options.timeField) ??
        describePostgresError(error, this.options.url, this.options.table)
      )
    }
  }

  async checkIndex(): Promise<IndexStatus> {
    const {table, idField, timeField} = this.options
    return findLeadingIndex(this.pool, table, [idField, timeField], missingTelemetryIndex(this.options))
  }

  ping(): Promise<void> {
    return pingPostgres(this.pool, this.options.url)
  }

  async close(): Promise<void> {
    if (!this.sharedPool) await this.pool.end()
  }
}

/**
 * A bound the time column cannot hold (class 22, data exception: an ISO time against epoch numbers, or a cursor
 * that was altered) is a request this table cannot answer, not a store that is down.
 */
function incomparableBounds(error: unknown, window: TelemetryWindow, timeField: string): ValidationError | undefined {
  if (!(error as {code?: string}).code?.startsWith('22')) return undefined
  const given = (['since', 'until', 'after'] as const).filter((bound) => window[bound] !== undefined)
  if (given.length === 0) return undefined
  const names = given.map((bound) => (bound === 'after' ? 'cursor' : bound))
  const message = `the telemetry time field ${timeField} cannot be compared with ${names.join(', ')}: ${(error as Error).message}`
  return new ValidationError(message, {details: names.map((field) => ({field, message}))})
}
