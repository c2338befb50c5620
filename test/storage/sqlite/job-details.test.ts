import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {JobResponse} from '../../../src/core/jobs/job.js'
import {recordRun} from '../../../src/core/jobs/run-changes.js'
import {salaryFromAmounts} from '../../../src/core/jobs/salary.js'
import {canonicalJobUrl} from '../../../src/core/url-identity.js'
import {openSqlite, type SqliteDatabase} from '../../../src/storage/sqlite/database.js'
import {SqliteJobStore} from '../../../src/storage/sqlite/sqlite-job-store.js'
import {TRACKER_MIGRATIONS} from '../../../src/storage/sqlite/tracker-migrations.js'
import {tempDir} from '../../helpers/cli.js'
import {closesNothing, foundJobs, noDetails, openLife, runRecord} from '../../helpers/job-details.js'

let dir: ReturnType<typeof tempDir>
let file: string
const open: SqliteDatabase[] = []

beforeEach(() => {
  dir = tempDir('jobagent-job-details-')
  file = join(dir.path, 'jobagent.db')
})

afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close()
  dir.cleanup()
})

function store() {
  const db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
  open.push(db)
  return {db, jobs: new SqliteJobStore(db, file)}
}

const rich: JobResponse = {
  title: 'Backend Engineer',
  company: 'Acme',
  location: 'Remote, EU',
  url: 'https://board.example/jobs/1',
  source: 'himalayas',
  posted_date: '2026-11-20T00:00:00Z',
  description: 'About us\n\n- TypeScript\n- PostgreSQL',
  salary: salaryFromAmounts({min: 70000, max: 90000, currency: 'EUR', period: 'year'}),
  employment_type: 'full_time',
  remote: true,
  regions: ['Europe', 'United Kingdom'],
  timezones: ['UTC', 'UTC+1'],
  seniority: 'Senior',
  tags: ['backend', 'node.js'],
  board_id: 'h-1',
  company_url: 'https://acme.example',
}

describe('job details in jobagent.db', () => {
  it('stores every detail and reads it back as it was given', async () => {
    const {jobs} = store()
    const saved = await recordRun(jobs, runRecord('2026-11-22T08:00:00.000'), {
      ...closesNothing,
      found: foundJobs([rich]),
    })
    const id = saved.jobs[0]!.id
    expect(await jobs.findJob(id)).toEqual({
      ...rich,
      id,
      first_seen: '2026-11-22T08:00:00.000',
      last_seen: '2026-11-22T08:00:00.000',
      notified_at: null,
      ...openLife(),
    })
    const listed = await jobs.lastRunJobs()
    expect(listed.jobs[0]).toMatchObject({...rich, url_key: canonicalJobUrl(rich.url)})
  })

  it('takes the details of the latest listing, including a board that stopped giving them', async () => {
    const {jobs} = store()
    await recordRun(jobs, runRecord('2026-11-22T08:00:00.000'), {...closesNothing, found: foundJobs([rich])})
    const plain = {...rich, ...noDetails()}
    const again = await recordRun(jobs, runRecord('2026-11-23T08:00:00.000'), {
      ...closesNothing,
      found: foundJobs([plain]),
    })
    expect(await jobs.findJob(again.jobs[0]!.id)).toMatchObject({...noDetails(), first_seen: '2026-11-22T08:00:00.000'})
  })

  it('keeps each description text once, replaced when the board changes it and dropped when no job has it', async () => {
    const {db, jobs} = store()
    const twin = {...rich, url: 'https://other.example/jobs/twin', title: 'Another role'}
    const first = await recordRun(jobs, runRecord('2026-11-22T08:00:00.000'), {
      ...closesNothing,
      found: foundJobs([rich, twin]),
    })
    const id = first.jobs[0]!.id
    const texts = () => db.prepare('SELECT description FROM descriptions ORDER BY description').pluck().all()
    // Two jobs with one text: one row.
    expect(texts()).toEqual([rich.description])
    await recordRun(jobs, runRecord('2026-11-23T08:00:00.000'), {...closesNothing, found: foundJobs([rich])})
    expect(texts()).toEqual([rich.description])
    await recordRun(jobs, runRecord('2026-11-24T08:00:00.000'), {
      ...closesNothing,
      found: foundJobs([
        {...rich, description: 'Rewritten'},
        {...twin, description: null},
      ]),
    })
    expect(texts()).toEqual(['Rewritten'])
    expect((await jobs.findJob(id))?.description).toBe('Rewritten')
    expect((await jobs.findJob(first.jobs[1]!.id))?.description).toBeNull()
  })

  it('upgrades a database of the previous version: its jobs stay, with no details', async () => {
    // The schema as the release before the details wrote it, with a stored job.
    const previous = TRACKER_MIGRATIONS.filter((migration) => migration.version < 3)
    const before = openSqlite(file, {migrations: previous})
    before
      .prepare(
        `INSERT INTO jobs (url_key, identity_key, title, company, location, url, source, posted_date, first_seen,
         last_seen) VALUES ('board.example/jobs/9', 'acme|dev|berlin', 'Dev', 'Acme', 'Berlin',
         'https://board.example/jobs/9', 'remoteok', '2026-11-01', '2026-11-01T00:00:00.000', '2026-11-01T00:00:00.000')`,
      )
      .run()
    before.close()

    const {db, jobs} = store()
    expect(db.pragma('user_version', {simple: true})).toBe(Math.max(...TRACKER_MIGRATIONS.map((m) => m.version)))
    const id = db.prepare('SELECT id FROM jobs').pluck().get() as number
    expect(await jobs.findJob(id)).toEqual({
      id,
      title: 'Dev',
      company: 'Acme',
      location: 'Berlin',
      url: 'https://board.example/jobs/9',
      source: 'remoteok',
      posted_date: '2026-11-01',
      ...noDetails(),
      first_seen: '2026-11-01T00:00:00.000',
      last_seen: '2026-11-01T00:00:00.000',
      notified_at: null,
      ...openLife(),
    })
    // Version 5 recognises a role by company and title: the stored key loses its location.
    expect(db.prepare('SELECT identity_key FROM jobs').pluck().get()).toBe('acme|dev')
  })
})
