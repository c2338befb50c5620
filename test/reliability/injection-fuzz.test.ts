import {join} from 'node:path'
import fc from 'fast-check'
import '../helpers/fuzz.js'
import pg from 'pg'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ApplicationService} from '../../src/core/applications/application-service.js'
import {isJobagentError} from '../../src/core/errors.js'
import {silentLogger} from '../../src/core/logger.js'
import {applicationUrlKey} from '../../src/core/url-identity.js'
import type {ShipmentsConfig} from '../../src/shipments/app/shipments.js'
import {createShipmentService, shipmentWriters} from '../../src/shipments/app/shipments.js'
import {shipmentIdProblem} from '../../src/shipments/core/shipment-id.js'
import type {ShipmentService} from '../../src/shipments/core/shipment-service.js'
import {appendOperation, latestTelemetryQuery} from '../../src/shipments/storage/mongodb/telemetry-queries.js'
import {quoteIdentifier} from '../../src/shipments/storage/sql-names.js'
import {openSqlite, type SqliteDatabase} from '../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../src/storage/sqlite/sqlite-application-store.js'
import {TRACKER_MIGRATIONS} from '../../src/storage/sqlite/tracker-migrations.js'
import {tempDir} from '../helpers/cli.js'
import {createTestDatabase, testPostgresUrl} from '../helpers/postgres.js'
import {shipmentsConfig} from '../helpers/shipments.js'

// Hostile ids and URLs through the services and stores that put them into queries: SQLite and PostgreSQL
// (parameters, quoted identifiers) and the MongoDB query builder. Whatever the input, a lookup answers with the
// record of exactly that id or URL, or with not found / invalid; the tables stay as they were.

const NUM_RUNS = 300

/** Strings that have broken naive queries: SQL quotes and comments, LIKE wildcards, MongoDB operators, NUL. */
const HOSTILE = [
  "O'Brien",
  "'; DROP TABLE shipments; --",
  "' OR '1'='1",
  '" OR 1=1 --',
  "1; DELETE FROM applications WHERE '1'='1",
  '$where',
  '{"$gt":""}',
  '{"$ne":null}',
  '{"$where":"sleep(1000)"}',
  '%',
  '_',
  'SHP-%',
  'SHP-_',
  '*',
  '\\',
  '\\x00',
  'SHP-1\u0000',
  'SHP-1%00',
  'SHP-1 ',
  ' SHP-1',
  'shp-1',
  'ünï©ødé-✓',
  '🚚-42',
  '',
]

const hostileText = fc.oneof(
  fc.constantFrom(...HOSTILE),
  fc.string({unit: 'grapheme', maxLength: 40}),
  fc.string({
    unit: fc.constantFrom("'", '"', ';', '-', '%', '_', '\\', '$', '{', '}', ':', ' ', 'S', 'H', 'P', '1', '\u0000'),
    maxLength: 24,
  }),
  fc.tuple(fc.constantFrom(...HOSTILE), fc.constantFrom(...HOSTILE)).map(([a, b]) => a + b),
)

// --- applications (SQLite) ------------------------------------------------------------------------------------------

const TRACKED = [
  'https://example.org/jobs/1',
  "https://example.org/jobs/O'Brien",
  "https://example.org/jobs/1'; DROP TABLE applications; --",
  'https://example.org/jobs/{"$gt":""}',
  'https://example.org/jobs/%25',
]

const hostileUrl = fc.oneof(
  fc.constantFrom(...TRACKED),
  hostileText,
  hostileText.map((text) => `https://example.org/jobs/${text}`),
  hostileText.map((text) => `https://example.org/jobs/1?q=${text}`),
  fc.webUrl(),
)

function schemaOf(db: SqliteDatabase): unknown[] {
  return db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all()
}

describe('the application service (SQLite) with hostile URLs', () => {
  let db: SqliteDatabase
  let service: ApplicationService
  let schema: unknown[]

  beforeAll(async () => {
    db = openSqlite(':memory:', {migrations: TRACKER_MIGRATIONS})
    service = new ApplicationService(new SqliteApplicationStore(db, ':memory:'))
    for (const [index, url] of TRACKED.entries()) {
      await service.record({title: `Job ${index}`, company: 'Acme', url, source: 'fuzz', notes: `notes ${index}`})
    }
    schema = schemaOf(db)
  })

  afterAll(() => db.close())

  it('looks up exactly the application of that URL, or answers not found / invalid', async () => {
    await fc.assert(
      fc.asyncProperty(hostileUrl, async (url) => {
        const expected = TRACKED.find((tracked) => applicationUrlKey(tracked) === applicationUrlKey(url.trim()))
        const outcome = await service.status(url).then(
          (application) => ({application}),
          (error: unknown) => ({error}),
        )
        if ('application' in outcome) {
          expect(outcome.application.url).toBe(expected)
          expect(outcome.application.notes).toBe(`notes ${TRACKED.indexOf(expected as string)}`)
        } else {
          expect(isJobagentError(outcome.error), String(outcome.error)).toBe(true)
          expect(['not_found', 'validation']).toContain((outcome.error as {kind: string}).kind)
          if (expected !== undefined) expect((outcome.error as {kind: string}).kind).not.toBe('not_found')
        }
      }),
      {numRuns: NUM_RUNS},
    )
  })

  it('records a hostile URL as it was given, or refuses it, and changes only that application', async () => {
    await fc.assert(
      fc.asyncProperty(hostileUrl, hostileText, async (url, notes) => {
        const before = db.prepare('SELECT count(*) AS n FROM applications').get() as {n: number}
        const recorded = await service.record({title: 'T', company: 'C', url, source: 'fuzz'}).then(
          (application) => application,
          (error: unknown) => {
            expect(['conflict', 'validation']).toContain((error as {kind?: string}).kind)
            return undefined
          },
        )
        const after = db.prepare('SELECT count(*) AS n FROM applications').get() as {n: number}
        expect(after.n).toBe(before.n + (recorded ? 1 : 0))
        if (!recorded) return
        expect(recorded.url).toBe(url.trim())
        // Notes holding a control character other than a line break or tab are refused; the record stays as it was.
        const update = await service.changeStatus(url, 'interviewing', notes).catch((error: unknown) => {
          expect((error as {kind?: string}).kind).toBe('validation')
          return undefined
        })
        if (!update) {
          expect(await service.status(url)).toMatchObject({status: 'applied', notes: ''})
          return
        }
        expect(update.current.url).toBe(recorded.url)
        expect(update.current.notes).toBe(notes)
        expect((await service.status(url)).status).toBe('interviewing')
      }),
      {numRuns: NUM_RUNS},
    )
    // The tracked applications are untouched: same notes, same status.
    for (const [index, url] of TRACKED.entries()) {
      expect(await service.status(url)).toMatchObject({url, notes: `notes ${index}`, status: 'applied'})
    }
  })

  it('keeps the schema and a database that passes integrity_check', () => {
    expect(schemaOf(db)).toEqual(schema)
    expect(db.pragma('integrity_check', {simple: true})).toBe('ok')
  })
})

// --- shipments (SQLite always, PostgreSQL when a server answers) ----------------------------------------------------

/** Shipments whose ids are themselves hostile, each with its own origin, so a wrong row is seen at once. */
const SHIPMENTS = [
  'SHP-1',
  'SHP-2',
  "O'Brien",
  "'; DROP TABLE shipments; --",
  '{"$gt":""}',
  '$where',
  '%',
  '🚚-42',
  'a'.repeat(256),
]
const originOf = (id: string) => `origin of ${id.slice(0, 40)}`

const shipmentId = fc.oneof(fc.constantFrom(...SHIPMENTS), hostileText, fc.constant('a'.repeat(257)))

/** Imports the shipments through the app's writers, as `jobagent shipment import` does. */
async function importShipments(config: ShipmentsConfig): Promise<void> {
  const metadata = shipmentWriters.metadata(config, silentLogger)
  const telemetry = shipmentWriters.telemetry(config, silentLogger)
  try {
    await metadata.upsert(SHIPMENTS.map((id) => ({shipment_id: id, origin: originOf(id)})))
    await telemetry.append(
      SHIPMENTS.map((id, index) => ({
        id,
        recorded_at: `2026-03-01T10:00:0${index}.000Z`,
        payload: {origin_echo: originOf(id)},
      })),
    )
  } finally {
    await metadata.close()
    await telemetry.close()
  }
}

/** The lookup answers with exactly that shipment, or not found, or invalid for a malformed id. */
function expectExactLookup(service: () => ShipmentService) {
  return fc.asyncProperty(shipmentId, async (id) => {
    const outcome = await service()
      .unified(id)
      .then(
        (state) => ({state}),
        (error: unknown) => ({error}),
      )
    const known = SHIPMENTS.includes(id) && shipmentIdProblem(id) === undefined
    if ('state' in outcome) {
      expect(known, `found ${JSON.stringify(id)}, which was never imported`).toBe(true)
      expect(outcome.state.shipment_id).toBe(id)
      expect(outcome.state.metadata).toEqual({shipment_id: id, origin: originOf(id)})
      expect(outcome.state.telemetry?.payload).toEqual({origin_echo: originOf(id)})
      return
    }
    const kind = (outcome.error as {kind?: string}).kind
    expect(isJobagentError(outcome.error), String((outcome.error as Error)?.stack ?? outcome.error)).toBe(true)
    expect(kind).toBe(shipmentIdProblem(id) === undefined ? 'not_found' : 'validation')
    expect(known).toBe(false)
  })
}

describe('the shipment service on SQLite with hostile ids', () => {
  let dir: ReturnType<typeof tempDir>
  let file: string
  let service: ShipmentService
  let schema: unknown[]

  beforeAll(async () => {
    dir = tempDir('jobagent-injection-')
    file = join(dir.path, 'shipments.db')
    const config = shipmentsConfig(`sqlite://${file}`, `sqlite://${file}`)
    await importShipments(config)
    service = createShipmentService(config, {logger: silentLogger})
    const db = openSqlite(file, {})
    schema = schemaOf(db)
    db.close()
  })

  afterAll(async () => {
    await service?.close()
    dir?.cleanup()
  })

  it('answers with exactly the shipment of that id, or not found, or invalid', async () => {
    await fc.assert(
      expectExactLookup(() => service),
      {numRuns: NUM_RUNS},
    )
  })

  it('leaves the tables, their rows and the schema as they were', () => {
    const db = openSqlite(file, {})
    try {
      expect(schemaOf(db)).toEqual(schema)
      expect(db.prepare('SELECT count(*) AS n FROM shipments').get()).toEqual({n: SHIPMENTS.length})
      expect(db.prepare('SELECT count(*) AS n FROM telemetry').get()).toEqual({n: SHIPMENTS.length})
      expect(db.pragma('integrity_check', {simple: true})).toBe('ok')
    } finally {
      db.close()
    }
  })
})

const postgresUrl = await testPostgresUrl()
if (!postgresUrl) {
  console.log('PostgreSQL injection tests skipped: set JOBAGENT_TEST_POSTGRES_URL or run a server on 127.0.0.1:5432')
}

describe.skipIf(!postgresUrl)('the shipment service on PostgreSQL with hostile ids', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  let service: ShipmentService

  beforeAll(async () => {
    database = await createTestDatabase(postgresUrl as string)
    const config = shipmentsConfig(database.url, database.url)
    await importShipments(config)
    service = createShipmentService(config, {logger: silentLogger})
  })

  afterAll(async () => {
    await service?.close()
    await database?.drop()
  })

  it('answers with exactly the shipment of that id, or not found, or invalid', async () => {
    await fc.assert(
      expectExactLookup(() => service),
      {numRuns: NUM_RUNS},
    )
  })

  it('leaves the tables and their rows as they were', async () => {
    const client = new pg.Client({connectionString: database.url})
    await client.connect()
    try {
      const tables = await client.query(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
      )
      expect(tables.rows.map((row) => row.table_name)).toEqual(['shipments', 'telemetry'])
      expect((await client.query('SELECT count(*)::int AS n FROM shipments')).rows[0]).toEqual({n: SHIPMENTS.length})
      expect((await client.query('SELECT count(*)::int AS n FROM telemetry')).rows[0]).toEqual({n: SHIPMENTS.length})
    } finally {
      await client.end()
    }
  })
})

// --- the MongoDB query builder and SQL identifiers -------------------------------------------------------------------

/** Every key of an object tree, at any depth. */
function keysOf(value: unknown): string[] {
  if (value === null || typeof value !== 'object' || value instanceof Date) return []
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)])
}

const fields = {idField: 'shipment_id', timeField: 'recorded_at'}

describe('the MongoDB telemetry queries with hostile ids', () => {
  it('match the id by equality only: the filter holds the id as a string and no operator', () => {
    fc.assert(
      fc.property(hostileText, fc.nat(), (id, maxTimeMS) => {
        const query = latestTelemetryQuery(fields, id, maxTimeMS)
        expect(query.filter).toEqual({shipment_id: id})
        expect(typeof query.filter.shipment_id).toBe('string')
        expect(keysOf(query).filter((key) => key.startsWith('$'))).toEqual([])
      }),
      {numRuns: NUM_RUNS},
    )
  })

  it('append by id and time only, and a document can never overwrite its own id or time', () => {
    const payload = fc.dictionary(
      fc.oneof(hostileText, fc.constantFrom('shipment_id', 'recorded_at', '$set', '_id')),
      fc.jsonValue(),
    )
    fc.assert(
      fc.property(hostileText, fc.date({noInvalidDate: true}), payload, (id, time, document) => {
        const {updateOne} = appendOperation(fields, id, time, document)
        expect(updateOne.filter).toEqual({shipment_id: id, recorded_at: time})
        expect(keysOf(updateOne.filter)).toEqual(['shipment_id', 'recorded_at'])
        expect(Object.keys(updateOne.update)).toEqual(['$setOnInsert'])
        expect(updateOne.update.$setOnInsert.shipment_id).toBe(id)
        expect(updateOne.update.$setOnInsert.recorded_at).toBe(time)
      }),
      {numRuns: NUM_RUNS},
    )
  })
})

describe('SQL identifiers from the configuration', () => {
  it('are refused, or quoted so that nothing in them can end the quotes', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/)), (name) => {
        let quoted: string
        try {
          quoted = quoteIdentifier(name)
        } catch (error) {
          expect((error as {kind?: string}).kind).toBe('configuration')
          return
        }
        expect(quoted).toBe(`"${name}"`)
        expect(name).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/)
      }),
      {numRuns: NUM_RUNS},
    )
  })
})
