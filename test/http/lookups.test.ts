import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {silentLogger} from '../../src/core/logger.js'
import {type RunningServer, startServer} from '../../src/http/server.js'
import {importShipments} from '../../src/shipments/app/shipment-import.js'
import {ROOT} from '../helpers/cli.js'
import {type TestApi, testApi} from '../helpers/http.js'
import {closedPort} from '../helpers/shipments.js'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

interface Served {
  api: TestApi
  server: RunningServer
}

/** The app on startServer, as jobagent serve runs it, over the example shipments (the metadata only, with `metadataOnly`). */
async function serving(options: Parameters<typeof testApi>[0] = {}, metadataOnly = false): Promise<Served> {
  const api = testApi(options)
  cleanups.push(() => api.cleanup())
  const examples = join(ROOT, 'examples/shipments')
  await importShipments(
    api.context.config.shipments,
    {
      metadataFile: join(examples, 'metadata.csv'),
      ...(metadataOnly ? {} : {telemetryFile: join(examples, 'telemetry.ndjson')}),
    },
    silentLogger,
  )
  const server = await startServer(api.app, {host: '127.0.0.1', port: 0, logger: silentLogger})
  cleanups.push(() => server.close())
  return {api, server}
}

interface Answer {
  status: number
  headers: Record<string, string>
  body: unknown
}

async function answer(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${base}${path}`, init)
  const headers = Object.fromEntries(response.headers)
  const text = await response.text()
  return {status: response.status, headers, body: text === '' ? '' : JSON.parse(text)}
}

/** The access log lines without their time stamps and durations. */
function accessLog(lines: readonly string[]): string[] {
  return lines
    .filter((line) => line.includes('| jobagent.http |'))
    .map((line) => line.replace(/^\S+ \| /, '').replace(/ [\d.]+ ms$/, ''))
}

const longId = 'x'.repeat(257)
const SHIPMENT_LOOKUPS = [
  ['a shipment', '/shipments/SHP-1001/unified', 200],
  ['an unknown shipment', '/shipments/NOPE/unified', 404],
  ['an encoded slash and space', `/shipments/${encodeURIComponent('a/b c')}/unified`, 404],
  ['an encoded percent sign', '/shipments/a%2541/unified', 404],
  ['a non-ASCII id', `/shipments/${encodeURIComponent('Lübeck-ø')}/unified`, 404],
  ['an id of 257 characters', `/shipments/${longId}/unified`, 400],
  ['a control character', '/shipments/SHP%00/unified', 400],
  ['broken percent-encoding', '/shipments/%zz/unified', 400],
  ['a truncated UTF-8 sequence', '/shipments/%E0%A4/unified', 400],
  ['an empty id', '/shipments//unified', 400],
] as const

describe('GET /shipments/{id}/unified on the server', () => {
  it('answers each id with its status, the API security headers, JSON and an access log line', async () => {
    const {api, server} = await serving()
    for (const [name, path, status] of SHIPMENT_LOOKUPS) {
      const {status: got, headers, body} = await answer(server.url, path)
      expect(got, name).toBe(status)
      expect(headers['content-type'], name).toMatch(/^application\/json/)
      expect(headers['x-content-type-options'], name).toBe('nosniff')
      expect(headers['cache-control'], name).toBe('no-store')
      if (status === 200) expect(body, name).toMatchObject({shipment_id: 'SHP-1001'})
      if (status === 404) expect((body as {error: {code: string}}).error.code, name).toBe('not_found')
    }
    const log = accessLog(api.logLines)
    expect(log).toHaveLength(SHIPMENT_LOOKUPS.length)
    expect(log[0]).toBe('INFO | jobagent.http | GET /shipments/SHP-1001/unified 200')
  })

  it('counts each lookup in the request histogram under the route template and in the lookup counter', async () => {
    const {server} = await serving()
    const metrics = async () => (await fetch(`${server.url}/metrics`)).text()
    const requests = (text: string) =>
      Number(
        /http_request_duration_seconds_count\{method="GET",route="\/shipments\/:shipment_id\/unified",status="200"\} (\d+)/.exec(
          text,
        )?.[1] ?? 0,
      )
    const lookups = (text: string) =>
      Number(/jobagent_shipment_lookups_total\{result="found"\} (\d+)/.exec(text)?.[1] ?? 0)
    const before = await metrics()
    for (let index = 0; index < 3; index++) await fetch(`${server.url}/shipments/SHP-1001/unified`)
    const after = await metrics()
    expect(requests(after)).toBe(requests(before) + 3)
    expect(lookups(after)).toBe(lookups(before) + 3)
    expect(after).toMatch(
      /jobagent_shipment_store_duration_seconds_count\{store="metadata",kind="sqlite",outcome="ok"\} \d+/,
    )
  })

  it('gives each of many concurrent requests its own answer', async () => {
    const {server} = await serving()
    const ids = Array.from({length: 40}, (_, index) =>
      index % 6 === 5 ? `NOPE-${index}` : `SHP-100${1 + (index % 6)}`,
    )
    const answers = await Promise.all(ids.map((id) => answer(server.url, `/shipments/${id}/unified`)))
    for (const [index, id] of ids.entries()) {
      const {status, body} = answers[index] as Answer
      const state = body as {shipment_id?: string; metadata?: {shipment_id: string}; error?: {message: string}}
      if (id.startsWith('NOPE')) {
        expect(status, id).toBe(404)
        expect(state.error?.message, id).toContain(id)
      } else {
        expect(status, id).toBe(200)
        expect(state.shipment_id, id).toBe(id)
        expect(state.metadata?.shipment_id, id).toBe(id)
      }
    }
  })

  it('asks for the token when the server has one', async () => {
    const {server} = await serving({app: {apiToken: 'secret-token-123'}})
    const cases: [string, Record<string, string>, number][] = [
      ['no header', {}, 401],
      ['a wrong token', {authorization: 'Bearer nope'}, 401],
      ['another scheme', {authorization: 'Basic c2VjcmV0'}, 401],
      ['the token', {authorization: 'Bearer secret-token-123'}, 200],
    ]
    for (const [name, headers, status] of cases) {
      expect((await answer(server.url, '/shipments/SHP-1001/unified', {headers})).status, name).toBe(status)
    }
  })

  it('answers 503 with Retry-After when a store is unreachable', async () => {
    const port = await closedPort()
    const {server} = await serving(
      {
        config: {
          sources: [],
          shipments: {telemetry: {url: `postgres://jobagent@127.0.0.1:${port}/fleet`, timeout_ms: 2000}},
        },
      },
      true,
    )
    const unavailable = await answer(server.url, '/shipments/SHP-1001/unified')
    expect(unavailable.status).toBe(503)
    expect(unavailable.headers['retry-after']).toBe('5')
    expect((unavailable.body as {error: {code: string}}).error.code).toBe('unavailable')
  })
})

describe('GET /applications/{url}/status on the server', () => {
  const tracked = 'https://Example.org/jobs/42?ref=feed&q=a%20b'
  const statusPath = (url: string) => `/applications/${encodeURIComponent(url)}/status`

  async function trackedServer(options: Parameters<typeof testApi>[0] = {}): Promise<Served> {
    const served = await serving(options)
    const headers = {'content-type': 'application/json', authorization: 'Bearer secret-token-123'}
    const body = JSON.stringify({title: 'Engineer', company: 'Acme', location: 'Remote', url: tracked, source: 'x'})
    const recorded = await fetch(`${served.server.url}/applications`, {method: 'POST', headers, body})
    expect(recorded.status).toBe(201)
    return served
  }

  it('answers each url with its status', async () => {
    const {server} = await trackedServer()
    const cases = [
      ['a tracked url', statusPath(tracked), 200],
      [
        'the same url with another host case and a trailing slash',
        statusPath('https://example.org/jobs/42/?ref=feed&q=a%20b'),
        200,
      ],
      ['an untracked url', statusPath('https://example.org/jobs/43'), 404],
      ['text that is no url', statusPath('not a url'), 422],
      ['broken percent-encoding', '/applications/%zz/status', 400],
    ] as const
    for (const [name, path, status] of cases) {
      const got = await answer(server.url, path)
      expect(got.status, name).toBe(status)
      if (status === 200) expect(got.body, name).toMatchObject({url: tracked, status: 'applied', notes: ''})
    }
  })

  it('reads a status change at once', async () => {
    const {server} = await trackedServer()
    const change = await answer(server.url, `${statusPath(tracked)}?status=interviewing`, {method: 'PATCH'})
    expect(change.status).toBe(200)
    const read = await answer(server.url, statusPath(tracked))
    expect(read.body).toMatchObject({url: tracked, status: 'interviewing'})
  })

  it('asks for the token when the server has one', async () => {
    const {server} = await trackedServer({app: {apiToken: 'secret-token-123'}})
    expect((await answer(server.url, statusPath(tracked))).status).toBe(401)
    const headers = {authorization: 'Bearer secret-token-123'}
    expect((await answer(server.url, statusPath(tracked), {headers})).status).toBe(200)
  })
})
