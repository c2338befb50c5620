import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {UnavailableError} from '../../../src/core/errors.js'
import {silentLogger} from '../../../src/core/logger.js'
import {importShipments} from '../../../src/shipments/app/shipment-import.js'
import {encodeCursor} from '../../../src/shipments/core/telemetry-history.js'
import {json, type TestApi, testApi} from '../../helpers/http.js'
import {fakeStores, serviceWith, shipmentTestApp} from '../../helpers/shipments.js'
import {minutes} from '../../helpers/telemetry-history.js'

let api: TestApi

/** S1 has 25 documents one minute apart from 10:00, S2 none; imported into the embedded stores of a test home. */
beforeAll(async () => {
  api = testApi()
  const metadataFile = join(api.home, 'metadata.json')
  const telemetryFile = join(api.home, 'telemetry.ndjson')
  writeFileSync(metadataFile, JSON.stringify([{shipment_id: 'S1'}, {shipment_id: 'S2'}, {shipment_id: 'a/b c'}]))
  const documents = [...minutes('S1', '2026-03-01T10:00:00.000Z', 25), ...minutes('a/b c', '2026-03-01T10:00:00Z', 1)]
  writeFileSync(
    telemetryFile,
    documents
      .reverse()
      .map(({id, recorded_at, payload}) => JSON.stringify({shipment_id: id, recorded_at, ...payload}))
      .join('\n'),
  )
  await importShipments(api.context.config.shipments, {metadataFile, telemetryFile}, silentLogger)
})
afterAll(() => api?.cleanup())

const get = (path: string, init?: RequestInit) => api.app.request(path, init)

/** Every page from `path`, following next_cursor (at most 100 pages). */
async function allPages(path: string) {
  const pages: {telemetry: {recorded_at: string; payload: {n: number}}[]; count: number; next_cursor: string | null}[] =
    []
  let cursor: string | null = null
  for (let page = 0; page < 100; page++) {
    const separator = path.includes('?') ? '&' : '?'
    const response = await get(cursor === null ? path : `${path}${separator}cursor=${cursor}`)
    expect(response.status).toBe(200)
    const body = await json(response)
    pages.push(body)
    cursor = body.next_cursor
    if (cursor === null) return pages
  }
  throw new Error('next_cursor never became null')
}

describe('GET /shipments/{shipment_id}/telemetry', () => {
  it('answers the documents oldest first, as UnifiedState.telemetry, 100 by default', async () => {
    const response = await get('/shipments/S1/telemetry')
    expect(response.status).toBe(200)
    const body = await json(response)
    expect(body).toMatchObject({shipment_id: 'S1', count: 25, limit: 100, next_cursor: null})
    expect(body.telemetry[0]).toEqual({recorded_at: '2026-03-01T10:00:00.000Z', payload: {n: 0}})
    expect(body.telemetry.map((document: {payload: {n: number}}) => document.payload.n)).toEqual(
      Array.from({length: 25}, (_, n) => n),
    )
    expect(response.headers.get('etag')).toMatch(/^W\/"/)
    expect(response.headers.get('last-modified')).toBe('Sun, 01 Mar 2026 10:24:00 GMT')
  })

  it('pages with next_cursor until it is null, with no gaps and no repeats', async () => {
    const pages = await allPages('/shipments/S1/telemetry?limit=7')
    expect(pages.map((page) => page.count)).toEqual([7, 7, 7, 4])
    expect(pages.flatMap((page) => page.telemetry.map((document) => document.payload.n))).toEqual(
      Array.from({length: 25}, (_, n) => n),
    )
  })

  it('takes since inclusive and until exclusive, across pages too', async () => {
    const window = 'since=2026-03-01T10:05:00Z&until=2026-03-01T10:12:00Z'
    const pages = await allPages(`/shipments/S1/telemetry?${window}&limit=3`)
    expect(pages.flatMap((page) => page.telemetry.map((document) => document.payload.n))).toEqual([
      5, 6, 7, 8, 9, 10, 11,
    ])
    // Any ISO 8601 form: a zone offset, or a date alone (midnight UTC).
    const offset = await json(await get('/shipments/S1/telemetry?since=2026-03-01T11:20:00%2B01:00'))
    expect(offset.telemetry.map((document: {payload: {n: number}}) => document.payload.n)).toEqual([20, 21, 22, 23, 24])
    const day = await json(await get('/shipments/S1/telemetry?until=2026-03-01'))
    expect(day).toMatchObject({count: 0, telemetry: [], next_cursor: null})
  })

  it('answers 200 with no documents for a shipment without telemetry, and decodes an encoded id', async () => {
    expect(await json(await get('/shipments/S2/telemetry'))).toEqual({
      shipment_id: 'S2',
      telemetry: [],
      count: 0,
      limit: 100,
      next_cursor: null,
    })
    const slash = await json(await get(`/shipments/${encodeURIComponent('a/b c')}/telemetry`))
    expect(slash).toMatchObject({shipment_id: 'a/b c', count: 1})
  })

  it('answers 304 to If-None-Match while the page is unchanged', async () => {
    const first = await get('/shipments/S1/telemetry?limit=5')
    const again = await get('/shipments/S1/telemetry?limit=5', {
      headers: {'if-none-match': first.headers.get('etag') as string},
    })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
  })

  it('answers 404 for a shipment the metadata store does not have', async () => {
    const response = await get('/shipments/NOPE/telemetry')
    expect(response.status).toBe(404)
    expect((await json(response)).error).toMatchObject({code: 'not_found', message: 'no shipment with id "NOPE"'})
  })

  it.each([
    ['an empty id', '/shipments//telemetry', 'shipment_id'],
    ['an id with a control character', '/shipments/S%001/telemetry', 'shipment_id'],
    ['since that is no time', '/shipments/S1/telemetry?since=yesterday', 'since'],
    ['since as epoch seconds', '/shipments/S1/telemetry?since=1772359200', 'since'],
    ['an impossible day', '/shipments/S1/telemetry?until=2026-02-30T00:00:00Z', 'until'],
    ['until before since', '/shipments/S1/telemetry?since=2026-03-02&until=2026-03-01', 'until'],
    ['limit 0', '/shipments/S1/telemetry?limit=0', 'limit'],
    ['limit over 1000', '/shipments/S1/telemetry?limit=1001', 'limit'],
    ['limit that is no number', '/shipments/S1/telemetry?limit=ten', 'limit'],
    ['a cursor that is not base64url', '/shipments/S1/telemetry?cursor=a%2Bb', 'cursor'],
    ['an empty cursor', '/shipments/S1/telemetry?cursor=', 'cursor'],
    ['a cursor "0"', '/shipments/S1/telemetry?cursor=0', 'cursor'],
    ['the cursor of "0"', `/shipments/S1/telemetry?cursor=${encodeCursor('0')}`, 'cursor'],
    ['the cursor of "zzzz"', `/shipments/S1/telemetry?cursor=${encodeCursor('zzzz')}`, 'cursor'],
    ['the cursor of a NUL byte', `/shipments/S1/telemetry?cursor=${encodeCursor('\u0000')}`, 'cursor'],
    ['the cursor of a year', `/shipments/S1/telemetry?cursor=${encodeCursor('2026')}`, 'cursor'],
  ])('answers 400 naming the parameter for %s', async (_name, path, field) => {
    const response = await get(path)
    expect(response.status).toBe(400)
    const body = await json(response)
    expect(body.error.code).toBe('validation')
    expect(body.error.details[0].field).toBe(field)
    expect(body.error.message).toContain(field === 'shipment_id' ? 'shipment id' : field)
  })

  it('names every bad parameter at once', async () => {
    const body = await json(await get('/shipments/S1/telemetry?since=x&limit=-1'))
    expect(body.error.details.map((detail: {field: string}) => detail.field)).toEqual(['since', 'limit'])
  })

  it('is labelled by its route template in the request metric and listed in the OpenAPI document', async () => {
    await get('/shipments/S1/telemetry?limit=1')
    const metrics = await (await get('/metrics')).text()
    expect(metrics).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/shipments\/:shipment_id\/telemetry",status="200"\} \d+/,
    )
    expect(metrics).toMatch(/jobagent_shipment_lookups_total\{result="found"\} \d+/)
    const document = await json(await get('/openapi.json'))
    const operation = document.paths['/shipments/{shipment_id}/telemetry'].get
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '503']))
    expect(operation.parameters.map((parameter: {name: string}) => parameter.name)).toEqual(
      expect.arrayContaining(['shipment_id', 'since', 'until', 'limit', 'cursor']),
    )
  })
})

describe('GET /shipments/{shipment_id}/telemetry with a store down', () => {
  const rows = {S1: {shipment_id: 'S1'}}
  const app = (behaviour: Parameters<typeof fakeStores>[2], telemetryMs = 2000) =>
    shipmentTestApp(serviceWith(fakeStores(rows, {}, behaviour), {timeouts: {metadata: 2000, telemetry: telemetryMs}}))

  it('answers 503 with Retry-After when the telemetry store fails', async () => {
    const response = await app({failTelemetry: new UnavailableError('connection refused')}).request(
      '/shipments/S1/telemetry',
    )
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('5')
    expect((await json(response)).error.details).toEqual([
      {field: 'telemetry', message: expect.stringContaining('telemetry store (mongodb) is unavailable')},
    ])
  })

  it('answers 503 naming the store that did not answer within its timeout', async () => {
    const started = performance.now()
    const response = await app({hangTelemetry: true}, 50).request('/shipments/S1/telemetry')
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('5')
    expect((await json(response)).error.message).toBe('telemetry store (mongodb) did not answer within 50 ms')
    expect(performance.now() - started).toBeLessThan(1000)
  })
})
