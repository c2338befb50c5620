import Papa from 'papaparse'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {applicationBody, json, jsonBody, statusPath, type TestApi, testApi} from '../helpers/http.js'

let api: TestApi

beforeEach(() => {
  api = testApi()
})

afterEach(async () => {
  await api.cleanup()
})

const post = (body: unknown) => api.app.request('/applications', jsonBody(body))

describe('POST /applications', () => {
  it('records an application and answers 201 with the record', async () => {
    const response = await post(applicationBody({notes: 'via referral'}))
    expect(response.status).toBe(201)
    const body = await json(response)
    expect(body).toEqual({
      status: 'recorded',
      application: {
        title: 'Backend Engineer',
        company: 'Acme',
        location: 'Berlin',
        url: 'https://example.org/jobs/1',
        source: 'remoteok',
        applied_date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/),
        status: 'applied',
        notes: 'via referral',
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
      },
    })
    const stored = await api.context.applications.get('https://example.org/jobs/1')
    expect(stored.application.notes).toBe('via referral')
  })

  it('refuses a url that is already tracked with 409', async () => {
    await post(applicationBody())
    const response = await post(applicationBody({url: 'https://EXAMPLE.org/jobs/1/'}))
    expect(response.status).toBe(409)
    const body = await json(response)
    expect(body.error.code).toBe('conflict')
    expect(body.error.message).toContain('already tracked')
    expect(body.error.message).toBe('already tracked as #1 https://example.org/jobs/1 (status: applied)')
    expect(body.error.details).toEqual([{field: 'url', message: 'already tracked as #1'}])
  })

  it('answers 422 naming every invalid field', async () => {
    const response = await post({title: '', company: 42, url: 'ftp://x', status: 'hired'})
    expect(response.status).toBe(422)
    const body = await json(response)
    expect(body.error.code).toBe('validation')
    const fields = body.error.details.map((detail: {field: string}) => detail.field).sort()
    expect(fields).toEqual(['company', 'source', 'status', 'title', 'url'])
  })

  it.each([
    ['title', 'Dev\u001b]0;pwned\u0007', 'U+001B at position 4'],
    ['company', 'Acme\u001b[2J', 'U+001B at position 5'],
    ['location', 'Berlin\u202e', 'U+202E at position 7'],
    ['url', 'https://example.org/jobs/\u001b]8;;https://evil.example\u001b\\x', 'U+001B at position 26'],
    ['source', '\u009bremoteok', 'U+009B at position 1'],
    ['notes', 'ok\nthen \u0007bell', 'U+0007 at position 9'],
  ])('answers 422 to a control character in %s, naming the field, and stores nothing', async (field, value, where) => {
    const response = await post(applicationBody({[field]: value}))
    expect(response.status).toBe(422)
    const body = await json(response)
    expect(body.error.code).toBe('validation')
    expect(body.error.details).toEqual([
      {field, message: expect.stringContaining(`${field} holds a control character (${where})`)},
    ])
    expect((await api.context.applications.list()).applications).toEqual([])
  })

  it('keeps newlines and tabs in notes', async () => {
    const response = await post(applicationBody({notes: 'call back\n\tMonday\r\n'}))
    expect(response.status).toBe(201)
    expect((await json(response)).application.notes).toBe('call back\n\tMonday\r\n')
  })

  it('answers 400 to malformed JSON', async () => {
    const response = await post('{"title": "Dev",')
    expect(response.status).toBe(400)
    expect((await json(response)).error.code).toBe('bad_request')
  })

  it('answers 415 to a body that is not JSON', async () => {
    const response = await api.app.request('/applications', {
      method: 'POST',
      body: 'title=Dev',
      headers: {'content-type': 'application/x-www-form-urlencoded', 'content-length': '9'},
    })
    expect(response.status).toBe(415)
    expect((await json(response)).error.code).toBe('unsupported_media_type')
  })

  it('answers 413 to a body over 64 KiB and stores nothing', async () => {
    const response = await post(applicationBody({notes: 'x'.repeat(70 * 1024)}))
    expect(response.status).toBe(413)
    expect((await json(response)).error.code).toBe('payload_too_large')
    expect((await api.context.applications.counts()).total).toBe(0)
  })

  it('answers 413 to a chunked body over 64 KiB', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024))
    const body = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(chunk)
        controller.close()
      },
    })
    const response = await api.app.request('/applications', {
      method: 'POST',
      body,
      headers: {'content-type': 'application/json', 'transfer-encoding': 'chunked'},
      duplex: 'half',
    } as RequestInit)
    expect(response.status).toBe(413)
  })
})

describe('GET /applications', () => {
  it('lists the records with their count, optionally by status', async () => {
    await post(applicationBody({url: 'https://example.org/jobs/1'}))
    await post(applicationBody({url: 'https://example.org/jobs/2', status: 'saved'}))
    const all = await json(await api.app.request('/applications'))
    expect(all.count).toBe(2)
    expect(Object.keys(all.applications[0])).toEqual([
      'title',
      'company',
      'location',
      'url',
      'source',
      'applied_date',
      'status',
      'notes',
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
      'contacts',
    ])
    const saved = await json(await api.app.request('/applications?status=saved'))
    expect(saved).toMatchObject({count: 1, applications: [{url: 'https://example.org/jobs/2', status: 'saved'}]})
  })

  it('answers 422 to an unknown status filter', async () => {
    const response = await api.app.request('/applications?status=hired')
    expect(response.status).toBe(422)
    expect((await json(response)).error.details[0].field).toBe('status')
  })
})

describe('GET /applications/export.csv', () => {
  it('downloads the tracker as CSV with the formula guard', async () => {
    await post(applicationBody({title: '=HYPERLINK("x")', notes: 'line 1\nline 2, "quoted"'}))
    const response = await api.app.request('/applications/export.csv')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="applications.csv"')
    const parsed = Papa.parse<Record<string, string>>(await response.text(), {header: true, skipEmptyLines: true})
    expect(parsed.meta.fields).toEqual([
      'title',
      'company',
      'location',
      'url',
      'source',
      'applied_date',
      'status',
      'notes',
      'id',
      'salary_expected',
      'salary_offered',
      'referral',
      'contacts',
    ])
    expect(parsed.data[0]).toMatchObject({title: `'=HYPERLINK("x")`, notes: 'line 1\nline 2, "quoted"'})
    const raw = await (await api.app.request('/applications/export.csv?raw=true')).text()
    expect(raw).toContain('"=HYPERLINK(""x"")"')
  })
})

describe('GET /applications/{url}/status', () => {
  it('shows the status of a tracked url', async () => {
    await post(applicationBody({notes: 'hello'}))
    const response = await api.app.request(statusPath('https://example.org/jobs/1'))
    expect(response.status).toBe(200)
    const body = await json(response)
    expect(body).toEqual({
      url: 'https://example.org/jobs/1',
      status: 'applied',
      notes: 'hello',
      applied_date: expect.any(String),
      updated_at: expect.any(String),
    })
  })

  it('answers 404 for a url that is not tracked', async () => {
    const response = await api.app.request(statusPath('https://example.org/jobs/404'))
    expect(response.status).toBe(404)
    const body = await json(response)
    expect(body.error.code).toBe('not_found')
    expect(body.error.message).toBe('https://example.org/jobs/404 is not tracked')
  })

  it('answers 422 for a path segment that is not a url', async () => {
    const response = await api.app.request('/applications/not-a-url/status')
    expect(response.status).toBe(422)
  })
})

describe('the {url} path parameter', () => {
  const tricky = [
    'https://example.org/jobs?id=42&ref=a+b',
    'https://example.org/jobs/42#apply',
    'https://example.org/jobs/100%25-remote?q=50%',
    'https://example.org/jobs/senior engineer',
    'https://example.org/jobs/développeur/münchen?ville=Zürich',
    'https://example.org/jobs/a%2Fb?next=/x/y&x=%3F',
    'https://example.org/emoji/🚀?a=1;b=2',
  ]

  it.each([
    '/applications/%E0%A4%A/status',
    '/applications/https%3A%2F%2Fx.org%2F%zz/status',
    '/shipments/%E0%A4/unified',
  ])('answers 400 for a path that is not valid percent-encoding: %s', async (path) => {
    const response = await api.app.request(path)
    expect(response.status).toBe(400)
    expect((await json(response)).error).toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('percent-encoding'),
    })
  })

  it.each(tricky)('round-trips %s through POST, GET and PATCH', async (url) => {
    expect((await post(applicationBody({url}))).status).toBe(201)
    const shown = await api.app.request(statusPath(url))
    expect(shown.status).toBe(200)
    expect((await json(shown)).url).toBe(url)
    const changed = await api.app.request(`${statusPath(url)}?status=offer`, {method: 'PATCH'})
    expect(changed.status).toBe(200)
    expect(await json(changed)).toMatchObject({url, status: 'offer', previous_status: 'applied'})
    const list = await json(await api.app.request('/applications'))
    expect(list.applications.map((a: {url: string}) => a.url)).toEqual([url])
  })
})

describe('PATCH /applications/{url}/status', () => {
  beforeEach(async () => {
    await post(applicationBody({notes: 'first notes'}))
  })

  it('takes status and notes from the query string', async () => {
    const response = await api.app.request(
      `${statusPath('https://example.org/jobs/1')}?status=interviewing&notes=call%20Tue`,
      {
        method: 'PATCH',
      },
    )
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual({
      title: 'Backend Engineer',
      company: 'Acme',
      location: 'Berlin',
      url: 'https://example.org/jobs/1',
      source: 'remoteok',
      applied_date: expect.any(String),
      status: 'interviewing',
      notes: 'call Tue',
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
      previous_status: 'applied',
    })
  })

  it('answers 422 to notes holding an escape sequence and keeps the old notes', async () => {
    const response = await api.app.request(
      statusPath('https://example.org/jobs/1'),
      jsonBody({status: 'offer', notes: 'see \u001b]8;;https://evil.example\u0007here'}, {method: 'PATCH'}),
    )
    expect(response.status).toBe(422)
    expect((await json(response)).error.details).toEqual([
      {field: 'notes', message: expect.stringContaining('notes holds a control character (U+001B at position 5)')},
    ])
    const {application} = await api.context.applications.get('https://example.org/jobs/1')
    expect(application).toMatchObject({status: 'applied', notes: 'first notes'})
  })

  it('takes status and notes from a JSON body and keeps the old notes in the history', async () => {
    const response = await api.app.request(
      statusPath('https://example.org/jobs/1'),
      jsonBody({status: 'offer', notes: 'ask for more'}, {method: 'PATCH'}),
    )
    expect(response.status).toBe(200)
    expect(await json(response)).toMatchObject({status: 'offer', notes: 'ask for more', previous_status: 'applied'})
    const {history} = await api.context.applications.get('https://example.org/jobs/1')
    expect(history).toMatchObject([{old_status: 'applied', new_status: 'offer', old_notes: 'first notes'}])
  })

  it('empties the notes when none are given', async () => {
    const response = await api.app.request(`${statusPath('https://example.org/jobs/1')}?status=rejected`, {
      method: 'PATCH',
    })
    expect(await json(response)).toMatchObject({status: 'rejected', notes: ''})
  })

  it('answers 422 for an unknown or missing status', async () => {
    const unknown = await api.app.request(`${statusPath('https://example.org/jobs/1')}?status=hired`, {method: 'PATCH'})
    expect(unknown.status).toBe(422)
    expect((await json(unknown)).error.details).toEqual([
      {field: 'status', message: expect.stringContaining('unknown status "hired"')},
    ])
    const missing = await api.app.request(
      statusPath('https://example.org/jobs/1'),
      jsonBody({notes: 'x'}, {method: 'PATCH'}),
    )
    expect(missing.status).toBe(422)
    expect((await json(missing)).error.details).toEqual([{field: 'status', message: 'status is required'}])
    const {application} = await api.context.applications.get('https://example.org/jobs/1')
    expect(application).toMatchObject({status: 'applied', notes: 'first notes'})
  })

  it('answers 404 for a url that is not tracked', async () => {
    const response = await api.app.request(`${statusPath('https://example.org/jobs/2')}?status=offer`, {
      method: 'PATCH',
    })
    expect(response.status).toBe(404)
  })

  it('answers 400 to malformed JSON and 415 to a non-JSON body', async () => {
    const malformed = await api.app.request(statusPath('https://example.org/jobs/1'), jsonBody('{', {method: 'PATCH'}))
    expect(malformed.status).toBe(400)
    const text = await api.app.request(statusPath('https://example.org/jobs/1'), {
      method: 'PATCH',
      body: 'status=offer',
      headers: {'content-type': 'text/plain', 'content-length': '12'},
    })
    expect(text.status).toBe(415)
  })
})
