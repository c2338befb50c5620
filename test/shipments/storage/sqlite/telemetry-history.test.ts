import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {checkHistoryQuery, encodeCursor} from '../../../../src/shipments/core/telemetry-history.js'
import {historyShape, telemetryHistorySql} from '../../../../src/shipments/storage/shipment-sql.js'
import {SqliteTelemetryStore} from '../../../../src/shipments/storage/sqlite/shipment-telemetry-store.js'
import {SqliteTelemetryWriter} from '../../../../src/shipments/storage/sqlite/shipment-writers.js'
import {tempDir} from '../../../helpers/cli.js'
import {minutes, readAllPages} from '../../../helpers/telemetry-history.js'

const fields = {idField: 'shipment_id', timeField: 'recorded_at'}
const signal = new AbortController().signal

describe('SQLite telemetry history', () => {
  let dir: ReturnType<typeof tempDir>
  let file: string
  let store: SqliteTelemetryStore

  beforeEach(async () => {
    dir = tempDir('jobagent-history-')
    file = join(dir.path, 'shipments.db')
    const writer = new SqliteTelemetryWriter({file, table: 'telemetry', ...fields})
    // Appended out of order, with another shipment between: the store orders them.
    const s1 = minutes('S1', '2026-03-01T10:00:00.000Z', 25)
    await writer.append([...s1.slice(10), ...minutes('S2', '2026-03-01T10:00:00.000Z', 5), ...s1.slice(0, 10)])
    await writer.close()
    store = new SqliteTelemetryStore({file, table: 'telemetry', ...fields})
  })
  afterEach(async () => {
    await store.close()
    dir.cleanup()
  })

  it('answers the documents oldest first, a page at a time, without gaps or repeats', async () => {
    const {pages, documents} = await readAllPages(store, 'S1', {limit: 10})
    expect(pages.map((page) => page.length)).toEqual([10, 10, 5])
    expect(documents.map((document) => document.payload.n)).toEqual(Array.from({length: 25}, (_, n) => n))
    expect(documents[0]).toEqual({recorded_at: '2026-03-01T10:00:00.000Z', payload: {n: 0}})
  })

  it('says no page follows when the last one is exactly full', async () => {
    const {pages} = await readAllPages(store, 'S1', {limit: 25})
    expect(pages.map((page) => page.length)).toEqual([25])
  })

  it('takes since inclusive and until exclusive, also across pages', async () => {
    const window = {since: '2026-03-01T10:05:00.000Z', until: '2026-03-01T10:12:00.000Z'}
    const {pages, documents} = await readAllPages(store, 'S1', {...window, limit: 3})
    expect(documents.map((document) => document.payload.n)).toEqual([5, 6, 7, 8, 9, 10, 11])
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1])
    expect((await store.history('S1', {since: window.since, until: window.since, limit: 5}, signal)).documents).toEqual(
      [],
    )
  })

  it('pages a table made by another tool that holds epoch numbers, with cursors a page check takes', async () => {
    const db = new Database(file)
    db.exec('CREATE TABLE epochs (shipment_id TEXT, recorded_at INTEGER, document TEXT)')
    const insert = db.prepare("INSERT INTO epochs VALUES ('S1', ?, '{}')")
    for (const time of [1772359200, 1772359260, 1772359320]) insert.run(time)
    db.close()
    const epochs = new SqliteTelemetryStore({file, table: 'epochs', ...fields})
    try {
      const first = await epochs.history('S1', {limit: 2}, signal)
      expect(first.next).toBe('n:1772359260')
      const window = checkHistoryQuery({limit: 2, cursor: encodeCursor(first.next as string)})
      expect((await epochs.history('S1', window, signal)).documents).toEqual([
        {recorded_at: '2026-03-01T10:02:00.000Z', payload: {}},
      ])
    } finally {
      await epochs.close()
    }
  })

  it('answers an empty page for a shipment without telemetry and while the table is missing', async () => {
    expect(await store.history('S9', {limit: 10}, signal)).toEqual({documents: [], next: null})
    const other = new SqliteTelemetryStore({file, table: 'absent', ...fields})
    expect(await other.history('S1', {limit: 10}, signal)).toEqual({documents: [], next: null})
    await other.close()
  })

  it('reads every shape of window through the primary key (id, time desc), with no sort', () => {
    const db = new Database(file, {readonly: true})
    const shapes = [0, 1, 2, 3, 4, 5, 6, 7].map((bits) => ({
      since: (bits & 1) === 1,
      after: (bits & 2) === 2,
      until: (bits & 4) === 4,
    }))
    try {
      for (const shape of shapes) {
        const sql = telemetryHistorySql({table: 'telemetry', ...fields}, 'sqlite', shape)
        const values = Array.from({length: sql.split('?').length - 1}, () => 'x')
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...values) as {detail: string}[]).map(
          (step) => step.detail,
        )
        const bounded = shape.since || shape.after || shape.until
        expect(plan, JSON.stringify(shape)).toEqual([
          `SEARCH telemetry USING PRIMARY KEY (shipment_id=?${bounded ? ' AND recorded_at' : ''}${rangeOf(shape)})`,
        ])
      }
    } finally {
      db.close()
    }
    expect(historyShape({limit: 1, since: 'a', until: 'b'})).toEqual({since: true, after: false, until: true})
  })
})

/** How EXPLAIN QUERY PLAN names the range searched: `>?`, `<?` or both. */
function rangeOf(shape: {since: boolean; after: boolean; until: boolean}): string {
  const lower = shape.since || shape.after ? '>?' : ''
  const upper = shape.until ? '<?' : ''
  return lower && upper ? `${lower} AND recorded_at${upper}` : `${lower}${upper}`
}
