import {afterEach, describe, expect, it} from 'vitest'
import {json, type TestApi, testApi} from '../helpers/http.js'
import {daysAgo} from '../helpers/tracker.js'

let api: TestApi | undefined

afterEach(async () => {
  await api?.cleanup()
  api = undefined
})

function row(name: string, source: string, status: string, applied_date: string) {
  return {
    title: name,
    company: 'Acme',
    location: '',
    url: `https://example.org/jobs/${name}`,
    source,
    status,
    applied_date,
  }
}

/** A answered (offer, via an interview) 4 days after it was sent, B rejected after 8, C never answered, D saved. */
async function seeded(): Promise<TestApi> {
  const started = testApi()
  const tracker = started.context.applications
  await tracker.import(
    [
      row('A', 'remoteok', 'applied', daysAgo(4)),
      row('B', 'remoteok', 'applied', daysAgo(8)),
      row('C', 'lever', 'applied', daysAgo(120)),
      row('D', 'lever', 'saved', daysAgo(2)),
    ].map((value, index) => ({row: index + 1, value})),
    {update: false},
  )
  await tracker.changeStatus('https://example.org/jobs/A', 'interviewing')
  await tracker.changeStatus('https://example.org/jobs/A', 'offer')
  await tracker.changeStatus('https://example.org/jobs/B', 'rejected')
  return started
}

describe('GET /stats', () => {
  it('answers the funnel, the response rate and the median days, per source and month', async () => {
    api = await seeded()
    const response = await api.app.request('/stats')
    expect(response.status).toBe(200)
    const stats = await json(response)
    // Reached: saved 4; applied A B C (3); interviewing and offer A. Answered A and B of 3, after 4 and 8 days.
    expect(stats.funnel).toEqual([
      {stage: 'saved', count: 4, conversion: null},
      {stage: 'applied', count: 3, conversion: 0.75},
      {stage: 'interviewing', count: 1, conversion: 0.333},
      {stage: 'offer', count: 1, conversion: 1},
      {stage: 'accepted', count: 0, conversion: 0},
    ])
    expect(stats).toMatchObject({total: 4, applied: 3, responded: 2, response_rate: 0.667, median_days_to_response: 6})
    expect(stats.by_status).toMatchObject({saved: 1, applied: 1, offer: 1, rejected: 1})
    expect(stats.by_source).toMatchObject([
      {source: 'lever', total: 2, applied: 1, responded: 0, response_rate: 0, median_days_to_response: null},
      {source: 'remoteok', total: 2, applied: 2, responded: 2, response_rate: 1, median_days_to_response: 6},
    ])
    expect(stats.by_month[0]).toMatchObject({month: daysAgo(120).slice(0, 7), total: 1})
  })

  it('limits the figures with ?since= and refuses a period it cannot read with 422', async () => {
    api = await seeded()
    const recent = await json(await api.app.request('/stats?since=12w'))
    expect(recent).toMatchObject({total: 3, applied: 2, responded: 2, response_rate: 1})
    expect(recent.since.slice(0, 10)).toBe(daysAgo(84).slice(0, 10))
    const refused = await api.app.request('/stats?since=lately')
    expect(refused.status).toBe(422)
    expect((await json(refused)).error).toMatchObject({code: 'validation', details: [{field: 'since'}]})
  })

  it('is documented in the OpenAPI document', async () => {
    api = testApi()
    const document = await json(await api.app.request('/openapi.json'))
    expect(document.paths['/stats'].get.parameters).toEqual([expect.objectContaining({name: 'since', in: 'query'})])
    expect(document.components.schemas.ApplicationStats.required).toEqual(
      expect.arrayContaining(['funnel', 'response_rate', 'by_source', 'by_month']),
    )
  })
})
