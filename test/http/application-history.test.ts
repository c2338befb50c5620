import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {applicationDetail} from '../../src/core/applications/application.js'
import {applicationBody, json, jsonBody, statusPath, type TestApi, testApi} from '../helpers/http.js'

let api: TestApi

beforeEach(() => {
  api = testApi()
})

afterEach(async () => {
  await api.cleanup()
})

const post = (body: unknown) => api.app.request('/applications', jsonBody(body))
const applicationPath = (url: string) => `/applications/${encodeURIComponent(url)}`
const patch = (url: string, body: unknown) => api.app.request(statusPath(url), {...jsonBody(body), method: 'PATCH'})

describe('GET /applications/{url}', () => {
  it('answers the record with every status change, oldest first, old notes kept', async () => {
    const url = 'https://example.org/jobs/1?ref=a&b=1'
    await post(applicationBody({url, notes: 'sent CV'}))
    await patch(url, {status: 'interviewing', notes: 'call on Monday'})
    await patch(url, {status: 'offer'})

    const response = await api.app.request(applicationPath(url))
    expect(response.status).toBe(200)
    const body = await json(response)
    expect(body).toEqual({
      title: 'Backend Engineer',
      company: 'Acme',
      location: 'Berlin',
      url,
      source: 'remoteok',
      applied_date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/),
      status: 'offer',
      notes: '',
      id: 1,
      updated_at: expect.any(String),
      posting_closed_at: null,
      salary_expected: '',
      salary_offered: '',
      referral: '',
      removed_at: null,
      next_action: '',
      next_action_due: null,
      documents: [],
      interviews: [],
      history: [
        {
          changed_at: expect.any(String),
          old_status: 'applied',
          new_status: 'interviewing',
          old_notes: 'sent CV',
          change: 'status',
          details: null,
          summary: 'applied -> interviewing (notes were: sent CV)',
        },
        {
          changed_at: expect.any(String),
          old_status: 'interviewing',
          new_status: 'offer',
          old_notes: 'call on Monday',
          change: 'status',
          details: null,
          summary: 'interviewing -> offer (notes were: call on Monday)',
        },
      ],
      contacts: [],
    })
    expect(body.history[0].changed_at <= body.history[1].changed_at).toBe(true)
    // The same answer as `jobagent status <url> --json`: one lookup behind both.
    const found = await api.context.applications.get(url)
    expect(body.history).toEqual(applicationDetail(found).history)
    const {application} = found
    expect(body.updated_at).toBe(application.updated_at)
  })

  it('marks an edit of the notes alone (the dashboard n) as a notes change with the old notes', async () => {
    const url = 'https://example.org/jobs/notes'
    await post(applicationBody({url, notes: 'sent CV'}))
    await api.context.applications.editNotes(url, 'sent CV to Ann')
    const body = await json(await api.app.request(applicationPath(url)))
    expect(body).toMatchObject({status: 'applied', notes: 'sent CV to Ann'})
    expect(body.history).toEqual([
      {
        changed_at: expect.any(String),
        old_status: 'applied',
        new_status: 'applied',
        old_notes: 'sent CV',
        change: 'notes',
        details: null,
        summary: 'notes changed (notes were: sent CV)',
      },
    ])
  })

  it('answers an empty history for an application never changed, matching the url as the tracker does', async () => {
    await post(applicationBody())
    const response = await api.app.request(applicationPath('https://EXAMPLE.org/jobs/1/'))
    expect(response.status).toBe(200)
    expect(await json(response)).toMatchObject({url: 'https://example.org/jobs/1', history: []})
  })

  it('answers 404 with the error body for a url that is not tracked', async () => {
    const response = await api.app.request(applicationPath('https://example.org/jobs/404'))
    expect(response.status).toBe(404)
    expect(await json(response)).toEqual({
      error: {code: 'not_found', message: 'https://example.org/jobs/404 is not tracked', details: []},
    })
  })

  it('answers 400 for broken percent-encoding and 422 for a segment that is not a url', async () => {
    for (const path of ['/applications/%E0%A4%A', '/applications/https%3A%2F%2Fx.org%2F%zz']) {
      const response = await api.app.request(path)
      expect([path, response.status]).toEqual([path, 400])
      expect((await json(response)).error).toMatchObject({code: 'bad_request'})
    }
    expect((await api.app.request('/applications/not-a-url')).status).toBe(422)
  })

  it('leaves the static /applications paths to their own routes', async () => {
    await post(applicationBody())
    const csv = await api.app.request('/applications/export.csv')
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    const status = await api.app.request(statusPath('https://example.org/jobs/1'))
    expect(Object.keys(await json(status))).toEqual(['url', 'status', 'notes', 'applied_date', 'updated_at'])
  })
})

describe('the OpenAPI document', () => {
  it('lists 400 (a path that is not valid percent-encoding) and 503 (a locked database) for every API operation', async () => {
    const document = await json(await api.app.request('/openapi.json'))
    const operations = Object.entries(document.paths as Record<string, Record<string, {responses: object}>>).flatMap(
      ([path, methods]) => Object.entries(methods).map(([method, operation]) => [`${method} ${path}`, operation]),
    ) as [string, {responses: object}][]
    const api4xx = operations.filter(([, operation]) => Object.keys(operation.responses).includes('401'))
    expect(api4xx.length).toBeGreaterThan(15)
    for (const [name, operation] of api4xx) {
      expect(Object.keys(operation.responses), name).toEqual(expect.arrayContaining(['400', '503']))
    }
  })

  it('documents GET /applications/{url} with the history schema', async () => {
    const document = await json(await api.app.request('/openapi.json'))
    const route = document.paths['/applications/{url}']
    expect(Object.keys(route)).toEqual(['get', 'patch', 'delete'])
    expect(Object.keys(route.get.responses).sort()).toEqual(['200', '400', '401', '404', '422', '503'])
    expect(route.get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ApplicationWithHistory',
    })
    // The tracked record's schema (what every listing shows) plus the history, interviews and contacts.
    expect(document.components.schemas.ApplicationWithHistory.allOf).toEqual([
      {$ref: '#/components/schemas/TrackedApplication'},
      expect.objectContaining({required: ['history', 'interviews', 'contacts']}),
    ])
    expect(document.components.schemas.TrackedApplication.allOf).toEqual([
      {$ref: '#/components/schemas/Application'},
      expect.objectContaining({
        required: [
          'id',
          'updated_at',
          'posting_closed_at',
          'salary_expected',
          'salary_offered',
          'referral',
          'removed_at',
          'next_action',
          'next_action_due',
          'documents',
        ],
      }),
    ])
    expect(document.components.schemas.StatusHistoryEntry.required).toEqual([
      'changed_at',
      'old_status',
      'new_status',
      'old_notes',
      'change',
      'details',
      'summary',
    ])
  })
})
