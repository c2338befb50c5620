import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {Sweeper, type SweepSettings} from '../../src/app/sweep.js'
import {openDirectory} from '../../src/app/sweep-directory.js'
import {htmlToText} from '../../src/core/jobs/description.js'
import {silentLogger} from '../../src/core/logger.js'
import type {Matching} from '../../src/core/matching/score.js'
import {HttpClient} from '../../src/http-client/index.js'
import {sweepReader} from '../../src/sources/board-sweep.js'
import {openSqlite, type SqliteDatabase} from '../../src/storage/sqlite/database.js'
import {SqliteJobStore} from '../../src/storage/sqlite/sqlite-job-store.js'
import {SqliteSweepStore} from '../../src/storage/sqlite/sqlite-sweep-store.js'
import {TRACKER_MIGRATIONS} from '../../src/storage/sqlite/tracker-migrations.js'
import {tempDir} from '../helpers/cli.js'
import {knowledge} from '../helpers/knowledge.js'
import {scoringProfile} from '../helpers/matching.js'
import {closedPortUrl} from '../helpers/mock-board.js'
import {mirrorUrls, type SweepMirror, startSweepMirror, writeTestDirectory} from '../helpers/sweep-mirror.js'

let home: ReturnType<typeof tempDir>
let mirror: SweepMirror
let db: SqliteDatabase
let file: string
let http: HttpClient
let now: Date
let waits: number[]

const matching: Matching = {
  profile: scoringProfile({roles: ['software engineer', 'ai engineer', 'account executive']}),
  options: {},
  knowledge,
}

beforeEach(async () => {
  home = tempDir('jobagent-sweep-')
  mirror = await startSweepMirror()
  file = `${home.path}/jobagent.db`
  db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
  http = new HttpClient({retries: 0, proxy: false})
  now = new Date('2026-11-22T05:00:00Z')
  waits = []
})

afterEach(async () => {
  await http.close()
  db.close()
  await mirror.close()
  home.cleanup()
})

function sweeper(settings: Partial<SweepSettings> = {}, profile: Matching = matching) {
  const deps = {http, logger: silentLogger, toText: htmlToText}
  return new Sweeper({
    store: new SqliteSweepStore(db, file),
    jobs: new SqliteJobStore(db, file),
    readerFor: (type) => sweepReader(type, deps),
    matching: profile,
    clock: {now: () => now},
    logger: silentLogger,
    settings: {
      interval_hours: 24,
      concurrency: 8,
      per_ats: 2,
      timeout_seconds: 10,
      min_score: 0,
      urls: mirrorUrls(mirror),
      ...settings,
    },
    sleep: async (ms) => {
      waits.push(ms)
    },
    closeAfterRuns: 2,
  })
}

function request(overrides: {signal?: AbortSignal; force?: boolean; restart?: boolean} = {}) {
  const path = writeTestDirectory(home.path)
  return {
    ...openDirectory(path, null),
    directoryName: path,
    selection: {},
    force: overrides.force ?? false,
    restart: overrides.restart ?? false,
    signal: overrides.signal ?? new AbortController().signal,
  }
}

const storedMatches = () =>
  db.prepare('SELECT url FROM jobs WHERE last_run_id = (SELECT max(id) FROM runs) ORDER BY url').pluck().all()

describe('a sweep of a directory', () => {
  it('reads every list once, asks details for the candidates only, and stores the matches as a run of kind sweep', async () => {
    const summary = await sweeper().sweep(request())
    expect(summary).toMatchObject({status: 'done', boards: 40, asked: 40, dead: 3, failed: 1})
    expect(summary.failed_by_reason).toEqual({'malformed answer': 1})
    expect(summary.candidates).toBeGreaterThan(0)
    expect(summary.candidates).toBeLessThan(summary.jobs_seen)
    // Greenhouse's lists are asked without content; each candidate's job is asked once for it, no other job.
    expect(mirror.requests.filter((one) => one.url.includes('content=true'))).toEqual([])
    const ghCandidates = db
      .prepare("SELECT sum(candidates) FROM sweep_progress WHERE board LIKE 'greenhouse:%'")
      .pluck()
      .get() as number
    expect(mirror.count('detail', 'greenhouse')).toBe(ghCandidates)
    // Workday and SmartRecruiters are asked with the role words as their own search.
    expect(mirror.requests.some((one) => one.url.includes('q=software+engineer'))).toBe(true)
    const run = db.prepare('SELECT mode, jobs_found FROM runs').all()
    expect(run).toEqual([{mode: 'sweep', jobs_found: summary.matches}])
    expect(storedMatches().length).toBe(summary.matches)
  })

  it('waits out a 429 Retry-After on its platform, then asks the board again', async () => {
    const summary = await sweeper().sweep(request())
    expect(waits).toContain(2000)
    // The malformed board's answer is its own: its platform asks its other boards without a pause.
    expect(waits).toEqual([2000])
    const busy = db.prepare("SELECT outcome FROM sweep_progress WHERE board = 'greenhouse:busy-gh'").pluck().get()
    expect(busy).toBe('answered')
    expect(summary.failed).toBe(1)
  })

  it('asks an unchanged board with its ETag (304, nothing parsed) and rests a dead one', async () => {
    const first = await sweeper().sweep(request())
    const before = mirror.count('list')
    now = new Date('2026-11-23T06:00:00Z')
    const second = await sweeper().sweep(request())
    // 13 Greenhouse boards answer 304 (the busy one too, answered on its retry); the two dead Greenhouse boards
    // and the empty Lever board rest; the boards without validators hash the same.
    expect(mirror.count('304', 'greenhouse')).toBe(13)
    expect(second).toMatchObject({resting: 3, dead: 0, failed: 1, unchanged: 40 - 3 - 1})
    expect(mirror.count('list') - before).toBeGreaterThan(0)
    expect(second.matches).toBe(first.matches)
    expect(mirror.requests.filter((one) => one.url.includes('/v1/boards/gone-gh'))).toHaveLength(1)
  })

  it('reads an unchanged board again when the profile changed, then keeps its answer under the new one', async () => {
    const first = await sweeper().sweep(request())
    const other: Matching = {...matching, profile: scoringProfile({roles: ['account executive']})}
    now = new Date('2026-11-23T06:00:00Z')
    const second = await sweeper({}, other).sweep(request())
    // Nothing is asked with its kept validators: every board's list is read and gated by the new profile.
    expect(mirror.count('304', 'greenhouse')).toBe(0)
    expect(second).toMatchObject({resting: 3, unchanged: 0, answered: 40 - 3 - 1})
    expect(second.candidates).toBeLessThan(first.candidates)
    now = new Date('2026-11-24T07:00:00Z')
    const third = await sweeper({}, other).sweep(request())
    expect(mirror.count('304', 'greenhouse')).toBe(13)
    expect(third).toMatchObject({unchanged: 40 - 3 - 1, candidates: second.candidates, matches: second.matches})
  })

  it('refuses to sweep again within sweep.interval_hours unless forced', async () => {
    await sweeper().sweep(request())
    now = new Date('2026-11-22T06:00:00Z')
    await expect(sweeper().sweep(request())).rejects.toThrow(/less than sweep.interval_hours \(24\) ago/)
    await expect(sweeper().sweep(request({force: true}))).resolves.toMatchObject({status: 'done'})
  })

  it('resumes a sweep stopped midway and ends with the matches of an uninterrupted one', async () => {
    const whole = await sweeper().sweep(request())
    const uninterrupted = storedMatches()
    expect(uninterrupted.length).toBe(whole.matches)
    // The same directory swept anew in another store, stopped after ten boards.
    db.close()
    file = `${home.path}/second.db`
    db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
    const stop = new AbortController()
    let done = 0
    const stopped = await sweeper().sweep({
      ...request({signal: stop.signal}),
      onProgress: () => {
        if (++done === 10) stop.abort('SIGINT')
      },
    })
    expect(stopped.status).toBe('interrupted')
    expect(db.prepare('SELECT count(*) FROM runs').pluck().get()).toBe(0)
    const kept = db.prepare('SELECT count(*) FROM sweep_progress').pluck().get() as number
    expect(kept).toBeGreaterThanOrEqual(10)
    const doneBefore = db.prepare('SELECT board FROM sweep_progress').pluck().all() as string[]
    const asked = mirror.requests.length
    const resumed = await sweeper().sweep(request())
    expect(resumed).toMatchObject({status: 'done', resumed: true, boards: 40})
    // No board done before is asked again.
    const later = mirror.requests.slice(asked).map((one) => one.url)
    for (const key of doneBefore.filter((one) => !one.startsWith('workday:'))) {
      const slug = key.slice(key.indexOf(':') + 1)
      expect(later.filter((url) => new RegExp(`/${slug}(?:[/?]|$)`).test(url))).toEqual([])
    }
    expect(storedMatches()).toEqual(uninterrupted)
  })

  it('stops as offline when no board can be reached, keeps none of them as done, and continues once it can', async () => {
    const closed = await closedPortUrl()
    const offline = sweeper({urls: Object.fromEntries(Object.keys(mirrorUrls(mirror)).map((ats) => [ats, closed]))})
    await expect(offline.sweep(request())).rejects.toThrow(
      /^no board could be reached: the first \d+ asked, on \d+ ATSs, failed with a network error$/,
    )
    expect(db.prepare('SELECT count(*) FROM sweep_progress').pluck().get()).toBe(0)
    // Far fewer than the 40 boards were tried: the sweep stopped instead of backing off board after board.
    expect(waits.length).toBeLessThan(40)
    const resumed = await sweeper().sweep(request())
    expect(resumed).toMatchObject({status: 'done', resumed: true, boards: 40, asked: 40})
    expect(resumed.failed_by_reason['network error']).toBeUndefined()
  })

  it('stops as offline too when a sweep too small to stop early reaches none of its boards', async () => {
    const closed = await closedPortUrl()
    const small = sweeper({urls: {...mirrorUrls(mirror), greenhouse: closed}})
    const selection = {ats: ['greenhouse'], limit: 3}
    await expect(small.sweep({...request(), selection})).rejects.toThrow(
      /^no board could be reached: the first 3 asked, on 1 ATS, failed with a network error$/,
    )
    expect(db.prepare('SELECT count(*) FROM sweep_progress').pluck().get()).toBe(0)
    // One board reached is enough for the others' network failures to be the boards' own.
    const summary = await sweeper({urls: {...mirrorUrls(mirror), lever: closed}}).sweep({
      ...request(),
      selection: {ats: ['greenhouse', 'lever']},
    })
    expect(summary.status).toBe('done')
    expect(summary.failed_by_reason['network error']).toBeGreaterThan(0)
  })
})
