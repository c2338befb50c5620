// Crash safety with real processes: the built CLI and `jobagent serve` are killed with SIGKILL (no handler runs,
// nothing is flushed) at a moment when they are writing, then the files they leave are checked. Each test waits
// for an observable sign that the process is inside the write before killing it, and asserts that the kill
// landed there (the process died of SIGKILL instead of finishing), so a test cannot pass by killing too late.
// Only the processes that are killed are spawned: the commands that prepare a home or check what the kill left
// run in this process, and the 10,000 records are written to a file once for the whole file.
import {type ChildProcess, spawn} from 'node:child_process'
import {copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {BIN, ROOT, tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'
import {application, seedTracker} from '../helpers/tracker.js'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function home(): string {
  const dir = tempDir('jobagent-crash-')
  cleanups.push(dir.cleanup)
  writeFileSync(join(dir.path, 'config.json'), JSON.stringify({sources: []}), {mode: 0o600})
  return dir.path
}

interface Running {
  child: ChildProcess
  stderr: () => string
  /** Resolves when the process has ended, with its exit code or the signal that ended it. */
  ended: Promise<{code: number | null; signal: NodeJS.Signals | null}>
}

/** The built CLI in its own process; killed with SIGKILL after `limitMs` (and after the test) at the latest. */
function start(args: string[], dir: string, limitMs = 60_000): Running {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: {PATH: process.env.PATH, HOME: dir, JOBAGENT_HOME: dir, NO_COLOR: '1'},
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const limit = setTimeout(() => child.kill('SIGKILL'), limitMs)
  const ended = new Promise<{code: number | null; signal: NodeJS.Signals | null}>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(limit)
      resolve({code, signal})
    }),
  )
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await ended
  })
  return {child, stderr: () => stderr, ended}
}

/** Calls `check` every millisecond until it returns true; rejects after `limitMs`. */
function pollUntil(check: () => boolean, what: string, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      try {
        if (check()) {
          clearInterval(timer)
          resolve()
        } else if (Date.now() > deadline) {
          clearInterval(timer)
          reject(new Error(`timed out waiting for ${what}`))
        }
      } catch (error) {
        clearInterval(timer)
        reject(error)
      }
    }, 1)
  })
}

async function serve(dir: string): Promise<Running & {url: string}> {
  const running = start(['serve', '--port', '0'], dir)
  await pollUntil(() => /Listening on http:\/\/\S+/.test(running.stderr()), 'the server to listen', 20_000)
  const url = /Listening on (http:\/\/\S+)/.exec(running.stderr())?.[1] ?? ''
  return {...running, url}
}

function fileSize(path: string): number {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

/** Opens the database as the next jobagent command would (recovering the WAL) and checks every page. */
function checkedDatabase(dir: string): Database.Database {
  const db = new Database(join(dir, 'jobagent.db'))
  cleanups.push(() => {
    if (db.open) db.close()
  })
  expect(db.pragma('integrity_check', {simple: true})).toBe('ok')
  expect(db.pragma('foreign_key_check')).toEqual([])
  return db
}

/** The commands that set a home up or use it after the kill: nothing about their process is under test. */
function jobagent(args: string[], dir: string) {
  return runCommandLine(args, {home: dir})
}

function records(count: number, prefix: string): Record<string, string>[] {
  // Long notes make the rows big enough that the write spills pages into the WAL before it commits; their size,
  // not their number, is the point, and fewer rows cost less to validate.
  return Array.from({length: count}, (_, n) => ({
    title: `Engineer ${n}`,
    company: `Company ${n % 500}`,
    location: 'Remote',
    url: `https://example.org/${prefix}/${n}`,
    source: 'bulk',
    applied_date: '2026-11-01T00:00:00.000',
    status: n % 5 === 0 ? 'saved' : 'applied',
    notes: `${n} ${'n'.repeat(2000)}`,
  }))
}

describe('jobagent serve killed with SIGKILL under write load', () => {
  it('keeps every application it answered 201 for, and the database passes its integrity check', async () => {
    const dir = home()
    const server = await serve(dir)
    const total = 1000
    const killAfter = 300
    const acknowledged: string[] = []
    const unexpected: number[] = []
    let failedConnections = 0
    let next = 0
    const post = async (url: string, base = server.url) => {
      const body = JSON.stringify({title: 'Engineer', company: 'Acme', location: 'Remote', url, source: 'crash'})
      const response = await fetch(`${base}/applications`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body,
        signal: AbortSignal.timeout(15_000),
      })
      await response.arrayBuffer()
      return response.status
    }
    // 64 clients, each sending its next request as soon as the last is answered; the server is killed once 300
    // records are acknowledged, while the other clients' requests are still in flight.
    const client = async () => {
      while (next < total) {
        const url = `https://example.org/crash/${next++}`
        try {
          const status = await post(url)
          if (status === 201) acknowledged.push(url)
          else unexpected.push(status)
        } catch {
          failedConnections++
        }
        if (acknowledged.length >= killAfter && server.child.signalCode === null) server.child.kill('SIGKILL')
      }
    }
    await Promise.all(Array.from({length: 64}, client))
    expect(await server.ended).toEqual({code: null, signal: 'SIGKILL'})
    expect(unexpected).toEqual([])
    expect(acknowledged.length).toBeGreaterThanOrEqual(killAfter)
    expect(failedConnections).toBeGreaterThan(0)

    // The restarted server recovers the database and still has every acknowledged record.
    const restarted = await serve(dir)
    const listed = (await (await fetch(`${restarted.url}/applications?limit=1000`)).json()) as {
      applications: {url: string}[]
    }
    const urls = new Set(listed.applications.map((record) => record.url))
    expect(acknowledged.filter((url) => !urls.has(url))).toEqual([])
    expect(urls.size).toBeLessThanOrEqual(total)
    expect(await post('https://example.org/after-the-crash', restarted.url)).toBe(201)
    restarted.child.kill('SIGTERM')
    expect(await restarted.ended).toEqual({code: 0, signal: null})

    const db = checkedDatabase(dir)
    expect(db.prepare('SELECT count(*) FROM applications').pluck().get()).toBe(urls.size + 1)
  }, 120_000)
})

/** 10,000 records in an import file, written once: neither test that imports them changes the file. */
const bulk = tempDir('jobagent-crash-bulk-')
const BULK = join(bulk.path, 'bulk.json')
beforeAll(() => writeFileSync(BULK, JSON.stringify(records(10_000, 'bulk'))))
afterAll(() => bulk.cleanup())

describe('jobagent import killed with SIGKILL in the middle of its transaction', () => {
  it('leaves none or all of the 10,000 records, never a part, and a database the next import can use', async () => {
    const dir = home()
    const seeded = [
      application({url: 'https://example.org/kept/1', notes: 'before'}),
      application({url: 'https://example.org/kept/2'}),
    ]
    await seedTracker(dir, seeded)
    const file = BULK
    const wal = join(dir, 'jobagent.db-wal')

    // The import validates all rows first, then writes them in one transaction. Its rows (22 MB) do not fit in
    // SQLite's page cache, so pages spill into the WAL before the commit: a WAL past 1 MiB means the process is
    // inside the transaction with uncommitted frames on disk, the state recovery has to undo.
    const importing = start(['import', file], dir)
    await pollUntil(() => fileSize(wal) > 1024 * 1024 || importing.child.exitCode !== null, 'the WAL to grow')
    importing.child.kill('SIGKILL')
    expect(await importing.ended, importing.stderr()).toEqual({code: null, signal: 'SIGKILL'})

    const db = checkedDatabase(dir)
    const bulk = db.prepare(`SELECT count(*) FROM applications WHERE url LIKE 'https://example.org/bulk/%'`).pluck()
    expect([0, 10_000]).toContain(bulk.get())
    expect(db.prepare(`SELECT url, notes FROM applications WHERE url LIKE '%/kept/%' ORDER BY id`).all()).toEqual([
      {url: 'https://example.org/kept/1', notes: 'before'},
      {url: 'https://example.org/kept/2', notes: ''},
    ])
    db.close()

    const again = await jobagent(['import', file], dir)
    expect(again.code, again.stderr).toBe(0)
    const after = checkedDatabase(dir)
    expect(after.prepare('SELECT count(*) FROM applications').pluck().get()).toBe(10_002)
  }, 120_000)
})

describe('jobagent export-csv killed with SIGKILL while writing', () => {
  // The 10,000 records are imported and exported in full once; each case exports from its own copy of that
  // database, so a complete export of it is that same file.
  const imported = tempDir('jobagent-crash-imported-')
  const complete = join(imported.path, 'complete.csv')
  beforeAll(async () => {
    writeFileSync(join(imported.path, 'config.json'), JSON.stringify({sources: []}), {mode: 0o600})
    const result = await jobagent(['import', BULK], imported.path)
    expect(result.code, result.stderr).toBe(0)
    // The import closed its database: everything is in the main file, no WAL is left to copy with it.
    expect(existsSync(join(imported.path, 'jobagent.db-wal'))).toBe(false)
    expect((await jobagent(['export-csv', '--output', complete], imported.path)).code).toBe(0)
  }, 120_000)
  afterAll(() => imported.cleanup())

  it.each([
    ['no file at the target yet', false],
    ['an earlier export at the target', true],
  ])(
    'leaves %s as it was, never a partial file at the target path',
    async (_case, earlier) => {
      const dir = home()
      copyFileSync(join(imported.path, 'jobagent.db'), join(dir, 'jobagent.db'))
      const exports = join(dir, 'exports')
      mkdirSync(exports)
      const target = join(exports, 'applications.csv')
      if (earlier)
        writeFileSync(target, 'title,company,location,url,source,applied_date,status,notes\r\nearlier,export\r\n')
      const before = existsSync(target) ? readFileSync(target) : null

      // The export writes the whole CSV (about 20 MB) to a temporary file beside the target, fsyncs it and renames
      // it over the target; killing it once the temporary file exists hits the write or the fsync.
      const exporting = start(['export-csv', '--output', target], dir)
      const temporary = () => readdirSync(exports).some((name) => name.startsWith('applications.csv.'))
      await pollUntil(() => temporary() || exporting.child.exitCode !== null, 'the temporary file')
      exporting.child.kill('SIGKILL')
      expect(await exporting.ended, exporting.stderr()).toEqual({code: null, signal: 'SIGKILL'})

      const now = existsSync(target) ? readFileSync(target) : null
      const outcome =
        now === null
          ? 'absent'
          : before?.equals(now)
            ? 'as before'
            : now.equals(readFileSync(complete))
              ? 'complete'
              : `partial (${now.length} bytes)`
      expect(before === null ? ['absent', 'complete'] : ['as before', 'complete']).toContain(outcome)
    },
    120_000,
  )
})

describe('jobagent run killed with SIGKILL while storing the jobs it found', () => {
  /** A RemoteOK-shaped board: `/a/api` lists jobs 0-1,999, `/b/api` jobs 1,000-20,999 (1,000 seen before). */
  async function boards(): Promise<string> {
    const job = (n: number) => ({
      id: String(n),
      position: `Engineer ${n}`,
      company: `Company ${n % 977}`,
      location: `City ${n % 50}`,
      url: `https://remoteok.com/remote-jobs/job-${n}`,
      date: '2026-11-01T00:00:00+00:00',
    })
    const body = (from: number, to: number) =>
      JSON.stringify([{legal: 'API Terms of Service'}, ...Array.from({length: to - from}, (_, n) => job(from + n))])
    const bodies: Record<string, string> = {'/a/api': body(0, 2000), '/b/api': body(1000, 21_000)}
    const server = createServer((request, response) => {
      const text = bodies[request.url?.split('?')[0] ?? ''] ?? '[]'
      response.writeHead(200, {'content-type': 'application/json'}).end(text)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }

  function configure(dir: string, board: string): void {
    writeFileSync(join(dir, 'config.json'), JSON.stringify({sources: [{type: 'remoteok', url: board}]}), {
      mode: 0o600,
    })
  }

  type Row = Record<string, unknown>
  function tables(db: Database.Database): Record<'jobs' | 'runs' | 'applications' | 'status_history', Row[]> {
    const all = (table: string) => db.prepare(`SELECT * FROM ${table} ORDER BY id`).all() as Row[]
    return {
      jobs: all('jobs'),
      runs: all('runs'),
      applications: all('applications'),
      status_history: all('status_history'),
    }
  }

  /** The jobs with this run's own timestamps and id replaced, so two runs over the same data compare equal. */
  function asSeenBy(jobs: Row[], run: Row | undefined): Row[] {
    const mark = (value: unknown, own: unknown) => (value === own ? 'this run' : value)
    return jobs.map((job) => ({
      ...job,
      first_seen: mark(job.first_seen, run?.started_at),
      last_seen: mark(job.last_seen, run?.started_at),
      last_run_id: mark(job.last_run_id, run?.id),
    }))
  }

  /** True while another connection holds the write lock (the probe takes it for an instant otherwise). */
  function writeLockHeld(db: Database.Database): boolean {
    try {
      db.exec('BEGIN IMMEDIATE')
      db.exec('ROLLBACK')
      return false
    } catch (error) {
      if ((error as {code?: string}).code === 'SQLITE_BUSY') return true
      throw error
    }
  }

  it('leaves the jobs, runs and tracker tables as before the run or as a finished run leaves them', async () => {
    const board = await boards()
    const dir = home()
    await seedTracker(dir, [
      application({url: 'https://remoteok.com/remote-jobs/job-1500', status: 'applied'}),
      application({url: 'https://example.org/jobs/saved', status: 'saved', notes: 'mine'}),
    ])
    configure(dir, `${board}/a`)
    const first = await jobagent(['run', '--notify', 'log://', '--quiet'], dir)
    expect(first.code, first.stderr).toBe(0)
    const file = join(dir, 'jobagent.db')
    const snapshot = new Database(file, {readonly: true})
    const before = tables(snapshot)
    snapshot.close()
    expect(before.jobs).toHaveLength(2000)

    // The same run, finished, on a copy of the database: what "fully updated" looks like.
    const reference = tempDir('jobagent-crash-reference-')
    cleanups.push(reference.cleanup)
    copyFileSync(file, join(reference.path, 'jobagent.db'))
    configure(reference.path, `${board}/b`)
    configure(dir, `${board}/b`)

    // The run logs "Jobs found" and then stores them in one transaction (about 20,000 upserts, a few hundred
    // ms). From that line on, the write lock held by another connection means the run is inside that
    // transaction: the run takes no other write lock before "New jobs" is logged.
    const probe = new Database(file, {timeout: 0})
    cleanups.push(() => {
      if (probe.open) probe.close()
    })
    const running = start(['run'], dir)
    await pollUntil(
      () => running.child.exitCode !== null || (running.stderr().includes('| Jobs found: ') && writeLockHeld(probe)),
      'the run to store its jobs',
    )
    running.child.kill('SIGKILL')
    probe.close()
    expect(await running.ended, running.stderr()).toEqual({code: null, signal: 'SIGKILL'})
    expect(running.stderr()).not.toContain('New jobs')

    const db = checkedDatabase(dir)
    const after = tables(db)
    db.close()
    expect(after.applications).toEqual(before.applications)
    expect(after.status_history).toEqual(before.status_history)
    if (after.runs.length === before.runs.length) {
      expect(after.runs).toEqual(before.runs)
      expect(after.jobs).toEqual(before.jobs)
    } else {
      // Stored before the kill: every job as the finished run stored it (notifying and completing the run row
      // come after, in their own transactions). The finished run is only needed, and so only made, here.
      const finished = await jobagent(['run', '--quiet'], reference.path)
      expect(finished.code, finished.stderr).toBe(0)
      const referenceDb = new Database(join(reference.path, 'jobagent.db'), {readonly: true})
      const full = tables(referenceDb)
      referenceDb.close()
      const run = after.runs.at(-1)
      expect(after.runs).toHaveLength(before.runs.length + 1)
      expect(run).toMatchObject({jobs_found: 20_000, new_jobs: full.runs.at(-1)?.new_jobs})
      expect(asSeenBy(after.jobs, run)).toEqual(asSeenBy(full.jobs, full.runs.at(-1)))
    }

    // The lock file the killed run left behind names a dead process: the next run takes it over and finishes.
    const next = await jobagent(['run', '--quiet'], dir)
    expect(next.code, next.stderr).toBe(0)
    expect(existsSync(join(dir, 'run.lock'))).toBe(false)
  }, 120_000)
})
