import type pg from 'pg'
import type {CombinedShipmentStore, JointRead, ShipmentMetadataStore, TelemetryStore} from '../../core/stores.js'
import {documentObject, toLatestTelemetry} from '../../core/telemetry-document.js'
import type {LatestTelemetry} from '../../core/unified-state.js'
import {plainRow} from '../plain-values.js'
import {jointLookupSql, type ServerMetadataOptions} from '../shipment-sql.js'
import {createPostgresPool, describePostgresError, RenewableStatement} from './pool.js'
import {PostgresShipmentMetadataStore} from './shipment-metadata-store.js'
import {type PostgresTelemetryOptions, PostgresTelemetryStore} from './shipment-telemetry-store.js'

/**
 * Errors each store answers in its own way (a missing telemetry table is "no telemetry", a missing metadata
 * table is unavailability, an id the id column's type cannot hold names no shipment): the joint read leaves
 * these lookups to the stores. 42P01 undefined table, 42703 undefined column, 22P02 invalid text for the id
 * column's type, 42883 no `=` between the id column and the id field (the batch compares them as text).
 */
const LEFT_TO_THE_STORES = new Set(['42P01', '42703', '22P02', '42883'])

/** The columns the joint query adds after the metadata row's: found, time, document. */
const TELEMETRY_COLUMNS = 3

/**
 * `postgres://` URLs naming one database as one user: the same host (case aside), port (5432 when absent),
 * database, user, password and connection parameters (`?options=-c search_path=...` can change which table a
 * name means). `postgres` and `postgresql` are the same scheme. Anything that cannot be parsed is not the same.
 */
export function samePostgresDatabase(a: string, b: string): boolean {
  const target = (url: string) => {
    const parsed = new URL(url)
    const parameters = [...parsed.searchParams].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    return JSON.stringify([
      parsed.hostname.toLowerCase(),
      parsed.port || '5432',
      decodeURIComponent(parsed.pathname),
      decodeURIComponent(parsed.username),
      decodeURIComponent(parsed.password),
      parameters,
    ])
  }
  try {
    return target(a) === target(b)
  } catch {
    return false
  }
}

interface JointNames {
  metadata: {table: string; idColumn: string}
  telemetry: {table: string; idField: string; timeField: string}
}

/**
 * Both shipment stores in one PostgreSQL database: a lookup reads the metadata row and the latest document with
 * one named statement, on the pool it shares with the two stores (which serve health and index checks and the
 * lookups it leaves to them). It owns that pool and closes it.
 */
class PostgresCombinedShipmentStore implements CombinedShipmentStore {
  /** A query sent to the server runs to its end (statement_timeout bounds it). */
  readonly abortable = false
  private readonly lookup: RenewableStatement
  private readonly batch: RenewableStatement

  constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
    private readonly names: JointNames,
  ) {
    this.lookup = new RenewableStatement(
      'jobagent_shipment_unified',
      jointLookupSql(names.metadata, names.telemetry, false),
    )
    this.batch = new RenewableStatement(
      'jobagent_shipment_unified_batch',
      jointLookupSql(names.metadata, names.telemetry, true),
    )
  }

  async find(
    id: string,
    _signal?: AbortSignal,
  ): Promise<JointRead<Record<string, unknown> | null, LatestTelemetry | null> | undefined> {
    const result = await this.query(this.lookup, [id, id])
    if (!result) return undefined
    const values = result.rows[0]
    if (!values) return {metadata: null, telemetry: null}
    return {metadata: this.rowOf(values, result.fields), telemetry: this.latestOf(values, result.fields)}
  }

  async findMany(
    ids: readonly string[],
    _signal?: AbortSignal,
  ): Promise<JointRead<Map<string, Record<string, unknown>>, Map<string, LatestTelemetry>> | undefined> {
    const result = await this.query(this.batch, [ids])
    if (!result) return undefined
    const asked = new Set(ids)
    const rows = new Map<string, Record<string, unknown>>()
    const latest = new Map<string, LatestTelemetry>()
    for (const values of result.rows) {
      const row = this.rowOf(values, result.fields)
      // Keyed as the metadata store keys its batch: by the id column read back as text.
      const id = String(row[this.names.metadata.idColumn])
      if (!asked.has(id)) continue
      rows.set(id, row)
      const document = this.latestOf(values, result.fields)
      if (document) latest.set(id, document)
    }
    return {metadata: rows, telemetry: latest}
  }

  async close(): Promise<void> {
    await this.pool.end()
  }

  /** The result as arrays (a metadata column may be called `time` or `document`), or undefined for the stores. */
  private async query(statement: RenewableStatement, values: unknown[]): Promise<pg.QueryArrayResult | undefined> {
    try {
      return await statement.query(this.pool, values, 'array')
    } catch (error) {
      if (LEFT_TO_THE_STORES.has((error as {code?: string}).code ?? '')) return undefined
      throw describePostgresError(error, this.url)
    }
  }

  private rowOf(values: unknown[], fields: pg.FieldDef[]): Record<string, unknown> {
    const row: Record<string, unknown> = {}
    const width = fields.length - TELEMETRY_COLUMNS
    for (let index = 0; index < width; index++) row[(fields[index] as pg.FieldDef).name] = values[index]
    return plainRow(row)
  }

  private latestOf(values: unknown[], fields: pg.FieldDef[]): LatestTelemetry | null {
    const at = fields.length - TELEMETRY_COLUMNS
    if (values[at] !== true) return null
    return toLatestTelemetry(documentObject(values[at + 2]), values[at + 1], this.names.telemetry)
  }
}

/**
 * The metadata store, the telemetry store and the combined store over one pool of read-only sessions to the
 * database both name. The pool has the larger of the two sizes: a lookup now holds one connection, not one per
 * store. Its statement timeout is the larger of the two, so each store's own reads keep theirs.
 */
export function createJointPostgresStores(
  metadata: ServerMetadataOptions,
  telemetry: PostgresTelemetryOptions,
): {metadata: ShipmentMetadataStore; telemetry: TelemetryStore; combined: CombinedShipmentStore} {
  const pool = createPostgresPool({
    url: metadata.url,
    poolSize: Math.max(metadata.poolSize, telemetry.poolSize),
    timeoutMs: Math.max(metadata.timeoutMs, telemetry.timeoutMs),
    readOnly: true,
    logger: metadata.logger,
  })
  return {
    metadata: new PostgresShipmentMetadataStore({...metadata, pool}),
    telemetry: new PostgresTelemetryStore({...telemetry, pool}),
    combined: new PostgresCombinedShipmentStore(pool, metadata.url, {
      metadata: {table: metadata.table, idColumn: metadata.idColumn},
      telemetry: {table: telemetry.table, idField: telemetry.idField, timeField: telemetry.timeField},
    }),
  }
}
