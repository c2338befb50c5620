import {describe, expect, it} from 'vitest'
import {ApplicationService} from '../../../src/core/applications/application-service.js'
import {ConflictError} from '../../../src/core/errors.js'
import type {JobResponse} from '../../../src/core/jobs/job.js'
import {JobCatalog} from '../../../src/core/jobs/job-catalog.js'
import {JobSearch} from '../../../src/core/jobs/job-search.js'
import {trackingOfJob} from '../../../src/core/jobs/job-tracking.js'
import {AgentRun} from '../../../src/core/run/agent-run.js'
import {jobApplicationKeys} from '../../../src/core/url-identity.js'
import {openSqlite} from '../../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../../src/storage/sqlite/sqlite-application-store.js'
import {SqliteJobStore} from '../../../src/storage/sqlite/sqlite-job-store.js'
import {TRACKER_MIGRATIONS} from '../../../src/storage/sqlite/tracker-migrations.js'
import {EMPTY_CRITERIA} from '../../helpers/criteria.js'
import {noDetails} from '../../helpers/job-details.js'
import {memoryLogger} from '../../helpers/memory-log.js'

const job = (n: number, url: string): JobResponse => ({
  ...noDetails(),
  title: `Engineer ${n}`,
  company: `Company ${n}`,
  location: 'Remote',
  url,
  source: 'board',
  posted_date: '2026-11-20T00:00:00Z',
})

describe('jobApplicationKeys', () => {
  it('gives the URL as posted and without tracking parameters, one key when they agree', () => {
    expect(jobApplicationKeys('https://Board.example/jobs/1/?utm_source=x&id=7')).toEqual([
      'https://board.example/jobs/1?utm_source=x&id=7',
      'https://board.example/jobs/1?id=7',
    ])
    expect(jobApplicationKeys('https://BOARD.example/jobs/1/')).toEqual(['https://board.example/jobs/1'])
  })
})

describe('trackingOfJob', () => {
  const keys = jobApplicationKeys('https://board.example/jobs/1?utm_source=x')
  const plain = 'https://board.example/jobs/1'

  it('finds an application tracked under the canonical URL', () => {
    const tracked = new Map([[plain, {url: plain, status: 'interviewing' as const}]])
    expect(trackingOfJob(keys, tracked)).toEqual({tracked_status: 'interviewing', tracked_url: plain, is_new: false})
  })

  it('counts a saved application as tracked but still new', () => {
    const tracked = new Map([[plain, {url: plain, status: 'saved' as const}]])
    expect(trackingOfJob(keys, tracked)).toEqual({tracked_status: 'saved', tracked_url: plain, is_new: true})
  })

  it('prefers the application applied for when both keys are tracked, so the status and newness agree', () => {
    const asPosted = 'https://board.example/jobs/1?utm_source=x'
    const tracked = new Map([
      [asPosted, {url: asPosted, status: 'saved' as const}],
      [plain, {url: plain, status: 'applied' as const}],
    ])
    expect(trackingOfJob(keys, tracked)).toEqual({tracked_status: 'applied', tracked_url: plain, is_new: false})
  })

  it('judges an untracked job new', () => {
    expect(trackingOfJob(keys, new Map())).toEqual({tracked_status: null, tracked_url: null, is_new: true})
  })
})

describe('the run, the job list and a search judge alike', () => {
  it('agree on which jobs are new when board URLs carry tracking parameters', async () => {
    const db = openSqlite(':memory:', {migrations: TRACKER_MIGRATIONS})
    const applicationStore = new SqliteApplicationStore(db, ':memory:')
    const jobStore = new SqliteJobStore(db, ':memory:')
    const applications = new ApplicationService(applicationStore)
    const found = [
      job(1, 'https://board.example/jobs/1?utm_source=x'), // tracked plain, applied: not new
      job(2, 'https://board.example/jobs/2?utm_campaign=y'), // tracked plain, saved: new
      job(3, 'https://board.example/jobs/3'), // tracked from a link with a tracking parameter, applied: not new
      job(4, 'https://board.example/jobs/4?ref=z'), // untracked: new
    ]
    const track = (n: number, url: string, status: string) =>
      applications.record({title: `T${n}`, company: 'C', url, source: 'board', status})
    await track(1, 'https://board.example/jobs/1', 'applied')
    await track(2, 'https://board.example/jobs/2', 'saved')
    await track(3, 'https://board.example/jobs/3?utm_source=mail', 'applied')
    const log = memoryLogger('INFO')
    const run = new AgentRun({
      applications: applicationStore,
      jobs: jobStore,
      search: new JobSearch([{name: 'board', serverSideFilters: [], fetchJobs: async () => found}], log.logger),
      notifications: {
        channelCount: 0,
        maxItems: 20,
        buildDigest: () => {
          throw new Error('no channel')
        },
        deliver: async () => ({delivered: false, channels: []}),
      },
      logger: log.logger,
    })
    const summary = await run.run({version: '0.1.0', mode: 'production', criteria: EMPTY_CRITERIA})
    const byRun = summary.jobs.map((stored) => stored.title).sort()
    expect(byRun).toEqual(['Engineer 2', 'Engineer 4'])

    const catalog = new JobCatalog(jobStore, applicationStore, applications)
    const listed = (await catalog.lastRun()).jobs
    expect(
      listed
        .filter((listedJob) => listedJob.is_new)
        .map((listedJob) => listedJob.title)
        .sort(),
    ).toEqual(byRun)
    const searched = await catalog.withTracking(found)
    expect(
      searched.map(({title, tracked_status, tracked_url, is_new}) => [title, tracked_status, tracked_url, is_new]),
    ).toEqual([
      ['Engineer 1', 'applied', 'https://board.example/jobs/1', false],
      ['Engineer 2', 'saved', 'https://board.example/jobs/2', true],
      ['Engineer 3', 'applied', 'https://board.example/jobs/3?utm_source=mail', false],
      ['Engineer 4', null, null, true],
    ])
    // `jobagent apply <id>` keeps to the same rule: no second application for a URL with tracking parameters.
    const tracked = listed.find((listedJob) => listedJob.title === 'Engineer 1')!
    await expect(catalog.track(tracked.id, {})).rejects.toThrow(
      'https://board.example/jobs/1?utm_source=x is already tracked as #1 https://board.example/jobs/1 (status: applied)',
    )
    await expect(catalog.track(tracked.id, {})).rejects.toBeInstanceOf(ConflictError)
    // Nor for the clean URL of a job tracked from a link with them.
    const trackedFromLink = listed.find((listedJob) => listedJob.title === 'Engineer 3')!
    await expect(catalog.track(trackedFromLink.id, {})).rejects.toThrow(
      'https://board.example/jobs/3 is already tracked as #3 https://board.example/jobs/3?utm_source=mail (status: applied)',
    )
    expect((await applications.counts()).total).toBe(3)
    db.close()
  })
})
