import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {runAgent} from '../../src/app/agent.js'
import {AppContext} from '../../src/app/context.js'
import {tempDir} from '../helpers/cli.js'
import {type MockServer, sendJson, startMockServer} from '../helpers/mock-board.js'

/** The HTML of each posting's description, by id; a test changes one between runs. */
const descriptions: Record<number, string> = {
  1: '<p>Backend work &amp; on-call.</p><ul><li>Node.js</li></ul>',
  2: '<p>Frontend work.</p>',
}
let server: MockServer

beforeAll(async () => {
  server = await startMockServer((_req, res) => {
    sendJson(res, {
      'job-count': 2,
      jobs: Object.entries(descriptions).map(([id, description]) => ({
        id,
        url: `https://remotive.example/remote-jobs/job-${id}`,
        title: `Engineer ${id}`,
        company_name: 'Acme',
        candidate_required_location: 'Worldwide',
        publication_date: new Date(Date.now() - 86_400_000).toISOString().slice(0, 19),
        job_type: 'full_time',
        salary: '',
        description,
        tags: [],
      })),
    })
  })
})
afterAll(() => server.close())

it('keeps every description exact over runs that read only the HTML that changed', async () => {
  const home = tempDir('jobagent-description-cache-run-')
  try {
    const config = {sources: [{type: 'remotive', url: server.url}], notify: {urls: []}}
    writeFileSync(join(home.path, 'config.json'), JSON.stringify(config), {mode: 0o600})
    const run = async () => {
      const context = new AppContext({env: {JOBAGENT_HOME: home.path}})
      try {
        await runAgent(context, {})
        const {jobs} = await (await context.openJobCatalog()).lastRun()
        return Object.fromEntries(jobs.map((job) => [job.title, job.description]))
      } finally {
        await context.close()
      }
    }
    const first = {'Engineer 1': 'Backend work & on-call.\n\n- Node.js', 'Engineer 2': 'Frontend work.'}
    expect(await run()).toEqual(first)
    expect(await run()).toEqual(first)

    descriptions[2] = '<p>Frontend work, <em>now</em> with design.</p>'
    expect(await run()).toEqual({...first, 'Engineer 2': 'Frontend work, now with design.'})

    const db = new Database(join(home.path, 'jobagent.db'), {readonly: true})
    try {
      // One pair per HTML whose text a stored job holds: the first description and the changed one. The pair of the
      // replaced HTML went when the run that stored the change wrote its own.
      expect(db.prepare('SELECT count(*) AS n FROM description_sources').get()).toEqual({n: 2})
    } finally {
      db.close()
    }
  } finally {
    home.cleanup()
  }
})

it('stores no pair for a dry run, which stores nothing', async () => {
  const home = tempDir('jobagent-description-cache-dry-')
  try {
    const config = {sources: [{type: 'remotive', url: server.url}], notify: {urls: []}}
    writeFileSync(join(home.path, 'config.json'), JSON.stringify(config), {mode: 0o600})
    const context = new AppContext({env: {JOBAGENT_HOME: home.path}})
    try {
      const summary = await runAgent(context, {dryRun: true})
      expect(summary.jobs_found).toBe(2)
    } finally {
      await context.close()
    }
    const db = new Database(join(home.path, 'jobagent.db'), {readonly: true})
    try {
      expect(db.prepare('SELECT count(*) AS n FROM description_sources').get()).toEqual({n: 0})
      expect(db.prepare('SELECT count(*) AS n FROM jobs').get()).toEqual({n: 0})
    } finally {
      db.close()
    }
  } finally {
    home.cleanup()
  }
})
