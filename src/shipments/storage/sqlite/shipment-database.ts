import {existsSync, statSync} from 'node:fs'
import {dirname} from 'node:path'
import {fileInTheWay, UnavailableError} from '../../../core/errors.js'
import type {Statement} from '../../../storage/sqlite/better-sqlite3.js'
import {describeSqliteError, openSqlite, read, type SqliteDatabase} from '../../../storage/sqlite/database.js'
import type {IndexStatus} from '../../core/stores.js'
import {missingTable} from '../shipment-sql.js'

const IMPORT_HINT = 'import shipments first: jobagent shipment import --metadata FILE --telemetry FILE'

/** The configured table is not in the file (yet): nothing was imported, or the name in the config is wrong. */
export class MissingTableError extends UnavailableError {}

/** How often an open connection checks that its file is still the one at the path (one stat, a few microseconds). */
const FILE_CHECK_INTERVAL_MS = 500

/** The file at a path as the file system tells files apart; undefined when there is none. */
function fileIdentity(file: string): string | undefined {
  try {
    const stats = statSync(file, {bigint: true})
    return `${stats.dev}:${stats.ino}`
  } catch {
    return undefined
  }
}

/**
 * A read-only connection opened on first use, so `jobagent serve` starts before any shipment was imported and
 * picks the file up once it exists. better-sqlite3 is synchronous: a lookup through an index takes microseconds,
 * and the busy timeout is kept short so a locked file cannot stall the event loop for long.
 */
export class ReadOnlyShipmentDatabase {
  private db: SqliteDatabase | undefined
  private readonly statements = new Map<string, Statement>()
  /** The device and inode of the file the connection opened, and when that was last compared with the path. */
  private opened: {identity: string | undefined; checkedAt: number} | undefined

  constructor(
    readonly file: string,
    private readonly busyTimeoutMs = 250,
  ) {}

  /** A prepared statement, cached once it compiles (it does not while the table is missing). */
  statement(sql: string, table: string): Statement {
    const cached = this.statements.get(sql)
    if (cached) return cached
    const db = this.connection()
    try {
      const statement = db.prepare(sql)
      this.statements.set(sql, statement)
      return statement
    } catch (error) {
      const message = (error as Error).message
      if (/no such (table|column)/.test(message)) {
        const Kind = message.startsWith('no such table') ? MissingTableError : UnavailableError
        throw new Kind(`${this.file}: ${message} (expected table "${table}")`, {
          hint: IMPORT_HINT,
          publicHint: IMPORT_HINT,
          cause: error,
          publicMessage: `the SQLite database has no such ${message.startsWith('no such table') ? 'table' : 'column'}`,
        })
      }
      throw describeSqliteError(error, this.file)
    }
  }

  /** Whether the lookup's query plan searches an index rather than scanning or sorting. */
  indexStatus(sql: string, table: string, parameters: unknown[], missing: IndexStatus): IndexStatus {
    try {
      this.statement(sql, table)
    } catch (error) {
      if (error instanceof MissingTableError) return missingTable(table)
      throw error
    }
    const plan = this.connection()
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...parameters) as {detail: string}[]
    const used = indexInPlan(plan.map((step) => step.detail))
    return used ? {ok: true, message: `lookups use ${used}`} : missing
  }

  /**
   * Runs a synchronous read (driver errors about the file become UnavailableError) in a read transaction of its
   * own (`read`).
   */
  lookup<T>(work: () => T): Promise<T> {
    try {
      return Promise.resolve(read(this.connection(), this.file, work))
    } catch (error) {
      return Promise.reject(describeSqliteError(error, this.file))
    }
  }

  /**
   * Resolves once the store's lookup runs: the file opens, holds the table with its columns, and the search of its
   * key reads the table's pages (a corrupt file compiles but fails here, as every lookup would).
   */
  async ping(sql: string, table: string): Promise<void> {
    await this.lookup(() => this.statement(sql, table).get(''))
  }

  private stillAtPath(): boolean {
    const opened = this.opened
    if (!opened) return true
    const now = performance.now()
    if (now - opened.checkedAt < FILE_CHECK_INTERVAL_MS) return true
    opened.checkedAt = now
    return opened.identity !== undefined && fileIdentity(this.file) === opened.identity
  }

  close(): void {
    this.opened = undefined
    this.statements.clear()
    this.db?.close()
    this.db = undefined
  }

  /**
   * The open connection, or a new one. An import may replace the file (a new file renamed over it) or someone may
   * delete it while the connection stays open on the old one: at most every FILE_CHECK_INTERVAL_MS the path is
   * compared with the file opened, and a connection to a file no longer there is closed, so the next read opens
   * the file now at the path or reports that there is none (503), never the old data.
   */
  private connection(): SqliteDatabase {
    if (this.db && this.stillAtPath()) return this.db
    if (this.db) this.close()
    if (!existsSync(this.file)) {
      // A file where the data directory should be (JOBAGENT_HOME=~/afile) is not fixed by an import.
      let dir = dirname(this.file)
      while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir)
      if (!statSync(dir).isDirectory()) {
        throw fileInTheWay(dir, {publicMessage: 'the SQLite database cannot be opened: its directory is a file'})
      }
      throw new UnavailableError(`${this.file} does not exist`, {
        hint: IMPORT_HINT,
        publicHint: IMPORT_HINT,
        publicMessage: 'the SQLite database does not exist yet',
      })
    }
    // Taken before opening: if the file is replaced in between, the next check opens the new one.
    const identity = fileIdentity(this.file)
    const db = openSqlite(this.file, {readonly: true, busyTimeoutMs: this.busyTimeoutMs})
    this.opened = {identity, checkedAt: performance.now()}
    // Memory-mapped reads skip a system call per page: on a large store that halves the time of a lookup.
    db.pragma('mmap_size = 2147418112')
    this.db = db
    return db
  }
}

/** The index or key an EXPLAIN QUERY PLAN searches (`index x`, `primary key`), unless it scans or sorts. */
export function indexInPlan(details: readonly string[]): string | undefined {
  if (details.some((detail) => detail.includes('TEMP B-TREE'))) return undefined
  const used = details
    .map((detail) => /^SEARCH .* USING (?:COVERING )?(INDEX \S+|(?:INTEGER )?PRIMARY KEY)/.exec(detail)?.[1])
    .find(Boolean)
  return used?.replace(/^INDEX/, 'index').replace(/(INTEGER )?PRIMARY KEY/, (key) => key.toLowerCase())
}
