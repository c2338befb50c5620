import pg from 'pg'
import {afterAll, afterEach, beforeAll, describe, expect, it, vi} from 'vitest'
import {silentLogger} from '../../../../src/core/logger.js'
import {createShipmentService, type ShipmentsConfig} from '../../../../src/shipments/app/shipments.js'
import type {ShipmentService, StoreOutcome} from '../../../../src/shipments/core/shipment-service.js'
import type {StoreRole} from '../../../../src/shipments/core/store-failures.js'
import {samePostgresDatabase} from '../../../../src/shipments/storage/postgres/shipment-combined-store.js'
import {
  PostgresShipmentMetadataWriter,
  PostgresTelemetryWriter,
} from '../../../../src/shipments/storage/postgres/shipment-writers.js'
import {createTestDatabase, testPostgresUrl} from '../../../helpers/postgres.js'
import {closedPort, shipmentsConfig, shipmentTestApp} from '../../../helpers/shipments.js'

const serverUrl = await testPostgresUrl()
if (!serverUrl) {
  console.log(
    'PostgreSQL combined shipment store tests skipped: set JOBAGENT_TEST_POSTGRES_URL or run a server on 127.0.0.1:5432',
  )
}

describe('what counts as the same PostgreSQL database', () => {
  it('compares host (case aside), port (5432 by default), database, user, password and parameters', () => {
    expect(samePostgresDatabase('postgres://u@db:5432/fleet', 'postgresql://u@DB/fleet')).toBe(true)
    expect(
      samePostgresDatabase('postgres://u:p@db/fleet?sslmode=require', 'postgres://u:p@db/fleet?sslmode=require'),
    ).toBe(true)
    expect(samePostgresDatabase('postgres://u@db/fleet', 'postgres://u@db/telemetry')).toBe(false)
    expect(samePostgresDatabase('postgres://u@db/fleet', 'postgres://v@db/fleet')).toBe(false)
    expect(samePostgresDatabase('postgres://u@db/fleet', 'postgres://u@db:5433/fleet')).toBe(false)
    expect(samePostgresDatabase('postgres://u@db/fleet', 'postgres://u@other/fleet')).toBe(false)
    expect(samePostgresDatabase('postgres://u:a@db/fleet', 'postgres://u:b@db/fleet')).toBe(false)
    // A search_path in the options can make the same table name mean another table.
    expect(
      samePostgresDatabase('postgres://u@db/fleet', 'postgres://u@db/fleet?options=-c%20search_path%3Dother'),
    ).toBe(false)
    // Host names are not resolved: 127.0.0.1 and localhost are two targets.
    expect(samePostgresDatabase('postgres://u@127.0.0.1/fleet', 'postgres://u@localhost/fleet')).toBe(false)
    expect(samePostgresDatabase('not a url', 'not a url')).toBe(false)
  })
})

/** A fixed clock, so two services' answers compare equal. */
const clock = {now: () => new Date('2026-03-01T12:10:00.000Z')}

describe.skipIf(!serverUrl)('PostgreSQL metadata and telemetry in one database', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  let other: Awaited<ReturnType<typeof createTestDatabase>>
  let url: string
  /** The same database by another host name: not "the same" by its URL, so read through two pools. */
  let aliasUrl: string
  const services: ShipmentService[] = []
  const common = {timeoutMs: 5000, logger: silentLogger}

  const service = (config: ShipmentsConfig, metrics?: Parameters<ShipmentService['addMetrics']>[0]) => {
    const created = createShipmentService(config, {logger: silentLogger, clock, ...(metrics ? {metrics} : {})})
    services.push(created)
    return created
  }
  const joint = (overrides: Partial<ShipmentsConfig['metadata']> = {}) => {
    const config = shipmentsConfig(url)
    return service({...config, metadata: {...config.metadata, ...overrides}})
  }
  const separate = (overrides: Partial<ShipmentsConfig['metadata']> = {}) => {
    const config = shipmentsConfig(url, aliasUrl)
    return service({...config, metadata: {...config.metadata, ...overrides}})
  }

  async function seed(target: string, withMetadata: boolean) {
    if (withMetadata) {
      const writer = new PostgresShipmentMetadataWriter({
        url: target,
        table: 'shipments',
        idColumn: 'shipment_id',
        ...common,
      })
      await writer.upsert([
        // Columns named like the ones the joint query adds must come back as the row's own.
        {shipment_id: 'S1', origin: 'Rotterdam', time: 'row time', document: 'row document', found: 'row found'},
        {shipment_id: 'S2', origin: 'Oslo', time: null, document: null, found: null},
      ])
      await writer.close()
    }
    const telemetry = new PostgresTelemetryWriter({
      url: target,
      table: 'telemetry',
      idField: 'shipment_id',
      timeField: 'recorded_at',
      ...common,
    })
    await telemetry.append([
      {id: 'S1', recorded_at: '2026-03-01T10:00:00.000Z', payload: {lat: 1}},
      {id: 'S1', recorded_at: '2026-03-01T12:00:00.000Z', payload: {lat: 2, nested: {ok: true}}},
      {id: 'S9', recorded_at: '2026-03-01T12:00:00.000Z', payload: {orphan: true}},
    ])
    await telemetry.close()
  }

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl as string)
    other = await createTestDatabase(serverUrl as string)
    url = database.url
    const alias = new URL(url)
    alias.hostname = alias.hostname === 'localhost' ? '127.0.0.1' : 'localhost'
    aliasUrl = alias.toString()
    await seed(url, true)
    await seed(other.url, false)
    const admin = new pg.Client({connectionString: url})
    await admin.connect()
    try {
      await admin.query('CREATE TABLE numbered (shipment_id integer PRIMARY KEY, origin text)')
      await admin.query("INSERT INTO numbered VALUES (42, 'Bergen')")
      await admin.query(
        "INSERT INTO telemetry (shipment_id, recorded_at, document) VALUES ('42', '2026-03-01T11:00:00Z', '{\"n\": 42}')",
      )
    } finally {
      await admin.end()
    }
  })
  afterEach(() => {
    vi.restoreAllMocks()
  })
  afterAll(async () => {
    for (const created of services.splice(0)) await created.close()
    await database?.drop()
    await other?.drop()
  })

  /** The statements the pools send while `work` runs, with the pool each went through. */
  async function queriesDuring(work: () => Promise<unknown>): Promise<{pools: Set<pg.Pool>; texts: string[]}> {
    const pools = new Set<pg.Pool>()
    const texts: string[] = []
    const original = pg.Pool.prototype.query
    vi.spyOn(pg.Pool.prototype, 'query').mockImplementation(function (this: pg.Pool, ...args: unknown[]) {
      pools.add(this)
      const config = args[0] as string | {text: string}
      texts.push(typeof config === 'string' ? config : config.text)
      return (original as (...a: unknown[]) => unknown).apply(this, args)
    } as never)
    await work()
    vi.restoreAllMocks()
    return {pools, texts}
  }

  it('answers a lookup with one query on one pool, as the two stores answer it with two', async () => {
    const one = joint()
    const two = separate()
    await one.unified('S1')
    await two.unified('S1')
    const together = await queriesDuring(() => one.unified('S1'))
    expect(together.texts).toHaveLength(1)
    expect(together.texts[0]).toMatch(/LEFT JOIN LATERAL/)
    expect(together.pools.size).toBe(1)
    const apart = await queriesDuring(() => two.unified('S1'))
    expect(apart.texts).toHaveLength(2)
    expect(apart.pools.size).toBe(2)
  })

  it('answers a batch with one query on one pool', async () => {
    const one = joint()
    const together = await queriesDuring(() => one.unifiedBatch(['S1', 'S2', 'S3']))
    expect(together.texts).toHaveLength(1)
    expect(together.pools.size).toBe(1)
    const apart = await queriesDuring(() => separate().unifiedBatch(['S1', 'S2', 'S3']))
    expect(apart.texts).toHaveLength(2)
  })

  it('gives the same answers as the two stores: found, no telemetry, not found, batch', async () => {
    const one = joint()
    const two = separate()
    const found = await one.unified('S1')
    expect(found).toEqual(await two.unified('S1'))
    expect(found).toMatchObject({
      shipment_id: 'S1',
      metadata: {
        shipment_id: 'S1',
        origin: 'Rotterdam',
        time: 'row time',
        document: 'row document',
        found: 'row found',
      },
      telemetry: {recorded_at: '2026-03-01T12:00:00.000Z', payload: {lat: 2, nested: {ok: true}}},
      freshness: {last_seen_at: '2026-03-01T12:00:00.000Z', age_seconds: 600, stale: false},
      sources: {metadata: 'postgres', telemetry: 'postgres'},
    })
    const bare = await one.unified('S2')
    expect(bare).toEqual(await two.unified('S2'))
    expect(bare.telemetry).toBeNull()
    expect(bare.metadata).toEqual({shipment_id: 'S2', origin: 'Oslo', time: null, document: null, found: null})
    await expect(one.unified('S9')).rejects.toMatchObject({kind: 'not_found'})
    await expect(two.unified('S9')).rejects.toMatchObject({kind: 'not_found'})
    const batch = await one.unifiedBatch(['S2', 'S9', 'S1', 'S2'])
    expect(batch).toEqual(await two.unifiedBatch(['S2', 'S9', 'S1', 'S2']))
    expect(batch.shipments.map((state) => [state.shipment_id, state.telemetry?.payload ?? null])).toEqual([
      ['S2', null],
      ['S1', {lat: 2, nested: {ok: true}}],
    ])
    expect(batch.missing).toEqual(['S9'])
  })

  it('leaves a missing telemetry table and ids the id column cannot hold to the stores, with their answers', async () => {
    const config = shipmentsConfig(url)
    const noTelemetry = service({...config, telemetry: {...config.telemetry, collection: 'absent'}})
    expect((await noTelemetry.unified('S1')).telemetry).toBeNull()
    expect((await noTelemetry.unifiedBatch(['S1', 'S2'])).shipments.map((state) => state.telemetry)).toEqual([
      null,
      null,
    ])
    const noMetadata = joint({table: 'absent'})
    await expect(noMetadata.unified('S1')).rejects.toMatchObject({
      kind: 'unavailable',
      details: [{field: 'metadata'}],
    })
    const numbered = joint({table: 'numbered'})
    const fortyTwo = await numbered.unified('42')
    expect(fortyTwo).toMatchObject({metadata: {shipment_id: 42, origin: 'Bergen'}, telemetry: {payload: {n: 42}}})
    expect(fortyTwo).toEqual(await separate({table: 'numbered'}).unified('42'))
    await expect(numbered.unified('SHP-1')).rejects.toMatchObject({kind: 'not_found'})
    const batch = await numbered.unifiedBatch(['SHP-1', '42'])
    expect(batch).toEqual(await separate({table: 'numbered'}).unifiedBatch(['SHP-1', '42']))
    expect(batch.missing).toEqual(['SHP-1'])
  })

  it('keeps answering when a column is added to the metadata table while it serves', async () => {
    const admin = new pg.Client({connectionString: url})
    await admin.connect()
    try {
      await admin.query('CREATE TABLE growing (shipment_id text PRIMARY KEY, origin text)')
      await admin.query("INSERT INTO growing VALUES ('S1', 'Rotterdam')")
      const one = joint({table: 'growing'})
      const two = separate({table: 'growing'})
      const read = async () => [
        (await one.unified('S1')).metadata,
        (await one.unifiedBatch(['S1'])).shipments[0]?.metadata,
        (await two.unified('S1')).metadata,
        (await two.unifiedBatch(['S1'])).shipments[0]?.metadata,
      ]
      expect(await read()).toEqual(Array(4).fill({shipment_id: 'S1', origin: 'Rotterdam'}))
      await admin.query("ALTER TABLE growing ADD COLUMN carrier text DEFAULT 'Nordline'")
      expect(await read()).toEqual(Array(4).fill({shipment_id: 'S1', origin: 'Rotterdam', carrier: 'Nordline'}))
    } finally {
      await admin.end()
    }
  })

  it('records the one query for each store and still checks both stores', async () => {
    const recorded: [StoreRole, string, StoreOutcome][] = []
    const one = joint()
    one.addMetrics({lookup() {}, storeLatency: (role, kind, _seconds, outcome) => recorded.push([role, kind, outcome])})
    await one.unified('S1')
    await one.unifiedBatch(['S1', 'S2'])
    expect(recorded).toEqual([
      ['metadata', 'postgres', 'ok'],
      ['telemetry', 'postgres', 'ok'],
      ['metadata', 'postgres', 'ok'],
      ['telemetry', 'postgres', 'ok'],
    ])
    expect((await one.checks()).map((check) => [check.store, check.kind, check.status])).toEqual([
      ['metadata', 'postgres', 'pass'],
      ['telemetry', 'postgres', 'pass'],
    ])
    expect(await one.verifyIndexes()).toEqual({
      metadata: {ok: true, message: 'lookups use index shipments_pkey'},
      telemetry: {ok: true, message: 'lookups use index telemetry_shipment_id_recorded_at'},
    })
  })

  it('answers 503 with Retry-After naming both stores when the server is down, as two pools would', async () => {
    const down = `postgres://postgres:secret@127.0.0.1:${await closedPort()}/fleet`
    const responses = []
    for (const config of [shipmentsConfig(down), shipmentsConfig(down, down.replace('127.0.0.1', 'localhost'))]) {
      const response = await shipmentTestApp(service(config)).request('/shipments/S1/unified')
      responses.push({
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        body: (await response.json()) as {error: {message: string; details: {field: string}[]}},
      })
    }
    const [together, apart] = responses
    expect(together).toMatchObject({status: 503, retryAfter: '5'})
    expect(together?.body.error.message).toMatch(
      /^metadata store \(postgres\) is unavailable: PostgreSQL at 127\.0\.0\.1:4\/fleet: .*ECONNREFUSED/,
    )
    expect(together?.body.error.message).not.toContain('secret')
    expect(together?.body.error.details.map((detail) => detail.field)).toEqual(['metadata', 'telemetry'])
    expect(apart).toMatchObject({status: 503, retryAfter: '5'})
    expect(apart?.body.error.details.map((detail) => detail.field)).toEqual(['metadata', 'telemetry'])
    const batch = await shipmentTestApp(service(shipmentsConfig(down))).request('/shipments/unified?ids=S1,S2')
    expect(batch.status).toBe(503)
    expect(batch.headers.get('retry-after')).toBe('5')
  })

  it('sends both queries at once when the stores are in different databases', async () => {
    const two = service(shipmentsConfig(url, other.url))
    await two.unified('S1')
    const events: string[] = []
    const original = pg.Pool.prototype.query
    vi.spyOn(pg.Pool.prototype, 'query').mockImplementation(function (this: pg.Pool, ...args: unknown[]) {
      const text = (args[0] as {text: string}).text
      const role = /telemetry/.test(text) ? 'telemetry' : 'metadata'
      events.push(`${role}:sent`)
      const answer = (original as (...a: unknown[]) => Promise<unknown>).apply(this, args)
      return answer.finally(() => events.push(`${role}:answered`))
    } as never)
    const state = await two.unified('S1')
    expect(state.telemetry?.payload).toEqual({lat: 2, nested: {ok: true}})
    expect(events.slice(0, 2).sort()).toEqual(['metadata:sent', 'telemetry:sent'])
    events.length = 0
    await two.unifiedBatch(['S1', 'S2'])
    expect(events.slice(0, 2).sort()).toEqual(['metadata:sent', 'telemetry:sent'])
  })
})
