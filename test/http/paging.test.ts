import {afterEach, describe, expect, it} from 'vitest'
import type {JobResponse} from '../../src/core/jobs/job.js'
import {recordRun} from '../../src/core/jobs/run-changes.js'
import {json, type TestApi, testApi} from '../helpers/http.js'
import {acmeJob, closesNothing, foundJobs} from '../helpers/job-details.js'

// The list routes answer a page at a time, so a tracker or a last run of any size never becomes one answer of
// hundreds of MB; `total` says how many there are, and the fields older clients read stay as they were.

let api: TestApi | undefined
afterEach(async () => {
  await api?.cleanup()
  api = undefined
})

const job = (n: number): JobResponse =>
  acmeJob(n, {
    // Newer postings for higher n: the store lists newest first.
    posted_date: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString().replace('.000', ''),
  })

async function storeRun(target: TestApi, count: number) {
  const jobs = Array.from({length: count}, (_, index) => job(index + 1))
  await recordRun(
    target.context.jobStore,
    {
      started_at: '2026-11-22T08:00:00.000',
      finished_at: '2026-11-22T08:00:01.000',
      status: 'ok',
      mode: 'production',
      jobs_found: count,
      new_jobs: count,
      notified: 0,
      sources: [{name: 'remotive', ok: true, count, error: null, duration_ms: 12, anomaly: null}],
      error: null,
    },
    {...closesNothing, found: foundJobs(jobs)},
  )
}

async function track(target: TestApi, count: number, status = 'applied') {
  for (let n = 1; n <= count; n++) {
    await target.context.applications.record({...job(n), status})
  }
}

const titles = (body: {jobs: {title: string}[]}) => body.jobs.map((item) => item.title)

describe('GET /jobs/last pages', () => {
  it('answers 100 jobs by default with the total, and pages on with limit and offset in the same order', async () => {
    api = testApi()
    await storeRun(api, 250)
    // The five oldest postings are applied for: they come last, after every new job.
    await track(api, 5)

    const first = await json(await api.app.request('/jobs/last'))
    expect(first).toMatchObject({count: 100, total: 250, limit: 100, offset: 0})
    expect(first.run).toMatchObject({jobs_found: 250})
    expect(titles(first).slice(0, 2)).toEqual(['Engineer 250', 'Engineer 249'])

    const pages = [first]
    for (let offset = 100; offset < 250; offset += 100) {
      pages.push(await json(await api.app.request(`/jobs/last?limit=100&offset=${offset}`)))
    }
    const all = pages.flatMap(titles)
    expect(all).toHaveLength(250)
    expect(new Set(all).size).toBe(250)
    expect(all.slice(-5)).toEqual(['Engineer 5', 'Engineer 4', 'Engineer 3', 'Engineer 2', 'Engineer 1'])
    expect(pages[2]).toMatchObject({count: 50, total: 250, offset: 200})

    const fresh = await json(await api.app.request('/jobs/last?new=true&limit=1000'))
    expect(fresh).toMatchObject({count: 245, total: 245, limit: 1000})
    const past = await json(await api.app.request('/jobs/last?offset=900'))
    expect(past).toMatchObject({jobs: [], count: 0, total: 250})
  })

  it('refuses a limit above 1000 or below 1 and a negative offset with 422 naming the parameter', async () => {
    api = testApi()
    for (const [query, field] of [
      ['limit=1001', 'limit'],
      ['limit=0', 'limit'],
      ['offset=-1', 'offset'],
    ]) {
      const response = await api.app.request(`/jobs/last?${query}`)
      expect(response.status, query).toBe(422)
      expect((await json(response)).error.details).toEqual([{field, message: expect.any(String)}])
    }
  })
})

describe('GET /applications pages', () => {
  it('answers 100 applications by default with the total, newest first, and pages on', async () => {
    api = testApi()
    await track(api, 120)
    await api.context.applications.changeStatus(job(7).url, 'interviewing')

    const first = await json(await api.app.request('/applications'))
    expect(first).toMatchObject({count: 100, total: 120, limit: 100, offset: 0})
    const second = await json(await api.app.request('/applications?offset=100'))
    expect(second).toMatchObject({count: 20, total: 120, offset: 100})
    const urls = [...first.applications, ...second.applications].map((item: {url: string}) => item.url)
    expect(new Set(urls).size).toBe(120)
    expect(urls.at(-1)).toBe(job(1).url)

    const small = await json(await api.app.request('/applications?limit=3&offset=117'))
    expect(small.applications.map((item: {url: string}) => item.url)).toEqual([job(3).url, job(2).url, job(1).url])

    const interviewing = await json(await api.app.request('/applications?status=interviewing'))
    expect(interviewing).toMatchObject({count: 1, total: 1, applications: [{url: job(7).url}]})
  })

  it('refuses a limit out of range with 422 naming the parameter', async () => {
    api = testApi()
    for (const [query, field] of [
      ['limit=1001', 'limit'],
      ['limit=0', 'limit'],
      ['offset=-1', 'offset'],
    ]) {
      const response = await api.app.request(`/applications?${query}`)
      expect(response.status, query).toBe(422)
      expect((await json(response)).error.details).toEqual([{field, message: expect.any(String)}])
    }
  })
})
