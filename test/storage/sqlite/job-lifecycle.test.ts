import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {FoundJob} from '../../../src/core/jobs/dedupe.js'
import type {JobResponse} from '../../../src/core/jobs/job.js'
import {type BoardAnswer, previewRunJobs, recordRun} from '../../../src/core/jobs/run-changes.js'
import {salaryFromAmounts} from '../../../src/core/jobs/salary.js'
import {openSqlite, type SqliteDatabase} from '../../../src/storage/sqlite/database.js'
import {SqliteJobStore} from '../../../src/storage/sqlite/sqlite-job-store.js'
import {TRACKER_MIGRATIONS} from '../../../src/storage/sqlite/tracker-migrations.js'
import {tempDir} from '../../helpers/cli.js'
import {acmeJob, foundJobs} from '../../helpers/job-details.js'

let dir: ReturnType<typeof tempDir>
let db: SqliteDatabase
let store: SqliteJobStore

beforeEach(() => {
  dir = tempDir('jobagent-job-lifecycle-')
  const file = join(dir.path, 'jobagent.db')
  db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
  store = new SqliteJobStore(db, file)
})

afterEach(() => {
  db.close()
  dir.cleanup()
})

const posting = acmeJob

/** A run on `day` (2026-11-DD) in which each board lists the postings given for it, asked with `criteria`. */
function runOn(day: string, boards: Record<string, JobResponse[]>, criteria = 'same', closeAfterRuns = 2) {
  const found: FoundJob[] = []
  const answers: BoardAnswer[] = []
  for (const [board, postings] of Object.entries(boards)) {
    for (const job of foundJobs(postings)) {
      const already = found.find((one) => one.urlKey === job.urlKey)
      if (already) already.boards.push(board)
      else found.push({...job, boards: [board]})
    }
    const urlKeys = foundJobs(postings).map((job) => job.urlKey)
    answers.push({outcome: {name: board, ok: true, count: urlKeys.length, anomaly: null}, urlKeys})
  }
  const startedAt = `${day}T08:00:00.000`
  const record = {
    started_at: startedAt,
    finished_at: startedAt,
    status: 'ok' as const,
    mode: 'production',
    jobs_found: found.length,
    new_jobs: 0,
    notified: 0,
    sources: [],
    error: null,
  }
  return recordRun(store, record, {found, boards: answers, criteria, closeAfterRuns})
}

const closedIds = async () => (await store.closedJobs(100)).map((job) => job.id)

describe('closing jobs in jobagent.db', () => {
  it('closes a job only when every board that listed it has missed it enough runs', async () => {
    const first = await runOn('2026-11-01', {a: [posting(1), posting(2)], b: [posting(1)]})
    const id = first.jobs[0]!.id
    // a stops listing job 1; b still lists it: open however long a misses it.
    for (const day of ['2026-11-02', '2026-11-03', '2026-11-04']) await runOn(day, {a: [posting(2)], b: [posting(1)]})
    expect(await closedIds()).toEqual([])
    await runOn('2026-11-05', {a: [posting(2)], b: [posting(3)]})
    expect(await closedIds()).toEqual([])
    const closing = await runOn('2026-11-06', {a: [posting(2)], b: [posting(3)]})
    expect(closing.changes.closed.map((job) => job.id)).toEqual([id])
    expect(await closedIds()).toEqual([id])
    expect((await store.findJob(id))?.closed_at).toBe('2026-11-06T08:00:00.000')
  })

  it('counts no miss for a run asked with other criteria, and goes on counting when they are back', async () => {
    await runOn('2026-11-01', {a: [posting(1), posting(2)]})
    await runOn('2026-11-02', {a: [posting(2)]}, 'other')
    await runOn('2026-11-03', {a: [posting(2)]}, 'other')
    expect(await closedIds()).toEqual([])
    await runOn('2026-11-04', {a: [posting(2)]})
    expect(await closedIds()).toEqual([])
    await runOn('2026-11-05', {a: [posting(2)]})
    expect(await closedIds()).toHaveLength(1)
  })

  it('closes after one run with closed_after_runs 1, and a return reopens the same job', async () => {
    const first = await runOn('2026-11-01', {a: [posting(1), posting(2)]}, 'same', 1)
    await runOn('2026-11-02', {a: [posting(2)]}, 'same', 1)
    const id = first.jobs[0]!.id
    expect(await closedIds()).toEqual([id])
    const back = await runOn('2026-11-03', {a: [posting(1), posting(2)]}, 'same', 1)
    expect(back.changes).toMatchObject({reopened: 1, reposted: 1})
    expect(await store.findJob(id)).toMatchObject({closed_at: null, reopened: 1, reposted: 1})
  })
})

describe('reposts in jobagent.db', () => {
  it('takes a role under a new URL within 90 days as the same job, and after 90 days as a new one', async () => {
    const first = await runOn('2026-01-01', {a: [posting(1)]})
    const id = first.jobs[0]!.id
    const repost = await runOn('2026-03-01', {a: [posting(1, {url: 'https://board.example/jobs/1-again'})]})
    expect(repost.jobs[0]).toMatchObject({id, reposted: 1, first_seen: '2026-01-01T08:00:00.000'})
    expect(repost.jobs[0]?.also_on).toEqual([
      {source: 'remotive', url: 'https://board.example/jobs/1', location: 'Remote'},
    ])
    // Last seen on 2026-03-01: by 2026-06-15 the role is a new job.
    const later = await runOn('2026-06-15', {a: [posting(1, {url: 'https://board.example/jobs/1-third'})]})
    expect(later.jobs[0]?.id).not.toBe(id)
    expect(later.jobs[0]).toMatchObject({reposted: 0, also_on: []})
  })

  it('previews a repost as the run would store it, writing nothing', async () => {
    const first = await runOn('2026-01-01', {a: [posting(1)]})
    const moved = foundJobs([posting(1, {url: 'https://board.example/jobs/1-again'})])
    const [preview] = await previewRunJobs(store, moved, '2026-01-05T08:00:00.000')
    expect(preview).toMatchObject({id: first.jobs[0]!.id, reposted: 1})
    expect((await store.findJob(first.jobs[0]!.id))?.reposted).toBe(0)
  })
})

describe('listings of summaries in jobagent.db', () => {
  const SUMMARY = [
    'id',
    'title',
    'company',
    'location',
    'url',
    'source',
    'posted_date',
    'salary',
    'closed_at',
    'reposted',
    'also_on',
    'tags',
    'first_seen',
    'url_key',
  ]
  const summaryOf = (job: object) => Object.fromEntries(Object.entries(job).filter(([key]) => SUMMARY.includes(key)))

  it('holds the summary fields of the full listing, open and closed jobs, in the same order', async () => {
    const paid = {
      salary: salaryFromAmounts({min: 70000, max: 90000, currency: 'EUR', period: 'year'}),
      posted_date: '2026-10-30',
    }
    await runOn('2026-01-01', {a: [posting(1), posting(2, paid), posting(3)]}, 'same', 1)
    await runOn(
      '2026-01-02',
      {a: [posting(1, {url: 'https://board.example/jobs/1-again'}), posting(2, paid)]},
      'same',
      1,
    )
    const full = await store.lastRunJobs()
    const summaries = await store.lastRunJobs('summary')
    expect(full.jobs.map((job) => job.reposted)).toContain(1)
    expect(summaries).toEqual({run: full.run, jobs: full.jobs.map(summaryOf)})
    const closed = await store.closedJobs(100, 'summary')
    expect(closed).toHaveLength(1)
    expect(closed).toEqual((await store.closedJobs(100)).map(summaryOf))
  })
})

describe('a job seen again in jobagent.db', () => {
  const row = (id: number) =>
    db.prepare('SELECT last_seen, last_run_id, location, row_hash FROM jobs WHERE id = ?').get(id) as {
      last_seen: string
      last_run_id: number
      location: string
      row_hash: string
    }

  it('moves only its last-seen time when nothing changed, and is rewritten when something did', async () => {
    const first = await runOn('2026-11-01', {a: [posting(1)]})
    const id = first.jobs[0]!.id
    const before = row(id)
    const again = await runOn('2026-11-02', {a: [posting(1)]})
    expect(row(id)).toEqual({...before, last_seen: '2026-11-02T08:00:00.000', last_run_id: again.run.id})
    await runOn('2026-11-03', {a: [posting(1, {location: 'Berlin'})]})
    expect(row(id)).toMatchObject({last_seen: '2026-11-03T08:00:00.000', location: 'Berlin'})
    expect(row(id).row_hash).not.toBe(before.row_hash)
    // Back to what it was: written again, not left at Berlin.
    await runOn('2026-11-04', {a: [posting(1)]})
    expect(row(id)).toMatchObject({location: before.location, row_hash: before.row_hash})
  })

  it('is reopened when it comes back after closing, whatever its row says', async () => {
    const first = await runOn('2026-11-01', {a: [posting(1), posting(2)]}, 'same', 1)
    const id = first.jobs[0]!.id
    await runOn('2026-11-02', {a: [posting(2)]}, 'same', 1)
    expect((await store.findJob(id))?.closed_at).not.toBeNull()
    await runOn('2026-11-03', {a: [posting(1), posting(2)]}, 'same', 1)
    expect(await store.findJob(id)).toMatchObject({closed_at: null, last_seen: '2026-11-03T08:00:00.000'})
  })
})
