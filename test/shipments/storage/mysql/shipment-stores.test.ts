import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ConfigurationError, UnavailableError} from '../../../../src/core/errors.js'
import {silentLogger} from '../../../../src/core/logger.js'
import {importShipments} from '../../../../src/shipments/app/shipment-import.js'
import {createShipmentService} from '../../../../src/shipments/app/shipments.js'
import {createMysqlPool} from '../../../../src/shipments/storage/mysql/pool.js'
import {MysqlShipmentMetadataStore} from '../../../../src/shipments/storage/mysql/shipment-metadata-store.js'
import {MysqlShipmentMetadataWriter} from '../../../../src/shipments/storage/mysql/shipment-writers.js'
import {tempDir} from '../../../helpers/cli.js'
import {createTestMysqlDatabase, testMysqlUrl} from '../../../helpers/mysql.js'
import {shipmentsConfig} from '../../../helpers/shipments.js'

const serverUrl = await testMysqlUrl()
if (!serverUrl) {
  console.log('MySQL shipment store tests skipped: set JOBAGENT_TEST_MYSQL_URL or run a server on 127.0.0.1:3306')
}

const signal = new AbortController().signal
const common = {poolSize: 4, timeoutMs: 5000, logger: silentLogger}

describe.skipIf(!serverUrl)('MySQL/MariaDB shipment metadata store', () => {
  let database: Awaited<ReturnType<typeof createTestMysqlDatabase>>
  let url: string
  const open: {close(): Promise<void>}[] = []
  const track = <T extends {close(): Promise<void>}>(store: T): T => {
    open.push(store)
    return store
  }
  const metadataStore = (table = 'shipments', idColumn = 'shipment_id') =>
    track(new MysqlShipmentMetadataStore({url, table, idColumn, ...common}))
  const writer = (table = 'shipments') =>
    track(new MysqlShipmentMetadataWriter({url, table, idColumn: 'shipment_id', ...common}))

  beforeAll(async () => {
    database = await createTestMysqlDatabase(serverUrl as string)
    url = database.url
    await writer().upsert([
      {shipment_id: 'S1', origin: 'Rotterdam', weight_kg: 1840, fragile: true, dims: {w: 1}},
      {shipment_id: 'S2', origin: 'Oslo', weight_kg: null, fragile: false, dims: ['a']},
    ])
  })
  afterAll(async () => {
    for (const store of open.splice(0)) await store.close()
    await database?.drop()
  })

  it('creates the table with types from the values and returns every column as it was imported', async () => {
    expect(await metadataStore().findById('S1', signal)).toEqual({
      shipment_id: 'S1',
      origin: 'Rotterdam',
      weight_kg: 1840,
      fragile: true,
      dims: {w: 1},
    })
    const [types] = await database.admin.query(
      `SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type FROM information_schema.COLUMNS
        WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'shipments' ORDER BY ORDINAL_POSITION`,
    )
    expect((types as {name: string; type: string}[]).map((column) => `${column.name} ${column.type}`)).toEqual([
      'shipment_id varchar(256)',
      'origin text',
      'weight_kg double',
      'fragile tinyint(1)',
      expect.stringMatching(/^dims (json|longtext)$/),
    ])
    expect(await metadataStore().findById('nope', signal)).toBeNull()
  })

  it('upserts by id and reports what was added and what updated', async () => {
    expect(
      await writer().upsert([{shipment_id: 'S2', origin: 'Bergen', carrier: 'Nordline'}, {shipment_id: 'S3'}]),
    ).toEqual({inserted: 1, updated: 1})
    expect(await metadataStore().findById('S2', signal)).toMatchObject({
      origin: 'Bergen',
      carrier: 'Nordline',
      fragile: false,
    })
  })

  it('matches ids exactly: case, trailing spaces and look-alike numbers name no shipment', async () => {
    expect(await metadataStore().findById('s1', signal)).toBeNull()
    expect(await metadataStore().findById('S1 ', signal)).toBeNull()
    await database.admin.query('CREATE TABLE numbered (id INT PRIMARY KEY, name TEXT)')
    await database.admin.query("INSERT INTO numbered VALUES (0, 'zero'), (42, 'x')")
    expect(await metadataStore('numbered', 'id').findById('42', signal)).toEqual({id: 42, name: 'x'})
    expect(await metadataStore('numbered', 'id').findById('SHP-1', signal)).toBeNull()
    expect(await metadataStore('numbered', 'id').findById('42abc', signal)).toBeNull()
    const rows = await metadataStore('numbered', 'id').findByIds(['SHP-1', '42abc', '42'], signal)
    expect([...rows]).toEqual([['42', {id: 42, name: 'x'}]])
  })

  it('finds the row whose id is exactly the one asked among rows its collation takes for equal', async () => {
    // A table filled by another tool, with no unique id and a case-insensitive collation: `SHP-7` = `shp-7` to MySQL.
    await database.admin.query('CREATE TABLE folded (shipment_id VARCHAR(64), origin TEXT)')
    await database.admin.query("INSERT INTO folded VALUES ('SHP-7', 'upper'), ('shp-7', 'lower')")
    expect(await metadataStore('folded').findById('shp-7', signal)).toEqual({shipment_id: 'shp-7', origin: 'lower'})
    expect(await metadataStore('folded').findById('SHP-7', signal)).toEqual({shipment_id: 'SHP-7', origin: 'upper'})
  })

  it('reads a list of shipments in one statement, each id exactly', async () => {
    const rows = await metadataStore().findByIds(['S2', 's1', 'nope', 'S1'], signal)
    expect([...rows.keys()].sort()).toEqual(['S1', 'S2'])
    expect(rows.get('S1')).toMatchObject({fragile: true, dims: {w: 1}})
    const [plan] = await database.admin.query(
      "EXPLAIN SELECT * FROM `shipments` WHERE `shipment_id` IN ('S1', 'S2', 'S3', 'S4', 'S5')",
    )
    expect((plan as {possible_keys: string | null}[])[0]?.possible_keys).toBe('PRIMARY')
  })

  it('returns dates as ISO 8601 UTC, exact decimals as text and 64-bit integers exactly', async () => {
    await database.admin.query(
      'CREATE TABLE typed (shipment_id VARCHAR(20) PRIMARY KEY, due DATETIME(3), price DECIMAL(12,2), big BIGINT, small BIGINT, raw VARBINARY(4))',
    )
    await database.admin.query(
      "INSERT INTO typed VALUES ('S1', '2026-03-01 12:00:00.250', 1234.50, 9007199254740993, 7, X'00ff')",
    )
    expect(await metadataStore('typed').findById('S1', signal)).toEqual({
      shipment_id: 'S1',
      due: '2026-03-01T12:00:00.250Z',
      price: '1234.50',
      big: '9007199254740993',
      small: 7,
      raw: 'AP8=',
    })
  })

  it('reports the index that serves lookups, a missing one with the statement that creates it, and a missing table', async () => {
    expect(await metadataStore().checkIndex()).toEqual({ok: true, message: 'lookups use index PRIMARY'})
    await database.admin.query('CREATE TABLE bare (shipment_id VARCHAR(64), origin TEXT)')
    const missing = await metadataStore('bare').checkIndex()
    expect(missing).toEqual({
      ok: false,
      message: 'no index on bare (shipment_id): every lookup scans the table',
      hint: 'CREATE UNIQUE INDEX `bare_shipment_id` ON `bare` (`shipment_id`)',
    })
    await database.admin.query(missing.hint ?? '')
    expect(await metadataStore('bare').checkIndex()).toEqual({ok: true, message: 'lookups use index bare_shipment_id'})
    expect(await metadataStore('absent').checkIndex()).toEqual({
      ok: false,
      message: 'table absent does not exist: nothing is found until it is created (jobagent shipment import does that)',
    })
    await expect(metadataStore('absent').findById('S1', signal)).rejects.toThrow(UnavailableError)
  })

  it('serves from read-only sessions', async () => {
    const pool = createMysqlPool({url, poolSize: 1, timeoutMs: 5000, readOnly: true, logger: silentLogger})
    try {
      await expect(pool.query("INSERT INTO shipments (shipment_id) VALUES ('X')")).rejects.toThrow(/READ ONLY/i)
    } finally {
      await pool.end()
    }
  })

  it('refuses to upsert into a table whose id column is not unique', async () => {
    await database.admin.query('CREATE TABLE loose (shipment_id VARCHAR(64), origin TEXT)')
    await expect(writer('loose').upsert([{shipment_id: 'S1', origin: 'x'}])).rejects.toThrow(ConfigurationError)
  })

  it('serves the unified state with MySQL metadata after jobagent shipment import, from mariadb:// too', async () => {
    const dir = tempDir()
    try {
      const metadataFile = join(dir.path, 'metadata.csv')
      const telemetryFile = join(dir.path, 'telemetry.ndjson')
      writeFileSync(metadataFile, 'shipment_id,origin\nSHP-1,Rotterdam\n')
      writeFileSync(telemetryFile, '{"shipment_id":"SHP-1","recorded_at":"2026-03-01T12:00:00Z","lat":53.5}\n')
      const mariadb = url.replace(/^mysql:/, 'mariadb:')
      const config = shipmentsConfig(mariadb, `sqlite://${join(dir.path, 'telemetry.db')}`)
      config.metadata.table = 'imported'
      const outcome = await importShipments(config, {metadataFile, telemetryFile}, silentLogger)
      expect(outcome.metadata).toMatchObject({store: 'mysql', inserted: 1, updated: 0})
      const service = createShipmentService(config, {logger: silentLogger})
      try {
        expect(await service.unified('SHP-1')).toMatchObject({
          metadata: {shipment_id: 'SHP-1', origin: 'Rotterdam'},
          telemetry: {recorded_at: '2026-03-01T12:00:00.000Z', payload: {lat: 53.5}},
          sources: {metadata: 'mysql', telemetry: 'sqlite'},
        })
        expect(await service.check('metadata')).toMatchObject({status: 'pass', kind: 'mysql'})
      } finally {
        await service.close()
      }
    } finally {
      dir.cleanup()
    }
  })
})
