import {existsSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {ValidationError} from '../../../src/core/errors.js'
import {silentLogger} from '../../../src/core/logger.js'
import {importShipments} from '../../../src/shipments/app/shipment-import.js'
import {createShipmentService, type ShipmentsConfig} from '../../../src/shipments/app/shipments.js'
import {ROOT, tempDir} from '../../helpers/cli.js'
import {createTestMysqlDatabase, testMysqlUrl} from '../../helpers/mysql.js'
import {createTestDatabase, testPostgresUrl} from '../../helpers/postgres.js'
import {shipmentsConfig} from '../../helpers/shipments.js'

const EXAMPLES = join(ROOT, 'examples/shipments')
const metadataFile = join(EXAMPLES, 'metadata.csv')
const telemetryFile = join(EXAMPLES, 'telemetry.ndjson')

async function unified(config: ShipmentsConfig, id: string) {
  const service = createShipmentService(config, {logger: silentLogger})
  try {
    return await service.unified(id)
  } finally {
    await service.close()
  }
}

describe('importing shipments into the embedded store', () => {
  let dir: ReturnType<typeof tempDir>
  let file: string
  let config: ShipmentsConfig
  beforeEach(() => {
    dir = tempDir()
    file = join(dir.path, 'shipments.db')
    config = shipmentsConfig(`sqlite://${file}`)
  })
  afterEach(() => dir.cleanup())

  it('imports the example data set: 5 shipments, 20 documents of which one repeats', async () => {
    const outcome = await importShipments(config, {metadataFile, telemetryFile}, silentLogger)
    expect(outcome).toEqual({
      metadata: {file: metadataFile, store: 'sqlite', rows: 5, repeated_ids: 0, inserted: 5, updated: 0},
      telemetry: {
        file: telemetryFile,
        store: 'sqlite',
        documents: 20,
        inserted: 19,
        duplicates: 0,
        repeated_in_file: 1,
      },
    })
    const state = await unified(config, 'SHP-1001')
    expect(state.metadata).toMatchObject({shipment_id: 'SHP-1001', origin: 'Rotterdam, NL', weight_kg: '1840'})
    expect(state.telemetry).toEqual({
      recorded_at: '2026-03-01T14:30:00.000Z',
      payload: {lat: 53.5511, lon: 9.9937, speed_kmh: 0, temperature_c: 4, event: 'delivered'},
    })
    expect((await unified(config, 'SHP-1005')).telemetry).toBeNull()
    // Extended JSON dates, naive text and offsets all land as ISO 8601 UTC.
    expect((await unified(config, 'SHP-1003')).telemetry?.recorded_at).toBe('2026-03-02T04:00:00.000Z')
    expect((await unified(config, 'SHP-1002')).telemetry?.recorded_at).toBe('2026-03-01T18:15:00.000Z')
  })

  it('stores the same documents once when imported again, and updates metadata in place', async () => {
    await importShipments(config, {metadataFile, telemetryFile}, silentLogger)
    const again = await importShipments(config, {metadataFile, telemetryFile}, silentLogger)
    expect(again.metadata).toMatchObject({inserted: 0, updated: 5})
    expect(again.telemetry).toMatchObject({inserted: 0, duplicates: 19, repeated_in_file: 1})
    const db = new Database(file, {readonly: true})
    expect(db.prepare('SELECT count(*) FROM telemetry').pluck().get()).toBe(19)
    db.close()
  })

  it('creates the tables keyed by id and by (id, time desc)', async () => {
    await importShipments(config, {metadataFile, telemetryFile}, silentLogger)
    const db = new Database(file, {readonly: true})
    const sql = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all()
    db.close()
    expect(sql).toEqual([
      {
        name: 'shipments',
        sql: 'CREATE TABLE "shipments" ("shipment_id" TEXT PRIMARY KEY NOT NULL, "reference", "origin", "destination", "carrier", "mode", "status", "eta", "weight_kg") WITHOUT ROWID',
      },
      {
        name: 'telemetry',
        sql: 'CREATE TABLE "telemetry" ("shipment_id" TEXT NOT NULL, "recorded_at" TEXT NOT NULL, "document" TEXT NOT NULL, PRIMARY KEY ("shipment_id", "recorded_at" DESC)) WITHOUT ROWID',
      },
    ])
  })

  it('writes nothing of either file when one line of the telemetry is bad, and names the line', async () => {
    const bad = join(dir.path, 'bad.ndjson')
    writeFileSync(
      bad,
      '{"shipment_id":"S1","recorded_at":"2026-03-01T12:00:00Z"}\n{"shipment_id":"S1","recorded_at":"later"}\n',
    )
    const error = await importShipments(config, {metadataFile, telemetryFile: bad}, silentLogger).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).message).toBe(
      `${bad} is not telemetry NDJSON: 1 problem on line 2; nothing of it was imported`,
    )
    const db = new Database(file)
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get()).toBe(0)
    db.close()
  })

  it('lists the problems of both files at once, each with its file, when both are bad', async () => {
    const metadata = join(dir.path, 'm.csv')
    writeFileSync(metadata, 'shipment_id,origin\nS1,Rotterdam\n,Hamburg\n')
    const telemetry = join(dir.path, 't.ndjson')
    writeFileSync(telemetry, '{"shipment_id":"S1","recorded_at":"2026-03-01T12:00:00Z"}\nnot json\n')
    const error = await importShipments(config, {metadataFile: metadata, telemetryFile: telemetry}, silentLogger).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ValidationError)
    const {message, details} = error as ValidationError
    expect(message).toBe(
      `${metadata} is not a metadata CSV: 1 problem on line 3; nothing of it was imported; ` +
        `${telemetry} is not telemetry NDJSON: 1 problem on line 2; nothing of it was imported`,
    )
    expect(details).toEqual([
      expect.objectContaining({row: 3, field: 'shipment_id', message: 'm.csv: missing "shipment_id"'}),
      expect.objectContaining({row: 2, message: expect.stringMatching(/^t\.ndjson: not valid JSON/)}),
    ])
  })

  it('reads metadata from a JSON array', async () => {
    const json = join(dir.path, 'metadata.json')
    writeFileSync(json, JSON.stringify([{shipment_id: 'J1', weight_kg: 12.5, tags: ['cold']}]))
    await importShipments(config, {metadataFile: json}, silentLogger)
    expect((await unified(config, 'J1')).metadata).toEqual({shipment_id: 'J1', weight_kg: 12.5, tags: ['cold']})
  })

  it('serves metadata with the JSON types it was imported with, and a __proto__ column as data', async () => {
    const json = join(dir.path, 'metadata.json')
    const rows =
      '[{"shipment_id":"J1","fragile":true,"dims":{"w":1,"h":[2]},"__proto__":"kept","weight_kg":12.5,"code":"00123"},' +
      '{"shipment_id":"J2","fragile":false,"dims":null,"__proto__":null,"weight_kg":3,"code":null}]'
    writeFileSync(json, rows)
    await importShipments(config, {metadataFile: json}, silentLogger)
    const service = createShipmentService(config, {logger: silentLogger})
    try {
      expect(JSON.stringify((await service.unified('J1')).metadata)).toBe(JSON.stringify(JSON.parse(rows)[0]))
      const batch = await service.unifiedBatch(['J2', 'J1'])
      expect(JSON.stringify(batch.shipments.map((state) => state.metadata))).toBe(
        JSON.stringify([JSON.parse(rows)[1], JSON.parse(rows)[0]]),
      )
    } finally {
      await service.close()
    }
  })

  it('refuses a metadata file with more columns than a SQLite table holds, naming the file, before writing', async () => {
    const wide = join(dir.path, 'wide.csv')
    const names = Array.from({length: 2099}, (_, index) => `c${index}`)
    writeFileSync(wide, `shipment_id,${names.join(',')}\nS1,${names.map(() => 'x').join(',')}\n`)
    const error = await importShipments(config, {metadataFile: wide, telemetryFile}, silentLogger).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).message).toBe(
      `${wide} has 2100 columns; a SQLite table holds at most 2000, so nothing of it was imported`,
    )
    expect(existsSync(file)).toBe(false)
  })

  it('refuses a metadata file that would take the table over the SQLite column limit, and keeps the table', async () => {
    const csv = (name: string, columns: string[]) => {
      const path = join(dir.path, name)
      writeFileSync(path, `shipment_id,${columns.join(',')}\nS1,${columns.map(() => 'x').join(',')}\n`)
      return path
    }
    const first = Array.from({length: 1500}, (_, index) => `a${index}`)
    await importShipments(config, {metadataFile: csv('first.csv', first)}, silentLogger)
    const more = Array.from({length: 600}, (_, index) => `b${index}`)
    await expect(importShipments(config, {metadataFile: csv('more.csv', more)}, silentLogger)).rejects.toThrow(
      'table shipments has 1501 columns and the file brings 600 more; a SQLite table holds at most 2000',
    )
    expect(Object.keys((await unified(config, 'S1')).metadata)).toHaveLength(1501)
  })

  it('refuses to run without a file, and names a missing file', async () => {
    await expect(importShipments(config, {}, silentLogger)).rejects.toThrow('nothing to import')
    await expect(importShipments(config, {metadataFile: join(dir.path, 'nope.csv')}, silentLogger)).rejects.toThrow(
      /cannot read .*nope\.csv: no such file or directory/,
    )
  })
})

const serverUrl = await testPostgresUrl()
if (!serverUrl) console.log('PostgreSQL import tests skipped: no server (set JOBAGENT_TEST_POSTGRES_URL)')

describe.skipIf(!serverUrl)('importing shipments into PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  beforeAll(async () => {
    database = await createTestDatabase(serverUrl as string)
  })
  afterAll(async () => {
    await database?.drop()
  })

  it('imports the example data set and serves it back, metadata and telemetry both in PostgreSQL', async () => {
    const config = shipmentsConfig(database.url)
    const outcome = await importShipments(config, {metadataFile, telemetryFile}, silentLogger)
    expect(outcome.metadata).toMatchObject({store: 'postgres', inserted: 5, updated: 0})
    expect(outcome.telemetry).toMatchObject({store: 'postgres', inserted: 19, duplicates: 0, repeated_in_file: 1})
    const again = await importShipments(config, {metadataFile, telemetryFile}, silentLogger)
    expect(again.metadata).toMatchObject({inserted: 0, updated: 5})
    expect(again.telemetry).toMatchObject({inserted: 0, duplicates: 19, repeated_in_file: 1})
    const state = await unified(config, 'SHP-1001')
    expect(state.sources).toEqual({metadata: 'postgres', telemetry: 'postgres'})
    expect(state.telemetry?.recorded_at).toBe('2026-03-01T14:30:00.000Z')
    expect(state.metadata).toMatchObject({carrier: 'Nordline'})
  })
})

const mysqlUrl = await testMysqlUrl()

describe.skipIf(!serverUrl || !mysqlUrl)('the same metadata file in each relational store', () => {
  const rows = [
    {shipment_id: 'J1', fragile: true, dims: {w: 1, h: [2]}, tags: ['a'], weight_kg: 12.5, code: '00123', mixed: 'x'},
    {shipment_id: 'J2', fragile: false, dims: null, tags: [], weight_kg: 3, code: null, mixed: 2},
  ]
  let dir: ReturnType<typeof tempDir>
  const databases: {drop(): Promise<void>}[] = []
  beforeAll(() => {
    dir = tempDir()
  })
  afterAll(async () => {
    for (const database of databases) await database.drop()
    dir.cleanup()
  })

  async function storeUrls(): Promise<string[]> {
    const postgres = await createTestDatabase(serverUrl as string)
    const mysql = await createMysqlDatabase()
    databases.push(postgres, mysql)
    return [`sqlite://${join(dir.path, 'shipments.db')}`, postgres.url, mysql.url]
  }

  it('reads back as imported from SQLite, PostgreSQL and MySQL/MariaDB alike', async () => {
    const json = join(dir.path, 'metadata.json')
    writeFileSync(json, JSON.stringify(rows))
    for (const url of await storeUrls()) {
      const config = {
        ...shipmentsConfig(url),
        telemetry: shipmentsConfig(`sqlite://${join(dir.path, 't.db')}`).telemetry,
      }
      await importShipments(config, {metadataFile: json, telemetryFile}, silentLogger)
      for (const row of rows) expect((await unified(config, row.shipment_id)).metadata, url).toStrictEqual(row)
    }
  })

  it('refuses a __proto__ column for MySQL/MariaDB, whose driver cannot read it, before writing anything', async () => {
    const mysql = await createMysqlDatabase()
    databases.push(mysql)
    const json = join(dir.path, 'proto.json')
    writeFileSync(json, '[{"shipment_id":"J1","__proto__":"kept"}]')
    const config = {
      ...shipmentsConfig(mysql.url),
      telemetry: shipmentsConfig(`sqlite://${join(dir.path, 't.db')}`).telemetry,
    }
    const error = await importShipments(config, {metadataFile: json}, silentLogger).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).message).toBe(
      `${json} has a column named "__proto__", which the MySQL driver (mysql2) refuses to read; nothing of it was imported`,
    )
    await expect(unified(config, 'J1')).rejects.toThrow(/shipments/)
  })
})

function createMysqlDatabase() {
  return createTestMysqlDatabase(mysqlUrl as string)
}
