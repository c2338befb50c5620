import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {applicationBody, json, jsonBody, type TestApi, testApi} from '../helpers/http.js'

let api: TestApi

beforeEach(async () => {
  api = testApi()
  await api.app.request('/applications', jsonBody(applicationBody({url: 'https://example.org/jobs/1'})))
  await api.app.request('/applications', jsonBody(applicationBody({url: 'https://example.org/jobs/2', title: 'SRE'})))
})

afterEach(async () => {
  await api.cleanup()
})

describe('applications by short id', () => {
  it('GET /applications/{id} and its status beside the URL forms, a tracking link finding the same one', async () => {
    const byId = await json(await api.app.request('/applications/2'))
    expect(byId).toMatchObject({id: 2, title: 'SRE', history: []})
    const byLink = await json(
      await api.app.request(`/applications/${encodeURIComponent('https://example.org/jobs/2?utm_source=mail')}`),
    )
    expect(byLink.id).toBe(2)
    const status = await json(await api.app.request('/applications/%231/status'))
    expect(status).toMatchObject({url: 'https://example.org/jobs/1', status: 'applied'})
    const missing = await api.app.request('/applications/99')
    expect(missing.status).toBe(404)
    expect((await json(missing)).error.message).toBe('no application #99')
    const listed = await json(await api.app.request('/applications?search=sre'))
    expect(listed.applications.map((one: {id: number}) => one.id)).toEqual([2])
  })

  it('POST /jobs/track and POST /applications refuse a tracked job under a tracking link, naming it', async () => {
    const response = await api.app.request(
      '/applications',
      jsonBody(applicationBody({url: 'https://example.org/jobs/1?utm_campaign=x'})),
    )
    expect(response.status).toBe(409)
    expect((await json(response)).error.message).toBe(
      'already tracked as #1 https://example.org/jobs/1 (status: applied)',
    )
  })
})

describe('PATCH /applications/{id}', () => {
  it('edits the fields given and keeps them in the history', async () => {
    const response = await api.app.request(
      '/applications/1',
      jsonBody({title: 'Staff Engineer', salary_offered: '€90k'}, {method: 'PATCH'}),
    )
    expect(response.status).toBe(200)
    expect(await json(response)).toMatchObject({id: 1, title: 'Staff Engineer', salary_offered: '€90k'})
    const {history} = await json(await api.app.request('/applications/1'))
    expect(history).toEqual([
      expect.objectContaining({
        change: 'edit',
        details: {title: {from: 'Backend Engineer', to: 'Staff Engineer'}, salary_offered: {from: '', to: '€90k'}},
      }),
    ])
  })

  it('answers 409 for a URL tracked as another, 422 for an unknown or empty field, 404 for an unknown id', async () => {
    const taken = await api.app.request(
      '/applications/1',
      jsonBody({url: 'https://example.org/jobs/2'}, {method: 'PATCH'}),
    )
    expect(taken.status).toBe(409)
    const unknown = await api.app.request('/applications/1', jsonBody({status: 'offer'}, {method: 'PATCH'}))
    expect(unknown.status).toBe(422)
    expect((await json(unknown)).error.message).toContain('unknown field(s): status')
    const empty = await api.app.request('/applications/1', jsonBody({company: ''}, {method: 'PATCH'}))
    expect(empty.status).toBe(422)
    const missing = await api.app.request('/applications/99', jsonBody({title: 'x'}, {method: 'PATCH'}))
    expect(missing.status).toBe(404)
  })
})

describe('DELETE /applications/{id}', () => {
  it('removes from lists and stats, restores, and purges for good', async () => {
    const removed = await api.app.request('/applications/1', {method: 'DELETE'})
    expect(removed.status).toBe(200)
    expect(await json(removed)).toMatchObject({id: 1, purged: false, removed_at: expect.any(String)})
    expect((await json(await api.app.request('/applications'))).total).toBe(1)
    expect((await json(await api.app.request('/stats'))).total).toBe(1)
    expect((await json(await api.app.request('/applications/1'))).removed_at).not.toBeNull()

    const restored = await api.app.request('/applications/1/restore', {method: 'POST'})
    expect(await json(restored)).toMatchObject({id: 1, removed_at: null})
    expect((await json(await api.app.request('/applications'))).total).toBe(2)

    const purged = await api.app.request('/applications/1?purge=true', {method: 'DELETE'})
    expect(await json(purged)).toMatchObject({id: 1, purged: true})
    expect((await api.app.request('/applications/1')).status).toBe(404)
    expect((await api.app.request('/applications/1', {method: 'DELETE'})).status).toBe(404)
  })
})
