import {spawn} from 'node:child_process'
import {randomBytes} from 'node:crypto'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import Database from 'better-sqlite3'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {ApplicationService, urlKeys} from '../../../src/core/applications/application-service.js'
import {UnavailableError} from '../../../src/core/errors.js'
import {
  type Migration,
  openSqlite,
  read,
  type SqliteDatabase,
  writeTransaction,
} from '../../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../../src/storage/sqlite/sqlite-application-store.js'
import {SqliteJobStore} from '../../../src/storage/sqlite/sqlite-job-store.js'
import {TRACKER_MIGRATIONS} from '../../../src/storage/sqlite/tracker-migrations.js'
import {ROOT, tempDir} from '../../helpers/cli.js'
import {application} from '../../helpers/tracker.js'

const LATEST = Math.max(...TRACKER_MIGRATIONS.map((migration) => migration.version))

let dir: ReturnType<typeof tempDir>
let file: string
const open: SqliteDatabase[] = []

function openTracker(options: {busyTimeoutMs?: number; lockWaitMs?: number} = {}) {
  const db = openSqlite(file, {migrations: TRACKER_MIGRATIONS, ...options})
  open.push(db)
  return {db, service: new ApplicationService(new SqliteApplicationStore(db, file))}
}

function caught(work: () => unknown): Error {
  try {
    work()
  } catch (error) {
    return error as Error
  }
  throw new Error('expected an error')
}

beforeEach(() => {
  dir = tempDir('jobagent-sqlite-')
  file = join(dir.path, 'data', 'jobagent.db')
})

afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close()
  dir.cleanup()
})

describe('opening the tracker database', () => {
  it('creates the file, its directory and the schema, and records the schema version', () => {
    const {db} = openTracker()
    expect(existsSync(file)).toBe(true)
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
      .pluck()
      .all() as string[]
    expect(tables).toEqual(expect.arrayContaining(['applications', 'status_history']))
    expect(db.pragma('user_version', {simple: true})).toBe(LATEST)
  })

  it('uses WAL, full synchronous commits, foreign keys and a busy timeout short enough not to stall a server', () => {
    const {db} = openTracker()
    expect(db.pragma('journal_mode', {simple: true})).toBe('wal')
    expect(db.pragma('synchronous', {simple: true})).toBe(2)
    expect(db.pragma('foreign_keys', {simple: true})).toBe(1)
    expect(db.pragma('busy_timeout', {simple: true})).toBe(5)
  })

  it('keeps committed data across close and reopen without running the migrations again', async () => {
    const first = openTracker()
    await first.service.record(application({notes: 'keep me'}))
    await first.service.changeStatus('https://example.org/jobs/1', 'offer')
    first.db.close()

    // Version 1 creates its tables without IF NOT EXISTS: running it again would throw.
    const second = openTracker()
    expect(second.db.pragma('user_version', {simple: true})).toBe(LATEST)
    const {application: found, history} = await second.service.get('https://example.org/jobs/1')
    expect(found.status).toBe('offer')
    expect(history).toEqual([expect.objectContaining({old_notes: 'keep me'})])
  })

  it('applies only the migrations newer than the recorded version, each once', () => {
    const counting: Migration[] = [
      {version: 1, sql: 'CREATE TABLE runs_of_v1 (n INTEGER); INSERT INTO runs_of_v1 VALUES (1);'},
    ]
    open.push(openSqlite(file, {migrations: counting}))
    open.pop()?.close()
    const upgraded = openSqlite(file, {
      migrations: [...counting, {version: 2, sql: 'CREATE TABLE added_in_v2 (n INTEGER)'}],
    })
    open.push(upgraded)
    expect(upgraded.prepare('SELECT count(*) FROM runs_of_v1').pluck().get()).toBe(1)
    expect(upgraded.pragma('user_version', {simple: true})).toBe(2)
  })

  it('rolls back a failing migration and leaves the version where it was', () => {
    const error = caught(() =>
      openSqlite(file, {
        migrations: [
          {version: 1, sql: 'CREATE TABLE ok_table (n INTEGER)'},
          {version: 2, sql: 'CREATE TABLE half (n INTEGER); THIS IS NOT SQL'},
        ],
      }),
    )
    expect(error.message).toMatch(/syntax error/)
    const db = new Database(file)
    open.push(db)
    expect(db.pragma('user_version', {simple: true})).toBe(1)
    expect(db.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'half'`).pluck().get()).toBe(0)
  })
})

describe('a file that is not a jobagent database', () => {
  it.each([
    ['random bytes', () => randomBytes(8192)],
    ['a text file', () => Buffer.from('these are my notes, not a database\n'.repeat(50))],
  ])('is refused with an error naming it, and %s stay byte for byte as they were', (_what, content) => {
    const bytes = content()
    openTracker().db.close()
    writeFileSync(file, bytes)
    const error = caught(() => openTracker())
    expect(error).toBeInstanceOf(UnavailableError)
    expect(error.message).toContain(file)
    expect(error.message).toContain('not a valid jobagent database')
    expect((error as UnavailableError).hint).toContain('backup')
    expect(readFileSync(file).equals(bytes)).toBe(true)
  })

  it("refuses another program's SQLite database, naming it, and leaves every byte as it was", () => {
    mkdirSync(dirname(file), {recursive: true})
    const other = new Database(file)
    other.exec("CREATE TABLE foo (bar TEXT); INSERT INTO foo VALUES ('mine')")
    other.close()
    const bytes = readFileSync(file)
    const error = caught(() => openTracker())
    expect(error).toBeInstanceOf(UnavailableError)
    expect(error.message).toBe(`${file} is another program's SQLite database, not jobagent's; it was left untouched`)
    expect((error as UnavailableError).hint).toContain('move it away')
    expect(readFileSync(file).equals(bytes)).toBe(true)
  })

  it('reports a database with damaged pages as corrupt and leaves it as it was', async () => {
    const first = openTracker()
    for (let index = 0; index < 50; index++) {
      await first.service.record(application({url: `https://example.org/${index}`, notes: 'x'.repeat(500)}))
    }
    first.db.pragma('wal_checkpoint(TRUNCATE)')
    first.db.close()
    const damaged = readFileSync(file)
    // Keep the 100-byte header so SQLite opens the file, then destroy the schema page after it.
    randomBytes(damaged.length - 100).copy(damaged, 100)
    writeFileSync(file, damaged)
    const error = caught(() => openTracker())
    expect(error).toBeInstanceOf(UnavailableError)
    expect(error.message).toContain(file)
    expect(readFileSync(file).equals(damaged)).toBe(true)
  })
})

describe('sharing the database', () => {
  it('reports a write lock held too long by another connection as locked, naming the file', async () => {
    openTracker().db.close()
    const other = new Database(file)
    open.push(other)
    other.exec('BEGIN IMMEDIATE')
    const {service} = openTracker({lockWaitMs: 50})
    const error = await service.record(application()).catch((failure: unknown) => failure as Error)
    expect(error).toBeInstanceOf(UnavailableError)
    expect((error as Error).message).toBe(`${file} is locked by another process`)
    expect((error as UnavailableError).retryAfterSeconds).toBeGreaterThan(0)
    other.exec('ROLLBACK')
    await expect(service.record(application())).resolves.toMatchObject({status: 'applied'})
  })

  it('keeps the event loop turning while a write waits for the lock, and commits the write once it is free', async () => {
    openTracker().db.close()
    const other = new Database(file)
    open.push(other)
    other.exec('BEGIN IMMEDIATE')
    const {service} = openTracker({lockWaitMs: 2000})
    const started = performance.now()
    let settled = false
    const recording = service.record(application()).finally(() => {
      settled = true
    })
    // Each tick measures how long the loop was away: a write waiting inside SQLite would hold it for the whole wait
    // (2 s, since the ROLLBACK below runs on this same loop), so the bounds leave room for a busy machine.
    const gaps: number[] = []
    let last = performance.now()
    const ticker = setInterval(() => {
      const now = performance.now()
      gaps.push(now - last)
      last = now
    }, 1)
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(settled).toBe(false)
    other.exec('ROLLBACK')
    await expect(recording).resolves.toMatchObject({url: 'https://example.org/jobs/1', status: 'applied'})
    clearInterval(ticker)
    expect(performance.now() - started).toBeLessThan(1500)
    expect(gaps.length).toBeGreaterThan(20)
    expect(Math.max(...gaps)).toBeLessThan(300)
  })

  it('gives each waiting write its own bound, counted from when it was made', async () => {
    openTracker().db.close()
    const other = new Database(file)
    open.push(other)
    other.exec('BEGIN IMMEDIATE')
    const {service} = openTracker({lockWaitMs: 300})
    const started = performance.now()
    const first = service.record(application({url: 'https://example.org/first'})).then(
      () => 'recorded',
      (error: Error) => `${error.message} after ${Math.round(performance.now() - started)} ms`,
    )
    await new Promise((resolve) => setTimeout(resolve, 200))
    const second = service.record(application({url: 'https://example.org/second'}))
    expect(await first).toMatch(new RegExp(`^${file} is locked by another process after (29\\d|3\\d\\d) ms$`))
    other.exec('ROLLBACK')
    await expect(second).resolves.toMatchObject({url: 'https://example.org/second'})
    expect((await service.list()).applications.map((row) => row.url)).toEqual(['https://example.org/second'])
  })

  it('lets readers read while another connection writes', async () => {
    const writer = openTracker()
    await writer.service.record(application())
    writer.db.exec('BEGIN IMMEDIATE')
    const reader = openTracker({busyTimeoutMs: 50})
    expect((await reader.service.list()).applications).toHaveLength(1)
    writer.db.exec('ROLLBACK')
  })

  it('loses no update when two stores on one file write at the same time', async () => {
    const {service, db} = openTracker()
    await service.record(application({url: 'https://example.org/shared'}))
    db.close()
    const perWriter = 40
    const writer = (name: string) =>
      new Promise<{code: number | null; stderr: string}>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            '--import',
            'tsx',
            join(ROOT, 'test/storage/sqlite/fixtures/concurrent-writer.ts'),
            file,
            name,
            String(perWriter),
          ],
          {cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe']},
        )
        let stderr = ''
        child.stderr.on('data', (chunk) => {
          stderr += chunk
        })
        child.on('error', reject)
        child.on('close', (code) => resolve({code, stderr}))
      })
    const results = await Promise.all([writer('one'), writer('two')])
    expect(results).toEqual([
      {code: 0, stderr: ''},
      {code: 0, stderr: ''},
    ])

    const after = openTracker()
    expect((await after.service.counts()).total).toBe(1 + 2 * perWriter)
    const {application: shared, history} = await after.service.get('https://example.org/shared')
    expect(history).toHaveLength(2 * perWriter)
    // Each change saw the notes the previous change wrote: no change overwrote another unseen.
    for (let index = 1; index < history.length; index++) {
      expect(history[index]?.old_status).toBe(history[index - 1]?.new_status)
    }
    const notesSeen = history.slice(1).map((change) => change.old_notes)
    expect(new Set([...notesSeen, shared.notes]).size).toBe(2 * perWriter)
  }, 60_000)
})

describe('group commit', () => {
  /** Commits in the WAL since it was last truncated: frames whose header records a database size (commit frames). */
  function walCommits(): number {
    const wal = readFileSync(`${file}-wal`)
    const pageSize = wal.readUInt32BE(8)
    let commits = 0
    for (let offset = 32; offset + 24 <= wal.length; offset += 24 + pageSize) {
      if (wal.readUInt32BE(offset + 4) !== 0) commits++
    }
    return commits
  }

  it('commits the writes of one event-loop turn together and answers each only after the commit', async () => {
    const {db, service} = openTracker()
    await service.record(application({url: 'https://example.org/first'}))
    db.pragma('wal_checkpoint(TRUNCATE)')
    const urls = Array.from({length: 20}, (_, n) => `https://example.org/batch/${n}`)
    const recorded = await Promise.all(urls.map((url) => service.record(application({url}))))
    expect(recorded.map((row) => row.url)).toEqual(urls)
    expect(walCommits()).toBe(1)
    const other = new Database(file, {readonly: true})
    open.push(other)
    expect(other.prepare('SELECT count(*) AS n FROM applications').get()).toEqual({n: 21})
  })

  it('rolls back only the write that fails; the others of the same turn commit', async () => {
    const {service} = openTracker()
    await service.record(application({url: 'https://example.org/taken'}))
    const outcomes = await Promise.allSettled([
      service.record(application({url: 'https://example.org/a'})),
      service.changeStatus('https://example.org/taken', 'offer', 'call back'),
      service.record(application({url: 'https://example.org/taken'})),
      service.record(application({url: 'https://example.org/b'})),
    ])
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled'])
    const {applications} = await service.list()
    expect(applications.map((row) => row.url).sort()).toEqual([
      'https://example.org/a',
      'https://example.org/b',
      'https://example.org/taken',
    ])
    expect((await service.get('https://example.org/taken')).application).toMatchObject({
      status: 'offer',
      notes: 'call back',
    })
  })

  it('fails every write of the turn, naming the file, when the write lock cannot be taken', async () => {
    openTracker().db.close()
    const other = new Database(file)
    open.push(other)
    other.exec('BEGIN IMMEDIATE')
    const {service} = openTracker({lockWaitMs: 50})
    const outcomes = await Promise.allSettled([
      service.record(application({url: 'https://example.org/x'})),
      service.record(application({url: 'https://example.org/y'})),
    ])
    expect(
      outcomes.map((outcome) => (outcome.status === 'rejected' ? (outcome.reason as Error).message : 'ok')),
    ).toEqual([`${file} is locked by another process`, `${file} is locked by another process`])
    other.exec('ROLLBACK')
    expect((await service.counts()).total).toBe(0)
  })
})

describe('reads in transactions of their own', () => {
  /** Resolves in the check phase of the loop, after the end of the turn the caller is in. */
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve))
  const at = '2026-11-01T00:00:00.000'
  const record = (url: string) => ({...application({url}), status: 'applied', notes: '', applied_date: at}) as never

  function stores() {
    const {db} = openTracker()
    return {db, applications: new SqliteApplicationStore(db, file), jobs: new SqliteJobStore(db, file)}
  }

  /** Another connection to the file, writing in autocommit as another process would. */
  function otherWriter() {
    const other = new Database(file)
    open.push(other)
    const insert = other.prepare(
      `INSERT INTO applications (url_key, url, title, company, source, applied_date, status, notes, updated_at)
       VALUES (?, ?, 'Other', 'Other', 'test', '${at}', 'applied', '', '${at}')`,
    )
    return (url: string) => insert.run(url, url)
  }

  it("sees one state of the database in all of a read's statements, and another connection's commit after it", async () => {
    const {db, applications} = stores()
    const insertElsewhere = otherWriter()
    insertElsewhere('https://example.org/before')
    const count = db.prepare('SELECT count(*) FROM applications').pluck()

    const seen = read(db, file, () => {
      const first = count.get()
      insertElsewhere('https://example.org/during')
      return [first, count.get()]
    })
    expect(seen).toEqual([1, 1])
    // No transaction is left open: the next read, in the same turn, sees the commit.
    expect(db.inTransaction).toBe(false)
    expect((await applications.counts()).total).toBe(2)
    expect(await applications.byUrl(urlKeys('https://example.org/during'))).toMatchObject({status: 'applied'})
  })

  it('commits the writes of one turn together, and the reads after them see them', async () => {
    const {db, applications} = stores()
    await applications.insert(record('https://example.org/first'), urlKeys('https://example.org/first'), at)
    db.pragma('wal_checkpoint(TRUNCATE)')
    await nextTurn()

    // Writes queued before and after a read of the same turn all wait for the group commit.
    const early = applications.insert(record('https://example.org/early'), urlKeys('https://example.org/early'), at)
    expect((await applications.counts()).total).toBe(1)
    const late = Array.from({length: 10}, (_, n) =>
      applications.insert(record(`https://example.org/late/${n}`), urlKeys(`https://example.org/late/${n}`), at),
    )
    expect((await applications.counts()).total).toBe(1)
    await Promise.all([early, ...late])
    expect((await applications.counts()).total).toBe(12)
    expect(await applications.byUrl(urlKeys('https://example.org/early'))).toMatchObject({status: 'applied'})

    const wal = readFileSync(`${file}-wal`)
    const pageSize = wal.readUInt32BE(8)
    let commits = 0
    for (let offset = 32; offset + 24 <= wal.length; offset += 24 + pageSize) {
      if (wal.readUInt32BE(offset + 4) !== 0) commits++
    }
    expect(commits).toBe(1)
    const other = new Database(file, {readonly: true})
    open.push(other)
    expect(other.prepare('SELECT count(*) AS n FROM applications').get()).toEqual({n: 12})
  })

  it('shows a write answered on one connection to the reads after it on another connection of the process', async () => {
    const writer = stores()
    const reader = stores()
    expect((await reader.applications.counts()).total).toBe(0)
    await writer.applications.insert(record('https://example.org/a'), urlKeys('https://example.org/a'), at)
    expect((await reader.applications.counts()).total).toBe(1)
    expect(await reader.jobs.listRuns({limit: 10, offset: 0})).toEqual({runs: [], total: 0})
  })

  it("runs a read made inside a write's work in the write's transaction, seeing what the write did so far", async () => {
    const {db, applications} = stores()
    expect((await applications.counts()).total).toBe(0)
    const counted = await writeTransaction(db, file, () => {
      db.prepare(
        `INSERT INTO applications (url_key, url, title, company, source, applied_date, status, notes, updated_at)
         VALUES ('k', 'https://example.org/k', 't', 'c', 's', '${at}', 'applied', '', '${at}')`,
      ).run()
      return read(db, file, () => db.prepare('SELECT count(*) FROM applications').pluck().get())
    })
    expect(counted).toBe(1)
    expect(db.inTransaction).toBe(false)
    const other = new Database(file, {readonly: true})
    open.push(other)
    expect(other.prepare('SELECT count(*) AS n FROM applications').get()).toEqual({n: 1})
  })

  it('ends the transaction when a read fails, and the next read starts a fresh one', async () => {
    const {db, applications} = stores()
    const insertElsewhere = otherWriter()
    expect((await applications.counts()).total).toBe(0)
    const failure = caught(() =>
      read(db, file, () => {
        db.prepare('SELECT count(*) FROM applications').get()
        throw new Error('the read failed after its statement')
      }),
    )
    expect(failure.message).toBe('the read failed after its statement')
    expect(db.inTransaction).toBe(false)
    expect(caught(() => read(db, file, () => db.prepare('SELECT * FROM no_such_table').all())).message).toContain(
      'no such table',
    )
    expect(db.inTransaction).toBe(false)
    insertElsewhere('https://example.org/after-failure')
    expect((await applications.counts()).total).toBe(1)
  })
})
