import {OpenAPIHono} from '@hono/zod-openapi'
import {Registry} from 'prom-client'
import {describe, expect, it} from 'vitest'
import {silentLogger} from '../../../src/core/logger.js'
import {errorResponse} from '../../../src/http/errors.js'
import {shipmentRoutes} from '../../../src/shipments/http/shipments.js'
import {fakeStores, serviceWith} from '../../helpers/shipments.js'

const now = new Date('2026-03-01T12:00:00.000Z')
const rows = {
  'SHP-1001': {shipment_id: 'SHP-1001', origin: 'Rotterdam'},
  'SHP-1002': {shipment_id: 'SHP-1002', origin: 'Oslo'},
}
const latest = {'SHP-1001': {recorded_at: '2026-03-01T11:59:00.000Z', payload: {lat: 53.5}}}

/** The routes with the main app's error mapping (status overrides included), as jobagent serve mounts them. */
function app(behaviour: Parameters<typeof fakeStores>[2] = {}, registry?: Registry) {
  const stores = fakeStores(rows, latest, behaviour)
  const service = serviceWith(stores, {clock: {now: () => now}, timeouts: {metadata: 2000, telemetry: 40}})
  const main = new OpenAPIHono()
  main.route('/', shipmentRoutes({shipments: service}, registry ? {registry} : {}))
  main.onError((error, c) => errorResponse(error, c, silentLogger))
  return {main, calls: stores.calls}
}

const post = (body: unknown) => ({
  method: 'POST',
  headers: {'content-type': 'application/json'},
  body: JSON.stringify(body),
})

const state1001 = {
  shipment_id: 'SHP-1001',
  metadata: rows['SHP-1001'],
  telemetry: latest['SHP-1001'],
  freshness: {last_seen_at: '2026-03-01T11:59:00.000Z', age_seconds: 60, stale: false, stale_after_seconds: 900},
  sources: {metadata: 'postgres', telemetry: 'mongodb'},
  generated_at: '2026-03-01T12:00:00.000Z',
}

describe('GET and POST /shipments/unified', () => {
  it('answers the shipments in the order asked, each once, and the missing ids, with one read per store', async () => {
    const {main, calls} = app()
    const response = await main.request('/shipments/unified?ids=SHP-1002,nope,SHP-1001,SHP-1002')
    expect(response.status).toBe(200)
    const body = (await response.json()) as {shipments: {shipment_id: string}[]; missing: string[]}
    expect(body.shipments.map((state) => state.shipment_id)).toEqual(['SHP-1002', 'SHP-1001'])
    expect(body.shipments[1]).toEqual(state1001)
    expect(body.shipments[0]).toMatchObject({telemetry: null, freshness: {stale: true, age_seconds: null}})
    expect(body.missing).toEqual(['nope'])
    expect(calls.filter((call) => call.includes('batch'))).toEqual([
      'metadata:batch:SHP-1002,nope,SHP-1001',
      'telemetry:batch:SHP-1002,nope,SHP-1001',
    ])
  })

  it('answers the same body to the POST form, ids with commas and slashes included', async () => {
    const {main} = app()
    const response = await main.request('/shipments/unified', post({ids: ['SHP-1001', 'a,b/c']}))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({shipments: [state1001], missing: ['a,b/c']})
  })

  it('takes repeated ids parameters as one list', async () => {
    const {main} = app()
    const body = (await (await main.request('/shipments/unified?ids=SHP-1001&ids=SHP-1002')).json()) as {
      shipments: unknown[]
    }
    expect(body.shipments).toHaveLength(2)
  })

  it.each([
    ['no ids parameter', '/shipments/unified', 'ids must name at least one shipment', 'ids'],
    ['an empty id', '/shipments/unified?ids=SHP-1001,,x', 'ids[1] "": shipment id must not be empty', 'ids[1]'],
    [
      'a control character',
      '/shipments/unified?ids=ok,SHP%0A1',
      'ids[1] "SHP\\n1": shipment id must not contain control characters (found U+000A at position 4)',
      'ids[1]',
    ],
    [
      'an id of 257 characters',
      `/shipments/unified?ids=${'x'.repeat(257)}`,
      `ids[0] "${'x'.repeat(257)}": shipment id must be at most 256 characters long (got 257)`,
      'ids[0]',
    ],
  ])('answers 400 naming the bad id for %s', async (_name, path, message, field) => {
    const response = await app().main.request(path)
    expect(response.status).toBe(400)
    const body = (await response.json()) as {error: {code: string; message: string; details: {field: string}[]}}
    expect(body.error).toMatchObject({code: 'validation', message})
    expect(body.error.details[0]?.field).toBe(field)
  })

  it('names every bad id in the details', async () => {
    const response = await app().main.request('/shipments/unified', post({ids: ['', 'ok', 'a\u0001']}))
    expect(response.status).toBe(400)
    const body = (await response.json()) as {error: {details: {field: string}[]}}
    expect(body.error.details.map((detail) => detail.field)).toEqual(['ids[0]', 'ids[2]'])
  })

  it('takes 500 ids and refuses 501: 414 in the query string, 413 in the body', async () => {
    const ids = (count: number) => Array.from({length: count}, (_, n) => `S${n}`)
    const {main} = app()
    const fine = await main.request('/shipments/unified', post({ids: ids(500)}))
    expect(fine.status).toBe(200)
    expect(((await fine.json()) as {missing: string[]}).missing).toHaveLength(500)
    const tooLongQuery = await main.request(`/shipments/unified?ids=${ids(501).join(',')}`)
    expect(tooLongQuery.status).toBe(414)
    expect(await tooLongQuery.json()).toEqual({
      error: {
        code: 'uri_too_long',
        message: 'at most 500 different ids per batch (got 501)',
        details: [{field: 'ids', message: 'at most 500 different ids per batch (got 501)'}],
      },
    })
    const tooLargeBody = await main.request('/shipments/unified', post({ids: ids(501)}))
    expect(tooLargeBody.status).toBe(413)
    // The code of the status, as the body limit answers a body over 64 KiB.
    expect(((await tooLargeBody.json()) as {error: {code: string}}).error.code).toBe('payload_too_large')
    // Repeats count once.
    expect((await main.request('/shipments/unified', post({ids: [...ids(500), 'S1']}))).status).toBe(200)
  })

  it('answers 400 naming the field for a body without a list of strings, as for a malformed id in it', async () => {
    const {main} = app()
    for (const [body, message] of [
      [{}, 'ids is required, e.g. {"ids": ["SHP-1001"]}'],
      [{ids: 'SHP-1001'}, 'ids must be a list of shipment ids, e.g. {"ids": ["SHP-1001"]}'],
      [{ids: [1]}, 'every id must be text'],
      [[], 'the body must be a JSON object'],
    ] as const) {
      const response = await main.request('/shipments/unified', post(body))
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(((await response.json()) as {error: {code: string; message: string}}).error).toMatchObject({
        code: 'validation',
        message,
      })
    }
  })

  it('answers 503 with Retry-After naming the slow store', async () => {
    const response = await app({hangTelemetry: true}).main.request('/shipments/unified?ids=SHP-1001')
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('5')
    expect(((await response.json()) as {error: {message: string}}).error.message).toBe(
      'telemetry store (mongodb) did not answer within 40 ms',
    )
  })

  it('counts each shipment found and each id missing', async () => {
    const registry = new Registry()
    await app({}, registry).main.request('/shipments/unified?ids=SHP-1001,SHP-1002,nope')
    const text = await registry.metrics()
    expect(text).toContain('jobagent_shipment_lookups_total{result="found"} 2')
    expect(text).toContain('jobagent_shipment_lookups_total{result="not_found"} 1')
  })

  it('documents both forms, the limit and their error statuses in the OpenAPI document', () => {
    const doc = app().main.getOpenAPI31Document({openapi: '3.1.0', info: {title: 'test', version: '1'}})
    const path = doc.paths?.['/shipments/unified']
    expect(Object.keys(path?.get?.responses ?? {}).sort()).toEqual(['200', '304', '400', '401', '414', '422', '503'])
    expect(Object.keys(path?.post?.responses ?? {}).sort()).toEqual(['200', '400', '401', '413', '415', '422', '503'])
    expect(JSON.stringify(path?.post?.requestBody)).toContain('"maxItems":500')
    expect(doc.components?.schemas?.UnifiedBatch).toBeDefined()
  })
})
