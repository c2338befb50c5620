import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {AppContext} from '../../src/app/context.js'
import {createHttpServices, loadSliceHttp, openSliceOnlyServices} from '../../src/app/http-services.js'
import {silentLogger} from '../../src/core/logger.js'
import {createHttpApp, type HttpAppOptions} from '../../src/http/app.js'
import {importShipments} from '../../src/shipments/app/shipment-import.js'
import {ROOT, tempDir} from '../helpers/cli.js'
import {json} from '../helpers/http.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {closedPort} from '../helpers/shipments.js'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** The app of `serve --only shipments` on a home that does not exist, configured by the environment alone. */
async function shipmentsAlone(
  env: Record<string, string> = {},
  options: Partial<HttpAppOptions> = {},
  {seed = true}: {seed?: boolean} = {},
) {
  const work = tempDir('jobagent-alone-')
  const home = join(work.path, 'absent')
  const store = `sqlite://${join(work.path, 'fleet.db')}`
  const context = new AppContext({
    env: {
      JOBAGENT_HOME: home,
      JOBAGENT_SHIPMENT_METADATA_URL: store,
      JOBAGENT_SHIPMENT_TELEMETRY_URL: store,
      ...env,
    },
  })
  cleanups.push(async () => {
    await context.close()
    work.cleanup()
  })
  if (seed) {
    await importShipments(
      {...context.config.shipments, telemetry: {...context.config.shipments.telemetry, url: store}},
      {
        metadataFile: join(ROOT, 'examples/shipments/metadata.csv'),
        telemetryFile: join(ROOT, 'examples/shipments/telemetry.ndjson'),
      },
      silentLogger,
    )
  }
  const app = createHttpApp(await openSliceOnlyServices(context, 'shipments'), {
    logger: memoryLogger().logger,
    healthCheckTimeoutMs: 2000,
    ...options,
  })
  return {app, home, context}
}

describe('jobagent serve --only shipments', () => {
  it('serves the shipment routes with health, metrics and the docs, and nothing of the job side', async () => {
    const {app, home} = await shipmentsAlone()
    const document = await json(await app.request('/openapi.json'))
    expect(Object.keys(document.paths).sort()).toEqual([
      '/',
      '/health',
      '/health/live',
      '/health/ready',
      '/metrics',
      '/shipments/unified',
      '/shipments/{shipment_id}/telemetry',
      '/shipments/{shipment_id}/unified',
      '/shipments/{shipment_id}/unified/events',
    ])
    for (const path of ['/applications', '/jobs', '/runs', '/stats', '/backup']) {
      expect((await app.request(path)).status, path).toBe(404)
    }
    // A browser gets the description, not the job side's web page.
    const root = await app.request('/', {headers: {accept: 'text/html'}})
    expect(root.headers.get('content-type')).toMatch(/^application\/json/)
    expect((await app.request('/docs')).status).toBe(200)
    expect((await app.request('/metrics')).status).toBe(200)
    expect((await app.request('/shipments/SHP-9/unified')).status).toBe(404)
    expect(existsSync(home)).toBe(false)
  })

  it('checks only the shipment stores on /health, and never opens a tracker', async () => {
    const {app, home} = await shipmentsAlone()
    const response = await app.request('/health')
    expect(response.status).toBe(200)
    expect(Object.keys((await json(response)).checks)).toEqual(['shipments_metadata', 'shipments_telemetry'])
    expect(existsSync(join(home, 'jobagent.db'))).toBe(false)
  })

  it('is ready when both stores answer, and not when one does not', async () => {
    const ready = await (await shipmentsAlone()).app.request('/health/ready')
    expect(ready.status).toBe(200)
    expect(ready.headers.get('content-type')).toBe('application/health+json')
    expect(await json(ready)).toMatchObject({
      status: 'pass',
      checks: {shipments_metadata: [{status: 'pass'}], shipments_telemetry: [{status: 'pass'}]},
    })

    const down = `postgres://jobagent@127.0.0.1:${await closedPort()}/fleet`
    const {app} = await shipmentsAlone({
      JOBAGENT_SHIPMENT_TELEMETRY_URL: down,
      JOBAGENT_SHIPMENT_TELEMETRY_TIMEOUT_MS: '500',
    })
    const notReady = await app.request('/health/ready')
    expect(notReady.status).toBe(503)
    const body = await json(notReady)
    expect(body.status).toBe('fail')
    expect(body.checks.shipments_metadata[0].status).toBe('pass')
    expect(body.checks.shipments_telemetry[0].status).toBe('fail')
    // Alive all the same: the process answers, and liveness reads no store.
    const live = await app.request('/health/live')
    expect(live.status).toBe(200)
    expect(await json(live)).toEqual({status: 'pass', version: expect.any(String), uptime_seconds: expect.any(Number)})
  })

  it('is not ready once the server starts shutting down', async () => {
    const closing = new AbortController()
    const {app} = await shipmentsAlone({}, {closing: closing.signal})
    expect((await app.request('/health/ready')).status).toBe(200)
    closing.abort()
    const stopping = await app.request('/health/ready')
    expect(stopping.status).toBe(503)
    expect((await json(stopping)).checks.server).toEqual([
      {status: 'fail', output: 'the server is shutting down', time: expect.any(String)},
    ])
    expect((await app.request('/health/live')).status).toBe(200)
  })

  it('keeps liveness and readiness open when a token is required', async () => {
    const {app} = await shipmentsAlone({}, {apiToken: 'a-token-of-sixteen-or-more'})
    expect((await app.request('/health/live')).status).toBe(200)
    expect((await app.request('/health/ready')).status).toBe(200)
    expect((await app.request('/shipments/SHP-9/unified')).status).toBe(401)
  })

  it('takes every store setting from JOBAGENT_SHIPMENT_* variables and refuses a bad one under its name', async () => {
    const {context} = await shipmentsAlone(
      {
        JOBAGENT_SHIPMENT_METADATA_TABLE: 'fleet',
        JOBAGENT_SHIPMENT_METADATA_ID_COLUMN: 'fleet_id',
        JOBAGENT_SHIPMENT_METADATA_POOL_SIZE: '7',
        JOBAGENT_SHIPMENT_TELEMETRY_COLLECTION: 'positions',
        JOBAGENT_SHIPMENT_TELEMETRY_ID_FIELD: 'fleet_id',
        JOBAGENT_SHIPMENT_TELEMETRY_TIME_FIELD: 'at',
        JOBAGENT_SHIPMENT_TELEMETRY_TIMEOUT_MS: '900',
        JOBAGENT_SHIPMENT_STALE_AFTER_SECONDS: '60',
        JOBAGENT_SHIPMENT_EVENTS_INTERVAL_MS: '250',
        JOBAGENT_LOG_LEVEL: 'warning',
      },
      {},
      {seed: false},
    )
    expect(context.config.shipments).toMatchObject({
      metadata: {table: 'fleet', id_column: 'fleet_id', pool_size: 7},
      telemetry: {collection: 'positions', id_field: 'fleet_id', time_field: 'at', timeout_ms: 900},
      stale_after_seconds: 60,
      events: {interval_ms: 250},
    })
    expect(context.config.server.log_level).toBe('WARNING')
    expect(() => new AppContext({env: {JOBAGENT_HOME: ROOT, JOBAGENT_SHIPMENT_METADATA_POOL_SIZE: 'many'}})).toThrow(
      /^JOBAGENT_SHIPMENT_METADATA_POOL_SIZE is not valid: /,
    )
    expect(
      () => new AppContext({env: {JOBAGENT_HOME: ROOT, JOBAGENT_SHIPMENT_TELEMETRY_URL: 'https://user:pw@x/y'}}),
    ).toThrow(/^JOBAGENT_SHIPMENT_TELEMETRY_URL is not valid: must be a sqlite:\/\/, postgres:\/\//)
    expect(() => new AppContext({env: {JOBAGENT_HOME: ROOT, JOBAGENT_LOG_LEVEL: 'loud'}})).toThrow(
      'JOBAGENT_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got "loud"',
    )
  })
})

describe('GET /health/ready with the job side', () => {
  it('checks the tracker database, and the shipment stores once they are in use', async () => {
    const work = tempDir('jobagent-ready-')
    const context = new AppContext({env: {JOBAGENT_HOME: work.path}})
    cleanups.push(async () => {
      await context.close()
      work.cleanup()
    })
    const app = createHttpApp(createHttpServices(context, await loadSliceHttp()), {logger: memoryLogger().logger})
    const response = await app.request('/health/ready')
    expect(response.status).toBe(200)
    expect(Object.keys((await json(response)).checks)).toEqual(['tracker_database'])
  })
})
