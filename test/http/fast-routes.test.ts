import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {importShipments} from '../../src/app/shipment-import.js'
import {silentLogger} from '../../src/core/logger.js'
import {type FastRoute, oneParameterJsonRoute} from '../../src/http/fast-routes.js'
import {type RunningServer, startServer} from '../../src/http/server.js'
import {ROOT} from '../helpers/cli.js'
import {type TestApi, testApi} from '../helpers/http.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {closedPort} from '../helpers/shipments.js'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

interface Pair {
  api: TestApi
  /** startServer with the app alone: every request goes through Hono. */
  app: RunningServer
  /** startServer as jobagent serve runs it: the fast routes first. */
  fast: RunningServer
  /** How many requests the fast routes took (the rest went on to the app). */
  taken: () => number
}

/** Both servers over one app whose stores hold the example shipments (the metadata only, with `metadataOnly`). */
async function servers(options: Parameters<typeof testApi>[0] = {}, metadataOnly = false): Promise<Pair> {
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
  let taken = 0
  const counted: FastRoute[] = api.fastRoutes.map((route) => (request, response) => {
    const took = route(request, response)
    if (took) taken++
    return took
  })
  const serverOptions = {host: '127.0.0.1', port: 0, logger: silentLogger}
  const app = await startServer(api.app, serverOptions)
  cleanups.push(() => app.close())
  const fast = await startServer(api.app, {...serverOptions, fastRoutes: counted})
  cleanups.push(() => fast.close())
  return {api, app, fast, taken: () => taken}
}

interface Answer {
  status: number
  headers: Record<string, string>
  body: unknown
}

/** Status, headers (but the date) and body, with the two values that follow the clock made fixed. */
async function answer(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${base}${path}`, init)
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== 'date'))
  const text = await response.text()
  const body = text === '' ? '' : JSON.parse(text)
  if (body?.generated_at) body.generated_at = 'now'
  if (body?.freshness?.age_seconds) body.freshness.age_seconds = 'age'
  return {status: response.status, headers, body}
}

/** The log lines without their time stamps and durations, which differ between any two requests. */
function accessLog(lines: readonly string[]): string[] {
  return lines
    .filter((line) => line.includes('| jobagent.http |'))
    .map((line) => line.replace(/^\S+ \| /, '').replace(/ [\d.]+ ms$/, ''))
}

const longId = 'x'.repeat(257)
const TAKEN = [
  ['a shipment', '/shipments/SHP-1001/unified', 200],
  ['an unknown shipment', '/shipments/NOPE/unified', 404],
  ['an encoded slash and space', `/shipments/${encodeURIComponent('a/b c')}/unified`, 404],
  ['an encoded percent sign', '/shipments/a%2541/unified', 404],
  ['a non-ASCII id', `/shipments/${encodeURIComponent('Lübeck-ø')}/unified`, 404],
  ['an id of 257 characters', `/shipments/${longId}/unified`, 400],
  ['a control character', '/shipments/SHP%00/unified', 400],
  ['broken percent-encoding', '/shipments/%zz/unified', 400],
  ['a truncated UTF-8 sequence', '/shipments/%E0%A4/unified', 400],
] as const
const PASSED_ON = [
  ['an empty id', '/shipments//unified', 'GET'],
  ['a query string', '/shipments/SHP-1001/unified?fields=all', 'GET'],
  ['a trailing slash', '/shipments/SHP-1001/unified/', 'GET'],
  ['two segments', '/shipments/a/b/unified', 'GET'],
  ['HEAD', '/shipments/SHP-1001/unified', 'HEAD'],
  ['POST', '/shipments/SHP-1001/unified', 'POST'],
] as const

describe('the fast shipment route', () => {
  it('answers every request it takes exactly as the app does: status, headers, body, log line', async () => {
    const pair = await servers()
    for (const [name, path, status] of TAKEN) {
      const fromApp = await answer(pair.app.url, path)
      const fromFast = await answer(pair.fast.url, path)
      expect(fromApp.status, name).toBe(status)
      expect(fromFast, name).toEqual(fromApp)
    }
    expect(pair.taken()).toBe(TAKEN.length)
    const log = accessLog(pair.api.logLines)
    expect(log).toHaveLength(2 * TAKEN.length)
    // Requests alternate between the two servers, so each line appears twice in a row.
    for (let index = 0; index < log.length; index += 2) expect(log[index + 1]).toBe(log[index])
    expect(log[0]).toBe('INFO | jobagent.http | GET /shipments/SHP-1001/unified 200')
  })

  it('passes what it does not answer exactly on to the app', async () => {
    const pair = await servers()
    for (const [name, path, method] of PASSED_ON) {
      const fromApp = await answer(pair.app.url, path, {method})
      expect(await answer(pair.fast.url, path, {method}), name).toEqual(fromApp)
    }
    expect(pair.taken()).toBe(0)
  })

  it('counts its requests in the same metrics as the app', async () => {
    const pair = await servers()
    const count = async () => {
      const text = await (await fetch(`${pair.app.url}/metrics`)).text()
      const line = text
        .split('\n')
        .find((row) =>
          row.startsWith(
            'http_request_duration_seconds_count{method="GET",route="/shipments/:shipment_id/unified",status="200"}',
          ),
        )
      return Number(line?.split(' ').at(-1) ?? 0)
    }
    const lookups = async () => {
      const text = await (await fetch(`${pair.app.url}/metrics`)).text()
      return Number(/jobagent_shipment_lookups_total\{result="found"\} (\d+)/.exec(text)?.[1] ?? 0)
    }
    const [before, lookupsBefore] = [await count(), await lookups()]
    for (let index = 0; index < 3; index++) await fetch(`${pair.fast.url}/shipments/SHP-1001/unified`)
    expect(pair.taken()).toBe(3)
    expect(await count()).toBe(before + 3)
    expect(await lookups()).toBe(lookupsBefore + 3)
  })

  it('gives each of many concurrent requests its own answer (answers are written together per turn)', async () => {
    const pair = await servers()
    const ids = Array.from({length: 40}, (_, index) =>
      index % 6 === 5 ? `NOPE-${index}` : `SHP-100${1 + (index % 6)}`,
    )
    const answers = await Promise.all(ids.map((id) => answer(pair.fast.url, `/shipments/${id}/unified`)))
    expect(pair.taken()).toBe(ids.length)
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

  it('asks for the token as the app does when the server has one', async () => {
    const pair = await servers({app: {apiToken: 'secret-token-123'}})
    const cases: [string, Record<string, string>, number][] = [
      ['no header', {}, 401],
      ['a wrong token', {authorization: 'Bearer nope'}, 401],
      ['another scheme', {authorization: 'Basic c2VjcmV0'}, 401],
      ['the token', {authorization: 'Bearer secret-token-123'}, 200],
    ]
    for (const [name, headers, status] of cases) {
      const fromApp = await answer(pair.app.url, '/shipments/SHP-1001/unified', {headers})
      expect(fromApp.status, name).toBe(status)
      expect(await answer(pair.fast.url, '/shipments/SHP-1001/unified', {headers}), name).toEqual(fromApp)
    }
    expect(pair.taken()).toBe(cases.length)
  })

  it('answers 503 with Retry-After as the app does when a store is unreachable', async () => {
    const port = await closedPort()
    const pair = await servers(
      {
        config: {
          sources: [],
          shipments: {telemetry: {url: `postgres://jobagent@127.0.0.1:${port}/fleet`, timeout_ms: 2000}},
        },
      },
      true,
    )
    const fromApp = await answer(pair.app.url, '/shipments/SHP-1001/unified')
    expect(fromApp.status).toBe(503)
    expect(fromApp.headers['retry-after']).toBe('5')
    expect(await answer(pair.fast.url, '/shipments/SHP-1001/unified')).toEqual(fromApp)
    expect(pair.taken()).toBe(1)
  })

  it('is left out when CORS is on: every answer then depends on the Origin header', async () => {
    const api = testApi({app: {corsOrigins: ['http://localhost:5173']}})
    cleanups.push(() => api.cleanup())
    expect(api.fastRoutes).toEqual([])
  })
})

describe('the fast application status route', () => {
  const tracked = 'https://Example.org/jobs/42?ref=feed&q=a%20b'
  const statusPath = (url: string) => `/applications/${encodeURIComponent(url)}/status`

  async function trackedPair(options: Parameters<typeof testApi>[0] = {}): Promise<Pair> {
    const pair = await servers(options)
    const headers = {'content-type': 'application/json', authorization: 'Bearer secret-token-123'}
    const body = JSON.stringify({title: 'Engineer', company: 'Acme', location: 'Remote', url: tracked, source: 'x'})
    const recorded = await fetch(`${pair.app.url}/applications`, {method: 'POST', headers, body})
    expect(recorded.status).toBe(201)
    return pair
  }

  it('answers every request it takes exactly as the app does', async () => {
    const pair = await trackedPair()
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
      const fromApp = await answer(pair.app.url, path)
      expect(fromApp.status, name).toBe(status)
      expect(await answer(pair.fast.url, path), name).toEqual(fromApp)
    }
    expect(pair.taken()).toBe(cases.length)
    const log = accessLog(pair.api.logLines).filter((line) => line.includes('/status'))
    for (let index = 0; index < log.length; index += 2) expect(log[index + 1]).toBe(log[index])
  })

  it('passes a status change and what it does not answer on to the app, and then reads the change', async () => {
    const pair = await trackedPair()
    const change = await answer(pair.fast.url, `${statusPath(tracked)}?status=interviewing`, {method: 'PATCH'})
    expect(change.status).toBe(200)
    for (const [path, method] of [
      [`${statusPath(tracked)}?fields=all`, 'GET'],
      ['/applications//status', 'GET'],
      [statusPath(tracked), 'HEAD'],
    ] as const) {
      expect(await answer(pair.fast.url, path, {method}), `${method} ${path}`).toEqual(
        await answer(pair.app.url, path, {method}),
      )
    }
    expect(pair.taken()).toBe(0)
    const read = await answer(pair.fast.url, statusPath(tracked))
    expect(read.body).toMatchObject({url: tracked, status: 'interviewing'})
    expect(pair.taken()).toBe(1)
  })

  it('asks for the token as the app does when the server has one', async () => {
    const pair = await trackedPair({app: {apiToken: 'secret-token-123'}})
    const headerSets: Record<string, string>[] = [{}, {authorization: 'Bearer secret-token-123'}]
    for (const headers of headerSets) {
      const fromApp = await answer(pair.app.url, statusPath(tracked), {headers})
      expect(await answer(pair.fast.url, statusPath(tracked), {headers})).toEqual(fromApp)
    }
    expect(pair.taken()).toBe(2)
  })
})

describe('oneParameterJsonRoute', () => {
  /** A server whose only route answers /things/{id} with `answer(id)`; every request it does not take is a 418. */
  async function serverFor(answer: (id: string) => unknown) {
    const log = memoryLogger('INFO')
    const recorded: number[] = []
    const route = oneParameterJsonRoute(
      {template: '/things/:id', prefix: '/things/', suffix: '', answer},
      {record: (_method, _target, _route, status) => recorded.push(status), logger: log.logger},
    )
    const running = await startServer(
      {fetch: () => new Response('not taken', {status: 418})},
      {host: '127.0.0.1', port: 0, logger: silentLogger, fastRoutes: [route]},
    )
    cleanups.push(() => running.close())
    return {url: running.url, recorded, lines: log.lines}
  }

  it('answers a value or a promise of one, and an error thrown or rejected as the app would', async () => {
    const server = await serverFor((id) => {
      if (id === 'now') return {id}
      if (id === 'later') return Promise.resolve({id})
      if (id === 'gone') return Promise.reject(new Error('store gone'))
      throw new Error('broken')
    })
    expect(await answer(server.url, '/things/now')).toMatchObject({status: 200, body: {id: 'now'}})
    expect(await answer(server.url, '/things/later')).toMatchObject({status: 200, body: {id: 'later'}})
    for (const path of ['/things/gone', '/things/other']) {
      expect(await answer(server.url, path)).toMatchObject({status: 500, body: {error: {code: 'internal'}}})
    }
    expect(server.recorded).toEqual([200, 200, 500, 500])
  })

  it('answers 500 rather than nothing when the value cannot be encoded as JSON, whether given or promised', async () => {
    const server = await serverFor((id) => (id === 'now' ? {count: 1n} : Promise.resolve({count: 1n})))
    for (const path of ['/things/now', '/things/later']) {
      expect(await answer(server.url, path), path).toMatchObject({status: 500, body: {error: {code: 'internal'}}})
    }
    expect(server.lines.filter((line) => line.includes('| ERROR |'))).toHaveLength(2)
  })
})
