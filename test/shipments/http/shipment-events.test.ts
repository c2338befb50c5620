import {connect} from 'node:net'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {silentLogger} from '../../../src/core/logger.js'
import {type RunningServer, startServer} from '../../../src/http/server.js'
import {importShipments} from '../../../src/shipments/app/shipment-import.js'
import {shipmentWriters} from '../../../src/shipments/app/shipments.js'
import type {ShipmentService} from '../../../src/shipments/core/shipment-service.js'
import type {ShipmentEventOptions} from '../../../src/shipments/http/shipment-events.js'
import {ROOT} from '../../helpers/cli.js'
import {json, testApi} from '../../helpers/http.js'
import {memoryLogger} from '../../helpers/memory-log.js'
import {fakeStores, serviceWith, shipmentTestApp} from '../../helpers/shipments.js'
import {type EventStream, openEventStream} from '../../helpers/sse.js'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

type EventSettings = Pick<ShipmentEventOptions, 'intervalMs' | 'heartbeatMs' | 'maxStreams'>

/** The app of `jobagent serve` over real SQLite stores holding the example shipments, listening on 127.0.0.1. */
async function servedApi(events: EventSettings = {intervalMs: 100}) {
  const closing = new AbortController()
  const api = testApi({app: {closing: closing.signal, slices: {shipments: events}}})
  cleanups.push(() => api.cleanup())
  await importShipments(
    api.context.config.shipments,
    {
      metadataFile: join(ROOT, 'examples/shipments/metadata.csv'),
      telemetryFile: join(ROOT, 'examples/shipments/telemetry.ndjson'),
    },
    silentLogger,
  )
  const running = await startServer(api.app, {
    host: '127.0.0.1',
    port: 0,
    logger: memoryLogger().logger,
    onClose: () => closing.abort(),
  })
  cleanups.push(() => running.close())
  return {api, running}
}

/** A bare app over the given service (in-memory stores), listening on 127.0.0.1. */
async function servedService(service: ShipmentService, events: ShipmentEventOptions = {intervalMs: 100}) {
  const closing = new AbortController()
  const running = await startServer(shipmentTestApp(service, {events: {...events, closing: closing.signal}}), {
    host: '127.0.0.1',
    port: 0,
    logger: memoryLogger().logger,
    onClose: () => closing.abort(),
  })
  cleanups.push(() => running.close())
  return running
}

async function stream(running: RunningServer, id: string, headers: Record<string, string> = {}): Promise<EventStream> {
  const url = `${running.url}/shipments/${encodeURIComponent(id)}/unified/events`
  const opened = await openEventStream(url, {headers})
  cleanups.push(() => opened.close())
  return opened
}

async function append(
  api: ReturnType<typeof testApi>,
  id: string,
  recordedAt: string,
  payload: Record<string, unknown>,
) {
  const writer = shipmentWriters.telemetry(api.context.config.shipments, silentLogger)
  try {
    await writer.append([{id, recorded_at: recordedAt, payload}])
  } finally {
    await writer.close()
  }
}

async function gauge(running: RunningServer): Promise<number> {
  const text = await (await fetch(`${running.url}/metrics`)).text()
  const match = /^jobagent_shipment_streams_open (\d+)$/m.exec(text)
  return Number(match?.[1] ?? Number.NaN)
}

describe('GET /shipments/{shipment_id}/unified/events over SQLite', () => {
  it('sends the state at once, with its ETag as the id, as an event stream', async () => {
    const {running} = await servedApi()
    const events = await stream(running, 'SHP-1001')
    expect(events.response.status).toBe(200)
    expect(events.response.headers.get('content-type')).toBe('text/event-stream')
    const first = await events.next()
    expect(first.event).toBe('unified')
    const state = JSON.parse(first.data ?? '')
    expect(state).toMatchObject({shipment_id: 'SHP-1001', sources: {metadata: 'sqlite', telemetry: 'sqlite'}})
    const plain = await fetch(`${running.url}/shipments/SHP-1001/unified`)
    expect(first.id).toBe(plain.headers.get('etag'))
    expect(await json(plain)).toMatchObject({telemetry: state.telemetry, metadata: state.metadata})
  })

  it('tells the client to reconnect after 1 s with its first state', async () => {
    const {running} = await servedApi()
    const first = await (await stream(running, 'SHP-1001')).next()
    expect(first).toMatchObject({event: 'unified', retry: '1000'})
  })

  it('sends a client resuming with the current state as Last-Event-ID nothing until the state changes', async () => {
    const {api, running} = await servedApi()
    const had = await (await stream(running, 'SHP-1001')).next()
    const resumed = await stream(running, 'SHP-1001', {'last-event-id': had.id ?? ''})
    expect(resumed.response.status).toBe(200)
    expect(await resumed.next()).toEqual({retry: '1000'})
    await expect(resumed.next({timeoutMs: 500})).rejects.toThrow(/no message/)
    await append(api, 'SHP-1001', '2030-01-01T00:00:00.000Z', {lat: 3.5})
    const next = await resumed.next({timeoutMs: 2000})
    expect(next.id).not.toBe(had.id)
    expect(JSON.parse(next.data ?? '').telemetry).toEqual({
      recorded_at: '2030-01-01T00:00:00.000Z',
      payload: {lat: 3.5},
    })
  })

  it('sends a client resuming with an older state as Last-Event-ID the current state at once', async () => {
    const {api, running} = await servedApi()
    const had = await (await stream(running, 'SHP-1001')).next()
    await append(api, 'SHP-1001', '2030-01-01T00:00:00.000Z', {lat: 4.5})
    const resumed = await stream(running, 'SHP-1001', {'last-event-id': had.id ?? ''})
    const current = await resumed.next()
    expect(current.id).not.toBe(had.id)
    expect(JSON.parse(current.data ?? '').telemetry.payload).toEqual({lat: 4.5})
  })

  it('is documented in the OpenAPI document as an event stream with the errors before it', async () => {
    const {running} = await servedApi()
    const document = await json(await fetch(`${running.url}/openapi.json`))
    const route = document.paths['/shipments/{shipment_id}/unified/events'].get
    expect(Object.keys(route.responses['200'].content)).toEqual(['text/event-stream'])
    expect(Object.keys(route.responses)).toEqual(expect.arrayContaining(['400', '404', '503']))
    expect(route.description).toContain('At most 1000 streams')
    expect(route.parameters).toEqual([expect.objectContaining({name: 'shipment_id', in: 'path'})])
  })

  it('sends the new state within 2 s of a telemetry document being appended', async () => {
    const {api, running} = await servedApi()
    const events = await stream(running, 'SHP-1001')
    const first = await events.next()
    const started = Date.now()
    await append(api, 'SHP-1001', '2030-01-01T00:00:00.000Z', {lat: 1.5, lon: 2.5, note: 'appended'})
    const second = await events.next({timeoutMs: 2000})
    expect(Date.now() - started).toBeLessThan(2000)
    expect(second.event).toBe('unified')
    expect(second.id).not.toBe(first.id)
    expect(JSON.parse(second.data ?? '').telemetry).toEqual({
      recorded_at: '2030-01-01T00:00:00.000Z',
      payload: {lat: 1.5, lon: 2.5, note: 'appended'},
    })
  })

  it('sends the new state when the metadata row changes, and nothing while nothing changes', async () => {
    const {api, running} = await servedApi()
    const events = await stream(running, 'SHP-1002')
    await events.next()
    await expect(events.next({timeoutMs: 400})).rejects.toThrow(/no message/)
    const writer = shipmentWriters.metadata(api.context.config.shipments, silentLogger)
    await writer.upsert([{shipment_id: 'SHP-1002', status: 'delivered'}])
    await writer.close()
    const changed = JSON.parse((await events.next({timeoutMs: 2000})).data ?? '')
    expect(changed.metadata).toMatchObject({shipment_id: 'SHP-1002', status: 'delivered'})
  })

  it('sends a heartbeat comment on a quiet stream', async () => {
    const {running} = await servedApi({intervalMs: 100, heartbeatMs: 150})
    const events = await stream(running, 'SHP-1001')
    await events.next()
    expect(await events.next({comments: true, timeoutMs: 1000})).toEqual({comment: 'heartbeat'})
  })

  it('answers 404, 400 and the JSON error body before any stream starts', async () => {
    const {running} = await servedApi()
    const unknown = await stream(running, 'SHP-404')
    expect(unknown.response.status).toBe(404)
    expect(await json(unknown.response)).toMatchObject({error: {code: 'not_found'}})
    const malformed = await fetch(`${running.url}/shipments/${'x'.repeat(300)}/unified/events`)
    expect(malformed.status).toBe(400)
    expect((await json(malformed)).error.message).toMatch(/shipment_id|characters/)
    expect((await fetch(`${running.url}/shipments//unified/events`)).status).toBe(400)
  })

  it('refuses a stream beyond the limit with 503 and Retry-After, and takes one again once a stream closes', async () => {
    const {running} = await servedApi({intervalMs: 100, maxStreams: 2})
    const one = await stream(running, 'SHP-1001')
    await stream(running, 'SHP-1002')
    const third = await fetch(`${running.url}/shipments/SHP-1003/unified/events`)
    expect(third.status).toBe(503)
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/)
    expect((await json(third)).error.message).toMatch(/2 shipment streams are open/)
    await one.close()
    await expect.poll(() => gauge(running), {timeout: 2000}).toBe(1)
    const again = await stream(running, 'SHP-1003')
    expect(again.response.status).toBe(200)
  })

  it('counts open streams in /metrics, down again when clients disconnect', async () => {
    const {running} = await servedApi()
    expect(await gauge(running)).toBe(0)
    const streams = [await stream(running, 'SHP-1001'), await stream(running, 'SHP-1001')]
    await Promise.all(streams.map((opened) => opened.next()))
    expect(await gauge(running)).toBe(2)
    for (const opened of streams) await opened.close()
    await expect.poll(() => gauge(running), {timeout: 2000}).toBe(0)
  })

  it('ends open streams at once on shutdown instead of holding it until its timeout', async () => {
    const closing = new AbortController()
    const api = testApi({app: {closing: closing.signal, slices: {shipments: {intervalMs: 100}}}})
    cleanups.push(() => api.cleanup())
    await importShipments(
      api.context.config.shipments,
      {metadataFile: join(ROOT, 'examples/shipments/metadata.csv')},
      silentLogger,
    )
    const running = await startServer(api.app, {
      host: '127.0.0.1',
      port: 0,
      logger: memoryLogger().logger,
      shutdownTimeoutMs: 10_000,
      onClose: () => closing.abort(),
    })
    const events = await stream(running, 'SHP-1001')
    await events.next()
    const started = Date.now()
    await running.close()
    expect(Date.now() - started).toBeLessThan(1000)
    // The last word of a closing server: come back in a second (to another instance behind a load balancer).
    expect(await events.next({comments: true})).toEqual({retry: '1000'})
    expect(await events.ended(1000)).toBe(true)
  })
})

describe('shutting down with a client that does not read', () => {
  it('ends its stream at once, without waiting for the client to take what was sent', async () => {
    // A big state that changes every read: the server keeps writing until the socket buffers are full.
    const row: Record<string, unknown> = {shipment_id: 'A', blob: 'x'.repeat(4 * 1024 * 1024), n: 0}
    const changing = setInterval(() => (row.n = (row.n as number) + 1), 20)
    cleanups.push(() => clearInterval(changing))
    const closing = new AbortController()
    const running = await startServer(
      shipmentTestApp(serviceWith(fakeStores({A: row}, {})), {events: {intervalMs: 20, closing: closing.signal}}),
      {
        host: '127.0.0.1',
        port: 0,
        logger: memoryLogger().logger,
        shutdownTimeoutMs: 10_000,
        onClose: () => closing.abort(),
      },
    )
    cleanups.push(() => running.close())
    const socket = connect(running.port, '127.0.0.1')
    cleanups.push(() => void socket.destroy())
    socket.on('error', () => {})
    socket.write('GET /shipments/A/unified/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n')
    await new Promise<void>((resolve) => socket.once('data', () => resolve()))
    socket.pause()
    // Long enough for several states of 4 MiB: far more than the kernel buffers of both ends hold.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const started = Date.now()
    await running.close()
    expect(Date.now() - started).toBeLessThan(3000)
  })
})

describe('the shipment watcher behind the event streams', () => {
  const rows = {A: {shipment_id: 'A'}, B: {shipment_id: 'B'}}
  const latest = {A: {recorded_at: '2026-03-01T11:59:00.000Z', payload: {lat: 1}}}

  it('reads every watched shipment in one batch call per interval, however many streams watch it', async () => {
    const stores = fakeStores(rows, latest)
    const running = await servedService(serviceWith(stores), {intervalMs: 100})
    const streams = await Promise.all(['A', 'A', 'B', 'B', 'A'].map((id) => stream(running, id)))
    await Promise.all(streams.map((opened) => opened.next()))
    stores.calls.length = 0
    const started = Date.now()
    await new Promise((resolve) => setTimeout(resolve, 650))
    const elapsed = Date.now() - started
    const batches = stores.calls.filter((call) => call.startsWith('metadata:batch:'))
    expect(batches.length).toBeGreaterThanOrEqual(2)
    expect(batches.length).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 1)
    for (const batch of batches) expect(batch.split(':')[2]?.split(',').sort()).toEqual(['A', 'B'])
    expect(stores.calls.filter((call) => call.startsWith('metadata:start:'))).toEqual([])
    for (const opened of streams) await opened.close()
    // The server learns of a closed stream from its socket, so a tick due in that moment may still read once.
    await new Promise((resolve) => setTimeout(resolve, 200))
    stores.calls.length = 0
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(stores.calls).toEqual([])
  })

  it('answers 503 with Retry-After before the stream when a store is down', async () => {
    const running = await servedService(serviceWith(fakeStores(rows, latest, {failTelemetry: new Error('down')})))
    const response = await fetch(`${running.url}/shipments/A/unified/events`)
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('5')
  })

  it('sends one error event while a store fails mid-stream, then the state again once it answers', async () => {
    const behaviour: Parameters<typeof fakeStores>[2] = {}
    const running = await servedService(serviceWith(fakeStores(rows, latest, behaviour)))
    const events = await stream(running, 'A')
    const first = await events.next()
    behaviour.failTelemetry = new Error('connection refused')
    const failed = await events.next({timeoutMs: 2000})
    expect(failed.event).toBe('error')
    expect(JSON.parse(failed.data ?? '')).toMatchObject({error: {code: 'unavailable'}})
    await expect(events.next({timeoutMs: 400})).rejects.toThrow(/no message/)
    behaviour.failTelemetry = undefined
    const recovered = await events.next({timeoutMs: 2000})
    expect(recovered).toMatchObject({event: 'unified', id: first.id})
  })

  it('tells a stream once when its shipment is gone', async () => {
    const shrinking: Record<string, Record<string, unknown>> = {...rows}
    const running = await servedService(serviceWith(fakeStores(shrinking, latest)))
    const events = await stream(running, 'B')
    await events.next()
    delete shrinking.B
    const gone = await events.next({timeoutMs: 2000})
    expect(gone.event).toBe('error')
    expect(JSON.parse(gone.data ?? '')).toMatchObject({error: {code: 'not_found'}})
    await expect(events.next({timeoutMs: 400})).rejects.toThrow(/no message/)
  })

  it('keeps the other streams going when one shipment cannot be served (a document nested too deep)', async () => {
    const documents: Record<string, {recorded_at: string; payload: Record<string, unknown>}> = {...latest}
    const running = await servedService(serviceWith(fakeStores(rows, documents)))
    const [a, b] = [await stream(running, 'A'), await stream(running, 'B')]
    await Promise.all([a.next(), b.next()])
    let deep: Record<string, unknown> = {}
    for (let level = 0; level < 80; level++) deep = {deep}
    documents.B = {recorded_at: '2026-03-01T12:00:00.000Z', payload: deep}
    documents.A = {recorded_at: '2026-03-01T12:00:00.000Z', payload: {lat: 2}}
    const refused = await b.next({timeoutMs: 2000})
    expect(refused.event).toBe('error')
    expect(JSON.parse(refused.data ?? '')).toMatchObject({error: {code: 'validation'}})
    const moved = await a.next({timeoutMs: 2000})
    expect(JSON.parse(moved.data ?? '').telemetry).toEqual({recorded_at: '2026-03-01T12:00:00.000Z', payload: {lat: 2}})
  })
})
