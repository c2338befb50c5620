import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {importShipments} from '../../src/app/shipment-import.js'
import {silentLogger} from '../../src/core/logger.js'
import {ROOT} from '../helpers/cli.js'
import {json, type TestApi, testApi} from '../helpers/http.js'

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
  })
})
