// Fills a temporary JOBAGENT_HOME through the built app's own services (dist/), so the data has exactly the shape
// jobagent writes, whatever the schema of the day. Records are derived from their index: the same on every run.
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {DIST} from './options.js'

const fromDist = (path) => import(pathToFileURL(join(DIST, path)).href)

export function application(n, fields = {}) {
  return {
    title: `Engineer ${n}`,
    company: `Company ${n % 211}`,
    location: n % 3 === 0 ? 'Remote' : 'Berlin, Germany',
    url: `https://example.org/jobs/${n}`,
    source: 'bench',
    applied_date: `2026-${String(1 + (n % 11)).padStart(2, '0')}-01T09:00:00.000`,
    status: 'applied',
    notes: n % 5 === 0 ? 'recruiter call booked, "Tue"' : '',
    ...fields,
  }
}

export function job(n, fields = {}) {
  return {
    title: `Engineer ${n}`,
    company: `Company ${n % 211}`,
    location: n % 3 === 0 ? 'Remote' : 'Berlin, Germany',
    url: `https://board.example/jobs/${n}`,
    source: ['remoteok', 'remotive', 'arbeitnow', 'jobicy'][n % 4],
    posted_date: null,
    description: `Job ${n}: build and run services.\n\n- TypeScript\n- PostgreSQL`,
    salary: null,
    employment_type: n % 2 === 0 ? 'full_time' : null,
    remote: n % 3 === 0 ? true : null,
    regions: [],
    timezones: [],
    seniority: null,
    tags: ['backend'],
    board_id: String(n),
    company_url: null,
    ...fields,
  }
}

/** Applications (JSON records as `jobagent import` takes them) and the jobs of one completed last run. */
export async function seedHome(home, {applications = [], jobs = []}) {
  const [{AppContext}, {keyJob}, {recordRun}] = await Promise.all([
    fromDist('src/app/context.js'),
    fromDist('src/core/jobs/dedupe.js'),
    fromDist('src/core/jobs/run-changes.js'),
  ])
  const context = new AppContext({env: {JOBAGENT_HOME: home}})
  try {
    if (jobs.length > 0) {
      const at = '2026-11-22T08:00:00.000'
      const run = {started_at: at, finished_at: at, status: 'ok', mode: 'production', notified: 0, sources: []}
      await recordRun(
        context.jobStore,
        {...run, jobs_found: jobs.length, new_jobs: jobs.length, error: null},
        {
          // Each job its own role, listed by the board its source names, as a search hands them over.
          found: jobs.map((found) => {
            const keyed = keyJob(found)
            return {...keyed, urlKeys: [keyed.urlKey], boards: [found.source], also_on: []}
          }),
          boards: [],
          criteria: '',
          closeAfterRuns: 2,
        },
      )
    }
    if (applications.length > 0) {
      const rows = applications.map((value, index) => ({row: index + 1, value}))
      await context.applications.import(rows, {update: false})
    }
  } finally {
    await context.close()
  }
}

const STATUSES = ['saved', 'applied', 'interviewing', 'rejected']

/** What the front ends show: a last run of `count` jobs and `count` applications, a quarter of them for its jobs. */
export function seedTrackerAndLastRun(home, count) {
  const jobs = Array.from({length: count}, (_, n) => job(n + 1))
  const applications = Array.from({length: count}, (_, n) =>
    application(n + 1, {
      url: n < count / 4 ? `https://board.example/jobs/${n * 4 + 1}` : `https://elsewhere.example/${n}`,
      status: STATUSES[n % STATUSES.length],
    }),
  )
  return seedHome(home, {applications, jobs})
}

/**
 * A last run of `count` jobs of real board answers (the labelled evaluation set's, repeated, each on its own host), a
 * profile that scores them, and the readings of their descriptions kept as a run keeps them: what `jobagent jobs`
 * lists for a person whose boards answer thousands of jobs.
 */
export async function seedScoredRun(home, count, profile, labelled) {
  const jobs = Array.from({length: count}, (_, n) => {
    const from = labelled[n % labelled.length]
    const url = new URL(from.url)
    url.hostname = `copy${n}.${url.hostname}`
    return {...from, url: url.href, board_id: String(n)}
  })
  await seedHome(home, {jobs})
  writeFileSync(join(home, 'config.json'), JSON.stringify({profile}, null, 2), {mode: 0o600})
  const [{AppContext}, {matchingFrom}, {descriptionAnalyser}] = await Promise.all([
    fromDist('src/app/context.js'),
    fromDist('src/app/shared-search.js'),
    fromDist('src/core/matching/score.js'),
  ])
  const context = new AppContext({env: {JOBAGENT_HOME: home}})
  try {
    const reader = descriptionAnalyser(matchingFrom(context.config))
    const texts = context.trackerDb.prepare('SELECT hash, description FROM descriptions').raw().all()
    await context.termsCache.save(
      reader.key,
      texts.map(([hash, text]) => [hash, reader.encode(reader.read(text))]),
    )
  } finally {
    await context.close()
  }
}
