import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import {afterEach, describe, expect, it} from 'vitest'
import {
  applicationBody,
  jsonBody,
  type MockBoard,
  mockRemoteOk,
  statusPath,
  type TestApi,
  testApi,
} from '../helpers/http.js'

let api: TestApi | undefined
let board: MockBoard | undefined

afterEach(async () => {
  await api?.cleanup()
  await board?.close()
  api = undefined
  board = undefined
})

interface Family {
  name: string
  type: string
  metrics: {labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string}[]
}

async function scrapeText(app: TestApi['app']): Promise<string> {
  const response = await app.request('/metrics')
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toContain('text/plain')
  return response.text()
}

async function scrape(app: TestApi['app']): Promise<Map<string, Family>> {
  const families = parsePrometheusTextFormat(await scrapeText(app)) as Family[]
  return new Map(families.map((family) => [family.name, family]))
}

/**
 * The label sets of the request histogram. The parser folds a histogram's buckets into one sample and drops
 * labels other than `le`, so the histogram's series are read untyped (without its TYPE line) from the same text.
 */
function histogramLabelSets(text: string): Record<string, string>[] {
  const untyped = text.replace(/^# TYPE http_request_duration_seconds histogram$/m, '')
  const families = parsePrometheusTextFormat(untyped) as Family[]
  return families
    .filter((family) => family.name === 'http_request_duration_seconds_count')
    .flatMap((family) => family.metrics.map((metric) => metric.labels ?? {}))
}

describe('GET /metrics', () => {
  it('exposes process metrics and request durations by method, route template and status', async () => {
    api = testApi()
    await api.app.request('/applications', jsonBody(applicationBody({url: 'https://example.org/jobs/1?x=1'})))
    await api.app.request(statusPath('https://example.org/jobs/1?x=1'))
    await api.app.request(statusPath('https://example.org/jobs/2'))
    await api.app.request('/no/such/route')
    await api.app.request('/applications', {method: 'POST', body: 'x', headers: {'content-type': 'text/plain'}})
    const text = await scrapeText(api.app)
    const metrics = new Map((parsePrometheusTextFormat(text) as Family[]).map((family) => [family.name, family]))
    expect(metrics.get('process_cpu_seconds_total')?.type).toBe('COUNTER')
    expect(metrics.has('nodejs_eventloop_lag_seconds')).toBe(true)
    expect(metrics.get('http_request_duration_seconds')?.type).toBe('HISTOGRAM')
    const labels = histogramLabelSets(text)
    expect(labels).toContainEqual({method: 'POST', route: '/applications', status: '201'})
    expect(labels).toContainEqual({method: 'GET', route: '/applications/:url/status', status: '200'})
    expect(labels).toContainEqual({method: 'GET', route: '/applications/:url/status', status: '404'})
    expect(labels).toContainEqual({method: 'GET', route: 'unmatched', status: '404'})
    // Refused by a middleware before the route ran, still counted under the route it was sent to.
    expect(labels).toContainEqual({method: 'POST', route: '/applications', status: '415'})
    expect(JSON.stringify(labels)).not.toContain('example.org')
    const recorded = metrics.get('jobagent_applications_recorded_total')
    expect(recorded?.metrics[0]?.value).toBe('1')
  })

  it('counts searches, jobs found and source errors once per shared search', async () => {
    board = await mockRemoteOk(undefined, {delayMs: 200})
    api = testApi({
      config: {
        sources: [
          {type: 'remoteok', url: board.url},
          {type: 'remoteok', name: 'dead', url: 'http://127.0.0.1:9/'},
        ],
      },
    })
    await Promise.all([api.app.request('/jobs'), api.app.request('/jobs')])
    const metrics = await scrape(api.app)
    expect(metrics.get('jobagent_searches_total')?.metrics[0]?.value).toBe('1')
    expect(metrics.get('jobagent_jobs_found_total')?.metrics[0]?.value).toBe('1')
    expect(metrics.get('jobagent_source_errors_total')?.metrics).toEqual([{labels: {source: 'dead'}, value: '1'}])
  })

  it('keeps each app on its own registry', async () => {
    api = testApi()
    const other = testApi()
    try {
      await other.app.request('/applications')
      const labels = histogramLabelSets(await scrapeText(api.app))
      expect(labels).not.toContainEqual(expect.objectContaining({route: '/applications'}))
    } finally {
      await other.cleanup()
    }
  })
})
