import {accessSync, constants, statSync} from 'node:fs'
import {dirname} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'
import {describeFileError, UnavailableError} from '../../core/errors.js'
import {ensurePrivateDirectory, ensurePrivateFile} from '../durable-file.js'
import {type Database, DriverConnection, type Statement} from './better-sqlite3.js'

export type SqliteDatabase = Database

export interface Migration {
  version: number
  sql: string
  /** Fills in what SQL alone cannot compute, after `sql` and in the same transaction. */
  backfill?: (db: SqliteDatabase) => void
}

interface OpenOptions {
  readonly?: boolean
  /**
   * How long one statement waits inside SQLite for another connection's lock. That wait blocks the thread, and
   * with it every other request of a server, so it stays at a few milliseconds; writes wait longer without
   * blocking (lockWaitMs).
   */
  busyTimeoutMs?: number
  /** How long a write waits for another process's write lock (between tries, not blocking) before it fails as locked. */
  lockWaitMs?: number
  migrations?: readonly Migration[]
}

/** The bound of a write's wait for another process's write lock (docs/RELIABILITY.md). */
const LOCK_WAIT_MS = 5000
const BUSY_TIMEOUT_MS = 5

const CORRUPT_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB'])
/** A database that cannot be opened as usual for want of space: no room for the WAL index (`-shm`), or a write. */
const NO_ROOM_CODES = new Set(['SQLITE_FULL', 'SQLITE_IOERR_SHMSIZE'])
const LOCKED_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY'])

/** A write the disk has no room for; nothing of it was written. */
function diskFullError(file: string, cause?: unknown): UnavailableError {
  return new UnavailableError(`disk full: ${file} was not changed`, {
    cause,
    hint: `free some space on the file system that holds ${file}, then try again`,
    publicMessage: 'the SQLite database cannot be written: its disk is full',
  })
}

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
  if (isLocked(error)) {
    return new UnavailableError(`${file} is locked by another process`, {
      cause: error,
      hint: 'try again when the other jobagent command has finished',
      retryAfterSeconds: 1,
      publicMessage: 'the SQLite database is locked by another process',
    })
  }
  if (code === 'SQLITE_FULL') return diskFullError(file, error)
  if (code.startsWith('SQLITE_READONLY')) {
    return new UnavailableError(`cannot write ${file}: it is read-only (a read-only file system or no permission)`, {
      cause: error,
      hint: `make ${file} and its directory writable (ls -ld), or point JOBAGENT_HOME at a writable directory`,
      publicMessage: 'the SQLite database is read-only',
    })
  }
  if (code.startsWith('SQLITE_CANTOPEN')) {
    return new UnavailableError(`cannot open ${file}: ${(error as Error).message}`, {
      cause: error,
      hint: `check that ${dirname(file)} is a directory you can write to, or point JOBAGENT_HOME at one`,
      publicMessage: 'the SQLite database cannot be opened',
    })
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return new UnavailableError(`input/output error on ${file}: ${(error as Error).message}`, {
      cause: error,
      hint: 'the disk is full or reported a fault; free some space or check it (dmesg, fsck), then try again',
      publicMessage: 'the SQLite database reported an input/output error',
    })
  }
  return describeFileError(error, file, 'open')
}

/**
 * Opens a SQLite database in WAL mode, so a cron run, the CLI and a running server can share it and readers never
 * wait for a writer, and synchronous=FULL so a committed write survives a power cut. Applies pending migrations
 * in one transaction each, tracked by `PRAGMA user_version`. Later writes go through writeTransaction.
 */
export function openSqlite(file: string, options: OpenOptions = {}): SqliteDatabase {
  let db: SqliteDatabase | undefined
  try {
    if (file !== ':memory:' && !options.readonly) {
      // The database holds personal data: created 0600 (SQLite gives its -wal and -shm files the same mode).
      ensurePrivateDirectory(dirname(file))
      ensurePrivateFile(file)
    }
    const lockWaitMs = options.lockWaitMs ?? LOCK_WAIT_MS
    db = new Connection(file, lockWaitMs, {
      readonly: options.readonly ?? false,
      fileMustExist: options.readonly ?? false,
    })
    const busyTimeoutMs = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS
    if (options.migrations?.length) refuseForeign(db, file)
    if (!options.readonly) {
      // Turning a new file to WAL and migrating take the write lock, once, while the database is opened: before a
      // server listens, before a command works. Nothing waits behind them yet, so they may wait in place.
      db.pragma(`busy_timeout = ${lockWaitMs}`)
      db.pragma('journal_mode = WAL')
      db.pragma('synchronous = FULL')
      db.pragma('foreign_keys = ON')
      migrate(db, options.migrations ?? [])
      db.pragma(`busy_timeout = ${busyTimeoutMs}`)
    } else {
      db.pragma(`busy_timeout = ${busyTimeoutMs}`)
      db.prepare('SELECT count(*) FROM sqlite_master').get()
    }
    return db
  } catch (error) {
    // A file opened but refused (read-only, locked, foreign) is closed: a server or a test process lives on.
    if (db?.open) db.close()
    const code = (error as {code?: string} | null)?.code ?? ''
    if (options.readonly || file === ':memory:' || !NO_ROOM_CODES.has(code)) {
      throw describeSqliteError(whyCannotOpen(error, file), file)
    }
    return openForReading(file, options)
  }
}

/**
 * A database on a full disk, opened for reading: WAL mode needs room beside the file for its shared-memory index
 * (`-shm`), which a full disk refuses even to a reader. In the exclusive locking mode SQLite keeps that index in
 * memory and reads the database and its WAL as they are. The connection refuses every write up front with the
 * disk-full error (writeRefusal), changes nothing (query_only), and holds the database to itself while it is open;
 * a migration that is due needs a write, so it is that same error.
 */
function openForReading(file: string, options: OpenOptions): SqliteDatabase {
  const refusal = diskFullError(file)
  const lockWaitMs = options.lockWaitMs ?? LOCK_WAIT_MS
  let db: Connection | undefined
  try {
    db = new Connection(file, lockWaitMs, {readonly: false, fileMustExist: true})
    db.pragma('locking_mode = EXCLUSIVE')
    db.pragma('query_only = ON')
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? BUSY_TIMEOUT_MS}`)
    if (options.migrations?.length) refuseForeign(db, file)
    const version = db.pragma('user_version', {simple: true}) as number
    if ((options.migrations ?? []).some((migration) => migration.version > version)) throw refusal
    db.prepare('SELECT count(*) FROM sqlite_master').get()
    db.writeRefusal = refusal
    return db
  } catch (error) {
    if (db?.open) db.close()
    throw error === refusal ? refusal : describeSqliteError(whyCannotOpen(error, file), file)
  }
}

/**
 * Why every write to this connection fails before it is tried (its disk was full when it was opened), or
 * undefined for a connection that writes.
 */
export function writeRefusalOf(db: SqliteDatabase): UnavailableError | undefined {
  return db instanceof Connection ? db.writeRefusal : undefined
}

/**
 * A database with tables but none of the migrations (user_version 0) belongs to another program: it is closed
 * before anything is written to it (not even the journal mode), as a corrupt file is.
 */
function refuseForeign(db: SqliteDatabase, file: string): void {
  if (db.pragma('user_version', {simple: true}) !== 0) return
  if (db.prepare('SELECT count(*) FROM sqlite_master').pluck().get() === 0) return
  db.close()
  throw new UnavailableError(`${file} is another program's SQLite database, not jobagent's; it was left untouched`, {
    hint: 'move it away to start with an empty database, or point JOBAGENT_HOME at another directory',
    publicMessage: 'the SQLite database is not a jobagent database',
  })
}

/**
 * SQLite says only "unable to open database file", also when WAL mode cannot create the -wal or -shm file beside
 * the database; the path and its directory tell why (a directory in its place, a read-only file system, no
 * permission), so the user learns what to fix.
 */
function whyCannotOpen(error: unknown, file: string): unknown {
  const code = (error as {code?: string} | null)?.code ?? ''
  if (!code.startsWith('SQLITE_CANTOPEN') || file === ':memory:') return error
  if (statSync(file, {throwIfNoEntry: false})?.isDirectory()) {
    return describeFileError(Object.assign(new Error('directory'), {code: 'EISDIR'}), file, 'open')
  }
  try {
    accessSync(dirname(file), constants.W_OK)
  } catch (reason) {
    return describeFileError(reason, file, 'open')
  }
  return error
}

function migrate(db: SqliteDatabase, migrations: readonly Migration[]): void {
  const current = db.pragma('user_version', {simple: true}) as number
  const pending = migrations.filter((migration) => migration.version > current).sort((a, b) => a.version - b.version)
  for (const migration of pending) {
    db.transaction(() => {
      db.exec(migration.sql)
      migration.backfill?.(db)
      db.pragma(`user_version = ${migration.version}`)
    }).immediate()
  }
}

/**
 * The one way to change a database opened by openSqlite: runs `work` in an IMMEDIATE transaction (it takes the
 * write lock up front) through the connection's write queue, and resolves after COMMIT. While another process
 * holds the lock the write waits without blocking the event loop, at most `lockWaitMs`, then rejects with the
 * locked UnavailableError naming the file the connection was opened on.
 */
export function writeTransaction<T>(db: SqliteDatabase, _file: string, work: () => T): Promise<T> {
  return transactionsOf(db).write(work)
}

/**
 * Runs a synchronous read in a deferred read transaction of its own, so its statements see one state of the
 * database while another process writes (a page and its total, a run and its jobs); driver errors about the file
 * become UnavailableError. A read made inside a transaction already open (a write's work, `db.transaction()`) runs
 * inside it.
 */
export function read<T>(db: SqliteDatabase, file: string, work: () => T): T {
  try {
    return transactionsOf(db).read(work)
  } catch (error) {
    throw describeSqliteError(error, file)
  }
}

/** A connection of openSqlite: the driver's connection with the transactions it owns. */
class Connection extends DriverConnection {
  readonly transactions: ConnectionTransactions
  /** Set on a connection opened for reading on a full disk: the error every write fails with. */
  writeRefusal: UnavailableError | undefined

  constructor(file: string, lockWaitMs: number, options: {readonly: boolean; fileMustExist: boolean}) {
    super(file, options)
    this.transactions = new ConnectionTransactions(this, file, lockWaitMs)
  }
}

function transactionsOf(db: SqliteDatabase): ConnectionTransactions {
  if (db instanceof Connection) return db.transactions
  throw new TypeError('reads and writes go through a connection opened by openSqlite')
}

/** The transactions of one connection: its writes, committed in groups (WriteQueue), and its reads. */
class ConnectionTransactions {
  private readonly writes: WriteQueue
  /** Prepared once: a read's BEGIN and COMMIT then cost what one statement outside a transaction does. */
  private reads: {begin: Statement; commit: Statement; rollback: Statement} | undefined

  constructor(
    private readonly db: SqliteDatabase,
    file: string,
    lockWaitMs: number,
  ) {
    this.writes = new WriteQueue(db, file, lockWaitMs)
  }

  write<T>(work: () => T): Promise<T> {
    const refusal = writeRefusalOf(this.db)
    return refusal ? Promise.reject(refusal) : this.writes.run(work)
  }

  read<T>(work: () => T): T {
    if (this.db.inTransaction) return work()
    const {db} = this
    this.reads ??= {begin: db.prepare('BEGIN'), commit: db.prepare('COMMIT'), rollback: db.prepare('ROLLBACK')}
    this.reads.begin.run()
    try {
      const result = work()
      this.reads.commit.run()
      return result
    } catch (error) {
      // A failed statement (locked, I/O error) may already have ended the transaction, or closed the connection.
      if (db.open && db.inTransaction) this.reads.rollback.run()
      throw error
    }
  }
}

/** The first pause before trying a locked write again; it doubles up to the second. */
const FIRST_RETRY_MS = 5
const MAX_RETRY_MS = 50

interface QueuedWrite {
  work: () => unknown
  /** performance.now() after which the write stops waiting for another process's lock. */
  deadline: number
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/**
 * The writes of one connection. Group commit: the writes queued during one event-loop turn share one IMMEDIATE
 * transaction, so a server under concurrent POSTs pays one fsync (synchronous=FULL) per turn instead of one per
 * request. Each write runs in its own savepoint, so a write that throws is rolled back alone and the others still
 * commit, unless SQLite rolled back the whole transaction (a full disk): then every write of the batch fails. Every caller is answered only after COMMIT returned: a write that was answered is on disk.
 *
 * better-sqlite3 is synchronous: a BEGIN that waited in SQLite's busy handler for another process's lock would
 * stop the whole event loop for that long. So BEGIN waits only the short busy timeout; when the lock is still
 * taken, the queue tries again after a pause (5 ms doubling to 50 ms) during which the loop serves everything
 * else, and writes queued meanwhile join the waiting ones. A write that has waited `lockWaitMs` since it was
 * queued fails with the locked error (503 with Retry-After from the API, exit 1 from the CLI).
 */
class WriteQueue {
  private queue: QueuedWrite[] = []
  private flushing = false

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
    private readonly lockWaitMs: number,
  ) {}

  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const deadline = performance.now() + this.lockWaitMs
      this.queue.push({work, deadline, resolve: resolve as (value: unknown) => void, reject})
      if (this.flushing) return
      this.flushing = true
      setImmediate(() => void this.flush())
    })
  }

  private async flush(): Promise<void> {
    let pause = FIRST_RETRY_MS
    while (this.queue.length > 0) {
      const batch = this.queue
      this.queue = []
      const locked = this.commit(batch)
      if (!locked) continue
      // Nothing of the batch was written. Writes are queued in deadline order, so the first is the next to expire.
      const now = performance.now()
      for (const write of batch) if (write.deadline <= now) write.reject(locked)
      this.queue = batch.filter((write) => write.deadline > now)
      const next = this.queue[0]
      if (!next) break
      await sleep(Math.min(pause, next.deadline - now))
      pause = Math.min(pause * 2, MAX_RETRY_MS)
    }
    this.flushing = false
  }

  /** Commits the batch and answers its writes; returns the locked error instead when the lock is taken. */
  private commit(batch: readonly QueuedWrite[]): unknown {
    const outcomes: ({ok: true; value: unknown} | {ok: false; error: unknown})[] = []
    try {
      this.db
        .transaction(() => {
          for (const {work} of batch) {
            try {
              // A transaction function called inside another one runs as a savepoint.
              outcomes.push({ok: true, value: this.db.transaction(work)()})
            } catch (error) {
              // On a full disk or an I/O error SQLite may roll back the whole transaction, not only the savepoint:
              // the writes before went with it, and the next one would run on its own, outside any transaction.
              // The batch ends here and every write of it fails with that error.
              if (!this.db.inTransaction) throw error
              outcomes.push({ok: false, error})
            }
          }
        })
        .immediate()
    } catch (error) {
      // BEGIN, a write that lost the transaction, or COMMIT failed (locked, disk full): nothing of the batch was
      // written.
      const described = describeSqliteError(error, this.file)
      if (isLocked(error)) return described
      for (const write of batch) write.reject(described)
      return undefined
    }
    batch.forEach((write, index) => {
      const outcome = outcomes[index]
      if (outcome?.ok) write.resolve(outcome.value)
      else write.reject(describeSqliteError(outcome?.error, this.file))
    })
    return undefined
  }
}

function isLocked(error: unknown): boolean {
  return LOCKED_CODES.has((error as {code?: string} | null)?.code ?? '')
}
