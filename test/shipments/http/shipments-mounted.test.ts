import {closeSync, openSync, renameSync, rmSync, statSync, writeFileSync, writeSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {silentLogger} from '../../../src/core/logger.js'
import {importShipments} from '../../../src/shipments/app/shipment-import.js'
import {sqliteFile} from '../../../src/shipments/app/shipments.js'
import {ROOT} from '../../helpers/cli.js'
import {json, type TestApi, testApi} from '../../helpers/http.js'

let api: TestApi | undefined
afterEach(async () => {
  await api?.cleanup()
  api = undefined
})

describe('the shipment route on the jobagent serve app', () => {
  it('is not checked by /health while no shipment store exists', async () => {
    api = testApi()
    const health = await json(await api.app.request('/health'))
    expect(Object.keys(health.checks)).not.toContain('shipments_metadata')
  })

  it('serves the unified state of an imported shipment and checks both stores in /health', async () => {
    api = testApi()
    await importShipments(
      api.context.config.shipments,
      {
        metadataFile: join(ROOT, 'examples/shipments/metadata.csv'),
        telemetryFile: join(ROOT, 'examples/shipments/telemetry.ndjson'),
      },
      silentLogger,
    )
    const response = await api.app.request('/shipments/SHP-1001/unified')
    expect(response.status).toBe(200)
    const state = await json(response)
    expect(state).toMatchObject({shipment_id: 'SHP-1001', sources: {metadata: 'sqlite', telemetry: 'sqlite'}})
    expect((await api.app.request('/shipments/NOPE/unified')).status).toBe(404)

    const health = await json(await api.app.request('/health'))
    expect(health.checks).toHaveProperty('shipments_metadata')
    expect(health.checks).toHaveProperty('shipments_telemetry')
    const document = await json(await api.app.request('/openapi.json'))
    expect(Object.keys(document.paths)).toContain('/shipments/{shipment_id}/unified')
    expect(Object.keys(document.paths)).toContain('/shipments/unified')
  })

  it('serves batches in both forms, labelled by the route template in the request metric', async () => {
    api = testApi()
    await importShipments(
      api.context.config.shipments,
      {metadataFile: join(ROOT, 'examples/shipments/metadata.csv')},
      silentLogger,
    )
    const got = await json(await api.app.request('/shipments/unified?ids=SHP-1002,SHP-404,SHP-1001'))
    expect(got.shipments.map((state: {shipment_id: string}) => state.shipment_id)).toEqual(['SHP-1002', 'SHP-1001'])
    expect(got.missing).toEqual(['SHP-404'])
    const posted = await api.app.request('/shipments/unified', {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({ids: ['SHP-1003']}),
    })
    expect(posted.status).toBe(200)
    expect((await json(posted)).shipments[0]).toMatchObject({shipment_id: 'SHP-1003', telemetry: null})
    const tooMany = await api.app.request('/shipments/unified', {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({ids: Array.from({length: 501}, (_, n) => `S${n}`)}),
    })
    expect(tooMany.status).toBe(413)
    const metrics = await (await api.app.request('/metrics')).text()
    expect(metrics).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/shipments\/unified",status="200"\} 1/,
    )
    expect(metrics).toMatch(
      /http_request_duration_seconds_count\{method="POST",route="\/shipments\/unified",status="413"\} 1/,
    )
  })

  it('fails the /health checks of a corrupt shipments.db whose lookups answer 503', async () => {
    api = testApi()
    await importShipments(
      api.context.config.shipments,
      {
        metadataFile: join(ROOT, 'examples/shipments/metadata.csv'),
        telemetryFile: join(ROOT, 'examples/shipments/telemetry.ndjson'),
      },
      silentLogger,
    )
    // The schema page stays readable (statements compile), every page of the tables after it is garbage.
    const file = sqliteFile(api.context.config.shipments.metadata.url)
    const pageSize = 4096
    const size = statSync(file).size
    expect(size).toBeGreaterThan(pageSize)
    const handle = openSync(file, 'r+')
    writeSync(handle, Buffer.alloc(size - pageSize, 0xa5), 0, size - pageSize, pageSize)
    closeSync(handle)

    expect((await api.app.request('/shipments/SHP-1001/unified')).status).toBe(503)
    const response = await api.app.request('/health')
    const health = await json(response)
    expect(health.checks.shipments_metadata[0]).toMatchObject({
      status: 'fail',
      output: expect.stringContaining('corrupt'),
    })
    expect(health.checks.shipments_telemetry[0]).toMatchObject({status: 'fail'})
    expect(health.status).toBe('fail')
    expect(response.status).toBe(503)
  })

  it('answers from a shipments.db replaced or deleted while it serves, never from the old file', async () => {
    api = testApi()
    const config = api.context.config.shipments
    const file = sqliteFile(config.metadata.url)
    const csv = (name: string, origin: string) => {
      const path = join(api?.home as string, name)
      writeFileSync(path, `shipment_id,origin\nSHP-1,${origin}\n`)
      return path
    }
    await importShipments(config, {metadataFile: csv('old.csv', 'Oslo')}, silentLogger)
    const origin = async () => {
      const response = await api?.app.request('/shipments/SHP-1/unified')
      return response?.status === 200 ? (await json(response)).metadata.origin : response?.status
    }
    expect(await origin()).toBe('Oslo')

    // A new file renamed over the one the server has open, as a restore from a backup does.
    const next = join(api.home, 'next.db')
    await importShipments(
      {...config, metadata: {...config.metadata, url: `sqlite://${next}`}},
      {metadataFile: csv('new.csv', 'Bergen')},
      silentLogger,
    )
    renameSync(next, file)
    await expect.poll(origin, {timeout: 3000, interval: 100}).toBe('Bergen')

    rmSync(file)
    await expect.poll(origin, {timeout: 3000, interval: 100}).toBe(503)
    const body = await json((await api.app.request('/shipments/SHP-1/unified')) as Response)
    expect(body.error.code).toBe('unavailable')
  })
})
