import {OpenAPIHono} from '@hono/zod-openapi'
import {describe, expect, it} from 'vitest'
import {silentLogger} from '../../../src/core/logger.js'
import {errorResponse} from '../../../src/http/errors.js'
import type {LatestTelemetry} from '../../../src/shipments/core/unified-state.js'
import {shipmentRoutes} from '../../../src/shipments/http/shipments.js'
import {fakeStores, serviceWith} from '../../helpers/shipments.js'

/** The routes over stores the test changes, on a clock it moves. */
function fixture() {
  const rows: Record<string, Record<string, unknown>> = {
    S1: {shipment_id: 'S1', origin: 'Rotterdam'},
    S2: {shipment_id: 'S2', origin: 'Oslo'},
  }
  const latest: Record<string, LatestTelemetry> = {
    S1: {recorded_at: '2026-03-01T11:59:00.000Z', payload: {lat: 53.5}},
  }
  const clock = {time: Date.parse('2026-03-01T12:00:00.000Z')}
  const service = serviceWith(fakeStores(rows, latest), {clock: {now: () => new Date(clock.time)}})
  const app = new OpenAPIHono()
  app.route('/', shipmentRoutes({shipments: service}))
  app.onError((error, c) => errorResponse(error, c, silentLogger))
  const get = (path: string, tag?: string) =>
    app.request(path, tag === undefined ? {} : {headers: {'If-None-Match': tag}})
  return {rows, latest, clock, get, app}
}

describe('conditional reads of the unified state', () => {
  it('tags the answer by its row and latest document, not by when it was made or the age', async () => {
    const {clock, get, latest} = fixture()
    const first = await get('/shipments/S1/unified')
    const tag = first.headers.get('etag')
    expect(tag).toMatch(/^W\/"[\w-]+"$/)
    expect(first.headers.get('last-modified')).toBe('Sun, 01 Mar 2026 11:59:00 GMT')
    clock.time += 60_000
    const later = await get('/shipments/S1/unified')
    expect(((await later.json()) as {freshness: {age_seconds: number}}).freshness.age_seconds).toBe(120)
    expect(later.headers.get('etag')).toBe(tag)
    latest.S1 = {recorded_at: '2026-03-01T12:00:30.000Z', payload: {lat: 53.6}}
    const moved = await get('/shipments/S1/unified')
    expect(moved.headers.get('etag')).not.toBe(tag)
    expect(moved.headers.get('last-modified')).toBe('Sun, 01 Mar 2026 12:00:30 GMT')
  })

  it('answers 304 without a body to If-None-Match holding the tag, weak or strong, alone or in a list, or *', async () => {
    const {get} = fixture()
    const tag = (await get('/shipments/S1/unified')).headers.get('etag') as string
    for (const header of [tag, tag.slice(2), `"other", ${tag}`, '*']) {
      const response = await get('/shipments/S1/unified', header)
      expect(response.status, header).toBe(304)
      expect(await response.text()).toBe('')
      expect(response.headers.get('etag')).toBe(tag)
      expect(response.headers.get('last-modified')).toBe('Sun, 01 Mar 2026 11:59:00 GMT')
    }
    expect((await get('/shipments/S1/unified', 'W/"other"')).status).toBe(200)
  })

  it('answers 200 with the new body once the metadata row changes', async () => {
    const {get, rows} = fixture()
    const tag = (await get('/shipments/S1/unified')).headers.get('etag') as string
    rows.S1 = {shipment_id: 'S1', origin: 'Antwerp'}
    const response = await get('/shipments/S1/unified', tag)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({metadata: {origin: 'Antwerp'}})
  })

  it('has no Last-Modified without telemetry, and still a tag', async () => {
    const response = await fixture().get('/shipments/S2/unified')
    expect(response.headers.get('etag')).toMatch(/^W\//)
    expect(response.headers.get('last-modified')).toBeNull()
  })

  it('tags batches too: 304 for an unchanged GET, a new tag when one shipment moves, none for a POST', async () => {
    const {get, latest, app} = fixture()
    const first = await get('/shipments/unified?ids=S1,S2,nope')
    const tag = first.headers.get('etag') as string
    expect(first.headers.get('last-modified')).toBe('Sun, 01 Mar 2026 11:59:00 GMT')
    expect((await get('/shipments/unified?ids=S1,S2,nope', tag)).status).toBe(304)
    expect((await get('/shipments/unified?ids=S1,S2', tag)).status).toBe(200)
    const posted = await app.request('/shipments/unified', {
      method: 'POST',
      headers: {'content-type': 'application/json', 'If-None-Match': tag},
      body: JSON.stringify({ids: ['S1', 'S2', 'nope']}),
    })
    expect(posted.status).toBe(200)
    expect(posted.headers.get('etag')).toBe(tag)
    latest.S2 = {recorded_at: '2026-03-01T11:00:00.000Z', payload: {}}
    expect((await get('/shipments/unified?ids=S1,S2,nope', tag)).status).toBe(200)
  })

  it('answers errors without validators', async () => {
    const response = await fixture().get('/shipments/nope/unified', '*')
    expect(response.status).toBe(404)
    expect(response.headers.get('etag')).toBeNull()
  })
})
