import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {recordRun} from '../../src/core/jobs/run-changes.js'
import {json, type TestApi, testApi} from '../helpers/http.js'
import {acmeJob, closesNothing, foundJobs, runRecord} from '../helpers/job-details.js'
import {daysAgo} from '../helpers/tracker.js'

let api: TestApi

beforeEach(async () => {
  api = testApi()
  await recordRun(api.context.jobStore, runRecord(daysAgo(1)), {
    ...closesNothing,
    found: foundJobs([
      acmeJob(1, {title: 'TypeScript Engineer', source: 'greenhouse'}),
      acmeJob(2, {tags: ['rust'], source: 'remoteok'}),
      acmeJob(3, {source: 'greenhouse'}),
    ]),
  })
  api.context.trackerDb
    .prepare("UPDATE jobs SET first_seen = ? WHERE url = 'https://board.example/jobs/3'")
    .run(daysAgo(40))
})

afterEach(async () => {
  await api.cleanup()
})

async function titles(query: string): Promise<string[]> {
  const body = await json(await api.app.request(`/jobs/last?${query}`))
  expect(body.total).toBe(body.jobs.length)
  return body.jobs.map((job: {title: string}) => job.title).sort()
}

describe('GET /jobs/last filters', () => {
  it('takes search, source and since as jobagent jobs does, and counts the total after them', async () => {
    expect(await titles('search=RUST')).toEqual(['Engineer 2'])
    expect(await titles('source=greenhouse')).toEqual(['Engineer 3', 'TypeScript Engineer'])
    expect(await titles('since=30d')).toEqual(['Engineer 2', 'TypeScript Engineer'])
    expect(await titles('source=greenhouse&since=30d&search=typescript')).toEqual(['TypeScript Engineer'])
  })

  it('refuses a since it cannot read with 422', async () => {
    const response = await api.app.request('/jobs/last?since=soon')
    expect(response.status).toBe(422)
    expect((await json(response)).error.details).toEqual([expect.objectContaining({field: 'since'})])
  })
})
