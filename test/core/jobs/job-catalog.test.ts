import {describe, expect, it} from 'vitest'
import {ApplicationService} from '../../../src/core/applications/application-service.js'
import {NotFoundError} from '../../../src/core/errors.js'
import type {JobResponse} from '../../../src/core/jobs/job.js'
import {JobCatalog} from '../../../src/core/jobs/job-catalog.js'
import {recordRun} from '../../../src/core/jobs/run-changes.js'
import {openSqlite} from '../../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../../src/storage/sqlite/sqlite-application-store.js'
import {SqliteJobStore} from '../../../src/storage/sqlite/sqlite-job-store.js'
import {TRACKER_MIGRATIONS} from '../../../src/storage/sqlite/tracker-migrations.js'
import {acmeJob, closesNothing, foundJobs} from '../../helpers/job-details.js'

const found = (n: number): JobResponse => acmeJob(n, {posted_date: `2026-11-0${n}T00:00:00Z`})

async function setup() {
  const db = openSqlite(':memory:', {migrations: TRACKER_MIGRATIONS})
  const store = new SqliteApplicationStore(db, ':memory:')
  const jobs = new SqliteJobStore(db, ':memory:')
  const applications = new ApplicationService(store)
  const run = {
    started_at: '2026-11-22T08:00:00.000',
    finished_at: '2026-11-22T08:00:01.000',
    status: 'ok' as const,
    mode: 'production',
    jobs_found: 3,
    new_jobs: 3,
    notified: 0,
    sources: [],
    error: null,
  }
  const saved = await recordRun(jobs, run, {...closesNothing, found: foundJobs([1, 2, 3].map(found))})
  return {
    catalog: new JobCatalog(jobs, store, applications),
    applications,
    jobs,
    run,
    ids: saved.jobs.map((job) => job.id),
  }
}

describe('job catalog', () => {
  it('lists the last run with new jobs first and the tracked status of each', async () => {
    const {catalog, applications} = await setup()
    await applications.record({...found(3), status: 'interviewing'})
    await applications.record({...found(1), status: 'saved'})
    const {jobs} = await catalog.lastRun()
    expect(jobs.map((job) => [job.title, job.tracked_status, job.is_new])).toEqual([
      ['Engineer 2', null, true],
      ['Engineer 1', 'saved', true],
      ['Engineer 3', 'interviewing', false],
    ])
    expect((await catalog.lastRun({newOnly: true})).jobs).toHaveLength(2)
  })

  it('tracks a found job by id with its own fields, letting flags override', async () => {
    const {catalog, ids} = await setup()
    const application = await catalog.track(ids[1]!, {status: 'saved', notes: 'looks good'})
    expect(application).toMatchObject({
      title: 'Engineer 2',
      company: 'Acme',
      url: 'https://board.example/jobs/2',
      source: 'remotive',
      status: 'saved',
      notes: 'looks good',
    })
    await expect(catalog.track(999, {})).rejects.toThrow(NotFoundError)
  })

  it('lists the jobs of a run that stored them and then failed (every channel down), under that run', async () => {
    const {catalog, jobs, run} = await setup()
    const second = await recordRun(
      jobs,
      {...run, started_at: '2026-11-23T08:00:00.000', jobs_found: 1, new_jobs: 1},
      {...closesNothing, found: foundJobs([found(4)])},
    )
    await jobs.completeRun(second.run.id, {
      finished_at: '2026-11-23T08:00:02.000',
      status: 'failed',
      new_jobs: 1,
      notified: 0,
      error: 'every notification channel failed',
    })
    const listing = await catalog.lastRun()
    expect(listing.run).toMatchObject({id: second.run.id, status: 'failed'})
    expect(listing.jobs.map((job) => job.title)).toEqual(['Engineer 4'])
  })

  it('keeps listing the previous jobs after a run that failed before storing any', async () => {
    const {catalog, jobs, run} = await setup()
    await jobs.saveFailedRun({...run, started_at: '2026-11-23T08:00:00.000', status: 'failed', jobs_found: 0})
    const listing = await catalog.lastRun()
    expect(listing.run?.started_at).toBe(run.started_at)
    expect(listing.jobs).toHaveLength(3)
  })
})
