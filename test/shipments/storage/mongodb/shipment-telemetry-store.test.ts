import {randomBytes} from 'node:crypto'
import {MongoClient} from 'mongodb'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {silentLogger} from '../../../../src/core/logger.js'
import {
  MongoTelemetryStore,
  MongoTelemetryWriter,
} from '../../../../src/shipments/storage/mongodb/shipment-telemetry-store.js'
import {minutes, readAllPages} from '../../../helpers/telemetry-history.js'

const serverUrl = process.env.JOBAGENT_TEST_MONGODB_URL
if (!serverUrl) {
  console.log(
    'MongoDB telemetry store integration tests skipped: JOBAGENT_TEST_MONGODB_URL is not set (no MongoDB server here)',
  )
}

const fields = {idField: 'shipment_id', timeField: 'recorded_at'}
const signal = new AbortController().signal

describe.skipIf(!serverUrl)('MongoDB telemetry store (real server)', () => {
  const database = `jobagent_test_${randomBytes(6).toString('hex')}`
  let url: string
  let admin: MongoClient
  const options = () => ({url, collection: 'telemetry', ...fields, poolSize: 2, timeoutMs: 5000, logger: silentLogger})

  beforeAll(async () => {
    const parsed = new URL(serverUrl as string)
    parsed.pathname = `/${database}`
    url = parsed.toString()
    admin = new MongoClient(url)
    await admin.connect()
  })
  afterAll(async () => {
    await admin?.db(database).dropDatabase()
    await admin?.close()
  })

  it('appends documents once per id and time, with the compound index, and returns the latest', async () => {
    const writer = new MongoTelemetryWriter(options())
    const store = new MongoTelemetryStore(options())
    try {
      expect(
        await writer.append([
          {id: 'S1', recorded_at: '2026-03-01T10:00:00.000Z', payload: {lat: 1}},
          {id: 'S1', recorded_at: '2026-03-01T12:00:00.000Z', payload: {lat: 2}},
          {id: 'S1', recorded_at: '2026-03-01T12:00:00.000Z', payload: {lat: 'repeat'}},
        ]),
      ).toEqual({inserted: 2, duplicates: 1})
      expect(await store.latest('S1', signal)).toEqual({recorded_at: '2026-03-01T12:00:00.000Z', payload: {lat: 2}})
      expect(await store.latest('S2', signal)).toBeNull()
      expect([...(await store.latestByIds(['S2', 'S1'], signal))]).toEqual([
        ['S1', {recorded_at: '2026-03-01T12:00:00.000Z', payload: {lat: 2}}],
      ])
      expect(await store.checkIndex()).toEqual({ok: true, message: 'lookups use index shipment_id_1_recorded_at_-1'})
      await store.ping()
    } finally {
      await writer.close()
      await store.close()
    }
  })

  it('uses the index for the lookup, as explain shows', async () => {
    const plan = await admin
      .db(database)
      .collection('telemetry')
      .find({shipment_id: 'S1'})
      .sort({recorded_at: -1})
      .limit(1)
      .explain('queryPlanner')
    expect(JSON.stringify(plan.queryPlanner.winningPlan)).toContain('IXSCAN')
  })

  it('reads times stored as epoch numbers or text as ISO 8601 UTC', async () => {
    const collection = admin.db(database).collection('mixed')
    await collection.insertMany([
      {shipment_id: 'N', recorded_at: 1772366400, v: 1},
      {shipment_id: 'T', recorded_at: '2026-03-01T12:00:00Z', v: 2},
    ])
    const store = new MongoTelemetryStore({...options(), collection: 'mixed'})
    try {
      expect(await store.latest('N', signal)).toEqual({recorded_at: '2026-03-01T12:00:00.000Z', payload: {v: 1}})
      expect(await store.latest('T', signal)).toEqual({recorded_at: '2026-03-01T12:00:00.000Z', payload: {v: 2}})
      expect(await store.checkIndex()).toMatchObject({ok: false})
    } finally {
      await store.close()
    }
  })

  it("pages a shipment's history oldest first, since inclusive and until exclusive, without gaps or repeats", async () => {
    const writer = new MongoTelemetryWriter({...options(), collection: 'history'})
    const store = new MongoTelemetryStore({...options(), collection: 'history'})
    try {
      const s1 = minutes('S1', '2026-03-01T10:00:00.000Z', 25)
      await writer.append([...s1.slice(10), ...minutes('S2', '2026-03-01T10:00:00.000Z', 5), ...s1.slice(0, 10)])
      const all = await readAllPages(store, 'S1', {limit: 10})
      expect(all.pages.map((page) => page.length)).toEqual([10, 10, 5])
      expect(all.documents.map((document) => document.payload.n)).toEqual(Array.from({length: 25}, (_, n) => n))
      expect(all.documents[0]).toEqual({recorded_at: '2026-03-01T10:00:00.000Z', payload: {n: 0}})
      const window = {since: '2026-03-01T10:05:00.000Z', until: '2026-03-01T10:12:00.000Z', limit: 3}
      const some = await readAllPages(store, 'S1', window)
      expect(some.documents.map((document) => document.payload.n)).toEqual([5, 6, 7, 8, 9, 10, 11])
      expect(await store.history('S9', {limit: 10}, signal)).toEqual({documents: [], next: null})
    } finally {
      await writer.close()
      await store.close()
    }
  })

  it('reads the history through the index, as explain shows', async () => {
    const plan = await admin
      .db(database)
      .collection('telemetry')
      .find({shipment_id: 'S1', recorded_at: {$gte: new Date(0)}})
      .sort({recorded_at: 1})
      .limit(11)
      .explain('queryPlanner')
    expect(JSON.stringify(plan.queryPlanner.winningPlan)).toContain('IXSCAN')
    expect(JSON.stringify(plan.queryPlanner.winningPlan)).not.toContain('SORT')
  })
})
