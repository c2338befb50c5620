import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {FoundJob} from '../../../src/core/jobs/dedupe.js'
import {recordRun} from '../../../src/core/jobs/run-changes.js'
import {textHash} from '../../../src/core/text-hash.js'
import {openSqlite, type SqliteDatabase} from '../../../src/storage/sqlite/database.js'
import {SqliteJobStore} from '../../../src/storage/sqlite/sqlite-job-store.js'
import {TRACKER_MIGRATIONS} from '../../../src/storage/sqlite/tracker-migrations.js'
import {tempDir} from '../../helpers/cli.js'
import {acmeJob, closesNothing, foundJobs, runRecord} from '../../helpers/job-details.js'

let dir: ReturnType<typeof tempDir>
let file: string
let db: SqliteDatabase

beforeEach(() => {
  dir = tempDir()
  file = join(dir.path, 'jobagent.db')
  db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
})

afterEach(() => {
  if (db.open) db.close()
  dir.cleanup()
})

const texts = () => db.prepare('SELECT description FROM descriptions ORDER BY description').pluck().all()

/** Found jobs whose descriptions were stored early, as a storing run hands them to the store. */
async function jobsStoredEarly(jobs: SqliteJobStore, descriptions: string[]): Promise<FoundJob[]> {
  const stored = await jobs.storeDescriptions(descriptions)
  return foundJobs(descriptions.map((_, n) => acmeJob(n))).map((found, n) => ({
    ...found,
    storedDescription: stored[n] ?? null,
  }))
}

describe('the descriptions of jobagent.db', () => {
  it('keeps each text once under its hash, and says where each is and how long', async () => {
    const jobs = new SqliteJobStore(db, file)
    const text = 'Build services – in TypeScript'
    const stored = await jobs.storeDescriptions([text, 'Other', text])
    expect(stored).toEqual([
      {hash: textHash(text), length: text.length},
      {hash: textHash('Other'), length: 5},
      {hash: textHash(text), length: text.length},
    ])
    expect(texts()).toEqual(['Build services – in TypeScript', 'Other'])
    const byHash = db.prepare('SELECT description FROM descriptions WHERE hash = ?').pluck()
    expect(byHash.get(stored[0]!.hash)).toBe(text)
  })

  it('stores jobs that point at their texts stored early, and drops the texts no stored job has', async () => {
    const jobs = new SqliteJobStore(db, file)
    const found = await jobsStoredEarly(jobs, ['First text', 'Second text'])
    // A text stored for a job the run then left out (a duplicate, the salary floor) is not kept.
    await jobs.storeDescriptions(['Left out'])
    expect(found.every((one) => one.job.description === null)).toBe(true)
    const saved = await recordRun(jobs, runRecord('2026-11-22T08:00:00.000'), {...closesNothing, found: found})
    expect(texts()).toEqual(['First text', 'Second text'])
    expect((await jobs.findJob(saved.jobs[1]!.id))?.description).toBe('Second text')
    expect((await jobs.lastRunJobs()).jobs.map((job) => job.description).sort()).toEqual(['First text', 'Second text'])
  })

  it('writes nothing for a board whose texts are all stored', async () => {
    const jobs = new SqliteJobStore(db, file)
    await jobs.storeDescriptions(['Known'])
    const changes = () => db.prepare('SELECT total_changes()').pluck().get()
    const before = changes()
    await jobs.storeDescriptions(['Known', 'Known'])
    expect(changes()).toBe(before)
  })
})

describe('upgrading jobagent.db to descriptions kept by content', () => {
  it('moves every stored description over, each text once, and the jobs still read theirs', async () => {
    db.close()
    file = join(dir.path, 'before.db')
    const previous = openSqlite(file, {migrations: TRACKER_MIGRATIONS.filter((migration) => migration.version < 8)})
    const insert = previous.prepare(
      `INSERT INTO jobs (url_key, identity_key, title, company, location, url, source, first_seen, last_seen,
       description_hash) VALUES (?, ?, 'Dev', 'Acme', '', ?, 'remoteok', '2026-11-01', '2026-11-01', ?)`,
    )
    const describe = previous.prepare('INSERT INTO job_descriptions (job_id, description) VALUES (?, ?)')
    for (const [n, text] of ['Shared text', 'Shared text', 'Own text'].entries()) {
      const id = insert.run(
        `board.example/jobs/${n}`,
        `acme|dev ${n}`,
        `https://board.example/jobs/${n}`,
        textHash(text),
      ).lastInsertRowid
      describe.run(id, text)
    }
    previous.close()

    db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
    expect(texts()).toEqual(['Own text', 'Shared text'])
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'job_descriptions'").pluck().get()).toBe(0)
    const jobs = new SqliteJobStore(db, file)
    const ids = db.prepare('SELECT id FROM jobs ORDER BY id').pluck().all() as number[]
    const read = await Promise.all(ids.map(async (id) => (await jobs.findJob(id))?.description))
    expect(read).toEqual(['Shared text', 'Shared text', 'Own text'])
  })
})
