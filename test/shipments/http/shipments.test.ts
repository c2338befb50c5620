import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {OpenAPIHono} from '@hono/zod-openapi'
import {Registry} from 'prom-client'
import {describe, expect, it} from 'vitest'
import {silentLogger} from '../../../src/core/logger.js'
import {errorResponse} from '../../../src/http/errors.js'
import {createShipmentService} from '../../../src/shipments/app/shipments.js'
import {shipmentRoutes} from '../../../src/shipments/http/shipments.js'
import {tempDir} from '../../helpers/cli.js'
import {fakeStores, serviceWith, shipmentsConfig, shipmentTestApp} from '../../helpers/shipments.js'

const now = new Date('2026-03-01T12:00:00.000Z')
const rows = {'SHP-1001': {shipment_id: 'SHP-1001', origin: 'Rotterdam'}, 'a/b c': {shipment_id: 'a/b c'}}
const latest = {'SHP-1001': {recorded_at: '2026-03-01T11:59:00.000Z', payload: {lat: 53.5}}}

const post = (body: unknown) => ({
  method: 'POST',
  headers: {'content-type': 'application/json'},
  body: JSON.stringify(body),
})

function app(behaviour: Parameters<typeof fakeStores>[2] = {}, timeouts = {metadata: 2000, telemetry: 2000}) {
  return shipmentTestApp(serviceWith(fakeStores(rows, latest, behaviour), {clock: {now: () => now}, timeouts}))
}

describe('GET /shipments/{shipment_id}/unified', () => {
  it('answers 200 with the unified state', async () => {
    const response = await app().request('/shipments/SHP-1001/unified')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      shipment_id: 'SHP-1001',
      metadata: {shipment_id: 'SHP-1001', origin: 'Rotterdam'},
      telemetry: {recorded_at: '2026-03-01T11:59:00.000Z', payload: {lat: 53.5}},
      freshness: {last_seen_at: '2026-03-01T11:59:00.000Z', age_seconds: 60, stale: false, stale_after_seconds: 900},
      sources: {metadata: 'postgres', telemetry: 'mongodb'},
      generated_at: '2026-03-01T12:00:00.000Z',
    })
  })

  it('decodes a percent-encoded id, slashes included', async () => {
    const response = await app().request(`/shipments/${encodeURIComponent('a/b c')}/unified`)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({shipment_id: 'a/b c', telemetry: null, freshness: {stale: true}})
  })

  it('answers 404 with the error body for an unknown shipment', async () => {
    const response = await app().request('/shipments/SHP-9/unified')
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({
      error: {code: 'not_found', message: 'no shipment with id "SHP-9"', details: []},
    })
  })

  it.each([
    ['an empty id', '/shipments//unified', 'shipment id must not be empty'],
    [
      'an id of 257 characters',
      `/shipments/${'x'.repeat(257)}/unified`,
      'shipment id must be at most 256 characters long (got 257)',
    ],
    [
      'a control character',
      '/shipments/SHP%00/unified',
      'shipment id must not contain control characters (found U+0000 at position 4)',
    ],
    ['an id of spaces only', '/shipments/%20%20/unified', 'shipment id must not be only white space'],
    [
      'a newline',
      '/shipments/SHP%0A1/unified',
      'shipment id must not contain control characters (found U+000A at position 4)',
    ],
  ])('answers 400 for %s', async (_name, path, message) => {
    const response = await app().request(path)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      error: {code: 'validation', message, details: [{field: 'shipment_id', message}]},
    })
  })

  it('refuses a malformed id, a bad history query and a bad batch with the schemas of their OpenAPI entries, before asking the service', async () => {
    // Given a service that records what it is asked
    const service = serviceWith(fakeStores(rows, latest), {clock: {now: () => now}})
    const asked: string[] = []
    const record =
      <A extends unknown[], R>(name: string, method: (...args: A) => R) =>
      (...args: A): R => {
        asked.push(`${name} ${JSON.stringify(args[0])}`)
        return method.apply(service, args)
      }
    service.unified = record('unified', service.unified)
    service.history = record('history', service.history)
    service.unifiedBatch = record('batch', service.unifiedBatch)
    const routes = shipmentTestApp(service)
    // When requests with a malformed id, a bad query and a bad list of ids arrive, and then good ones
    for (const path of [
      '/shipments/a%01/unified',
      '/shipments/a%01/telemetry',
      '/shipments/SHP-1001/telemetry?limit=0',
      '/shipments/unified?ids=ok,,x',
    ]) {
      expect((await routes.request(path)).status, path).toBe(400)
    }
    expect((await routes.request('/shipments/unified', post({ids: ['a\u0001']}))).status).toBe(400)
    expect((await routes.request('/shipments/SHP-1001/unified')).status).toBe(200)
    expect((await routes.request('/shipments/unified?ids=SHP-1001')).status).toBe(200)
    // Then only the good ones reach the service
    expect(asked).toEqual(['unified "SHP-1001"', 'batch ["SHP-1001"]'])
  })

  it('names the malformed id before a bad query parameter, and every bad parameter of the query', async () => {
    const routes = app()
    const both = await routes.request('/shipments/a%01/telemetry?limit=0')
    expect(both.status).toBe(400)
    const message = 'shipment id must not contain control characters (found U+0001 at position 2)'
    expect(await both.json()).toEqual({
      error: {code: 'validation', message, details: [{field: 'shipment_id', message}]},
    })
    const query = await routes.request('/shipments/SHP-1001/telemetry?since=x&limit=0')
    expect(((await query.json()) as {error: {details: {field: string}[]}}).error.details.map((d) => d.field)).toEqual([
      'since',
      'limit',
    ])
  })

  it('counts each refused id or query as an invalid lookup, and a body that is no list of ids as none', async () => {
    const registry = new Registry()
    const routes = shipmentTestApp(serviceWith(fakeStores(rows, latest)), {registry})
    await routes.request('/shipments/a%01/unified')
    await routes.request('/shipments/SHP-1001/telemetry?limit=0')
    await routes.request('/shipments/unified?ids=a,,b')
    await routes.request('/shipments/unified', post({ids: ['']}))
    await routes.request('/shipments/unified', post({ids: 'SHP-1001'}))
    expect(await registry.metrics()).toContain('jobagent_shipment_lookups_total{result="invalid"} 4')
  })

  it('accepts an id of exactly 256 characters', async () => {
    expect((await app().request(`/shipments/${'x'.repeat(256)}/unified`)).status).toBe(404)
  })

  it('answers 503 with Retry-After, naming the slow store', async () => {
    const response = await app({hangTelemetry: true}, {metadata: 2000, telemetry: 40}).request(
      '/shipments/SHP-1001/unified',
    )
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('5')
    expect(await response.json()).toMatchObject({
      error: {code: 'unavailable', message: 'telemetry store (mongodb) did not answer within 40 ms'},
    })
  })

  it('answers 503 naming the failing store', async () => {
    const response = await app({failMetadata: new Error('connection refused')}).request('/shipments/SHP-1001/unified')
    expect(response.status).toBe(503)
    const body = (await response.json()) as {error: {message: string}}
    expect(body.error.message).toBe('metadata store (postgres) is unavailable: connection refused')
  })

  it('documents the route, its parameter limits and its responses in the OpenAPI document', () => {
    const doc = app().getOpenAPI31Document({openapi: '3.1.0', info: {title: 'test', version: '1'}})
    const operation = doc.paths?.['/shipments/{shipment_id}/unified']?.get
    expect(Object.keys(operation?.responses ?? {}).sort()).toEqual(['200', '304', '400', '401', '404', '422', '503'])
    expect(operation?.parameters?.[0]).toMatchObject({
      name: 'shipment_id',
      in: 'path',
      schema: {minLength: 1, maxLength: 256},
    })
    expect(doc.components?.schemas?.UnifiedState).toBeDefined()
  })

  it('counts lookups and store latencies on the given registry', async () => {
    const registry = new Registry()
    const service = serviceWith(fakeStores(rows, latest))
    const routes = shipmentTestApp(service, {registry})
    await routes.request('/shipments/SHP-1001/unified')
    await routes.request('/shipments/nope/unified')
    const text = await registry.metrics()
    expect(text).toContain('jobagent_shipment_lookups_total{result="found"} 1')
    expect(text).toContain('jobagent_shipment_lookups_total{result="not_found"} 1')
    expect(text).toMatch(
      /jobagent_shipment_store_duration_seconds_count\{store="telemetry",kind="mongodb",outcome="ok"\} 2/,
    )
  })

  it('gets 400, 404 and 503 with Retry-After from the main app error mapping too', async () => {
    const service = serviceWith(fakeStores(rows, latest, {hangTelemetry: true}), {
      timeouts: {metadata: 2000, telemetry: 40},
    })
    const main = new OpenAPIHono()
    main.route('/', shipmentRoutes({shipments: service}))
    main.onError((error, c) => errorResponse(error, c, silentLogger))
    expect((await main.request('/shipments//unified')).status).toBe(400)
    expect((await main.request('/shipments/a%01/unified')).status).toBe(400)
    expect((await main.request('/shipments/nope/unified')).status).toBe(404)
    const unavailable = await main.request('/shipments/SHP-1001/unified')
    expect(unavailable.status).toBe(503)
    expect(unavailable.headers.get('retry-after')).toBe('5')
  })

  it.each([
    ['no shipments.db yet', () => {}],
    ['a shipments.db without the tables', (file: string) => writeFileSync(file, '')],
  ])('answers 503 with the hint to import first when nothing was imported (%s)', async (_name, prepare) => {
    const dir = tempDir('jobagent-shipments-')
    const file = join(dir.path, 'shipments.db')
    prepare(file)
    const service = createShipmentService(shipmentsConfig(`sqlite://${file}`), {logger: silentLogger})
    try {
      const main = new OpenAPIHono()
      main.route('/', shipmentRoutes({shipments: service}))
      main.onError((error, c) => errorResponse(error, c, silentLogger))
      const response = await main.request('/shipments/SHP-1001/unified')
      expect(response.status).toBe(503)
      const body = (await response.json()) as {error: Record<string, unknown>}
      expect(body.error).toMatchObject({
        code: 'unavailable',
        hint: 'import shipments first: jobagent shipment import --metadata FILE --telemetry FILE',
      })
      expect(JSON.stringify(body)).not.toContain(dir.path)
    } finally {
      await service.close()
      dir.cleanup()
    }
  })
})
