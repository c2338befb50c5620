import pg from 'pg'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ValidationError} from '../../../../src/core/errors.js'
import {silentLogger} from '../../../../src/core/logger.js'
import {checkHistoryQuery, encodeCursor} from '../../../../src/shipments/core/telemetry-history.js'
import {PostgresTelemetryStore} from '../../../../src/shipments/storage/postgres/shipment-telemetry-store.js'
import {PostgresTelemetryWriter} from '../../../../src/shipments/storage/postgres/shipment-writers.js'
import {telemetryHistorySql} from '../../../../src/shipments/storage/shipment-sql.js'
import {createTestDatabase, testPostgresUrl} from '../../../helpers/postgres.js'
import {minutes, readAllPages} from '../../../helpers/telemetry-history.js'

const serverUrl = await testPostgresUrl()
if (!serverUrl) {
  console.log(
    'PostgreSQL telemetry history tests skipped: set JOBAGENT_TEST_POSTGRES_URL or run a server on 127.0.0.1:5432',
  )
}

const fields = {idField: 'shipment_id', timeField: 'recorded_at'}
const signal = new AbortController().signal
const common = {poolSize: 2, timeoutMs: 5000, logger: silentLogger}

describe.skipIf(!serverUrl)('PostgreSQL telemetry history', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  let url: string
  let admin: pg.Client
  const open: {close(): Promise<void>}[] = []
  const store = (table = 'telemetry') => {
    const opened = new PostgresTelemetryStore({url, table, ...fields, ...common})
    open.push(opened)
    return opened
  }

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl as string)
    url = database.url
    admin = new pg.Client({connectionString: url})
    await admin.connect()
    const writer = new PostgresTelemetryWriter({url, table: 'telemetry', ...fields, ...common})
    const s1 = minutes('S1', '2026-03-01T10:00:00.000Z', 25)
    await writer.append([...s1.slice(10), ...minutes('S2', '2026-03-01T10:00:00.000Z', 5), ...s1.slice(0, 10)])
    await writer.close()
  })
  afterAll(async () => {
    for (const opened of open.splice(0)) await opened.close()
    await admin?.end()
    await database?.drop()
  })

  it('answers the documents oldest first, a page at a time, without gaps or repeats', async () => {
    const {pages, documents} = await readAllPages(store(), 'S1', {limit: 10})
    expect(pages.map((page) => page.length)).toEqual([10, 10, 5])
    expect(documents.map((document) => document.payload.n)).toEqual(Array.from({length: 25}, (_, n) => n))
    expect(documents[0]).toEqual({recorded_at: '2026-03-01T10:00:00.000Z', payload: {n: 0}})
  })

  it('takes since inclusive and until exclusive, also across pages', async () => {
    const window = {since: '2026-03-01T10:05:00.000Z', until: '2026-03-01T10:12:00.000Z', limit: 3}
    const {pages, documents} = await readAllPages(store(), 'S1', window)
    expect(documents.map((document) => document.payload.n)).toEqual([5, 6, 7, 8, 9, 10, 11])
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1])
  })

  it('pages documents apart by microseconds one at a time, each once', async () => {
    // Times a millisecond ISO text cannot tell apart: the page key keeps the stored microseconds.
    await admin.query(
      `INSERT INTO telemetry (shipment_id, recorded_at, document) VALUES
        ('M', '2026-03-01 10:00:00.000100+00', '{"n": 0}'),
        ('M', '2026-03-01 10:00:00.000200+00', '{"n": 1}'),
        ('M', '2026-03-01 10:00:00.000300+00', '{"n": 2}')`,
    )
    const {pages, documents} = await readAllPages(store(), 'M', {limit: 1})
    expect(pages.map((page) => page.length)).toEqual([1, 1, 1])
    expect(documents.map((document) => document.payload.n)).toEqual([0, 1, 2])
  })

  it('answers an empty page for a shipment without telemetry and while the table is missing', async () => {
    expect(await store().history('S9', {limit: 10}, signal)).toEqual({documents: [], next: null})
    expect(await store('absent').history('S1', {limit: 10}, signal)).toEqual({documents: [], next: null})
  })

  it('reads the window through the (id, time desc) index, with no sort', async () => {
    const sql = telemetryHistorySql({table: 'telemetry', ...fields}, 'postgres', {
      since: true,
      after: true,
      until: true,
    })
    // The plan a prepared statement keeps once generic, for any bounds; seqscan off, so a 30-row table still shows it.
    await admin.query('SET enable_seqscan = off')
    await admin.query('SET plan_cache_mode = force_generic_plan')
    await admin.query(`PREPARE history AS ${sql}`)
    const plan = await admin.query(
      `EXPLAIN EXECUTE history('S1', '2026-03-01T10:00:00Z', '2026-03-01T10:01:00Z', '2026-03-01T11:00:00Z', 11)`,
    )
    await admin.query('DEALLOCATE history')
    await admin.query('RESET ALL')
    const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n')
    expect(text).toContain('Index Scan Backward using telemetry_shipment_id_recorded_at')
    expect(text).not.toContain('Sort')
  })

  it('refuses a cursor the time column cannot hold, and bounds a column of epoch numbers cannot take', async () => {
    const bad = store().history('S1', {limit: 10, after: 'not a time'}, signal)
    await expect(bad).rejects.toBeInstanceOf(ValidationError)
    await expect(bad).rejects.toMatchObject({details: [{field: 'cursor'}]})
    await admin.query('CREATE TABLE epochs (shipment_id text, recorded_at bigint, document jsonb)')
    await admin.query(`INSERT INTO epochs VALUES ('S1', 1772359200, '{}')`)
    const epochs = store('epochs')
    expect((await epochs.history('S1', {limit: 10}, signal)).documents).toEqual([
      {recorded_at: '2026-03-01T10:00:00.000Z', payload: {}},
    ])
    // Paged by cursors that name the stored number with its type.
    await admin.query(`INSERT INTO epochs VALUES ('S1', 1772359260, '{}')`)
    const first = await epochs.history('S1', {limit: 1}, signal)
    expect(first.next).toBe('n:1772359200')
    const window = checkHistoryQuery({limit: 1, cursor: encodeCursor(first.next as string)})
    expect((await epochs.history('S1', window, signal)).documents).toEqual([
      {recorded_at: '2026-03-01T10:01:00.000Z', payload: {}},
    ])
    await expect(epochs.history('S1', {limit: 10, since: '2026-03-01T10:00:00.000Z'}, signal)).rejects.toMatchObject({
      kind: 'validation',
      details: [{field: 'since'}],
    })
  })
})
