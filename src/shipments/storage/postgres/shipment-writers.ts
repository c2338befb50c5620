import type pg from 'pg'
import {ConfigurationError} from '../../../core/errors.js'
import type {Logger} from '../../../core/logger.js'
import type {
  AppendOutcome,
  MetadataColumnLimits,
  MetadataRow,
  ShipmentMetadataWriter,
  TelemetryRecord,
  TelemetryWriter,
  UpsertOutcome,
} from '../../core/stores.js'
import type {TelemetryFields} from '../../core/telemetry-document.js'
import {sqlValue} from '../plain-values.js'
import {columnKind, groupByColumns} from '../shipment-sql.js'
import {quoteIdentifier} from '../sql-names.js'
import {createPostgresPool, describePostgresError} from './pool.js'
import {postgresTelemetryTableSql} from './shipment-telemetry-store.js'

/** Rows per INSERT statement; PostgreSQL allows 65,535 parameters in one. */
const BATCH_ROWS = 1000
const MAX_PARAMETERS = 60_000

interface WriterOptions {
  url: string
  timeoutMs: number
  logger: Logger
}

/** Runs `work` in one transaction on one connection: a failure anywhere leaves the store as it was. */
async function inTransaction<T>(
  pool: pg.Pool,
  url: string,
  table: string,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  let client: pg.PoolClient
  try {
    client = await pool.connect()
  } catch (error) {
    throw describePostgresError(error, url)
  }
  try {
    await client.query('BEGIN')
    const result = await work(client)
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw describePostgresError(error, url, table)
  } finally {
    client.release()
  }
}

function placeholders(rowCount: number, width: number): string {
  const rows: string[] = []
  for (let row = 0; row < rowCount; row++) {
    rows.push(`(${Array.from({length: width}, (_, column) => `$${row * width + column + 1}`).join(', ')})`)
  }
  return rows.join(', ')
}

/** The column type a new column gets from the values the file holds for it. */
const COLUMN_TYPE = {text: 'text', number: 'double precision', boolean: 'boolean', json: 'jsonb'}
const columnType = (values: readonly unknown[]) => COLUMN_TYPE[columnKind(values)]

/**
 * Upserts metadata rows by id. A missing table is created with a text primary key; new columns get a type from
 * their values (text, double precision, boolean, else jsonb). Batched multi-row statements, one transaction.
 */
export class PostgresShipmentMetadataWriter implements ShipmentMetadataWriter {
  /** PostgreSQL's MaxHeapAttributeNumber: a table has at most 1600 columns. */
  static readonly limits: MetadataColumnLimits = {maxColumns: 1600}
  readonly kind = 'postgres' as const
  private readonly pool: pg.Pool

  constructor(private readonly options: WriterOptions & {table: string; idColumn: string}) {
    this.pool = createPostgresPool({...options, poolSize: 1, readOnly: false, limitStatements: false})
  }

  upsert(rows: readonly MetadataRow[]): Promise<UpsertOutcome> {
    return inTransaction(this.pool, this.options.url, this.options.table, async (client) => {
      const jsonColumns = await this.ensureColumns(client, rows)
      const outcome = {inserted: 0, updated: 0}
      for (const group of groupByColumns(rows)) {
        const perBatch = Math.max(1, Math.min(BATCH_ROWS, Math.floor(MAX_PARAMETERS / group.columns.length)))
        for (let start = 0; start < group.rows.length; start += perBatch) {
          const batch = group.rows.slice(start, start + perBatch)
          const values = batch.flatMap((row) =>
            group.columns.map((column) =>
              jsonColumns.has(column) ? JSON.stringify(row[column] ?? null) : sqlValue(row[column], 'native'),
            ),
          )
          const result = await client.query(this.upsertSql(group.columns, batch.length), values)
          for (const row of result.rows as {inserted: boolean}[]) row.inserted ? outcome.inserted++ : outcome.updated++
        }
      }
      return outcome
    })
  }

  async close(): Promise<void> {
    await this.pool.end()
  }

  private upsertSql(columns: readonly string[], rowCount: number): string {
    const table = quoteIdentifier(this.options.table)
    const id = quoteIdentifier(this.options.idColumn)
    const names = columns.map((name) => quoteIdentifier(name))
    const updates = names.filter((name) => name !== id).map((name) => `${name} = EXCLUDED.${name}`)
    // xmax is 0 for a row this statement inserted and non-zero for one it updated.
    const action = updates.length > 0 ? `UPDATE SET ${updates.join(', ')}` : `UPDATE SET ${id} = EXCLUDED.${id}`
    return `INSERT INTO ${table} (${names.join(', ')}) VALUES ${placeholders(rowCount, names.length)} ON CONFLICT (${id}) DO ${action} RETURNING (xmax = 0) AS inserted`
  }

  /** Creates the table or adds the file's new columns; returns the columns of type json/jsonb. */
  private async ensureColumns(client: pg.PoolClient, rows: readonly MetadataRow[]): Promise<Set<string>> {
    const {table, idColumn} = this.options
    const wanted = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((column) => column !== idColumn)
    const typeOf = (column: string) => columnType(rows.map((row) => row[column]))
    const existing = await client.query(
      `SELECT column_name, data_type FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = $1`,
      [table],
    )
    const types = new Map(
      (existing.rows as {column_name: string; data_type: string}[]).map((c) => [c.column_name, c.data_type]),
    )
    if (types.size === 0) {
      const columns = [
        `${quoteIdentifier(idColumn)} text PRIMARY KEY`,
        ...wanted.map((c) => `${quoteIdentifier(c)} ${typeOf(c)}`),
      ]
      await client.query(`CREATE TABLE IF NOT EXISTS ${quoteIdentifier(table)} (${columns.join(', ')})`)
      for (const column of wanted) types.set(column, typeOf(column))
    } else if (!types.has(idColumn)) {
      throw new ConfigurationError(`table ${table} has no column ${idColumn} (shipments.metadata.id_column)`, {
        hint: 'set the id column with: jobagent config set shipments.metadata.id_column <column>',
      })
    }
    for (const column of wanted.filter((name) => !types.has(name))) {
      await client.query(
        `ALTER TABLE ${quoteIdentifier(table)} ADD COLUMN IF NOT EXISTS ${quoteIdentifier(column)} ${typeOf(column)}`,
      )
      types.set(column, typeOf(column))
    }
    return new Set([...types].filter(([, type]) => type === 'json' || type === 'jsonb').map(([column]) => column))
  }
}

/** Appends telemetry in batched INSERTs in one transaction; the unique (id, time desc) index drops repeats. */
export class PostgresTelemetryWriter implements TelemetryWriter {
  readonly kind = 'postgres' as const
  private readonly pool: pg.Pool

  constructor(private readonly options: WriterOptions & TelemetryFields & {table: string}) {
    this.pool = createPostgresPool({...options, poolSize: 1, readOnly: false, limitStatements: false})
  }

  append(records: readonly TelemetryRecord[]): Promise<AppendOutcome> {
    const {table, idField, timeField} = this.options
    const insert = (count: number) =>
      `INSERT INTO ${quoteIdentifier(table)} (${quoteIdentifier(idField)}, ${quoteIdentifier(timeField)}, "document") ` +
      `VALUES ${placeholders(count, 3)} ON CONFLICT DO NOTHING`
    return inTransaction(this.pool, this.options.url, table, async (client) => {
      for (const sql of postgresTelemetryTableSql(this.options)) await client.query(sql)
      let inserted = 0
      for (let start = 0; start < records.length; start += BATCH_ROWS) {
        const batch = records.slice(start, start + BATCH_ROWS)
        const values = batch.flatMap((record) => [record.id, record.recorded_at, JSON.stringify(record.payload)])
        inserted += (await client.query(insert(batch.length), values)).rowCount ?? 0
      }
      return {inserted, duplicates: records.length - inserted}
    })
  }

  async close(): Promise<void> {
    await this.pool.end()
  }
}
