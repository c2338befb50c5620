import {mkdirSync} from 'node:fs'
import {dirname} from 'node:path'
import Database from 'better-sqlite3'
import {UnavailableError} from '../../core/errors.js'

export type SqliteDatabase = Database.Database

export interface Migration {
  version: number
  sql: string
}

export interface OpenOptions {
  readonly?: boolean
  /** How long a writer waits for another process's lock before giving up. */
  busyTimeoutMs?: number
  migrations?: readonly Migration[]
}

const CORRUPT_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB'])
const LOCKED_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY'])

/** Turns driver errors about the file itself into errors that name the file and never touch it. */
export function describeSqliteError(error: unknown, file: string): unknown {
  const code = (error as {code?: string} | null)?.code ?? ''
  if (CORRUPT_CODES.has(code)) {
    return new UnavailableError(
      `${file} is not a valid jobagent database (corrupt or not SQLite); it was left untouched`,
      {
        cause: error,
        hint: 'restore it from a backup, or move it away to start with an empty database',
        publicMessage: 'the SQLite database is corrupt or not a jobagent database',
      },
    )
  }
  if (LOCKED_CODES.has(code)) {
    return new UnavailableError(`${file} is locked by another process`, {
      cause: error,
      hint: 'try again when the other jobagent command has finished',
      retryAfterSeconds: 1,
      publicMessage: 'the SQLite database is locked by another process',
    })
  }
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY' || code === 'SQLITE_IOERR' || code === 'SQLITE_FULL') {
    return new UnavailableError(`cannot use ${file}: ${(error as Error).message}`, {
      cause: error,
      publicMessage: `the SQLite database cannot be used (${code})`,
    })
  }
  return error
}

/**
 * Opens a SQLite database in WAL mode with a busy timeout, so a cron run, the CLI and a running server can share
 * it, and synchronous=FULL so a committed write survives a power cut. Applies pending migrations in one
 * transaction each, tracked by `PRAGMA user_version`.
 */
export function openSqlite(file: string, options: OpenOptions = {}): SqliteDatabase {
  try {
    if (file !== ':memory:' && !options.readonly) mkdirSync(dirname(file), {recursive: true})
    const db = new Database(file, {readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false})
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`)
    if (!options.readonly) {
      db.pragma('journal_mode = WAL')
      db.pragma('synchronous = FULL')
      db.pragma('foreign_keys = ON')
      migrate(db, options.migrations ?? [])
    } else {
      db.prepare('SELECT count(*) FROM sqlite_master').get()
    }
    return db
  } catch (error) {
    throw describeSqliteError(error, file)
  }
}

function migrate(db: SqliteDatabase, migrations: readonly Migration[]): void {
  const current = db.pragma('user_version', {simple: true}) as number
  const pending = migrations.filter((migration) => migration.version > current).sort((a, b) => a.version - b.version)
  for (const migration of pending) {
    db.transaction(() => {
      db.exec(migration.sql)
      db.pragma(`user_version = ${migration.version}`)
    }).immediate()
  }
}

/** Runs work in an IMMEDIATE transaction: it takes the write lock up front, so two writers queue on busy_timeout. */
export function writeTransaction<T>(db: SqliteDatabase, file: string, work: () => T): T {
  try {
    return db.transaction(work).immediate()
  } catch (error) {
    throw describeSqliteError(error, file)
  }
}

interface QueuedWrite {
  work: () => unknown
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/**
 * Group commit: the writes queued during one event-loop turn share one IMMEDIATE transaction, so a server under
 * concurrent POSTs pays one fsync (synchronous=FULL) per turn instead of one per request. Each write runs in its
 * own savepoint, so a write that throws is rolled back alone and the others still commit. Every caller is
 * answered only after COMMIT returned: a write that was answered is on disk.
 */
export class GroupCommit {
  private queue: QueuedWrite[] = []

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
  ) {}

  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(() => this.flush())
      this.queue.push({work, resolve: resolve as (value: unknown) => void, reject})
    })
  }

  private flush(): void {
    const batch = this.queue
    this.queue = []
    const outcomes: ({ok: true; value: unknown} | {ok: false; error: unknown})[] = []
    try {
      this.db
        .transaction(() => {
          for (const {work} of batch) {
            try {
              // A transaction function called inside another one runs as a savepoint.
              outcomes.push({ok: true, value: this.db.transaction(work)()})
            } catch (error) {
              outcomes.push({ok: false, error})
            }
          }
        })
        .immediate()
    } catch (error) {
      // BEGIN or COMMIT failed (locked, disk full): nothing of the batch was written.
      const described = describeSqliteError(error, this.file)
      for (const write of batch) write.reject(described)
      return
    }
    batch.forEach((write, index) => {
      const outcome = outcomes[index]
      if (outcome?.ok) write.resolve(outcome.value)
      else write.reject(describeSqliteError(outcome?.error, this.file))
    })
  }
}

export function read<T>(file: string, work: () => T): T {
  try {
    return work()
  } catch (error) {
    throw describeSqliteError(error, file)
  }
}
