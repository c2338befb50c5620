import {afterEach, describe, expect, it} from 'vitest'
import type {NewRunRecord} from '../../src/core/jobs/job-store.js'
import {json, type TestApi, testApi} from '../helpers/http.js'

let api: TestApi | undefined

afterEach(async () => {
  await api?.cleanup()
  api = undefined
})

function run(minute: number, status: 'ok' | 'failed'): NewRunRecord {
  const at = `2026-11-22T07:${String(minute).padStart(2, '0')}`
  return {
    started_at: `${at}:00.000`,
    finished_at: `${at}:02.500`,
    status,
    mode: 'production',
    jobs_found: status === 'ok' ? 3 : 0,
    new_jobs: status === 'ok' ? 2 : 0,
    notified: status === 'ok' ? 2 : 0,
    sources: [{name: 'remoteok', ok: status === 'ok', count: 3, error: null, duration_ms: 40, anomaly: null}],
    error: status === 'ok' ? null : 'no source succeeded',
  }
}

describe('GET /runs', () => {
  it('pages through the ledger newest first with the total', async () => {
    api = testApi()
    for (let minute = 0; minute < 5; minute++)
      await api.context.jobStore.saveFailedRun(run(minute, minute % 2 ? 'failed' : 'ok'))

    const first = await api.app.request('/runs?limit=2')
    expect(first.status).toBe(200)
    const page = await json(first)
    expect(page).toMatchObject({count: 2, total: 5, limit: 2, offset: 0})
    expect(page.runs.map((r: {id: number}) => r.id)).toEqual([5, 4])
    expect(page.runs[1]).toEqual({
      id: 4,
      ...run(3, 'failed'),
      duration_ms: 2500,
    })
    const last = await json(await api.app.request('/runs?limit=2&offset=4'))
    expect(last.runs.map((r: {id: number}) => r.id)).toEqual([1])
    expect((await json(await api.app.request('/runs'))).limit).toBe(20)
  })

  it('answers an empty ledger before any run', async () => {
    api = testApi()
    expect(await json(await api.app.request('/runs'))).toEqual({runs: [], count: 0, total: 0, limit: 20, offset: 0})
  })

  it('refuses a limit out of range or an offset that is not a number with 422 naming the field', async () => {
    api = testApi()
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['offset=-1', 'offset'],
      ['limit=ten', 'limit'],
    ]) {
      const response = await api.app.request(`/runs?${query}`)
      expect({query, status: response.status}).toEqual({query, status: 422})
      const body = await json(response)
      expect(JSON.stringify(body.error.details)).toContain(field)
    }
  })

  it('is in the OpenAPI document', async () => {
    api = testApi()
    const doc = await json(await api.app.request('/openapi.json'))
    expect(Object.keys(doc.paths['/runs'])).toEqual(['get'])
  })
})
