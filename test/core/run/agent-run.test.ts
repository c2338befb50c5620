import {describe, expect, it} from 'vitest'
import {ApplicationService} from '../../../src/core/applications/application-service.js'
import type {JobResponse} from '../../../src/core/jobs/job.js'
import {JobCatalog} from '../../../src/core/jobs/job-catalog.js'
import {JobSearch} from '../../../src/core/jobs/job-search.js'
import type {JobSource} from '../../../src/core/jobs/job-source.js'
import type {Profile} from '../../../src/core/matching/profile.js'
import type {Digest} from '../../../src/core/notifications/notifier.js'
import {AgentRun, type DigestSender} from '../../../src/core/run/agent-run.js'
import {openSqlite, type SqliteDatabase} from '../../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../../src/storage/sqlite/sqlite-application-store.js'
import {SqliteJobStore} from '../../../src/storage/sqlite/sqlite-job-store.js'
import {SqliteTermsCache} from '../../../src/storage/sqlite/sqlite-terms-cache.js'
import {SqliteVerdictStore} from '../../../src/storage/sqlite/sqlite-verdict-store.js'
import {TRACKER_MIGRATIONS} from '../../../src/storage/sqlite/tracker-migrations.js'
import {EMPTY_CRITERIA} from '../../helpers/criteria.js'
import {noDetails} from '../../helpers/job-details.js'
import {knowledge} from '../../helpers/knowledge.js'
import {memoryLogger} from '../../helpers/memory-log.js'

const job = (n: number, fields: Partial<JobResponse> = {}): JobResponse => ({
  ...noDetails(),
  title: `Engineer ${n}`,
  company: `Company ${n}`,
  location: 'Remote',
  url: `https://board.example/jobs/${n}`,
  source: 'board',
  posted_date: '2026-11-20T00:00:00Z',
  ...fields,
})

function board(name: string, result: JobResponse[] | Error): JobSource {
  return {
    name,
    serverSideFilters: [],
    fetchJobs: async () => {
      if (result instanceof Error) throw result
      return result
    },
  }
}

/** Records digests; `accept` decides whether the channels take them. */
function digestRecorder(channelCount: number, accept = true) {
  const sent: Digest[] = []
  const sender: DigestSender = {
    channelCount,
    maxItems: 20,
    buildDigest: (jobs) => ({
      title: `${jobs.length} new jobs`,
      jobs: [...jobs],
      lines: [],
      more: 0,
      total: jobs.length,
      type: 'new_jobs',
      followUps: [],
    }),
    deliver: async (digest) => {
      sent.push(digest)
      return {delivered: accept, channels: [{channel: 'log://', ok: accept, error: accept ? null : 'refused'}]}
    },
  }
  return {sender, sent}
}

function setup(sources: JobSource[], notifications = digestRecorder(1).sender) {
  const db = openSqlite(':memory:', {migrations: TRACKER_MIGRATIONS})
  const applicationStore = new SqliteApplicationStore(db, ':memory:')
  const jobs = new SqliteJobStore(db, ':memory:')
  const log = memoryLogger('INFO')
  const run = new AgentRun({
    applications: applicationStore,
    jobs,
    search: new JobSearch(sources, log.logger),
    notifications,
    logger: log.logger,
  })
  const options = {version: '0.1.0', mode: 'production', criteria: EMPTY_CRITERIA}
  return {db, run, options, log, applications: new ApplicationService(applicationStore), jobs}
}

describe('agent run', () => {
  it('logs the seven steps in order with one line per source between search start and jobs found', async () => {
    const {run, options, log, applications} = setup([
      board('alpha', [job(1), job(2)]),
      board('beta', new Error('HTTP 503 Service Unavailable')),
    ])
    await applications.record({title: 'T', company: 'C', url: 'https://board.example/jobs/1', source: 'board'})
    await applications.record({title: 'S', company: 'C', url: 'https://x.example/s', source: 'x', status: 'saved'})

    const summary = await run.run(options)

    const lines = log.parsed()
    const messages = lines.map((line) => line.message)
    const order = [
      'Job Search Agent v0.1.0 starting (mode: production)',
      'Applications: 2 total, 1 applied, 1 pending',
      'Searching 2 source(s): alpha, beta',
      'alpha: 2 jobs in',
      'beta: failed after',
      'Jobs found: 2',
      'New jobs (not yet applied): 1',
      'Notifications: sent 1 job(s) to 1 of 1 channel(s)',
      'Run completed in',
    ]
    const positions = order.map((prefix) => messages.findIndex((message) => message.startsWith(prefix)))
    expect(positions.every((position) => position >= 0)).toBe(true)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    expect(lines.find((line) => line.message.startsWith('beta:'))).toMatchObject({
      level: 'WARNING',
      name: 'jobagent.sources.beta',
    })
    expect(lines[0]?.name).toBe('jobagent.run')
    expect(summary).toMatchObject({status: 'ok', exit_code: 0, jobs_found: 2, new_jobs: 1})
  })

  it('records the new jobs in the run row with the jobs, before notifying: a crash while notifying leaves it right', async () => {
    const crashing: DigestSender = {
      ...digestRecorder(1).sender,
      deliver: async () => {
        throw new Error('process killed')
      },
    }
    const {run, options, applications, jobs} = setup([board('alpha', [job(1), job(2), job(3)])], crashing)
    await applications.record({title: 'T', company: 'C', url: 'https://board.example/jobs/1', source: 'board'})

    await expect(run.run(options)).rejects.toThrow('process killed')
    expect(await jobs.lastRun()).toMatchObject({jobs_found: 3, new_jobs: 2, status: 'ok'})
  })

  it('notifies a job once across runs and again only with renotify', async () => {
    const recorder = digestRecorder(1)
    const {run, options} = setup([board('alpha', [job(1), job(2)])], recorder.sender)
    await run.run(options)
    const second = await run.run(options)
    await run.run({...options, renotify: true})
    expect(recorder.sent.map((digest) => digest.jobs.length)).toEqual([2, 2])
    expect(second.notifications.result).toBe('nothing_new')
  })

  it('sends nothing and marks nothing in a dry run', async () => {
    const recorder = digestRecorder(1)
    const {run, options, db} = setup([board('alpha', [job(1)])], recorder.sender)
    const summary = await run.run({...options, dryRun: true})
    expect(summary.notifications.result).toBe('dry_run')
    expect(recorder.sent).toHaveLength(0)
    expect(db.prepare('SELECT count(*) AS n FROM jobs WHERE notified_at IS NOT NULL').get()).toEqual({n: 0})
  })

  it('fails with exit 1 and leaves the jobs unnotified when every channel fails', async () => {
    const recorder = digestRecorder(2, false)
    const {run, options, db} = setup([board('alpha', [job(1)])], recorder.sender)
    const summary = await run.run(options)
    expect(summary).toMatchObject({status: 'failed', exit_code: 1, error: 'every notification channel failed'})
    expect(db.prepare('SELECT count(*) AS n FROM jobs WHERE notified_at IS NULL').get()).toEqual({n: 1})
  })

  it('fails and leaves the jobs table as it was when no source succeeds', async () => {
    const {run, options, db, jobs} = setup([board('alpha', new Error('timed out after 20 s'))])
    const summary = await run.run(options)
    expect(summary).toMatchObject({status: 'failed', exit_code: 1, error: 'no source succeeded'})
    expect(db.prepare('SELECT count(*) AS n FROM jobs').get()).toEqual({n: 0})
    expect((await jobs.lastRun())?.status).toBe('failed')
  })

  it('completes with a failing source but exits 1 under --strict', async () => {
    const {run, options} = setup([board('alpha', [job(1)]), board('beta', new Error('HTTP 500'))])
    expect((await run.run(options)).exit_code).toBe(0)
    expect((await run.run({...options, strict: true})).exit_code).toBe(1)
  })

  it('logs that no channel is configured', async () => {
    const {run, options, log} = setup([board('alpha', [job(1)])], digestRecorder(0).sender)
    const summary = await run.run(options)
    expect(summary.notifications.result).toBe('none_configured')
    expect(log.lines.some((line) => line.includes('no channel is configured'))).toBe(true)
  })

  it('remembers a re-slugged job as the same job, so it is not notified twice', async () => {
    const recorder = digestRecorder(1)
    let slug = 'a-1'
    const source: JobSource = {
      name: 'arbeitnow',
      serverSideFilters: [],
      fetchJobs: async () => [job(1, {url: `https://www.arbeitnow.com/jobs/${slug}`})],
    }
    const {run, options, db} = setup([source], recorder.sender)
    await run.run(options)
    slug = 'a-2'
    await run.run(options)
    expect(recorder.sent).toHaveLength(1)
    expect(db.prepare('SELECT count(*) AS n, max(url) AS url FROM jobs').get()).toEqual({
      n: 1,
      url: 'https://www.arbeitnow.com/jobs/a-2',
    })
  })
})

describe('agent run with verdicts', () => {
  it('neither counts nor notifies a dismissed job again, nor its repost under a new URL, and ranks with the verdicts', async () => {
    const recorder = digestRecorder(1)
    let slug = 'ml-1'
    let later = false
    const source: JobSource = {
      name: 'arbeitnow',
      serverSideFilters: [],
      fetchJobs: async () => [
        job(1, {title: 'ML Engineer, Ads', url: `https://www.arbeitnow.com/jobs/${slug}`}),
        job(2, {title: 'ML Engineer, Research'}),
        ...(later ? [job(3, {title: 'ML Engineer, Ads Measurement'})] : []),
      ],
    }
    const db = openSqlite(':memory:', {migrations: TRACKER_MIGRATIONS})
    const verdicts = new SqliteVerdictStore(db, ':memory:')
    const log = memoryLogger('INFO')
    const run = new AgentRun({
      applications: new SqliteApplicationStore(db, ':memory:'),
      jobs: new SqliteJobStore(db, ':memory:'),
      search: new JobSearch([source], log.logger),
      notifications: recorder.sender,
      verdicts: verdicts,
      logger: log.logger,
    })
    const profile: Profile = {
      roles: ['ml engineer'],
      skills: {},
      avoid: [],
      seniority: 'any',
      home: null,
      locations: [],
    }
    const options = {
      version: '0.1.0',
      mode: 'production',
      criteria: EMPTY_CRITERIA,
      matching: {matching: {profile, options: {}, knowledge}, minScore: 0},
    }
    const first = await run.run(options)
    const ads = first.jobs.find((one) => one.title === 'ML Engineer, Ads')!
    await verdicts.give({
      job_id: ads.id!,
      verdict: 'dismiss',
      reason: 'no ads',
      given_by: 'user',
      given_at: '2026-11-22T08:00:00.000',
      title: ads.title,
      company: ads.company,
      tags: [],
    })
    slug = 'ml-1-reposted'
    later = true
    const second = await run.run({...options, renotify: true})
    expect(recorder.sent.map((digest) => digest.jobs.map((one) => one.title))).toEqual([
      ['ML Engineer, Ads', 'ML Engineer, Research'],
      ['ML Engineer, Research', 'ML Engineer, Ads Measurement'],
    ])
    expect(second.new_jobs).toBe(2)
    expect(log.lines.filter((line) => line.includes('New jobs (not yet applied)')).at(-1)).toMatch(/: 2$/)
    expect(second.jobs.map((one) => one.title)).toEqual(['ML Engineer, Research', 'ML Engineer, Ads Measurement'])
    expect(second.jobs[1]!.reasons).toContain(
      '- like a job you dismissed: ML Engineer, Ads at Company 1 (computer and information research scientist, ads, ml) -0.26',
    )
  })
})

describe('agent run with a description store', () => {
  const profile: Profile = {
    roles: [],
    skills: {typescript: 3, postgresql: 2},
    avoid: ['php'],
    seniority: 'any',
    home: null,
    locations: [],
  }
  const matching = {matching: {profile, options: {}, knowledge}, minScore: 0}
  // Alpha and beta list job 2: beta's longer description is the one kept.
  const boards = () => [
    board('alpha', [
      job(1, {description: 'We write TypeScript and PostgreSQL all day.'}),
      job(2, {description: 'Short.'}),
      job(3, {description: null}),
    ]),
    board('beta', [job(2, {description: 'A longer text: PHP, then TypeScript – lots of it.'})]),
  ]

  /**
   * A job store over a real SQLite file that counts the descriptions stored as the boards answer; with `failing`,
   * storing them early fails, so the run keeps them in memory.
   */
  class CountingJobStore extends SqliteJobStore {
    readonly stored: string[] = []
    failing = false

    override async storeDescriptions(texts: readonly string[]) {
      if (this.failing) throw new Error('database or disk is full')
      this.stored.push(...texts)
      return super.storeDescriptions(texts)
    }
  }

  function runWith(storeEarly: boolean) {
    const db = openSqlite(':memory:', {migrations: TRACKER_MIGRATIONS})
    const log = memoryLogger('INFO')
    const jobs = new CountingJobStore(db, ':memory:')
    jobs.failing = !storeEarly
    const run = new AgentRun({
      applications: new SqliteApplicationStore(db, ':memory:'),
      jobs,
      search: new JobSearch(boards(), log.logger),
      notifications: digestRecorder(0).sender,
      logger: log.logger,
    })
    const options = {version: '0.1.0', mode: 'production', criteria: EMPTY_CRITERIA, matching}
    return {db, run, options, stored: jobs.stored}
  }

  const stored = (db: SqliteDatabase) =>
    db
      .prepare(
        'SELECT url, description FROM jobs LEFT JOIN descriptions ON descriptions.hash = jobs.description_hash ORDER BY url',
      )
      .all()

  it('stores and scores the jobs exactly as a run that keeps the texts in memory', async () => {
    const plain = runWith(false)
    const early = runWith(true)
    const inMemory = await plain.run.run(plain.options)
    const storedEarly = await early.run.run(early.options)
    expect(early.stored).toHaveLength(3)
    expect(storedEarly.jobs.map(({url, score, reasons}) => ({url, score, reasons}))).toEqual(
      inMemory.jobs.map(({url, score, reasons}) => ({url, score, reasons})),
    )
    expect(storedEarly.jobs.find((one) => one.url.endsWith('/2'))?.reasons).toEqual([
      '+ typescript (description)',
      'gate: php in the description (x0.5)',
    ])
    expect(stored(early.db)).toEqual(stored(plain.db))
    expect(stored(early.db)).toContainEqual({
      url: 'https://board.example/jobs/2',
      description: 'A longer text: PHP, then TypeScript – lots of it.',
    })
    expect(storedEarly.matching?.scored).toBe(3)
  })

  it('keeps what each text said for the profile, recalls it in the next run, and forgets it when the profile changes', async () => {
    const db = openSqlite(':memory:', {migrations: TRACKER_MIGRATIONS})
    const log = memoryLogger('INFO')
    const termsCache = new SqliteTermsCache(db, ':memory:')
    const jobs = new SqliteJobStore(db, ':memory:')
    const run = new AgentRun({
      applications: new SqliteApplicationStore(db, ':memory:'),
      jobs,
      termsCache,
      search: new JobSearch(boards(), log.logger),
      notifications: digestRecorder(0).sender,
      logger: log.logger,
    })
    const options = {version: '0.1.0', mode: 'production', criteria: EMPTY_CRITERIA, matching, renotify: true}
    const kept = () => db.prepare('SELECT analyser, description_hash, terms FROM description_terms').all()
    const first = await run.run(options)
    // The two texts the stored jobs have; alpha's short text of job 2, left out for beta's longer one, goes with its
    // terms.
    expect(new Set(kept().map((row) => (row as {description_hash: string}).description_hash)).size).toBe(2)
    // Terms kept wrongly (another version, a hand edit) are analysed again, not trusted.
    db.prepare("UPDATE description_terms SET terms = 'not json'").run()
    const second = await run.run(options)
    const scored = (summary: typeof first) => summary.jobs.map(({url, score, reasons}) => ({url, score, reasons}))
    expect(scored(second)).toEqual(scored(first))
    expect(kept().every((row) => (row as {terms: string}).terms !== 'not json')).toBe(true)
    const third = await run.run(options)
    expect(scored(third)).toEqual(scored(first))
    const analysers = () => new Set(kept().map((row) => (row as {analyser: string}).analyser))
    const [before] = [...analysers()]
    await run.run({
      ...options,
      matching: {matching: {profile: {...profile, skills: {rust: 3}}, options: {}, knowledge}, minScore: 0},
    })
    expect(analysers().size).toBe(1)
    expect(analysers().has(before!)).toBe(false)
  })

  it('lists the stored jobs scored on what the run read in their texts, without loading the texts it kept the terms of', async () => {
    const db = openSqlite(':memory:', {migrations: TRACKER_MIGRATIONS})
    const log = memoryLogger('INFO')
    const termsCache = new SqliteTermsCache(db, ':memory:')
    const jobs = new SqliteJobStore(db, ':memory:')
    const applications = new SqliteApplicationStore(db, ':memory:')
    const run = new AgentRun({
      applications,
      jobs,
      termsCache,
      search: new JobSearch(boards(), log.logger),
      notifications: digestRecorder(0).sender,
      logger: log.logger,
    })
    const summary = await run.run({version: '0.1.0', mode: 'production', criteria: EMPTY_CRITERIA, matching})
    const catalogWith = (kept: SqliteTermsCache | null) =>
      new JobCatalog(jobs, applications, new ApplicationService(applications), {
        matching: matching.matching,
        termsCache: kept,
      })
    const listedScores = async (catalog: JobCatalog) =>
      (await catalog.lastRun({fields: 'summary'})).jobs.map(({url, score, reasons}) => ({url, score, reasons}))
    const byUrl = <T extends {url: string}>(scores: T[]) => [...scores].sort((a, b) => a.url.localeCompare(b.url))
    const ranTo = byUrl(summary.jobs.map(({url, score, reasons}) => ({url, score, reasons})))
    expect(byUrl(await listedScores(catalogWith(termsCache)))).toEqual(ranTo)
    // One job in full is scored among the others as they are listed.
    const first = summary.jobs[0]!
    const shown = await catalogWith(termsCache).show(first.id ?? 0)
    expect(shown.score).toBe(first.score)
    // Texts emptied behind the store's back: a listing that kept terms stand for still scores the same.
    db.prepare("UPDATE descriptions SET description = ''").run()
    expect(byUrl(await listedScores(catalogWith(termsCache)))).toEqual(ranTo)
    // Without the kept terms the listing analyses the texts, now empty: the description's terms are gone from the reasons.
    const unread = await listedScores(catalogWith(null))
    expect(unread.flatMap((job) => job.reasons).some((reason) => reason.includes('(description)'))).toBe(false)
    expect(ranTo.flatMap((job) => job.reasons).some((reason) => reason.includes('(description)'))).toBe(true)
  })

  it('stores no description on a dry run', async () => {
    const early = runWith(true)
    const summary = await early.run.run({...early.options, dryRun: true})
    expect(early.stored).toEqual([])
    expect(summary.jobs.find((one) => one.url.endsWith('/1'))?.reasons).toContain(
      '+ typescript, postgresql (description)',
    )
    expect(early.db.prepare('SELECT count(*) FROM descriptions').pluck().get()).toBe(0)
  })

  it('keeps the texts in memory when storing them early fails, and stores them with the jobs', async () => {
    const db = openSqlite(':memory:', {migrations: TRACKER_MIGRATIONS})
    const log = memoryLogger('DEBUG')
    const jobs = new CountingJobStore(db, ':memory:')
    jobs.failing = true
    const run = new AgentRun({
      applications: new SqliteApplicationStore(db, ':memory:'),
      jobs,
      search: new JobSearch(boards(), log.logger),
      notifications: digestRecorder(0).sender,
      logger: log.logger,
    })
    const summary = await run.run({version: '0.1.0', mode: 'production', criteria: EMPTY_CRITERIA, matching})
    expect(summary.exit_code).toBe(0)
    expect(stored(db)).toContainEqual({
      url: 'https://board.example/jobs/1',
      description: 'We write TypeScript and PostgreSQL all day.',
    })
    expect(log.lines.filter((line) => line.includes('keeping them in memory, storing them failed'))).toHaveLength(2)
  })
})
