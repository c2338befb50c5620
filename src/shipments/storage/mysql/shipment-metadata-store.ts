import type {Pool, RowDataPacket} from 'mysql2/promise'
import type {IndexStatus, ShipmentMetadataStore} from '../../core/stores.js'
import {plainRow} from '../plain-values.js'
import {
  metadataBatchSql,
  missingMetadataIndex,
  missingTable,
  rowsById,
  type ServerMetadataOptions,
} from '../shipment-sql.js'
import {closeMysqlPool, createMysqlPool, describeMysqlError, pingMysql} from './pool.js'

/**
 * One row per shipment in a MySQL or MariaDB table, read through a pool of read-only sessions. MySQL compares
 * loosely (a text id against a number column, case and trailing spaces under most collations): a row counts only
 * when its id reads back as exactly the id asked for, as in the other stores.
 */
export class MysqlShipmentMetadataStore implements ShipmentMetadataStore {
  readonly kind = 'mysql' as const
  /** A query sent to the server runs to its end (the client-side timeout bounds the wait). */
  readonly abortable = false
  private readonly pool: Pool
  private readonly batch: string
  private jsonColumns: Promise<ReadonlySet<string>> | undefined

  constructor(private readonly options: ServerMetadataOptions) {
    this.pool = createMysqlPool({...options, readOnly: true})
    this.batch = metadataBatchSql(options, 'mysql')
  }

  /**
   * Through the batch query: MySQL compares text by the column's collation (`shp-1` may equal `SHP-1`), so the row
   * whose id is exactly `id` is picked from all that compare equal, which a `LIMIT 1` could leave out.
   */
  async findById(id: string, signal?: AbortSignal): Promise<Record<string, unknown> | null> {
    return (await this.findByIds([id], signal)).get(id) ?? null
  }

  async findByIds(ids: readonly string[], _signal?: AbortSignal): Promise<Map<string, Record<string, unknown>>> {
    // mysql2 expands the array bound to `IN (?)` into the list of its values, each escaped.
    const rows = await this.query(this.batch, [ids])
    const jsonColumns = rows.length > 0 ? await this.jsonColumnsOfTable() : new Set<string>()
    return rowsById(rows, this.options.idColumn, ids, (row) => this.plain(row, jsonColumns))
  }

  private async query(sql: string, values: unknown[]): Promise<RowDataPacket[]> {
    try {
      const [rows] = await this.pool.query<RowDataPacket[]>({sql, timeout: this.options.timeoutMs}, values)
      return rows
    } catch (error) {
      throw describeMysqlError(error, this.options.url, this.options.table)
    }
  }

  private plain(row: Record<string, unknown>, jsonColumns: ReadonlySet<string>): Record<string, unknown> {
    for (const column of jsonColumns) {
      const value = row[column]
      if (typeof value === 'string') row[column] = parseJson(value)
    }
    return plainRow(row)
  }

  /**
   * MariaDB's JSON is text with a `json_valid` check, so the driver cannot tell it from other text: those columns
   * are found once from their checks and parsed, as MySQL's JSON columns are by the driver. MySQL has no such
   * checks (no TABLE_NAME there; no CHECK_CONSTRAINTS at all on older servers), so the set is empty. Any other
   * failure fails the lookup, as its own query would, rather than serve JSON as text; it is asked again next time.
   * A lookup that finds no row never asks.
   */
  private jsonColumnsOfTable(): Promise<ReadonlySet<string>> {
    this.jsonColumns ??= this.pool
      .query<RowDataPacket[]>(
        {
          sql: `SELECT CONSTRAINT_NAME AS name FROM information_schema.CHECK_CONSTRAINTS
                 WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = ?
                   AND CHECK_CLAUSE = CONCAT('json_valid(\`', CONSTRAINT_NAME, '\`)')`,
          timeout: this.options.timeoutMs,
        },
        [this.options.table],
      )
      .then(
        ([rows]) => new Set(rows.map((row) => String(row.name))),
        (error: {code?: string}) => {
          if (NO_CHECK_CONSTRAINTS.has(error.code ?? '')) return new Set<string>()
          this.jsonColumns = undefined
          throw describeMysqlError(error, this.options.url, this.options.table)
        },
      )
    return this.jsonColumns
  }

  async checkIndex(): Promise<IndexStatus> {
    const {table, idColumn} = this.options
    const [rows] = await this.pool.query<RowDataPacket[]>(
      `SELECT (SELECT COUNT(*) FROM information_schema.TABLES
                WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?) AS table_exists,
              (SELECT INDEX_NAME FROM information_schema.STATISTICS
                WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND SEQ_IN_INDEX = 1 AND COLUMN_NAME = ?
                ORDER BY NON_UNIQUE LIMIT 1) AS index_name`,
      [table, table, idColumn],
    )
    const row = rows[0] as {table_exists: number; index_name: string | null}
    if (!Number(row.table_exists)) return missingTable(table)
    return row.index_name
      ? {ok: true, message: `lookups use index ${row.index_name}`}
      : missingMetadataIndex(this.options, 'mysql')
  }

  ping(): Promise<void> {
    return pingMysql(this.pool, this.options.url, this.options.timeoutMs)
  }

  close(): Promise<void> {
    return closeMysqlPool(this.pool)
  }
}

/** What a server without MariaDB's JSON checks answers the query for them with. */
const NO_CHECK_CONSTRAINTS = new Set(['ER_BAD_FIELD_ERROR', 'ER_UNKNOWN_TABLE', 'ER_NO_SUCH_TABLE'])

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
