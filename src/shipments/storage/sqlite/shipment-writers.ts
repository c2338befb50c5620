import {ConfigurationError, ValidationError} from '../../../core/errors.js'
import type {Statement} from '../../../storage/sqlite/better-sqlite3.js'
import {openSqlite, type SqliteDatabase, writeTransaction} from '../../../storage/sqlite/database.js'
import type {
  AppendOutcome,
  MetadataColumnLimits,
  MetadataRow,
  ShipmentMetadataWriter,
  TelemetryRecord,
  TelemetryWriter,
  UpsertOutcome,
} from '../../core/stores.js'
import {sqlValue} from '../plain-values.js'
import {columnKind, metadataIndexSql, telemetryIndexSql, telemetryLookupSql} from '../shipment-sql.js'
import {quoteIdentifier} from '../sql-names.js'
import {indexInPlan} from './shipment-database.js'
import {METADATA_COLUMN_TYPE} from './shipment-metadata-store.js'
import {type SqliteTelemetryOptions, telemetryTableSql} from './shipment-telemetry-store.js'

/** Columns of `table` with their declared types (upper case, '' when untyped); empty when it does not exist yet. */
function columnsOf(db: SqliteDatabase, table: string): Map<string, string> {
  const columns = db.prepare(`PRAGMA table_info(${quoteIdentifier(table)})`).all() as {name: string; type: string}[]
  return new Map(columns.map((column) => [column.name, column.type.toUpperCase()]))
}

/**
 * The declared type a new column gets from the values the file holds for it: text and numbers keep their own type
 * in an untyped column; booleans and objects (or a mix of types) get the type that tells the reader to turn them
 * back from 1/0 and JSON text.
 */
function declaredType(values: readonly unknown[]): string {
  const kind = columnKind(values)
  return kind === 'boolean' || kind === 'json' ? METADATA_COLUMN_TYPE[kind] : ''
}

/** A file value as the column stores it: JSON text in a JSON column (SQL NULL for null), as it is otherwise. */
function storedValue(value: unknown, type: string | undefined): unknown {
  if (type === METADATA_COLUMN_TYPE.json) return value === null || value === undefined ? null : JSON.stringify(value)
  return sqlValue(value, 'integer')
}

/**
 * Upserts metadata rows by id into a SQLite table. A missing table is created clustered by the id column (primary
 * key, WITHOUT ROWID); new columns are added, untyped (values keep the type they had in the file) or, for booleans
 * and objects, declared BOOLEAN or JSON so that they are read back as the file had them.
 */
export class SqliteShipmentMetadataWriter implements ShipmentMetadataWriter {
  /** SQLITE_MAX_COLUMN as the driver is built: a table (or a statement) has at most 2000 columns. */
  static readonly limits: MetadataColumnLimits = {maxColumns: 2000}
  readonly kind = 'sqlite' as const
  private readonly db: SqliteDatabase

  constructor(private readonly options: {file: string; table: string; idColumn: string}) {
    this.db = openSqlite(options.file)
  }

  async upsert(rows: readonly MetadataRow[]): Promise<UpsertOutcome> {
    const {file, table, idColumn} = this.options
    const quotedTable = quoteIdentifier(table)
    const id = quoteIdentifier(idColumn)
    return writeTransaction(this.db, file, () => {
      const types = this.ensureColumns(rows)
      const exists = this.db.prepare(`SELECT 1 FROM ${quotedTable} WHERE ${id} = ?`).pluck()
      const statements = new Map<string, Statement>()
      const outcome = {inserted: 0, updated: 0}
      for (const row of rows) {
        const columns = Object.keys(row)
        const key = columns.join('\u0000')
        let statement = statements.get(key)
        if (!statement) {
          const names = columns.map((name) => quoteIdentifier(name))
          const updates = names.filter((name) => name !== id).map((name) => `${name} = excluded.${name}`)
          statement = this.prepareUpsert(
            `INSERT INTO ${quotedTable} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')}) ` +
              `ON CONFLICT (${id}) DO ${updates.length > 0 ? `UPDATE SET ${updates.join(', ')}` : 'NOTHING'}`,
          )
          statements.set(key, statement)
        }
        if (exists.get(row[idColumn]) === undefined) outcome.inserted++
        else outcome.updated++
        statement.run(...columns.map((column) => storedValue(row[column], types.get(column))))
      }
      return outcome
    })
  }

  async close(): Promise<void> {
    this.db.close()
  }

  private prepareUpsert(sql: string): Statement {
    try {
      return this.db.prepare(sql)
    } catch (error) {
      if (!/ON CONFLICT clause does not match/.test((error as Error).message)) throw error
      const {table, idColumn} = this.options
      throw new ConfigurationError(`cannot upsert into ${table}: ${idColumn} is neither its primary key nor unique`, {
        hint: metadataIndexSql(this.options, 'sqlite'),
        cause: error,
      })
    }
  }

  /** Creates the table or adds the file's new columns; returns the declared type of every column. */
  private ensureColumns(rows: readonly MetadataRow[]): Map<string, string> {
    const {table, idColumn} = this.options
    const wanted = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((column) => column !== idColumn)
    const definition = (name: string) => {
      const type = declaredType(rows.map((row) => row[name]))
      return type === '' ? quoteIdentifier(name) : `${quoteIdentifier(name)} ${type}`
    }
    const existing = columnsOf(this.db, table)
    if (existing.size === 0) {
      const columns = [`${quoteIdentifier(idColumn)} TEXT PRIMARY KEY NOT NULL`, ...wanted.map(definition)]
      // Clustered by id: a lookup is one B-tree descent.
      this.db.exec(`CREATE TABLE ${quoteIdentifier(table)} (${columns.join(', ')}) WITHOUT ROWID`)
      return columnsOf(this.db, table)
    }
    if (!existing.has(idColumn)) {
      throw new ConfigurationError(`table ${table} has no column ${idColumn} (shipments.metadata.id_column)`, {
        hint: `set the id column with: jobagent config set shipments.metadata.id_column <column>`,
      })
    }
    const added = wanted.filter((name) => !existing.has(name))
    const {maxColumns} = SqliteShipmentMetadataWriter.limits
    if (existing.size + added.length > maxColumns) {
      throw new ValidationError(
        `table ${table} has ${existing.size} columns and the file brings ${added.length} more; a SQLite table holds at most ${maxColumns}, so nothing was imported`,
        {hint: 'import into another table (shipments.metadata.table), or leave out columns the table does not need'},
      )
    }
    for (const column of added) {
      this.db.exec(`ALTER TABLE ${quoteIdentifier(table)} ADD COLUMN ${definition(column)}`)
    }
    return columnsOf(this.db, table)
  }
}

/** Appends telemetry documents; the unique (id, time desc) index stores the same id and time once. */
export class SqliteTelemetryWriter implements TelemetryWriter {
  readonly kind = 'sqlite' as const
  private readonly db: SqliteDatabase

  constructor(private readonly options: Omit<SqliteTelemetryOptions, 'busyTimeoutMs'>) {
    this.db = openSqlite(options.file)
  }

  async append(records: readonly TelemetryRecord[]): Promise<AppendOutcome> {
    const {file, table, idField, timeField} = this.options
    return writeTransaction(this.db, file, () => {
      this.db.exec(telemetryTableSql(this.options))
      // A table made by other tools may lack the (id, time) key; without it every lookup scans and repeats stay.
      if (!this.servedByIndex()) this.db.exec(telemetryIndexSql(this.options))
      const insert = this.db.prepare(
        `INSERT INTO ${quoteIdentifier(table)} (${quoteIdentifier(idField)}, ${quoteIdentifier(timeField)}, "document") ` +
          'VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
      )
      let inserted = 0
      for (const record of records) {
        inserted += insert.run(record.id, record.recorded_at, JSON.stringify(record.payload)).changes
      }
      return {inserted, duplicates: records.length - inserted}
    })
  }

  async close(): Promise<void> {
    this.db.close()
  }

  private servedByIndex(): boolean {
    const lookup = telemetryLookupSql(this.options, 'sqlite')
    const plan = this.db.prepare(`EXPLAIN QUERY PLAN ${lookup}`).all('') as {detail: string}[]
    return indexInPlan(plan.map((step) => step.detail)) !== undefined
  }
}
