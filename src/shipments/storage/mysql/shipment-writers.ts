import type {Pool, PoolConnection, RowDataPacket} from 'mysql2/promise'
import {ConfigurationError} from '../../../core/errors.js'
import type {Logger} from '../../../core/logger.js'
import {MAX_SHIPMENT_ID_LENGTH} from '../../core/shipment-id.js'
import type {MetadataColumnLimits, MetadataRow, ShipmentMetadataWriter, UpsertOutcome} from '../../core/stores.js'
import {sqlValue} from '../plain-values.js'
import {columnKind, groupByColumns, metadataBatchSql, metadataIndexSql} from '../shipment-sql.js'
import {quoteIdentifier} from '../sql-names.js'
import {closeMysqlPool, createMysqlPool, describeMysqlError} from './pool.js'

const BATCH_ROWS = 1000

const quoted = (name: string) => quoteIdentifier(name, '`')

/** The column type a new column gets from the values the file holds for it. */
const COLUMN_TYPE = {text: 'TEXT', number: 'DOUBLE', boolean: 'BOOLEAN', json: 'JSON'}
const columnType = (values: readonly unknown[]) => COLUMN_TYPE[columnKind(values)]

/**
 * Upserts metadata rows by id into a MySQL or MariaDB table. A missing table is created with the id as a
 * case-sensitive (utf8mb4_bin) VARCHAR primary key, so ids compare exactly as in the other stores; new columns get
 * a type from their values (TEXT, DOUBLE, BOOLEAN, else JSON). MySQL commits table changes at once, so the table
 * and columns are made first and the rows then go in one transaction, in batched multi-row statements.
 */
export class MysqlShipmentMetadataWriter implements ShipmentMetadataWriter {
  static readonly limits: MetadataColumnLimits = {
    // InnoDB's limit; MySQL's own is 4096.
    maxColumns: 1017,
    // mysql2 refuses every result that has such a column, so a row holding one could never be read back.
    unreadable: {
      names: ['__proto__', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__'],
      reason: 'the MySQL driver (mysql2) refuses to read',
    },
  }
  readonly kind = 'mysql' as const
  private readonly pool: Pool

  constructor(
    private readonly options: {url: string; table: string; idColumn: string; timeoutMs: number; logger: Logger},
  ) {
    this.pool = createMysqlPool({...options, poolSize: 1, readOnly: false})
  }

  async upsert(rows: readonly MetadataRow[]): Promise<UpsertOutcome> {
    const {url, table} = this.options
    let connection: PoolConnection
    try {
      connection = await this.pool.getConnection()
    } catch (error) {
      throw describeMysqlError(error, url)
    }
    try {
      const jsonColumns = await this.ensureColumns(connection, rows)
      await connection.beginTransaction()
      try {
        const outcome = await this.write(connection, rows, jsonColumns)
        await connection.commit()
        return outcome
      } catch (error) {
        await connection.rollback().catch(() => {})
        throw error
      }
    } catch (error) {
      throw describeMysqlError(error, url, table)
    } finally {
      connection.release()
    }
  }

  close(): Promise<void> {
    return closeMysqlPool(this.pool)
  }

  private async write(
    connection: PoolConnection,
    rows: readonly MetadataRow[],
    jsonColumns: ReadonlySet<string>,
  ): Promise<UpsertOutcome> {
    const {idColumn} = this.options
    const outcome = {inserted: 0, updated: 0}
    const known = metadataBatchSql(this.options, 'mysql', `${quoted(idColumn)} AS id`)
    for (const group of groupByColumns(rows)) {
      for (let start = 0; start < group.rows.length; start += BATCH_ROWS) {
        const batch = group.rows.slice(start, start + BATCH_ROWS)
        const ids = batch.map((row) => String(row[idColumn]))
        const [existing] = await connection.query<RowDataPacket[]>(known, [ids])
        const stored = new Set(existing.map((row) => String(row.id)))
        for (const id of ids) stored.has(id) ? outcome.updated++ : outcome.inserted++
        const values = batch.map((row) =>
          group.columns.map((column) =>
            jsonColumns.has(column) ? JSON.stringify(row[column] ?? null) : sqlValue(row[column], 'native'),
          ),
        )
        await connection.query(this.upsertSql(group.columns), [values])
      }
    }
    return outcome
  }

  private upsertSql(columns: readonly string[]): string {
    const id = quoted(this.options.idColumn)
    const names = columns.map(quoted)
    const updates = names.filter((name) => name !== id).map((name) => `${name} = VALUES(${name})`)
    // VALUES(column) names the value the row would have inserted; MariaDB has no row alias for it.
    return `INSERT INTO ${quoted(this.options.table)} (${names.join(', ')}) VALUES ? ON DUPLICATE KEY UPDATE ${
      updates.length > 0 ? updates.join(', ') : `${id} = ${id}`
    }`
  }

  /** Creates the table or adds the file's new columns; returns the columns of type JSON. */
  private async ensureColumns(connection: PoolConnection, rows: readonly MetadataRow[]): Promise<Set<string>> {
    const {table, idColumn} = this.options
    const wanted = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((column) => column !== idColumn)
    const typeOf = (column: string) => columnType(rows.map((row) => row[column]))
    const [existing] = await connection.query<RowDataPacket[]>(
      `SELECT COLUMN_NAME AS name, DATA_TYPE AS type FROM information_schema.COLUMNS
        WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?`,
      [table],
    )
    const types = new Map(existing.map((column) => [String(column.name), String(column.type).toLowerCase()]))
    if (types.size === 0) {
      const columns = [
        `${quoted(idColumn)} VARCHAR(${MAX_SHIPMENT_ID_LENGTH}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL PRIMARY KEY`,
        ...wanted.map((column) => `${quoted(column)} ${typeOf(column)}`),
      ]
      await connection.query(
        `CREATE TABLE IF NOT EXISTS ${quoted(table)} (${columns.join(', ')}) DEFAULT CHARSET = utf8mb4`,
      )
      for (const column of wanted) types.set(column, typeOf(column).toLowerCase())
    } else {
      await this.checkUniqueId(connection, types)
    }
    for (const column of wanted.filter((name) => !types.has(name))) {
      await connection.query(`ALTER TABLE ${quoted(table)} ADD COLUMN ${quoted(column)} ${typeOf(column)}`)
      types.set(column, typeOf(column).toLowerCase())
    }
    return new Set([...types].filter(([, type]) => type === 'json').map(([column]) => column))
  }

  /** ON DUPLICATE KEY needs a unique key on the id alone; without one every import would add the rows again. */
  private async checkUniqueId(connection: PoolConnection, types: ReadonlyMap<string, string>): Promise<void> {
    const {table, idColumn} = this.options
    if (!types.has(idColumn)) {
      throw new ConfigurationError(`table ${table} has no column ${idColumn} (shipments.metadata.id_column)`, {
        hint: 'set the id column with: jobagent config set shipments.metadata.id_column <column>',
      })
    }
    const [unique] = await connection.query<RowDataPacket[]>(
      `SELECT INDEX_NAME FROM information_schema.STATISTICS
        WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND NON_UNIQUE = 0
        GROUP BY INDEX_NAME HAVING COUNT(*) = 1 AND MAX(COLUMN_NAME) = ?`,
      [table, idColumn],
    )
    if (unique.length === 0) {
      throw new ConfigurationError(`cannot upsert into ${table}: ${idColumn} is neither its primary key nor unique`, {
        hint: metadataIndexSql(this.options, 'mysql'),
      })
    }
  }
}
