import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {silentLogger} from '../../../src/core/logger.js'
import {type RunningServer, startServer} from '../../../src/http/server.js'
import {createShipmentService, shipmentWriters} from '../../../src/shipments/app/shipments.js'
import type {ShipmentService} from '../../../src/shipments/core/shipment-service.js'
import {memoryLogger} from '../../helpers/memory-log.js'
import {createTestDatabase, testPostgresUrl} from '../../helpers/postgres.js'
import {shipmentsConfig, shipmentTestApp} from '../../helpers/shipments.js'
import {openEventStream} from '../../helpers/sse.js'

const serverUrl = await testPostgresUrl()
if (!serverUrl) {
  console.log('PostgreSQL event stream tests skipped: set JOBAGENT_TEST_POSTGRES_URL or run a server on 127.0.0.1:5432')
}

describe.skipIf(!serverUrl)('GET /shipments/{shipment_id}/unified/events over PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  let service: ShipmentService
  let running: RunningServer
  const closing = new AbortController()
  const config = () => shipmentsConfig(database.url)

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl as string)
    const metadata = shipmentWriters.metadata(config(), silentLogger)
    await metadata.upsert([{shipment_id: 'PG-1', origin: 'Gdansk'}])
    await metadata.close()
    const telemetry = shipmentWriters.telemetry(config(), silentLogger)
    await telemetry.append([{id: 'PG-1', recorded_at: '2026-03-01T10:00:00.000Z', payload: {lat: 54.35}}])
    await telemetry.close()
    service = createShipmentService(config(), {logger: silentLogger})
    running = await startServer(shipmentTestApp(service, {events: {intervalMs: 200, closing: closing.signal}}), {
      host: '127.0.0.1',
      port: 0,
      logger: memoryLogger().logger,
      onClose: () => closing.abort(),
    })
  })
  afterAll(async () => {
    await running?.close()
    await service?.close()
    await database?.drop()
  })

  it('sends the new state within 2 s of a document being appended, and ends on shutdown', async () => {
    const events = await openEventStream(`${running.url}/shipments/PG-1/unified/events`)
    const first = await events.next()
    expect(JSON.parse(first.data ?? '')).toMatchObject({
      shipment_id: 'PG-1',
      telemetry: {payload: {lat: 54.35}},
      sources: {metadata: 'postgres', telemetry: 'postgres'},
    })
    const telemetry = shipmentWriters.telemetry(config(), silentLogger)
    await telemetry.append([{id: 'PG-1', recorded_at: '2026-03-01T11:00:00.000Z', payload: {lat: 54.0}}])
    await telemetry.close()
    const started = Date.now()
    const second = await events.next({timeoutMs: 2000})
    expect(Date.now() - started).toBeLessThan(2000)
    expect(second.id).not.toBe(first.id)
    expect(JSON.parse(second.data ?? '').telemetry).toEqual({
      recorded_at: '2026-03-01T11:00:00.000Z',
      payload: {lat: 54},
    })
    await running.close()
    expect(await events.ended(1000)).toBe(true)
  })
})
