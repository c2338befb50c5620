import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {runAgent} from '../../src/app/agent.js'
import {AppContext} from '../../src/app/context.js'
import type {RunSummary} from '../../src/core/run/agent-run.js'
import {localTimestamp} from '../../src/core/time.js'
import {tempDir} from '../helpers/cli.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {type MockServer, sendJson, startMockServer} from '../helpers/mock-board.js'

/** A posting as Remotive's API lists it. */
interface Posting {
  id: number
  title: string
  company: string
  location?: string
  slug?: string
  /** Publication time; recent by default. */
  posted?: string
}

/** What each board lists now, by board; a board set to 'down' answers 503. */
const listed: Record<string, Posting[] | 'down'> = {}
const webhookBodies: {title: string; jobs: {url: string}[]}[] = []
let server: MockServer
let home: {path: string; cleanup: () => void}

beforeAll(async () => {
  server = await startMockServer(async (req, res) => {
    if (req.method === 'POST') {
      let text = ''
      for await (const chunk of req) text += chunk
      webhookBodies.push(JSON.parse(text))
      sendJson(res, {ok: true})
      return
    }
    const board = (req.url ?? '').split('/')[1] ?? ''
    const postings = listed[board] ?? []
    if (postings === 'down') return sendJson(res, {error: 'down'}, 503)
    sendJson(res, {
      'job-count': postings.length,
      jobs: postings.map((posting) => ({
        id: String(posting.id),
        url: `https://remotive.example/remote-jobs/${posting.slug ?? `job-${posting.id}`}`,
        title: posting.title,
        company_name: posting.company,
        candidate_required_location: posting.location ?? 'Worldwide',
        publication_date: posting.posted ?? new Date(Date.now() - 86_400_000).toISOString().slice(0, 19),
        job_type: 'full_time',
        salary: '',
        description: `<p>${posting.title} at ${posting.company}</p>`,
        tags: [],
      })),
    })
  })
})
afterAll(() => server.close())
beforeEach(() => {
  home = tempDir('jobagent-lifecycle-')
  for (const key of Object.keys(listed)) delete listed[key]
  webhookBodies.length = 0
})
afterEach(() => home.cleanup())

/** Writes the config: two Remotive-shaped boards, a webhook, and search settings. */
function configure(search: Record<string, unknown> = {}, run: Record<string, unknown> = {}) {
  const config = {
    sources: [
      {type: 'remotive', name: 'alpha', url: `${server.url}/alpha`},
      {type: 'remotive', name: 'beta', url: `${server.url}/beta`},
    ],
    search,
    run,
    notify: {urls: [`json://${server.url.replace('http://', '')}/hook`]},
  }
  writeFileSync(join(home.path, 'config.json'), JSON.stringify(config), {mode: 0o600})
}

/** One `jobagent run` as cron starts it: a fresh context over the same home. */
async function run(): Promise<{summary: RunSummary; log: string[]; context: AppContext}> {
  const log = memoryLogger('INFO')
  const context = new AppContext({env: {JOBAGENT_HOME: home.path}, logger: log.logger})
  const summary = await runAgent(context, {})
  return {summary, log: log.lines, context}
}

/** Reads the jobs the way `jobagent jobs --all --json` does, then closes the context. */
async function jobsNow(state: 'open' | 'closed' | 'all' = 'all') {
  const context = new AppContext({env: {JOBAGENT_HOME: home.path}})
  try {
    return (await (await context.openJobCatalog()).lastRun({state})).jobs
  } finally {
    await context.close()
  }
}

const backend = {id: 1, title: 'Backend Engineer', company: 'Acme'}
const frontend = {id: 2, title: 'Frontend Engineer', company: 'Acme'}

describe('closed jobs', () => {
  it('closes a job after two successful runs of every board without it, and hides it from the open list', async () => {
    configure()
    listed.alpha = [backend, frontend]
    await (await run()).context.close()
    listed.alpha = [frontend]
    const once = await run()
    await once.context.close()
    expect(once.summary.lifecycle).toEqual({closed: 0, reopened: 0, reposted: 0, postings_closed: 0})
    // Missed once: no longer in the last run, not closed either.
    expect(await jobsNow('closed')).toEqual([])

    const twice = await run()
    await twice.context.close()
    expect(twice.summary.lifecycle?.closed).toBe(1)
    expect(twice.log.some((line) => line.includes('Lifecycle: 1 closed (no longer listed)'))).toBe(true)
    const closed = await jobsNow('closed')
    expect(closed.map((job) => job.title)).toEqual(['Backend Engineer'])
    expect(closed[0]?.closed_at).toMatch(/^\d{4}-\d\d-\d\dT/)
    // Never applied for, but no board lists it: nothing is left to apply for, so it is not new.
    expect(closed[0]?.is_new).toBe(false)
    expect((await jobsNow('open')).map((job) => job.title)).toEqual(['Frontend Engineer'])
  })

  it('never closes on a run whose board failed, returned nothing, or was asked with other criteria', async () => {
    configure({}, {closed_after_runs: 1})
    listed.alpha = [backend, frontend]
    await (await run()).context.close()

    listed.alpha = 'down'
    listed.beta = [{id: 9, title: 'Data Engineer', company: 'Other'}]
    const failed = await run()
    await failed.context.close()
    expect(failed.summary.lifecycle?.closed).toBe(0)

    listed.alpha = []
    const empty = await run()
    await empty.context.close()
    expect(empty.summary.lifecycle?.closed).toBe(0)

    // Asked another way (a keyword), alpha no longer returns Backend: not a closure.
    configure({keywords: ['frontend']}, {closed_after_runs: 1})
    listed.alpha = [frontend]
    const other = await run()
    await other.context.close()
    expect(other.summary.lifecycle?.closed).toBe(0)
    expect(await jobsNow('closed')).toEqual([])
  })

  it('keeps a job open while its board still lists it but jobagent filters it out', async () => {
    configure({max_age_days: 30}, {closed_after_runs: 1})
    listed.alpha = [backend, frontend]
    await (await run()).context.close()
    // The same criteria; Backend is still listed but now too old for max_age_days, so the run leaves it out.
    listed.alpha = [{...backend, posted: '2026-01-01T00:00:00'}, frontend]
    const again = await run()
    await again.context.close()
    expect(again.summary.jobs_found).toBe(1)
    expect(again.summary.lifecycle?.closed).toBe(0)
    expect(await jobsNow('closed')).toEqual([])
  })

  it('reopens a closed job that comes back, counting it reopened and reposted, without notifying it again', async () => {
    configure({}, {closed_after_runs: 1})
    listed.alpha = [backend, frontend]
    await (await run()).context.close()
    expect(webhookBodies).toHaveLength(1)
    listed.alpha = [frontend]
    await (await run()).context.close()
    expect((await jobsNow('closed')).map((job) => job.title)).toEqual(['Backend Engineer'])

    listed.alpha = [backend, frontend]
    const back = await run()
    await back.context.close()
    expect(back.summary.lifecycle).toMatchObject({reopened: 1, reposted: 1, closed: 0})
    const job = (await jobsNow('open')).find((one) => one.title === 'Backend Engineer')
    expect(job).toMatchObject({closed_at: null, reopened: 1, reposted: 1})
    // Notified once, in the first run; its return is no news.
    expect(webhookBodies).toHaveLength(1)
  })
})

describe('one alert per role', () => {
  it('makes one job of a role reposted under a new URL: same id, reposted once, the old URL in also_on', async () => {
    configure()
    listed.alpha = [backend]
    await (await run()).context.close()
    const [before] = await jobsNow('open')

    listed.alpha = [{...backend, id: 7, slug: 'backend-engineer-again'}]
    const reposted = await run()
    await reposted.context.close()
    expect(reposted.summary.lifecycle?.reposted).toBe(1)
    const [after] = await jobsNow('open')
    expect(after?.id).toBe(before?.id)
    expect(after?.url).toBe('https://remotive.example/remote-jobs/backend-engineer-again')
    expect(after?.reposted).toBe(1)
    expect(after?.also_on).toEqual([
      {source: 'remotive', url: 'https://remotive.example/remote-jobs/job-1', location: 'Worldwide'},
    ])
    expect(webhookBodies).toHaveLength(1)
  })

  it('makes one job of the same role in three cities and on two boards, notified once', async () => {
    configure()
    listed.alpha = [
      {...backend, location: 'Berlin'},
      {...backend, id: 3, location: 'London'},
    ]
    listed.beta = [{...backend, id: 4, location: 'New York'}]
    const first = await run()
    await first.context.close()
    const jobs = await jobsNow('open')
    expect(jobs).toHaveLength(1)
    expect(jobs[0]?.location).toBe('Berlin; London; New York')
    expect(jobs[0]?.also_on.map((listing) => listing.url)).toEqual([
      'https://remotive.example/remote-jobs/job-3',
      'https://remotive.example/remote-jobs/job-4',
    ])
    expect(webhookBodies).toHaveLength(1)
    expect(webhookBodies[0]?.jobs).toHaveLength(1)

    // One board drops a city; the role stays one job, not a repost, and is not notified again.
    listed.alpha = [{...backend, location: 'Berlin'}]
    const second = await run()
    await second.context.close()
    expect(second.summary.lifecycle?.reposted).toBe(0)
    expect((await jobsNow('open')).map((job) => job.id)).toEqual([jobs[0]?.id])
    expect(webhookBodies).toHaveLength(1)
  })

  it('knows a job by every URL it was listed under: the board that kept listing it is no repost', async () => {
    configure()
    listed.alpha = [{...backend, location: 'Berlin'}]
    listed.beta = [{...backend, id: 4, location: 'New York'}]
    await (await run()).context.close()
    const [job] = await jobsNow('open')
    expect(job?.url).toBe('https://remotive.example/remote-jobs/job-1')
    // The board whose URL the job carries drops it; the other still lists it under its own URL.
    listed.alpha = [frontend]
    const second = await run()
    await second.context.close()
    expect(second.summary.lifecycle?.reposted).toBe(0)
    const after = (await jobsNow('open')).find((open) => open.title === 'Backend Engineer')
    expect(after).toMatchObject({id: job?.id, reposted: 0})
  })

  it('keeps the applied-for URL of a reposted role tracked: the repost is not new', async () => {
    configure()
    listed.alpha = [backend]
    const first = await run()
    await first.context.applications.record({
      title: 'Backend Engineer',
      company: 'Acme',
      url: 'https://remotive.example/remote-jobs/job-1',
      source: 'remotive',
    })
    await first.context.close()
    listed.alpha = [{...backend, id: 8, slug: 'backend-reposted'}]
    const second = await run()
    await second.context.close()
    expect(second.summary.new_jobs).toBe(0)
    const [job] = await jobsNow('open')
    expect(job).toMatchObject({is_new: false, tracked_status: 'applied'})
  })
})

describe('applications whose posting closed', () => {
  it('marks the application when its job closes, suggests ghosted after the wait, and clears it on return', async () => {
    configure({}, {closed_after_runs: 1})
    listed.alpha = [backend, frontend]
    const first = await run()
    const url = 'https://remotive.example/remote-jobs/job-1'
    await first.context.applications.record({title: 'Backend Engineer', company: 'Acme', url, source: 'remotive'})
    await first.context.close()

    listed.alpha = [frontend]
    const closing = await run()
    expect(closing.summary.lifecycle?.postings_closed).toBe(1)
    const {application} = await closing.context.applications.get(url)
    expect(application.posting_closed_at).toMatch(/^\d{4}-\d\d-\d\dT/)

    // Not suggested before ghosted_after_days in applied; suggested after (the status changed 30 days ago).
    expect(await closing.context.followUps.due()).toEqual([])
    await closing.context.close()
    const db = new Database(join(home.path, 'jobagent.db'))
    db.prepare('UPDATE applications SET updated_at = ?').run(localTimestamp(new Date(Date.now() - 30 * 86_400_000)))
    db.close()
    const later = new AppContext({env: {JOBAGENT_HOME: home.path}})
    const [due] = await later.followUps.due()
    expect(due).toMatchObject({url, status: 'applied', suggest_ghosted: true})
    await later.close()

    const reminded = await run()
    await reminded.context.close()
    const digest = webhookBodies.at(-1) as unknown as {follow_ups: string[]}
    expect(JSON.stringify(digest)).toContain('consider marking it ghosted (jobagent status')

    listed.alpha = [backend, frontend]
    const back = await run()
    const reopened = await back.context.applications.get(url)
    expect(reopened.application.posting_closed_at).toBeNull()
    // The status is never changed by the suggestion.
    expect(reopened.application.status).toBe('applied')
    await back.context.close()
  })
})
