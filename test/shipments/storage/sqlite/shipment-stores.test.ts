import {existsSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {ConfigurationError, UnavailableError} from '../../../../src/core/errors.js'
import {metadataBatchSql, telemetryBatchSql} from '../../../../src/shipments/storage/shipment-sql.js'
import {ReadOnlyShipmentDatabase} from '../../../../src/shipments/storage/sqlite/shipment-database.js'
import {SqliteShipmentMetadataStore} from '../../../../src/shipments/storage/sqlite/shipment-metadata-store.js'
import {SqliteTelemetryStore} from '../../../../src/shipments/storage/sqlite/shipment-telemetry-store.js'
import {
  SqliteShipmentMetadataWriter,
  SqliteTelemetryWriter,
} from '../../../../src/shipments/storage/sqlite/shipment-writers.js'
import {tempDir} from '../../../helpers/cli.js'

const fields = {idField: 'shipment_id', timeField: 'recorded_at'}
const signal = new AbortController().signal

describe('SQLite shipment stores', () => {
  let dir: ReturnType<typeof tempDir>
  let file: string
  const open: {close(): Promise<void>}[] = []
  const track = <T extends {close(): Promise<void>}>(store: T): T => {
    open.push(store)
    return store
  }
  const metadataStore = (table = 'shipments', idColumn = 'shipment_id') =>
    track(new SqliteShipmentMetadataStore({file, table, idColumn}))
  const telemetryStore = (table = 'telemetry', f = fields) => track(new SqliteTelemetryStore({file, table, ...f}))

  beforeEach(() => {
    dir = tempDir('jobagent-shipments-')
    file = join(dir.path, 'shipments.db')
  })
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close()
    dir.cleanup()
  })

  async function importSample() {
    const metadata = track(new SqliteShipmentMetadataWriter({file, table: 'shipments', idColumn: 'shipment_id'}))
    await metadata.upsert([
      {shipment_id: 'S1', origin: 'Rotterdam', weight_kg: 1840, fragile: true, dims: {w: 1}},
      {shipment_id: 'S2', origin: 'Oslo'},
    ])
    const telemetry = track(new SqliteTelemetryWriter({file, table: 'telemetry', ...fields}))
    return telemetry.append([
      {id: 'S1', recorded_at: '2026-03-01T10:00:00.000Z', payload: {lat: 1}},
      {id: 'S1', recorded_at: '2026-03-01T12:00:00.000Z', payload: {lat: 2, nested: {ok: true}}},
      {id: 'S1', recorded_at: '2026-03-01T11:00:00.000Z', payload: {lat: 3}},
      {id: 'S1', recorded_at: '2026-03-01T12:00:00.000Z', payload: {lat: 'again'}},
    ])
  }

  it('returns every column of the metadata row and the latest telemetry document', async () => {
    expect(await importSample()).toEqual({inserted: 3, duplicates: 1})
    expect(await metadataStore().findById('S1', signal)).toEqual({
      shipment_id: 'S1',
      origin: 'Rotterdam',
      weight_kg: 1840,
      fragile: true,
      dims: {w: 1},
    })
    expect(await telemetryStore().latest('S1', signal)).toEqual({
      recorded_at: '2026-03-01T12:00:00.000Z',
      payload: {lat: 2, nested: {ok: true}},
    })
  })

  it('reads metadata back with the JSON types it was imported with, in a single and a batch lookup', async () => {
    const imported = [
      {shipment_id: 'S1', fragile: true, dims: {w: 1, h: [2, 3]}, tags: ['a'], mixed: 'x', code: '00123', n: 1.5},
      {shipment_id: 'S2', fragile: false, dims: null, tags: [], mixed: 2, code: '7', n: 2},
      {shipment_id: 'S3', fragile: null, dims: {}, tags: ['12'], mixed: {deep: true}, code: null, n: null},
    ]
    const writer = track(new SqliteShipmentMetadataWriter({file, table: 'shipments', idColumn: 'shipment_id'}))
    await writer.upsert(imported)
    const store = metadataStore()
    for (const row of imported) expect(await store.findById(row.shipment_id, signal)).toStrictEqual(row)
    const batch = await store.findByIds(['S1', 'S2', 'S3'], signal)
    expect(imported.map((row) => batch.get(row.shipment_id))).toStrictEqual(imported)
    // A later import of other values into those columns reads back as it was imported too.
    await writer.upsert([{shipment_id: 'S2', fragile: true, dims: 'text now', mixed: [1], extra: {added: 1}}])
    expect(await metadataStore().findById('S2', signal)).toStrictEqual({
      ...imported[1],
      fragile: true,
      dims: 'text now',
      mixed: [1],
      extra: {added: 1},
    })
  })

  it('shows a column named __proto__ as the data it is', async () => {
    const row = JSON.parse('{"shipment_id": "S1", "__proto__": "kept", "origin": "Oslo"}')
    const writer = track(new SqliteShipmentMetadataWriter({file, table: 'shipments', idColumn: 'shipment_id'}))
    await writer.upsert([row])
    const found = await metadataStore().findById('S1', signal)
    expect(Object.keys(found ?? {})).toEqual(['shipment_id', '__proto__', 'origin'])
    expect(JSON.stringify(found)).toBe('{"shipment_id":"S1","__proto__":"kept","origin":"Oslo"}')
    expect(Object.getPrototypeOf(found)).toBe(Object.prototype)
    const batch = await metadataStore().findByIds(['S1'], signal)
    expect(JSON.stringify(batch.get('S1'))).toBe('{"shipment_id":"S1","__proto__":"kept","origin":"Oslo"}')
  })

  it('answers null for an unknown shipment and for one without telemetry', async () => {
    await importSample()
    expect(await metadataStore().findById('nope', signal)).toBeNull()
    expect(await telemetryStore().latest('S2', signal)).toBeNull()
  })

  it('finds the latest document through the (id, time desc) index, as EXPLAIN QUERY PLAN shows', async () => {
    await importSample()
    const db = new Database(file, {readonly: true})
    const plan = db
      .prepare(
        'EXPLAIN QUERY PLAN SELECT "recorded_at" AS time, "document" AS document FROM "telemetry" WHERE "shipment_id" = ? ORDER BY "recorded_at" DESC LIMIT 1',
      )
      .all('S1') as {detail: string}[]
    db.close()
    // The (id, time desc) index is the table's primary key: one search, no sort.
    expect(plan.map((step) => step.detail)).toEqual(['SEARCH telemetry USING PRIMARY KEY (shipment_id=?)'])
    expect(await telemetryStore().checkIndex()).toEqual({ok: true, message: 'lookups use primary key'})
    expect(await metadataStore().checkIndex()).toEqual({ok: true, message: 'lookups use primary key'})
  })

  it('reads a list of shipments in one statement per store, through the keys', async () => {
    await importSample()
    const ids = ['S2', 'nope', 'S1']
    const rows = await metadataStore().findByIds(ids, signal)
    expect([...rows.keys()].sort()).toEqual(['S1', 'S2'])
    expect(rows.get('S2')).toEqual({shipment_id: 'S2', origin: 'Oslo', weight_kg: null, fragile: null, dims: null})
    const latest = await telemetryStore().latestByIds(ids, signal)
    expect([...latest]).toEqual([
      ['S1', {recorded_at: '2026-03-01T12:00:00.000Z', payload: {lat: 2, nested: {ok: true}}}],
    ])
    expect(await telemetryStore('absent').latestByIds(ids, signal)).toEqual(new Map())
    const db = new Database(file, {readonly: true})
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('["S1"]') as {detail: string}[]).map((step) => step.detail)
    const names = {table: 'telemetry', ...fields}
    const telemetryPlan = plan(telemetryBatchSql(names, 'sqlite'))
    const metadataPlan = plan(metadataBatchSql({table: 'shipments', idColumn: 'shipment_id'}, 'sqlite'))
    db.close()
    // One key search per id for the latest time and one for its document: no scan of a shipment's documents, no sort.
    expect(telemetryPlan.filter((step) => /^SCAN (?!ids)|TEMP B-TREE/.test(step))).toEqual([])
    expect(telemetryPlan.filter((step) => step.startsWith('SEARCH'))).toEqual([
      'SEARCH t USING PRIMARY KEY (shipment_id=? AND recorded_at=?)',
      'SEARCH telemetry USING PRIMARY KEY (shipment_id=?)',
    ])
    expect(metadataPlan).toContain('SEARCH shipments USING PRIMARY KEY (shipment_id=?)')
  })

  it('uses a separate (id, time desc) index of a table made by other tools', async () => {
    const db = new Database(file)
    db.exec('CREATE TABLE telemetry (shipment_id TEXT, recorded_at TEXT, document TEXT)')
    db.exec('CREATE INDEX by_time ON telemetry (shipment_id, recorded_at DESC)')
    db.close()
    expect(await telemetryStore().checkIndex()).toEqual({ok: true, message: 'lookups use index by_time'})
  })

  it('adds the unique index when importing into such a table without one', async () => {
    const db = new Database(file)
    db.exec('CREATE TABLE telemetry (shipment_id TEXT, recorded_at TEXT, document TEXT)')
    db.close()
    const writer = track(new SqliteTelemetryWriter({file, table: 'telemetry', ...fields}))
    const record = {id: 'S1', recorded_at: '2026-03-01T12:00:00.000Z', payload: {}}
    expect(await writer.append([record, record])).toEqual({inserted: 1, duplicates: 1})
    expect(await telemetryStore().checkIndex()).toEqual({
      ok: true,
      message: 'lookups use index telemetry_shipment_id_recorded_at',
    })
  })

  it('reports a missing index with the statement that creates it', async () => {
    const db = new Database(file)
    db.exec('CREATE TABLE telemetry (shipment_id TEXT, recorded_at TEXT, document TEXT)')
    db.exec('CREATE TABLE shipments (shipment_id TEXT, origin TEXT)')
    db.close()
    expect(await telemetryStore().checkIndex()).toEqual({
      ok: false,
      message: 'no index on telemetry (shipment_id, recorded_at DESC): every lookup scans the table',
      hint: 'CREATE UNIQUE INDEX IF NOT EXISTS "telemetry_shipment_id_recorded_at" ON "telemetry" ("shipment_id", "recorded_at" DESC)',
    })
    const missing = await metadataStore().checkIndex()
    expect(missing).toEqual({
      ok: false,
      message: 'no index on shipments (shipment_id): every lookup scans the table',
      hint: 'CREATE UNIQUE INDEX "shipments_shipment_id" ON "shipments" ("shipment_id")',
    })
    const writable = new Database(file)
    writable.exec(missing.hint ?? '')
    writable.close()
    expect(await metadataStore().checkIndex()).toEqual({ok: true, message: 'lookups use index shipments_shipment_id'})
  })

  it('reads times stored as epoch seconds, epoch milliseconds or text as ISO 8601 UTC', async () => {
    const db = new Database(file)
    db.exec('CREATE TABLE seconds (shipment_id TEXT, recorded_at INTEGER, document TEXT)')
    db.exec('CREATE TABLE millis (shipment_id TEXT, recorded_at INTEGER, document TEXT)')
    db.exec('CREATE TABLE naive (shipment_id TEXT, recorded_at TEXT, document TEXT)')
    db.prepare('INSERT INTO seconds VALUES (?, ?, ?), (?, ?, ?)').run('S1', 1772366400, '{}', 'S1', 1772362800, '{}')
    db.prepare('INSERT INTO millis VALUES (?, ?, ?)').run('S1', 1772366400000, '{"a":1}')
    db.prepare('INSERT INTO naive VALUES (?, ?, ?)').run('S1', '2026-03-01 12:00:00', '{"shipment_id":"S1","_id":"x"}')
    db.close()
    const noon = '2026-03-01T12:00:00.000Z'
    expect(await telemetryStore('seconds').latest('S1', signal)).toEqual({recorded_at: noon, payload: {}})
    expect(await telemetryStore('millis').latest('S1', signal)).toEqual({recorded_at: noon, payload: {a: 1}})
    expect(await telemetryStore('naive').latest('S1', signal)).toEqual({recorded_at: noon, payload: {}})
  })

  it('upserts metadata by id, adding the columns a later file brings', async () => {
    await importSample()
    const writer = track(new SqliteShipmentMetadataWriter({file, table: 'shipments', idColumn: 'shipment_id'}))
    expect(
      await writer.upsert([{shipment_id: 'S2', origin: 'Bergen', carrier: 'Nordline'}, {shipment_id: 'S3'}]),
    ).toEqual({
      inserted: 1,
      updated: 1,
    })
    expect(await metadataStore().findById('S2', signal)).toEqual({
      shipment_id: 'S2',
      origin: 'Bergen',
      weight_kg: null,
      fragile: null,
      dims: null,
      carrier: 'Nordline',
    })
  })

  it('uses the configured table and field names', async () => {
    const custom = {idField: 'device', timeField: 'ts'}
    await track(new SqliteTelemetryWriter({file, table: 'readings', ...custom})).append([
      {id: 'D1', recorded_at: '2026-03-01T12:00:00.000Z', payload: {v: 1}},
    ])
    const store = telemetryStore('readings', custom)
    expect(await store.latest('D1', signal)).toEqual({recorded_at: '2026-03-01T12:00:00.000Z', payload: {v: 1}})
    expect((await store.checkIndex()).ok).toBe(true)
  })

  it('is unavailable, with a hint to import, while the file does not exist, and does not create it', async () => {
    const store = metadataStore()
    await expect(store.findById('S1', signal)).rejects.toThrow(UnavailableError)
    await expect(store.ping()).rejects.toThrow(/does not exist/)
    expect(existsSync(file)).toBe(false)
  })

  it('has no telemetry while its table is missing, and serves it once an import created it', async () => {
    new Database(file).close()
    const store = telemetryStore()
    expect(await store.latest('S1', signal)).toBeNull()
    expect(await store.checkIndex()).toEqual({
      ok: false,
      message:
        'table telemetry does not exist: nothing is found until it is created (jobagent shipment import does that)',
    })
    await importSample()
    expect(await store.latest('S1', signal)).toMatchObject({recorded_at: '2026-03-01T12:00:00.000Z'})
  })

  it('is unavailable while the metadata table is missing, with a hint to import', async () => {
    new Database(file).close()
    await expect(metadataStore().findById('S1', signal)).rejects.toThrow(/no such table: shipments/)
  })

  it('serves from a read-only connection that refuses writes', async () => {
    await importSample()
    const database = new ReadOnlyShipmentDatabase(file)
    try {
      expect(database.statement('SELECT count(*) FROM shipments', 'shipments').pluck().get()).toBe(2)
      const insert = database.statement("INSERT INTO shipments (shipment_id) VALUES ('X')", 'shipments')
      expect(() => insert.run()).toThrow(/readonly/)
    } finally {
      database.close()
    }
  })

  it('refuses a table or field name that is not a plain identifier', () => {
    expect(() => metadataStore('shipments; DROP TABLE x')).toThrow(ConfigurationError)
    expect(() => telemetryStore('telemetry', {idField: 'id"', timeField: 'ts'})).toThrow(ConfigurationError)
  })

  it('refuses to upsert into a table whose id column is not unique, with the fix', async () => {
    const db = new Database(file)
    db.exec('CREATE TABLE shipments (shipment_id TEXT, origin TEXT)')
    db.close()
    const writer = track(new SqliteShipmentMetadataWriter({file, table: 'shipments', idColumn: 'shipment_id'}))
    await expect(writer.upsert([{shipment_id: 'S1', origin: 'x'}])).rejects.toThrow(ConfigurationError)
  })
})
