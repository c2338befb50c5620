import {describe, expect, it} from 'vitest'
import {ApplicationService} from '../../../src/core/applications/application-service.js'
import {NotFoundError, ValidationError} from '../../../src/core/errors.js'
import type {JobResponse} from '../../../src/core/jobs/job.js'
import {JobCatalog} from '../../../src/core/jobs/job-catalog.js'
import {recordRun} from '../../../src/core/jobs/run-changes.js'
import type {Profile} from '../../../src/core/matching/profile.js'
import {openSqlite} from '../../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../../src/storage/sqlite/sqlite-application-store.js'
import {SqliteJobStore} from '../../../src/storage/sqlite/sqlite-job-store.js'
import {SqliteVerdictStore} from '../../../src/storage/sqlite/sqlite-verdict-store.js'
import {TRACKER_MIGRATIONS} from '../../../src/storage/sqlite/tracker-migrations.js'
import {closesNothing, foundJobs, noDetails} from '../../helpers/job-details.js'
import {knowledge} from '../../helpers/knowledge.js'

const profile: Profile = {
  roles: ['machine learning engineer'],
  skills: {python: 3},
  avoid: [],
  seniority: 'any',
  home: null,
  locations: [],
}

const posting = (n: number, title: string, tags: string[]): JobResponse => ({
  title,
  company: `Company ${n}`,
  location: 'Remote',
  url: `https://board.example/jobs/${n}`,
  source: 'remotive',
  posted_date: '2026-11-20T00:00:00Z',
  ...noDetails(),
  tags,
  description: 'Requirements:\n- Python',
})

const RUN = {
  started_at: '2026-11-22T08:00:00.000',
  finished_at: '2026-11-22T08:00:01.000',
  status: 'ok' as const,
  mode: 'production',
  jobs_found: 4,
  new_jobs: 4,
  notified: 0,
  sources: [],
  error: null,
}

async function setup() {
  const db = openSqlite(':memory:', {migrations: TRACKER_MIGRATIONS})
  const store = new SqliteApplicationStore(db, ':memory:')
  const jobs = new SqliteJobStore(db, ':memory:')
  const verdicts = new SqliteVerdictStore(db, ':memory:')
  const applications = new ApplicationService(store)
  const saved = await recordRun(jobs, RUN, {
    ...closesNothing,
    found: foundJobs([
      posting(1, 'ML Engineer, Ads Ranking', ['ads', 'ranking']),
      posting(2, 'ML Engineer, Research', ['pytorch', 'research']),
      posting(3, 'ML Engineer, Ads Measurement', ['ads']),
      posting(4, 'Machine Learning Engineer, Vision Research', ['pytorch', 'research']),
    ]),
  })
  const catalog = new JobCatalog(jobs, store, applications, {
    matching: {profile, options: {}, knowledge},
    verdicts: verdicts,
  })
  return {db, jobs, catalog, ids: saved.jobs.map((job) => job.id)}
}

/** A later run that finds jobs of these titles, numbered from 6 on, without tags. */
function laterRun(jobs: Awaited<ReturnType<typeof setup>>['jobs'], titles: readonly string[]) {
  return recordRun(
    jobs,
    {...RUN, started_at: '2026-11-23T08:00:00.000'},
    {...closesNothing, found: foundJobs(titles.map((title, index) => posting(6 + index, title, [])))},
  )
}

const titles = async (catalog: JobCatalog, options = {}) =>
  (await catalog.lastRun(options)).jobs.map((job) => job.title)

describe('verdicts on jobs', () => {
  it('keeps a verdict in jobagent.db and ranks with it at once, without a new run', async () => {
    const {db, catalog, ids} = await setup()
    expect((await titles(catalog))[0]).toBe('ML Engineer, Ads Ranking')
    await catalog.giveVerdict(ids[1]!, 'like')
    await catalog.giveVerdict(ids[2]!, 'dismiss', {reason: 'ads'})
    expect(db.prepare('SELECT job_id, verdict, reason, given_by FROM job_verdicts ORDER BY job_id').all()).toEqual([
      {job_id: ids[1], verdict: 'like', reason: null, given_by: 'user'},
      {job_id: ids[2], verdict: 'dismiss', reason: 'ads', given_by: 'user'},
    ])
    const {jobs} = await catalog.lastRun()
    // The dismissed job is gone; the job like the liked one comes first, saying why.
    expect(jobs.map((job) => job.title)).toEqual([
      'ML Engineer, Research',
      'Machine Learning Engineer, Vision Research',
      'ML Engineer, Ads Ranking',
    ])
    expect(jobs[1]!.reasons).toContain(
      '+ like a job you liked: ML Engineer, Research at Company 2 (research, pytorch) +0.35',
    )
    expect(await titles(catalog, {dismissed: true})).toEqual(['ML Engineer, Ads Measurement'])
  })

  it('replaces a verdict, takes one back with undo, and forgets them all', async () => {
    const {catalog, ids} = await setup()
    await catalog.giveVerdict(ids[0]!, 'like')
    const changed = await catalog.giveVerdict(ids[0]!, 'dismiss')
    expect(changed.previous?.verdict).toBe('like')
    expect(await titles(catalog, {dismissed: true})).toEqual(['ML Engineer, Ads Ranking'])
    expect((await catalog.undoVerdict(ids[0]!)).verdict).toBe('dismiss')
    expect(await titles(catalog, {dismissed: true})).toEqual([])
    await expect(catalog.undoVerdict(ids[0]!)).rejects.toThrow(NotFoundError)
    await catalog.giveVerdict(ids[1]!, 'like')
    await catalog.giveVerdict(ids[2]!, 'dismiss')
    expect(await catalog.forgetVerdicts()).toBe(2)
    expect(await titles(catalog)).toHaveLength(4)
  })

  it('refuses a verdict on a job that does not exist, and a reason too long to be one', async () => {
    const {catalog, ids} = await setup()
    await expect(catalog.giveVerdict(999, 'like')).rejects.toThrow(NotFoundError)
    await expect(catalog.giveVerdict(ids[0]!, 'dismiss', {reason: 'x'.repeat(201)})).rejects.toThrow(ValidationError)
  })

  it('counts tracking a job as a like, by id or by its URL with tracking parameters', async () => {
    const {db, catalog, ids} = await setup()
    await catalog.track(ids[3]!, {})
    await catalog.trackFound({
      title: 'ML Engineer, Research',
      company: 'Company 2',
      location: 'Remote',
      url: 'https://board.example/jobs/2?utm_source=feed',
      source: 'remotive',
    })
    expect(db.prepare('SELECT job_id, verdict, given_by FROM job_verdicts ORDER BY job_id').all()).toEqual([
      {job_id: ids[1], verdict: 'like', given_by: 'tracked'},
      {job_id: ids[3], verdict: 'like', given_by: 'tracked'},
    ])
  })

  it('proposes a rule after three dismissals with the same reason whose titles share a word', async () => {
    const {jobs, catalog, ids} = await setup()
    const more = await recordRun(
      jobs,
      {...RUN, started_at: '2026-11-23T08:00:00.000'},
      {
        ...closesNothing,
        found: foundJobs([
          posting(1, 'ML Engineer, Ads Ranking', ['ads']),
          posting(3, 'ML Engineer, Ads Measurement', ['ads']),
          posting(5, 'Ads Engineer', ['ads']),
        ]),
      },
    )
    expect((await catalog.giveVerdict(ids[0]!, 'dismiss', {reason: 'no ads'})).proposal).toBeNull()
    expect((await catalog.giveVerdict(ids[2]!, 'dismiss', {reason: 'No ads'})).proposal).toBeNull()
    const third = await catalog.giveVerdict(more.jobs[2]!.id, 'dismiss', {reason: 'no ads '})
    expect(third.proposal).toBe(
      '3 jobs dismissed as "no ads" all have "ads" in the title; to rule such jobs out: ' +
        `jobagent config set profile.avoid '["ads"]'`,
    )
  })

  it('proposes the shared word the reason names, and never a level', async () => {
    const {jobs, catalog} = await setup()
    const more = await laterRun(jobs, [
      'Senior Kubernetes DevOps Engineer',
      'Senior Kubernetes DevOps Engineer II',
      'Senior Kubernetes DevOps Specialist',
      'Senior Java Developer',
      'Senior iOS Architect',
      'Senior Go Programmer',
    ])
    const proposals = []
    for (const job of more.jobs.slice(0, 3)) {
      proposals.push((await catalog.giveVerdict(job.id, 'dismiss', {reason: 'devops, not mobile'})).proposal)
    }
    expect(proposals.at(-1)).toBe(
      '3 jobs dismissed as "devops, not mobile" all have "devops" in the title; to rule such jobs out: ' +
        `jobagent config set profile.avoid '["devops"]'`,
    )
    // Titles that share only their level propose nothing: the profile's seniority is the rule for levels.
    const levels = []
    for (const job of more.jobs.slice(3)) {
      levels.push((await catalog.giveVerdict(job.id, 'dismiss', {reason: 'not for me'})).proposal)
    }
    expect(levels.at(-1)).toBeNull()
  })

  it('never proposes a word of the profile’s own roles or skills', async () => {
    const {jobs, catalog} = await setup()
    const more = await laterRun(jobs, [
      'Machine Learning Manager',
      'Machine Learning Director',
      'Machine Learning Lead',
    ])
    for (const job of more.jobs) {
      const given = await catalog.giveVerdict(job.id, 'dismiss', {reason: 'management'})
      expect(given.proposal).toBeNull()
    }
  })

  it('gives a job the same score in every listing and in its own view, dismissed or not', async () => {
    const {catalog, ids} = await setup()
    await catalog.giveVerdict(ids[0]!, 'dismiss')
    const scoreIn = async (options: object, id: number) =>
      (await catalog.lastRun(options)).jobs.find((job) => job.id === id)?.score
    for (const id of ids.slice(1)) expect(await scoreIn({}, id)).toBe((await catalog.show(id)).score)
    expect(await scoreIn({dismissed: true, state: 'all'}, ids[0]!)).toBe((await catalog.show(ids[0]!)).score)
  })

  it('explains a job scored among the last run, with its verdict', async () => {
    const {catalog, ids} = await setup()
    await catalog.giveVerdict(ids[1]!, 'like')
    const shown = await catalog.show(ids[3]!)
    expect(shown.verdict).toBeNull()
    expect(shown.parts.map((part) => part.part)).toEqual([
      'role',
      'skills',
      'relevance',
      'verdicts',
      'gates',
      'adjustments',
    ])
    expect((await catalog.show(ids[1]!)).verdict?.verdict).toBe('like')
  })
})
