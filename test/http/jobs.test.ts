import {afterEach, describe, expect, it} from 'vitest'
import type {JobResponse} from '../../src/core/jobs/job.js'
import {recordRun} from '../../src/core/jobs/run-changes.js'
import {
  applicationBody,
  json,
  jsonBody,
  type MockBoard,
  mockRemoteOk,
  remoteOkJob,
  type TestApi,
  testApi,
} from '../helpers/http.js'
import {acmeJob, closesNothing, foundJobs, noDetails, openLife} from '../helpers/job-details.js'

let api: TestApi | undefined
const boards: MockBoard[] = []

afterEach(async () => {
  await api?.cleanup()
  api = undefined
  await Promise.all(boards.splice(0).map((board) => board.close()))
})

async function board(...args: Parameters<typeof mockRemoteOk>): Promise<MockBoard> {
  const created = await mockRemoteOk(...args)
  boards.push(created)
  return created
}

describe('GET /jobs', () => {
  it('searches the configured boards and answers the jobs with each board outcome', async () => {
    const remoteok = await board([
      remoteOkJob({
        description: '<p>Build <b>APIs</b> &amp; tools.</p><ul><li>Node</li><li>SQL</li></ul>',
        salary_min: 70000,
        salary_max: 90000,
        tags: ['dev', 'node', 'Dev'],
      }),
      remoteOkJob({id: '2', position: 'Ops &amp; SRE', url: 'https://remoteok.com/remote-jobs/2'}),
    ])
    api = testApi({config: {sources: [{type: 'remoteok', url: remoteok.url}]}})
    const response = await api.app.request('/jobs')
    expect(response.status).toBe(200)
    const body = await json(response)
    expect(body.count).toBe(2)
    expect(body.jobs).toContainEqual({
      title: 'Dev',
      company: 'Acme',
      location: 'Remote',
      url: 'https://remoteok.com/remote-jobs/1',
      source: 'remoteok',
      posted_date: '2026-11-20T00:00:00Z',
      description: 'Build APIs & tools.\n\n- Node\n- SQL',
      salary: {
        min: 70000,
        max: 90000,
        currency: 'USD',
        period: 'year',
        annual_min: 70000,
        annual_max: 90000,
        text: null,
      },
      employment_type: null,
      remote: true,
      regions: [],
      timezones: [],
      seniority: null,
      tags: ['dev', 'node'],
      board_id: '1',
      company_url: null,
      tracked_status: null,
      tracked_url: null,
      is_new: true,
      // No profile in the config: nothing is scored.
      score: null,
      reasons: [],
    })
    expect(body.jobs.map((job: {title: string}) => job.title)).toContain('Ops & SRE')
    expect(body.sources).toEqual([{name: 'remoteok', ok: true, count: 2, error: null, duration_ms: expect.any(Number)}])
    expect(body.searched_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
  })

  it('reports a failing board and still answers the others', async () => {
    const remoteok = await board()
    api = testApi({
      config: {
        sources: [
          {type: 'remoteok', url: remoteok.url},
          {type: 'remoteok', name: 'dead', url: 'http://127.0.0.1:9/', timeout_seconds: 2},
        ],
      },
    })
    const body = await json(await api.app.request('/jobs'))
    expect(body.count).toBe(1)
    const dead = body.sources.find((source: {name: string}) => source.name === 'dead')
    expect(dead).toMatchObject({ok: false, count: 0, error: expect.any(String)})
  })

  it('shares one search between concurrent requests', async () => {
    const remoteok = await board([remoteOkJob()], {delayMs: 400})
    api = testApi({config: {sources: [{type: 'remoteok', url: remoteok.url}]}})
    const app = api.app
    const [first, second] = await Promise.all([app.request('/jobs'), app.request('/jobs')])
    expect(remoteok.requests()).toBe(1)
    expect((await json(first)).count).toBe(1)
    expect((await json(second)).count).toBe(1)
    await app.request('/jobs')
    expect(remoteok.requests()).toBe(2)
  })

  it('passes ?tags= to the boards', async () => {
    const remoteok = await board()
    api = testApi({config: {sources: [{type: 'remoteok', url: remoteok.url}]}})
    const response = await api.app.request('/jobs?tags=typescript,%20node')
    expect(response.status).toBe(200)
    expect(remoteok.requests()).toBe(2)
  })
})

const stored = (n: number): JobResponse => acmeJob(n, {posted_date: `2026-11-0${n}T00:00:00Z`})

/** Stores a run of three jobs as `jobagent run` does, in the API's own database. */
async function storeRun(target: TestApi) {
  const jobs = [1, 2, 3].map(stored)
  return recordRun(
    target.context.jobStore,
    {
      started_at: '2026-11-22T08:00:00.000',
      finished_at: '2026-11-22T08:00:01.000',
      status: 'ok',
      mode: 'production',
      jobs_found: 3,
      new_jobs: 3,
      notified: 0,
      sources: [{name: 'remotive', ok: true, count: 3, error: null, duration_ms: 12, anomaly: null}],
      error: null,
    },
    {...closesNothing, found: foundJobs(jobs)},
  )
}

describe('GET /jobs/last', () => {
  it('answers no run and no jobs before any run, without searching', async () => {
    const remoteok = await board()
    api = testApi({config: {sources: [{type: 'remoteok', url: remoteok.url}]}})
    const response = await api.app.request('/jobs/last')
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual({run: null, jobs: [], count: 0, total: 0, limit: 100, offset: 0})
    expect(remoteok.requests()).toBe(0)
  })

  it('lists the stored jobs with their ids, new ones first, with the tracked status', async () => {
    api = testApi()
    const saved = await storeRun(api)
    const recorded = await api.app.request('/applications', jsonBody(applicationBody({...stored(3)})))
    expect(recorded.status).toBe(201)
    const body = await json(await api.app.request('/jobs/last'))
    expect(body.run).toEqual({
      id: saved.run.id,
      started_at: '2026-11-22T08:00:00.000',
      finished_at: '2026-11-22T08:00:01.000',
      status: 'ok',
      jobs_found: 3,
      // Counted now: job 3 was applied for after the run.
      new_jobs: 2,
    })
    expect(body.count).toBe(3)
    expect(body.jobs.map((job: {title: string}) => job.title)).toEqual(['Engineer 2', 'Engineer 1', 'Engineer 3'])
    const id = (title: string) => saved.jobs.find((job) => job.title === title)?.id
    expect(body.jobs[0]).toEqual({
      id: id('Engineer 2'),
      title: 'Engineer 2',
      company: 'Acme',
      location: 'Remote',
      url: 'https://board.example/jobs/2',
      source: 'remotive',
      posted_date: '2026-11-02T00:00:00Z',
      ...noDetails(),
      first_seen: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      last_seen: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      notified_at: null,
      ...openLife(),
      tracked_status: null,
      tracked_url: null,
      is_new: true,
      score: null,
      reasons: [],
    })
    expect(body.jobs[2]).toMatchObject({id: id('Engineer 3'), tracked_status: 'applied', is_new: false})
  })

  it('lists only the new jobs with ?new=true, and all with ?new=false', async () => {
    api = testApi()
    await storeRun(api)
    await api.app.request('/applications', jsonBody(applicationBody({...stored(1), status: 'interviewing'})))
    const fresh = await json(await api.app.request('/jobs/last?new=true'))
    expect(fresh.count).toBe(2)
    expect(fresh.jobs.every((job: {is_new: boolean}) => job.is_new)).toBe(true)
    expect((await json(await api.app.request('/jobs/last?new=false'))).count).toBe(3)
  })

  it('refuses ?new=maybe with 422 naming the parameter', async () => {
    api = testApi()
    const response = await api.app.request('/jobs/last?new=maybe')
    expect(response.status).toBe(422)
    const body = await json(response)
    expect(body.error.code).toBe('validation')
    expect(body.error.details).toEqual([{field: 'new', message: expect.any(String)}])
  })

  it('needs the token when the server has one', async () => {
    const token = 'a-long-random-token-0123456789'
    api = testApi({app: {apiToken: token}})
    const refused = await api.app.request('/jobs/last')
    expect(refused.status).toBe(401)
    expect((await json(refused)).error.code).toBe('unauthorized')
    const accepted = await api.app.request('/jobs/last', {headers: {authorization: `Bearer ${token}`}})
    expect(accepted.status).toBe(200)
  })
})

describe('POST and DELETE /jobs/{id}/verdict', () => {
  const verdicts = (id: number | string, body: unknown) => api!.app.request(`/jobs/${id}/verdict`, jsonBody(body))
  const titles = async (query = '') =>
    (await json(await api!.app.request(`/jobs/last${query}`))).jobs.map((job: {title: string}) => job.title)

  it('keeps a dismissal, leaves the job out of /jobs/last at once and lists it with ?dismissed=true', async () => {
    api = testApi({config: {sources: [], profile: {roles: ['engineer']}}})
    const saved = await storeRun(api)
    const id = saved.jobs.find((job) => job.title === 'Engineer 2')!.id
    const response = await verdicts(id, {verdict: 'dismiss', reason: 'too far'})
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual({
      verdict: {
        job_id: id,
        verdict: 'dismiss',
        reason: 'too far',
        given_by: 'user',
        given_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        title: 'Engineer 2',
        company: 'Acme',
        tags: [],
      },
      previous: null,
      proposal: null,
    })
    expect(await titles()).not.toContain('Engineer 2')
    expect(await titles('?dismissed=true')).toEqual(['Engineer 2'])
    const liked = await json(await verdicts(id, {verdict: 'like'}))
    expect(liked.previous).toMatchObject({verdict: 'dismiss'})
    expect(await titles()).toContain('Engineer 2')

    const undone = await api.app.request(`/jobs/${id}/verdict`, {method: 'DELETE'})
    expect(undone.status).toBe(200)
    expect((await json(undone)).undone).toMatchObject({job_id: id, verdict: 'like'})
    expect((await api.app.request(`/jobs/${id}/verdict`, {method: 'DELETE'})).status).toBe(404)
  })

  it('refuses an unknown job, a bad id, an unknown verdict and unknown fields, naming them', async () => {
    api = testApi()
    await storeRun(api)
    expect((await verdicts(9999, {verdict: 'like'})).status).toBe(404)
    const badId = await verdicts('abc', {verdict: 'like'})
    expect(badId.status).toBe(422)
    expect(JSON.stringify(await json(badId))).toContain('id must be a job id')
    const badVerdict = await verdicts(1, {verdict: 'love'})
    expect(badVerdict.status).toBe(422)
    const refusal = (await json(badVerdict)).error
    expect(refusal.details[0].field).toBe('verdict')
    expect(refusal.message).toBe('verdict must be one of: like, dismiss, got "love"')
    expect((await verdicts(1, {verdict: 'like', stars: 5})).status).toBe(422)
    expect((await verdicts(1, {verdict: 'dismiss', reason: 'x'.repeat(201)})).status).toBe(422)
  })
})
