import pg from 'pg'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ConfigurationError, UnavailableError} from '../../../../src/core/errors.js'
import {silentLogger} from '../../../../src/core/logger.js'
import {createPostgresPool} from '../../../../src/shipments/storage/postgres/pool.js'
import {PostgresShipmentMetadataStore} from '../../../../src/shipments/storage/postgres/shipment-metadata-store.js'
import {PostgresTelemetryStore} from '../../../../src/shipments/storage/postgres/shipment-telemetry-store.js'
import {
  PostgresShipmentMetadataWriter,
  PostgresTelemetryWriter,
} from '../../../../src/shipments/storage/postgres/shipment-writers.js'
import {telemetryBatchSql} from '../../../../src/shipments/storage/shipment-sql.js'
import {createTestDatabase, testPostgresUrl} from '../../../helpers/postgres.js'

const serverUrl = await testPostgresUrl()
if (!serverUrl) {
  console.log(
    'PostgreSQL shipment store tests skipped: set JOBAGENT_TEST_POSTGRES_URL or run a server on 127.0.0.1:5432',
  )
}

const fields = {idField: 'shipment_id', timeField: 'recorded_at'}
const signal = new AbortController().signal
const common = {poolSize: 4, timeoutMs: 5000, logger: silentLogger}

describe.skipIf(!serverUrl)('PostgreSQL shipment stores', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  let url: string
  let admin: pg.Client
  const open: {close(): Promise<void>}[] = []
  const track = <T extends {close(): Promise<void>}>(store: T): T => {
    open.push(store)
    return store
  }
  const metadataStore = (table = 'shipments', idColumn = 'shipment_id') =>
    track(new PostgresShipmentMetadataStore({url, table, idColumn, ...common}))
  const telemetryStore = (table = 'telemetry', f = fields) =>
    track(new PostgresTelemetryStore({url, table, ...f, ...common}))

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl as string)
    url = database.url
    admin = new pg.Client({connectionString: url})
    await admin.connect()
    await track(
      new PostgresShipmentMetadataWriter({url, table: 'shipments', idColumn: 'shipment_id', ...common}),
    ).upsert([
      {shipment_id: 'S1', origin: 'Rotterdam', weight_kg: 1840, fragile: true, dims: {w: 1}},
      {shipment_id: 'S2', origin: 'Oslo', weight_kg: null, fragile: false, dims: ['a']},
    ])
  })
  afterAll(async () => {
    for (const store of open.splice(0)) await store.close()
    await admin?.end()
    await database?.drop()
  })

  it('creates the metadata table with types from the values and returns every column', async () => {
    expect(await metadataStore().findById('S1', signal)).toEqual({
      shipment_id: 'S1',
      origin: 'Rotterdam',
      weight_kg: 1840,
      fragile: true,
      dims: {w: 1},
    })
    const types = await admin.query(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'shipments' ORDER BY ordinal_position",
    )
    expect(types.rows.map((row) => `${row.column_name} ${row.data_type}`)).toEqual([
      'shipment_id text',
      'origin text',
      'weight_kg double precision',
      'fragile boolean',
      'dims jsonb',
    ])
    expect(await metadataStore().findById('nope', signal)).toBeNull()
  })

  it('upserts by id and reports what was added and what updated', async () => {
    const writer = track(
      new PostgresShipmentMetadataWriter({url, table: 'shipments', idColumn: 'shipment_id', ...common}),
    )
    expect(
      await writer.upsert([{shipment_id: 'S2', origin: 'Bergen', carrier: 'Nordline'}, {shipment_id: 'S3'}]),
    ).toEqual({
      inserted: 1,
      updated: 1,
    })
    expect(await metadataStore().findById('S2', signal)).toMatchObject({
      origin: 'Bergen',
      carrier: 'Nordline',
      fragile: false,
    })
  })

  it('appends telemetry, stores the same id and time once, and returns the latest as ISO 8601 UTC', async () => {
    const writer = track(new PostgresTelemetryWriter({url, table: 'telemetry', ...fields, ...common}))
    const outcome = await writer.append([
      {id: 'S1', recorded_at: '2026-03-01T10:00:00.000Z', payload: {lat: 1}},
      {id: 'S1', recorded_at: '2026-03-01T12:00:00.000Z', payload: {lat: 2, nested: {ok: true}}},
      {id: 'S1', recorded_at: '2026-03-01T12:00:00.000Z', payload: {lat: 'repeat'}},
      {id: 'S1', recorded_at: '2026-03-01T11:00:00.000Z', payload: {lat: 3}},
    ])
    expect(outcome).toEqual({inserted: 3, duplicates: 1})
    expect(await writer.append([{id: 'S1', recorded_at: '2026-03-01T10:00:00.000Z', payload: {}}])).toEqual({
      inserted: 0,
      duplicates: 1,
    })
    expect(await telemetryStore().latest('S1', signal)).toEqual({
      recorded_at: '2026-03-01T12:00:00.000Z',
      payload: {lat: 2, nested: {ok: true}},
    })
    expect(await telemetryStore().latest('S2', signal)).toBeNull()
  })

  it('finds the latest document through the (id, time desc) index, as EXPLAIN shows', async () => {
    await admin.query(`INSERT INTO telemetry (shipment_id, recorded_at, document)
      SELECT 'B' || (n % 2000), timestamptz '2026-01-01' + n * interval '1 minute', '{}'::jsonb
        FROM generate_series(1, 20000) AS n`)
    await admin.query('ANALYZE telemetry')
    const plan = await admin.query(
      `EXPLAIN SELECT "recorded_at" AS time, "document" AS document FROM "telemetry" WHERE "shipment_id" = 'B7' ORDER BY "recorded_at" DESC LIMIT 1`,
    )
    const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n')
    expect(text).toMatch(/Index Scan using telemetry_shipment_id_recorded_at on telemetry/)
    expect(text).not.toMatch(/Sort|Seq Scan/)
    expect(await telemetryStore().checkIndex()).toEqual({
      ok: true,
      message: 'lookups use index telemetry_shipment_id_recorded_at',
    })
    expect(await metadataStore().checkIndex()).toEqual({ok: true, message: 'lookups use index shipments_pkey'})
  })

  it('reports a missing index with the statement that creates it, and a missing table as such', async () => {
    await admin.query('CREATE TABLE bare (shipment_id text, recorded_at timestamptz, document jsonb)')
    expect(await telemetryStore('bare').checkIndex()).toEqual({
      ok: false,
      message: 'no index on bare (shipment_id, recorded_at DESC): every lookup scans the table',
      hint: 'CREATE UNIQUE INDEX IF NOT EXISTS "bare_shipment_id_recorded_at" ON "bare" ("shipment_id", "recorded_at" DESC)',
    })
    expect(await telemetryStore('absent').checkIndex()).toEqual({
      ok: false,
      message: 'table absent does not exist: nothing is found until it is created (jobagent shipment import does that)',
    })
    expect(await telemetryStore('absent').latest('S1', signal)).toBeNull()
    await expect(metadataStore('absent').findById('S1', signal)).rejects.toThrow(UnavailableError)
    expect(await metadataStore('absent').checkIndex()).toEqual({
      ok: false,
      message: 'table absent does not exist: nothing is found until it is created (jobagent shipment import does that)',
    })
  })

  it('reports a missing metadata index with a statement that creates it', async () => {
    await admin.query('CREATE TABLE bare_shipments (shipment_id text, origin text)')
    const missing = await metadataStore('bare_shipments').checkIndex()
    expect(missing).toEqual({
      ok: false,
      message: 'no index on bare_shipments (shipment_id): every lookup scans the table',
      hint: 'CREATE UNIQUE INDEX "bare_shipments_shipment_id" ON "bare_shipments" ("shipment_id")',
    })
    await admin.query(missing.hint ?? '')
    expect(await metadataStore('bare_shipments').checkIndex()).toEqual({
      ok: true,
      message: 'lookups use index bare_shipments_shipment_id',
    })
  })

  it('reads a list of shipments in one statement per store: ANY for the rows, LATERAL through the index for the latest', async () => {
    const ids = ['B7', 'S1', 'nope', 'S2']
    const rows = await metadataStore().findByIds(ids, signal)
    expect([...rows.keys()].sort()).toEqual(['S1', 'S2'])
    expect(rows.get('S1')).toMatchObject({origin: 'Rotterdam', dims: {w: 1}})
    const latest = await telemetryStore().latestByIds(ids, signal)
    expect(latest.get('S1')).toEqual({recorded_at: '2026-03-01T12:00:00.000Z', payload: {lat: 2, nested: {ok: true}}})
    expect(latest.get('B7')?.recorded_at).toMatch(/^2026-01-/)
    expect([...latest.keys()].sort()).toEqual(['B7', 'S1'])
    expect(await telemetryStore('absent').latestByIds(ids, signal)).toEqual(new Map())
    const plan = await admin.query(`EXPLAIN ${telemetryBatchSql({table: 'telemetry', ...fields}, 'postgres')}`, [ids])
    const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n')
    expect(text).toMatch(/Index Scan using telemetry_shipment_id_recorded_at on telemetry/)
    expect(text).not.toMatch(/Sort|Seq Scan on telemetry/)
  })

  it('reads times stored as timestamptz, timestamp, epoch seconds, epoch milliseconds or text', async () => {
    const noon = '2026-03-01T12:00:00.000Z'
    const cases: [string, string, unknown][] = [
      ['t_tz', 'timestamptz', '2026-03-01T13:00:00+01:00'],
      ['t_naive', 'timestamp', '2026-03-01 12:00:00'],
      ['t_seconds', 'bigint', 1772366400],
      ['t_millis', 'bigint', 1772366400000],
      ['t_text', 'text', '2026-03-01T12:00:00Z'],
    ]
    for (const [table, type, value] of cases) {
      await admin.query(`CREATE TABLE ${table} (shipment_id text, recorded_at ${type}, document jsonb)`)
      await admin.query(`INSERT INTO ${table} VALUES ('S1', $1, '{"shipment_id": "S1", "_id": 1, "v": 1}')`, [value])
      expect(await telemetryStore(table).latest('S1', signal), table).toEqual({recorded_at: noon, payload: {v: 1}})
    }
  })

  it('answers null for an id the id column type cannot hold', async () => {
    await admin.query('CREATE TABLE numbered (id integer PRIMARY KEY, name text)')
    await admin.query("INSERT INTO numbered VALUES (42, 'x')")
    expect(await metadataStore('numbered', 'id').findById('42', signal)).toEqual({id: 42, name: 'x'})
    expect(await metadataStore('numbered', 'id').findById('SHP-1', signal)).toBeNull()
    const rows = await metadataStore('numbered', 'id').findByIds(['SHP-1', '42'], signal)
    expect([...rows]).toEqual([['42', {id: 42, name: 'x'}]])
  })

  it('serves from read-only sessions', async () => {
    const pool = createPostgresPool({url, poolSize: 1, timeoutMs: 5000, readOnly: true, logger: silentLogger})
    try {
      await expect(pool.query("INSERT INTO shipments (shipment_id) VALUES ('X')")).rejects.toThrow(
        /read-only transaction/,
      )
    } finally {
      await pool.end()
    }
  })

  it('refuses to upsert into a table whose id column is not unique', async () => {
    await admin.query('CREATE TABLE loose (shipment_id text, origin text)')
    const writer = track(new PostgresShipmentMetadataWriter({url, table: 'loose', idColumn: 'shipment_id', ...common}))
    await expect(writer.upsert([{shipment_id: 'S1', origin: 'x'}])).rejects.toThrow(ConfigurationError)
  })
})
