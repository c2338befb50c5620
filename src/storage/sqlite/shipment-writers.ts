import {ConfigurationError} from '../../core/errors.js'
import type {
  AppendOutcome,
  MetadataRow,
  ShipmentMetadataWriter,
  TelemetryRecord,
  TelemetryWriter,
  UpsertOutcome,
} from '../../core/shipments/stores.js'
import {sqlValue} from '../plain-values.js'
import {metadataIndexSql, telemetryIndexSql, telemetryLookupSql} from '../shipment-sql.js'
import {quoteIdentifier} from '../sql-names.js'
import type {Statement} from './better-sqlite3.js'
import {openSqlite, type SqliteDatabase, writeTransaction} from './database.js'
import {indexInPlan} from './shipment-database.js'
import {type SqliteTelemetryOptions, telemetryTableSql} from './shipment-telemetry-store.js'

/** Columns of `table`, or an empty list when it does not exist yet. */
function columnsOf(db: SqliteDatabase, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${quoteIdentifier(table)})`).all() as {name: string}[]).map((c) => c.name)
}

/**
 * Upserts metadata rows by id into a SQLite table. A missing table is created clustered by the id column (primary
 * key, WITHOUT ROWID) with untyped columns (values keep the type they had in the file); new columns are added.
 */
export class SqliteShipmentMetadataWriter implements ShipmentMetadataWriter {
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
      this.ensureColumns(rows)
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
        statement.run(...columns.map((column) => sqlValue(row[column], 'integer')))
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

  private ensureColumns(rows: readonly MetadataRow[]): void {
    const {table, idColumn} = this.options
    const wanted = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((column) => column !== idColumn)
    const existing = columnsOf(this.db, table)
    if (existing.length === 0) {
      const columns = [
        `${quoteIdentifier(idColumn)} TEXT PRIMARY KEY NOT NULL`,
        ...wanted.map((name) => quoteIdentifier(name)),
      ]
      // Clustered by id: a lookup is one B-tree descent.
      this.db.exec(`CREATE TABLE ${quoteIdentifier(table)} (${columns.join(', ')}) WITHOUT ROWID`)
      return
    }
    if (!existing.includes(idColumn)) {
      throw new ConfigurationError(`table ${table} has no column ${idColumn} (shipments.metadata.id_column)`, {
        hint: `set the id column with: jobagent config set shipments.metadata.id_column <column>`,
      })
    }
    for (const column of wanted.filter((name) => !existing.includes(name))) {
      this.db.exec(`ALTER TABLE ${quoteIdentifier(table)} ADD COLUMN ${quoteIdentifier(column)}`)
    }
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
