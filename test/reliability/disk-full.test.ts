import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {UnavailableError} from '../../src/core/errors.js'
import {openSqlite, read, writeTransaction} from '../../src/storage/sqlite/database.js'
import {tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'
import {serveBuilt} from '../helpers/serve.js'
import {mountSmallFilesystem, type SmallFilesystem, tmpfsUnavailable} from '../helpers/tmpfs.js'

/**
 * The CLI's commands on a real, nearly full file system (a 2 MiB tmpfs mounted by the test). Before, a short write was
 * ignored: export-csv and config set printed success and left a truncated file in place of the previous one.
 */
describe.skipIf(tmpfsUnavailable !== undefined)('a nearly full disk (a real 2 MiB tmpfs)', () => {
  let disk: SmallFilesystem
  let outside: ReturnType<typeof tempDir>
  let home: string
  let jobsFile: string
  const cli = (...args: string[]) => runCommandLine(args, {home})

  beforeEach(async () => {
    disk = mountSmallFilesystem(2048)
    outside = tempDir('jobagent-disk-full-')
    home = join(disk.path, 'home')
    jobsFile = join(outside.path, 'jobs.json')
    writeFileSync(jobsFile, '[]')
    expect((await cli('config', 'set', 'sources', JSON.stringify([{type: 'file', path: jobsFile}]))).code).toBe(0)
    const applications = Array.from({length: 2000}, (_, index) => ({
      title: `Engineer ${index}`,
      company: `Acme ${index}`,
      location: 'Remote',
      url: `https://example.org/jobs/${index}`,
      source: 'test',
    }))
    const file = join(outside.path, 'applications.json')
    writeFileSync(file, JSON.stringify(applications))
    expect((await cli('import', file)).code).toBe(0)
  })
  afterEach(() => {
    disk.unmount()
    outside.cleanup()
  })

  /** Nothing but the expected files: no temporary file was left on the full disk. */
  const leftovers = () => readdirSync(home).filter((name) => name.includes('.tmp'))

  it('export-csv exits 1 with "disk full: <path> was not changed" and the earlier export stays byte for byte', async () => {
    const output = join(home, 'applications.csv')
    expect((await cli('export-csv', '--output', output)).code).toBe(0)
    const before = readFileSync(output)
    expect(before.length).toBeGreaterThan(150_000)
    // Room for the database's shared-memory file, not for the 190 KB export.
    disk.fill(100 * 1024)

    const result = await cli('export-csv', '--output', output)

    expect(result.stderr).toContain(`Error: disk full: ${output} was not changed`)
    expect(result.stderr).toContain('Hint: free some space')
    expect(result.stderr).not.toContain('bug')
    expect(result.stdout).toBe('')
    expect(result.code).toBe(1)
    expect(readFileSync(output).equals(before)).toBe(true)
    expect(leftovers()).toEqual([])
  })

  it('config set exits 1 with "disk full: <path> was not changed" and the config file stays byte for byte', async () => {
    const config = join(home, 'config.json')
    const before = readFileSync(config)
    disk.fill(100 * 1024)
    const keywords = Array.from({length: 10_000}, (_, index) => `keyword${index}`).join(',')

    const result = await cli('config', 'set', 'search.keywords', keywords)

    expect(result.stderr).toContain(`Error: disk full: ${config} was not changed`)
    expect(result.stderr).not.toContain('bug')
    expect(result.code).toBe(1)
    expect(readFileSync(config).equals(before)).toBe(true)
    expect(leftovers()).toEqual([])
    const stored = await cli('config', 'get', 'search.keywords', '--json')
    expect(stored.code).toBe(0)
    expect(JSON.parse(stored.stdout)).toEqual([])
  })

  it("status and serve read a full disk's tracker and say why every change fails; with room again it changes", async () => {
    const db = join(home, 'jobagent.db')
    const track = (url: string) =>
      cli('apply', url, '--title', 'Engineer', '--company', 'Initech', '--location', 'Remote', '--source', 'test')
    disk.fill()

    const status = await cli('status', '--json')
    expect(status.stderr).not.toContain('disk I/O error')
    expect(status.stderr).toContain(`WARNING | jobagent | ${db} is open for reading only: its disk is full`)
    expect(status.code).toBe(0)
    expect(JSON.parse(status.stdout)).toHaveLength(2000)
    const text = await cli('status')
    expect(text.code).toBe(0)
    expect(text.stdout).toContain('Acme 1999')
    const refused = await track('https://example.org/jobs/new')
    expect(refused.stderr).toContain(`Error: disk full: ${db} was not changed`)
    expect(refused.stderr).toContain('Hint: free some space')
    expect(refused.code).toBe(1)

    const server = await serveBuilt(home)
    try {
      expect(server.stderr()).toContain(`${db} is open for reading only: its disk is full`)
      const page = (await (await fetch(`${server.url}/applications?limit=5`)).json()) as {total: number}
      expect(page.total).toBe(2000)
      const health = (await (await fetch(`${server.url}/health`)).json()) as {
        status: string
        checks: {tracker_database: [{status: string; output: string}]}
      }
      expect(health.checks.tracker_database[0]).toMatchObject({
        status: 'warn',
        output: 'the SQLite database cannot be written: its disk is full',
      })
      const posted = await fetch(`${server.url}/applications`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({
          title: 'T',
          company: 'C',
          location: '',
          url: 'https://example.org/jobs/api',
          source: 's',
        }),
      })
      expect(posted.status).toBe(503)
      expect(JSON.stringify(await posted.json())).toContain('its disk is full')
    } finally {
      await server.stop()
    }

    disk.free()
    expect((await track('https://example.org/jobs/new')).code).toBe(0)
    expect(JSON.parse((await cli('status', '--json')).stdout)).toHaveLength(2001)
    expect(leftovers()).toEqual([])
  }, 60_000)

  it('run on a full disk exits 1 naming the run lock it could not create, and leaves no lock behind', async () => {
    disk.fill()

    const result = await cli('run')

    expect(result.stderr).toContain(`Error: cannot create ${join(home, 'run.lock')}: disk full`)
    expect(result.stderr).toContain('Hint: free some space')
    expect(result.stderr).not.toContain('bug')
    expect(result.code).toBe(1)
    expect(existsSync(join(home, 'run.lock'))).toBe(false)
    expect(leftovers()).toEqual([])
  })

  it('a run whose jobs the database cannot hold exits 1 with "disk full" and stores none of them', async () => {
    // 120 jobs with 3 KB descriptions, where 100 KB is free: the texts go to the database as the board answers,
    // then the jobs.
    const jobs = Array.from({length: 120}, (_, index) => ({
      title: `Engineer ${index}`,
      company: 'Initech',
      location: 'Remote',
      url: `https://example.org/board/${index}`,
      description: `Job ${index}: ${'build and run services. '.repeat(128)}`,
    }))
    writeFileSync(jobsFile, JSON.stringify(jobs))
    disk.fill(100 * 1024)

    const result = await cli('run')

    expect(result.stderr).toContain(`Error: disk full: ${join(home, 'jobagent.db')} was not changed`)
    expect(result.stderr).not.toContain('bug')
    expect(result.code).toBe(1)
    expect(existsSync(join(home, 'run.lock'))).toBe(false)
    disk.free()
    const after = await cli('jobs', '--json')
    expect(after.code).toBe(0)
    expect(JSON.parse(after.stdout)).toEqual([])
    // With room again, the same run stores every job with its description.
    const again = await cli('run')
    expect(again.stderr).not.toContain('Error')
    expect(again.code).toBe(0)
    const stored = JSON.parse((await cli('jobs', '--json')).stdout) as {description: string}[]
    expect(stored).toHaveLength(120)
    expect(stored.every((job) => job.description.startsWith('Job '))).toBe(true)
  })

  it('an import the database cannot hold exits 1 with "disk full" and stores none of its records', async () => {
    const more = Array.from({length: 4000}, (_, index) => ({
      title: `Engineer ${index}`,
      company: 'Initech',
      location: 'Remote',
      url: `https://example.org/more/${index}`,
      source: 'test',
    }))
    const file = join(outside.path, 'more.json')
    writeFileSync(file, JSON.stringify(more))
    disk.fill(100 * 1024)

    const result = await cli('import', file)

    expect(result.stderr).toContain(`Error: disk full: ${join(home, 'jobagent.db')} was not changed`)
    expect(result.stderr).not.toContain('bug')
    expect(result.code).toBe(1)
    disk.free()
    const after = await cli('status', '--json')
    expect(after.code).toBe(0)
    expect(JSON.parse(after.stdout)).toHaveLength(2000)
  })
})

/**
 * A write transaction larger than SQLite's page cache spills into the WAL while its statements run: on a full disk
 * the statement fails with SQLITE_FULL and SQLite rolls back the whole transaction, not only the write's savepoint.
 * Before, the batch went on without a transaction and its COMMIT failed with "cannot commit - no transaction is
 * active", reported as a bug.
 */
describe.skipIf(tmpfsUnavailable !== undefined)('a full disk in the middle of a write (a real tmpfs)', () => {
  let disk: SmallFilesystem
  let outside: ReturnType<typeof tempDir>
  beforeEach(() => {
    disk = mountSmallFilesystem(16384)
    outside = tempDir('jobagent-disk-full-')
  })
  afterEach(() => {
    disk.unmount()
    outside.cleanup()
  })

  it('a run whose jobs spill out of the page cache exits 1 with "disk full" and a hint, never as a bug', async () => {
    const home = join(disk.path, 'home')
    const cli = (...args: string[]) => runCommandLine(args, {home})
    const jobsFile = join(outside.path, 'jobs.json')
    const jobs = Array.from({length: 40_000}, (_, index) => ({
      title: `Engineer ${index}`,
      company: `Initech ${index}`,
      location: 'Remote',
      url: `https://example.org/board/${index}`,
    }))
    writeFileSync(jobsFile, JSON.stringify(jobs))
    expect((await cli('config', 'set', 'sources', JSON.stringify([{type: 'file', path: jobsFile}]))).code).toBe(0)
    disk.fill(1024 * 1024)

    const result = await cli('run')

    expect(result.stderr).toContain(`Error: disk full: ${join(home, 'jobagent.db')} was not changed`)
    expect(result.stderr).toContain('Hint: free some space')
    expect(result.stderr).not.toContain('no transaction is active')
    expect(result.stderr).not.toContain('bug')
    expect(result.code).toBe(1)
    expect(existsSync(join(home, 'run.lock'))).toBe(false)
    disk.free()
    const after = await cli('jobs', '--json')
    expect(after.code).toBe(0)
    expect(JSON.parse(after.stdout)).toEqual([])
  }, 90_000)

  it('fails every write of the batch when one fills the disk; none of them runs outside the transaction', async () => {
    const file = join(disk.path, 'batch.db')
    const db = openSqlite(file, {migrations: [{version: 1, sql: 'CREATE TABLE notes (body TEXT NOT NULL)'}]})
    // A small page cache: the large write spills into the WAL while it runs, as a large run does.
    db.pragma('cache_size = 16')
    disk.fill(256 * 1024)
    const insert = db.prepare('INSERT INTO notes (body) VALUES (?)')
    try {
      const outcomes = await Promise.allSettled([
        writeTransaction(db, file, () => {
          for (let index = 0; index < 2000; index++) insert.run(`${index} ${'x'.repeat(2000)}`)
        }),
        writeTransaction(db, file, () => insert.run('small')),
        writeTransaction(db, file, () => insert.run('another small one')),
      ])
      for (const outcome of outcomes) {
        expect(outcome.status).toBe('rejected')
        const reason = (outcome as PromiseRejectedResult).reason as Error
        expect(reason).toBeInstanceOf(UnavailableError)
        expect(reason.message).toBe(`disk full: ${file} was not changed`)
      }
      expect(read(db, file, () => db.prepare('SELECT count(*) FROM notes').pluck().get())).toBe(0)
    } finally {
      db.close()
    }
  })
})
