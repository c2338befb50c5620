import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {loadConfig} from '../../../src/app/config.js'
import {AppContext} from '../../../src/app/context.js'
import {ConfigurationError, UnavailableError} from '../../../src/core/errors.js'
import {silentLogger} from '../../../src/core/logger.js'
import {
  createShipmentService,
  type ShipmentsConfig,
  shipmentWriters,
  sqliteFile,
  storeScheme,
} from '../../../src/shipments/app/shipments.js'
import {shipmentSlice} from '../../../src/shipments/app/slice.js'
import type {ShipmentService} from '../../../src/shipments/core/shipment-service.js'
import {tempDir} from '../../helpers/cli.js'
import {closedPort, shipmentTestApp, silentServer} from '../../helpers/shipments.js'

function config(overrides: {
  metadata?: Partial<ShipmentsConfig['metadata']>
  telemetry?: Partial<ShipmentsConfig['telemetry']>
}) {
  const base: ShipmentsConfig = {
    metadata: {
      url: 'sqlite:///tmp/none.db',
      table: 'shipments',
      id_column: 'shipment_id',
      pool_size: 2,
      timeout_ms: 2000,
    },
    telemetry: {
      url: 'sqlite:///tmp/none.db',
      collection: 'telemetry',
      id_field: 'shipment_id',
      time_field: 'recorded_at',
      pool_size: 2,
      timeout_ms: 2000,
    },
    stale_after_seconds: 900,
    events: {interval_ms: 1000, max_streams: 1000},
  }
  return {
    ...base,
    metadata: {...base.metadata, ...overrides.metadata},
    telemetry: {...base.telemetry, ...overrides.telemetry},
  }
}

describe('shipment store wiring', () => {
  it('chooses the store by URL scheme', () => {
    expect(storeScheme('sqlite:///x.db', 'k')).toBe('sqlite')
    expect(storeScheme('postgres://h/db', 'k')).toBe('postgres')
    expect(storeScheme('postgresql://h/db', 'k')).toBe('postgres')
    expect(storeScheme('mongodb://h/db', 'k')).toBe('mongodb')
    expect(storeScheme('mongodb+srv://cluster/db', 'k')).toBe('mongodb')
    expect(storeScheme('mysql://h/db', 'k')).toBe('mysql')
    expect(storeScheme('mariadb://h/db', 'k')).toBe('mysql')
    expect(() => storeScheme('oracle://h/db', 'shipments.metadata.url')).toThrow(
      'shipments.metadata.url must start with sqlite://, postgres://, mysql://, mariadb:// or mongodb:// (got oracle)',
    )
  })

  it('reads absolute, relative and home-relative SQLite paths', () => {
    expect(sqliteFile('sqlite:///var/lib/s.db')).toBe('/var/lib/s.db')
    expect(sqliteFile('sqlite://data/s.db')).toBe(join(process.cwd(), 'data/s.db'))
    expect(sqliteFile('sqlite://~/s.db')).toMatch(/\/s\.db$/)
  })

  it('builds each kind of store from the config', async () => {
    const cases: [Parameters<typeof config>[0], object][] = [
      [{}, {metadata: 'sqlite', telemetry: 'sqlite'}],
      [
        {metadata: {url: 'postgres://127.0.0.1/x'}, telemetry: {url: 'postgresql://127.0.0.1/x'}},
        {metadata: 'postgres', telemetry: 'postgres'},
      ],
      [{telemetry: {url: 'mongodb://127.0.0.1/x'}}, {metadata: 'sqlite', telemetry: 'mongodb'}],
      [{metadata: {url: 'mysql://127.0.0.1/x'}}, {metadata: 'mysql', telemetry: 'sqlite'}],
      [{metadata: {url: 'mariadb://127.0.0.1/x'}}, {metadata: 'mysql', telemetry: 'sqlite'}],
    ]
    for (const [overrides, sources] of cases) {
      const service = createShipmentService(config(overrides), {logger: silentLogger})
      expect(service.sources).toEqual(sources)
      await service.close()
    }
  })

  it('serves metadata and telemetry from two SQLite files as well as from one', async () => {
    const dir = tempDir()
    try {
      const two = config({
        metadata: {url: `sqlite://${join(dir.path, 'meta.db')}`},
        telemetry: {url: `sqlite://${join(dir.path, 'tele.db')}`},
      })
      const metadata = shipmentWriters.metadata(two, silentLogger)
      await metadata.upsert([{shipment_id: 'S1', origin: 'Oslo'}])
      await metadata.close()
      const telemetry = shipmentWriters.telemetry(two, silentLogger)
      await telemetry.append([{id: 'S1', recorded_at: '2026-03-01T12:00:00.000Z', payload: {v: 1}}])
      await telemetry.close()
      const service = createShipmentService(two, {logger: silentLogger})
      try {
        expect(await service.unified('S1')).toMatchObject({metadata: {origin: 'Oslo'}, telemetry: {payload: {v: 1}}})
      } finally {
        await service.close()
      }
    } finally {
      dir.cleanup()
    }
  })

  it('refuses MongoDB for metadata', () => {
    expect(() => createShipmentService(config({metadata: {url: 'mongodb://h/x'}}), {logger: silentLogger})).toThrow(
      ConfigurationError,
    )
  })

  it('refuses MySQL for telemetry, naming the key', () => {
    expect(() => createShipmentService(config({telemetry: {url: 'mysql://h/x'}}), {logger: silentLogger})).toThrow(
      'shipments.telemetry.url must be a sqlite://, postgres:// or mongodb:// URL (MySQL holds metadata only)',
    )
  })

  it.each([
    ['shipments.metadata.table', {metadata: {table: 'ships; DROP TABLE x'}}],
    ['shipments.metadata.id_column', {metadata: {id_column: 'id"'}}],
    ['shipments.telemetry.collection', {telemetry: {collection: 'tele-metry'}}],
    ['shipments.telemetry.id_field', {telemetry: {id_field: '$where'}}],
    ['shipments.telemetry.time_field', {telemetry: {time_field: 'meta.ts'}}],
  ])('refuses an unsafe name in %s, naming the key', (key, overrides) => {
    expect(() => createShipmentService(config(overrides), {logger: silentLogger})).toThrow(
      new RegExp(`^${key.replaceAll('.', '\\.')} `),
    )
  })

  it('takes the store URLs from JOBAGENT_SHIPMENT_METADATA_URL and JOBAGENT_SHIPMENT_TELEMETRY_URL', () => {
    const dir = tempDir()
    try {
      const {config: loaded} = loadConfig({
        env: {
          JOBAGENT_HOME: dir.path,
          JOBAGENT_SHIPMENT_METADATA_URL: 'postgres://db/fleet',
          JOBAGENT_SHIPMENT_TELEMETRY_URL: 'mongodb://db/fleet',
        },
      })
      expect(loaded.shipments.metadata.url).toBe('postgres://db/fleet')
      expect(loaded.shipments.telemetry.url).toBe('mongodb://db/fleet')
    } finally {
      dir.cleanup()
    }
  })
})

describe('AppContext.openSlice(shipmentSlice)', () => {
  it('serves the embedded store in the data directory and closes with the context', async () => {
    const dir = tempDir()
    const context = new AppContext({env: {JOBAGENT_HOME: dir.path}})
    try {
      const shipments = await context.openSlice(shipmentSlice)
      expect(await context.openSlice(shipmentSlice)).toBe(shipments)
      expect(shipments.sources).toEqual({metadata: 'sqlite', telemetry: 'sqlite'})
      const error = await shipments.unified('S1').catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(UnavailableError)
      expect((error as UnavailableError).message).toContain(join(dir.path, 'shipments.db'))
      expect((error as UnavailableError).hint).toMatch(/jobagent shipment import/)
    } finally {
      await context.close()
      dir.cleanup()
    }
  })
})

describe('unreachable and silent stores answer 503 naming the store', () => {
  const services: ShipmentService[] = []
  let silent: Awaited<ReturnType<typeof silentServer>>
  let dir: ReturnType<typeof tempDir>
  let embedded: string
  beforeEach(async () => {
    silent = await silentServer()
    // A working embedded metadata store, so the telemetry store is the one that fails.
    dir = tempDir()
    embedded = `sqlite://${join(dir.path, 'shipments.db')}`
    const writer = shipmentWriters.metadata(config({metadata: {url: embedded}}), silentLogger)
    await writer.upsert([{shipment_id: 'S1'}])
    await writer.close()
  })
  afterEach(async () => {
    await silent.close()
    for (const service of services.splice(0)) await service.close()
    dir.cleanup()
  })

  async function request(overrides: Parameters<typeof config>[0]) {
    const service = createShipmentService(config({...overrides, metadata: {url: embedded, ...overrides.metadata}}), {
      logger: silentLogger,
    })
    services.push(service)
    const response = await shipmentTestApp(service).request('/shipments/S1/unified')
    const body = (await response.json()) as {error: {message: string}}
    return {status: response.status, retryAfter: response.headers.get('retry-after'), body}
  }

  it('PostgreSQL metadata on a closed port', async () => {
    const port = await closedPort()
    const {status, retryAfter, body} = await request({metadata: {url: `postgres://u:secret@127.0.0.1:${port}/x`}})
    expect(status).toBe(503)
    expect(retryAfter).toBe('5')
    expect(body.error.message).toMatch(
      /^metadata store \(postgres\) is unavailable: PostgreSQL at 127\.0\.0\.1:\d+\/x: .*ECONNREFUSED/,
    )
    expect(body.error.message).not.toContain('secret')
  })

  it('MySQL metadata on a closed port', async () => {
    const port = await closedPort()
    const {status, retryAfter, body} = await request({metadata: {url: `mysql://u:secret@127.0.0.1:${port}/x`}})
    expect(status).toBe(503)
    expect(retryAfter).toBe('5')
    expect(body.error.message).toMatch(
      /^metadata store \(mysql\) is unavailable: MySQL at 127\.0\.0\.1:\d+\/x: .*ECONNREFUSED/,
    )
    expect(body.error.message).not.toContain('secret')
  })

  it('MariaDB metadata on a server that accepts and never answers', async () => {
    const {status, retryAfter, body} = await request({
      metadata: {url: `mariadb://127.0.0.1:${silent.port}/x`, timeout_ms: 300},
    })
    expect(status).toBe(503)
    expect(retryAfter).toBe('5')
    expect(body.error.message).toBe('metadata store (mysql) did not answer within 300 ms')
  })

  it('PostgreSQL telemetry on a server that accepts and never answers', async () => {
    const {status, retryAfter, body} = await request({
      telemetry: {url: `postgres://127.0.0.1:${silent.port}/x`, timeout_ms: 300},
    })
    expect(status).toBe(503)
    expect(retryAfter).toBe('5')
    expect(body.error.message).toBe('telemetry store (postgres) did not answer within 300 ms')
  })

  it('MongoDB telemetry on a closed port', async () => {
    const port = await closedPort()
    const {status, body} = await request({telemetry: {url: `mongodb://127.0.0.1:${port}/x`, timeout_ms: 300}})
    expect(status).toBe(503)
    expect(body.error.message).toMatch(
      /^telemetry store \(mongodb\) (did not answer within 300 ms|is unavailable: .*ECONNREFUSED)/,
    )
  })

  it('MongoDB telemetry on a server that accepts and never answers', async () => {
    const {status, body} = await request({telemetry: {url: `mongodb://127.0.0.1:${silent.port}/x`, timeout_ms: 300}})
    expect(status).toBe(503)
    expect(body.error.message).toMatch(/^telemetry store \(mongodb\) (did not answer within 300 ms|is unavailable)/)
  })

  it('health checks fail for the silent store without throwing', async () => {
    const service = createShipmentService(
      config({metadata: {url: `postgres://127.0.0.1:${silent.port}/x`, timeout_ms: 200}}),
      {
        logger: silentLogger,
      },
    )
    services.push(service)
    expect(await service.check('metadata')).toMatchObject({
      status: 'fail',
      kind: 'postgres',
      output: 'metadata store (postgres) did not answer within 200 ms',
    })
  })
})
