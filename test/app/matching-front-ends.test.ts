/**
 * The knowledge-built matching reaches every front end through the one job catalog: a nurse in Metro Manila gets
 * the same ranking, scores and reasons from `jobagent jobs`, `jobagent jobs <id> --explain` and GET /jobs/last.
 */
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import Jobs from '../../commands/jobs.js'
import {recordRun} from '../../src/core/jobs/run-changes.js'
import {json, type TestApi, testApi} from '../helpers/http.js'
import {acmeJob, closesNothing, foundJobs, runRecord} from '../helpers/job-details.js'
import {runCommand} from '../helpers/run-command.js'
import {daysAgo} from '../helpers/tracker.js'

const nurse = {
  roles: ['registered nurse', 'staff nurse'],
  skills: {'patient care': 3, 'critical care': 2},
  avoid: [],
  seniority: 'mid',
  home: 'Philippines',
  locations: ['manila', 'remote'],
}

let api: TestApi

beforeEach(async () => {
  api = testApi({config: {sources: [], profile: nurse}})
  await recordRun(api.context.jobStore, runRecord(daysAgo(1)), {
    ...closesNothing,
    found: foundJobs([
      acmeJob(1, {
        title: 'Software Engineer',
        location: 'Remote',
        remote: true,
        description: 'Build our patient care platform in TypeScript.',
      }),
      acmeJob(2, {
        title: 'Registered Nurses - Medical ICU',
        location: 'San Francisco, CA',
        remote: false,
        description: 'Critical care nursing; patient care on a 24-bed ICU. California RN licence required.',
      }),
      acmeJob(3, {
        title: 'Staff Nurse - ICU',
        location: 'Quezon City, Metro Manila',
        remote: false,
        description: 'Provide patient care in our critical care unit. Requirements:\n- Philippine RN licence\n- BLS',
      }),
    ]),
  })
})

afterEach(async () => {
  await api.cleanup()
})

interface Listed {
  id: number
  title: string
  score: number
  reasons: string[]
}

describe('matching in every front end', () => {
  it('ranks the Manila ward first, gates the Californian one and says why, the same in the CLI and the API', async () => {
    const cli = await runCommand(Jobs, ['--json'], {home: api.home})
    expect(cli.code).toBe(0)
    const listed = JSON.parse(cli.stdout) as Listed[]
    expect(listed.map((job) => job.title)).toEqual([
      'Staff Nurse - ICU',
      'Registered Nurses - Medical ICU',
      'Software Engineer',
    ])
    const [manila, california, software] = listed
    expect(manila!.reasons.some((reason) => reason.startsWith('+ role:'))).toBe(true)
    expect(california!.reasons.some((reason) => reason.startsWith('gate:') && reason.includes('on site'))).toBe(true)
    expect(software!.reasons.some((reason) => reason.includes('role'))).toBe(false)
    expect(manila!.score).toBeGreaterThan(california!.score)

    const body = await json(await api.app.request('/jobs/last'))
    expect(body.jobs.map((job: Listed) => [job.title, job.score, job.reasons])).toEqual(
      listed.map((job) => [job.title, job.score, job.reasons]),
    )
  })

  it('names the occupation data a score was made with in --explain', async () => {
    const listed = JSON.parse((await runCommand(Jobs, ['--json'], {home: api.home})).stdout) as Listed[]
    const explained = await runCommand(Jobs, [String(listed[0]!.id), '--explain'], {home: api.home})
    expect(explained.code).toBe(0)
    expect(explained.stdout).toContain('O*NET')
  })
})
