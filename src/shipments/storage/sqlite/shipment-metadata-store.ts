import type {Statement} from '../../../storage/sqlite/better-sqlite3.js'
import type {IndexStatus, ShipmentMetadataStore} from '../../core/stores.js'
import {plainRow, rowOf} from '../plain-values.js'
import {metadataBatchSql, metadataLookupSql, missingMetadataIndex, rowsById} from '../shipment-sql.js'
import {ReadOnlyShipmentDatabase} from './shipment-database.js'

interface SqliteMetadataOptions {
  file: string
  table: string
  idColumn: string
  busyTimeoutMs?: number
  /** A connection shared with the other store when both use the same file. */
  database?: ReadOnlyShipmentDatabase
}

/**
 * The declared types the import gives columns whose values SQLite cannot hold as they are: `BOOLEAN` (stored as
 * 1/0) and `JSON` (stored as JSON text). Reading turns them back, as PostgreSQL's boolean and jsonb columns and
 * MySQL's BOOLEAN and JSON columns come back; other columns are untyped and keep the value's own type.
 */
export const METADATA_COLUMN_TYPE = {boolean: 'BOOLEAN', json: 'JSON'} as const

type Decode = (value: unknown) => unknown

const DECODE: Record<string, Decode> = {
  [METADATA_COLUMN_TYPE.boolean]: (value) => (value === 1 ? true : value === 0 ? false : value),
  // A number stays a number: the column's NUMERIC affinity stores the JSON text of a number as that number.
  [METADATA_COLUMN_TYPE.json]: (value) => (typeof value === 'string' ? parsedOrText(value) : value),
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    // A table made by another tool may hold any text in a column it declared JSON.
    return text
  }
}

/** How a statement's result columns become a row: their names, and how to read each one's stored value. */
interface RowShape {
  names: string[]
  decoders: (Decode | undefined)[]
}

/**
 * One row per shipment in a SQLite table, looked up by its id column (the primary key when jobagent created it).
 * Rows are read as arrays and built by rowOf, so a column named `__proto__` is shown like any other.
 */
export class SqliteShipmentMetadataStore implements ShipmentMetadataStore {
  readonly kind = 'sqlite' as const
  /** A synchronous read is over before anything could abort it. */
  readonly abortable = false
  private readonly database: ReadOnlyShipmentDatabase
  private readonly lookup: string
  private readonly batch: string
  /** Per compiled statement: a column added by an import makes it compile again (a new statement, a new shape). */
  private readonly shapes = new WeakMap<Statement, RowShape>()

  constructor(private readonly options: SqliteMetadataOptions) {
    this.database = options.database ?? new ReadOnlyShipmentDatabase(options.file, options.busyTimeoutMs)
    this.lookup = metadataLookupSql(options, 'sqlite')
    this.batch = metadataBatchSql(options, 'sqlite')
  }

  findById(id: string, _signal?: AbortSignal): Promise<Record<string, unknown> | null> {
    return this.database.lookup(() => {
      const statement = this.database.statement(this.lookup, this.options.table)
      const values = statement.raw(true).get(id) as unknown[] | undefined
      return values ? this.row(statement, values) : null
    })
  }

  findByIds(ids: readonly string[], _signal?: AbortSignal): Promise<Map<string, Record<string, unknown>>> {
    return this.database.lookup(() => {
      const statement = this.database.statement(this.batch, this.options.table)
      const rows = (statement.raw(true).all(JSON.stringify(ids)) as unknown[][]).map((values) =>
        this.row(statement, values),
      )
      return rowsById(rows, this.options.idColumn, ids, (row) => row)
    })
  }

  private row(statement: Statement, values: unknown[]): Record<string, unknown> {
    const {names, decoders} = this.shape(statement, values.length)
    for (let index = 0; index < decoders.length; index++) {
      const decode = decoders[index]
      if (decode) values[index] = decode(values[index])
    }
    return plainRow(rowOf(names, values))
  }

  /** The statement's columns, read once per statement (and again when an import added a column since). */
  private shape(statement: Statement, width: number): RowShape {
    const known = this.shapes.get(statement)
    if (known && known.names.length === width) return known
    const columns = statement.columns()
    const shape = {
      names: columns.map((column) => column.name),
      decoders: columns.map((column) => DECODE[column.type?.toUpperCase() ?? '']),
    }
    this.shapes.set(statement, shape)
    return shape
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
