import {describe, expect, it} from 'vitest'
import {ValidationError} from '../../../../src/core/errors.js'
import {
  appendOperation,
  databaseName,
  findLatestIndex,
  historyKey,
  historyKeyValue,
  latestTelemetryBatchPipeline,
  latestTelemetryQuery,
  telemetryHistoryQuery,
  telemetryIndexSpec,
} from '../../../../src/shipments/storage/mongodb/telemetry-queries.js'

const fields = {idField: 'shipment_id', timeField: 'recorded_at'}

describe('MongoDB telemetry queries', () => {
  it('finds the latest document by id, newest first, one document, with a server time limit', () => {
    expect(latestTelemetryQuery(fields, 'SHP-1', 2000)).toEqual({
      filter: {shipment_id: 'SHP-1'},
      sort: {recorded_at: -1},
      limit: 1,
      maxTimeMS: 2000,
    })
  })

  it('matches an id that looks like an operator by equality only', () => {
    expect(latestTelemetryQuery(fields, '{"$ne": null}', 10).filter).toEqual({shipment_id: '{"$ne": null}'})
  })

  it('finds the latest document of each id of a list in one aggregation, in index order', () => {
    expect(latestTelemetryBatchPipeline({idField: 'device', timeField: 'ts'}, ['D1', 'D2'])).toEqual([
      {$match: {device: {$in: ['D1', 'D2']}}},
      {$sort: {device: 1, ts: -1}},
      {$group: {_id: '$device', document: {$first: '$$ROOT'}}},
    ])
  })

  it('matches ids of a list that look like operators by equality only', () => {
    const [match] = latestTelemetryBatchPipeline(fields, ['{"$ne": null}', '$where'])
    expect(match).toEqual({$match: {shipment_id: {$in: ['{"$ne": null}', '$where']}}})
  })

  it('uses the configured field names', () => {
    const query = latestTelemetryQuery({idField: 'device', timeField: 'ts'}, 'D1', 10)
    expect(query.filter).toEqual({device: 'D1'})
    expect(query.sort).toEqual({ts: -1})
  })

  it('builds the unique compound index {id: 1, time: -1}', () => {
    const spec = telemetryIndexSpec(fields)
    expect(spec).toEqual({key: {shipment_id: 1, recorded_at: -1}, name: 'shipment_id_1_recorded_at_-1', unique: true})
    expect(Object.keys(spec.key)).toEqual(['shipment_id', 'recorded_at'])
  })

  it('recognises an index that serves the lookup, in either time direction', () => {
    const indexes = [
      {name: '_id_', key: {_id: 1}},
      {name: 'by_time', key: {recorded_at: -1}},
      {name: 'lookup', key: {shipment_id: 1, recorded_at: 1, extra: 1}},
    ]
    expect(findLatestIndex(indexes, fields)).toBe('lookup')
  })

  it('does not take an index led by the time field, or one on the id alone, for the lookup index', () => {
    expect(
      findLatestIndex(
        [
          {name: 'a', key: {recorded_at: -1, shipment_id: 1}},
          {name: 'b', key: {shipment_id: 1}},
          {name: 'c', key: {shipment_id: 1, recorded_at: 'text'}},
        ],
        fields,
      ),
    ).toBeUndefined()
  })

  it('appends by idempotent upsert on id and time', () => {
    const time = new Date('2026-03-01T12:00:00.000Z')
    expect(appendOperation(fields, 'S1', time, {lat: 1})).toEqual({
      updateOne: {
        filter: {shipment_id: 'S1', recorded_at: time},
        update: {$setOnInsert: {lat: 1, shipment_id: 'S1', recorded_at: time}},
        upsert: true,
      },
    })
  })

  it('takes the database from the URL path, jobagent by default', () => {
    expect(databaseName('mongodb://u:p@h1:27017,h2:27017/fleet?replicaSet=rs0')).toBe('fleet')
    expect(databaseName('mongodb+srv://cluster.example.org/?retryWrites=true')).toBe('jobagent')
    expect(databaseName('mongodb://127.0.0.1:27017')).toBe('jobagent')
  })

  it('reads a page of history oldest first through the index, one document more than the page', () => {
    expect(telemetryHistoryQuery(fields, 'SHP-1', {limit: 100}, 2000)).toEqual({
      filter: {shipment_id: 'SHP-1'},
      sort: {recorded_at: 1},
      limit: 101,
      maxTimeMS: 2000,
    })
  })

  it('bounds the window by BSON dates, since inclusive and until exclusive, after the previous page', () => {
    const window = {
      since: '2026-03-01T10:00:00.000Z',
      until: '2026-03-02T00:00:00.000Z',
      after: historyKey(new Date('2026-03-01T11:00:00.000Z')),
      limit: 10,
    }
    expect(telemetryHistoryQuery({idField: 'device', timeField: 'ts'}, '{"$ne": null}', window, 50).filter).toEqual({
      device: '{"$ne": null}',
      ts: {
        $gte: new Date('2026-03-01T10:00:00.000Z'),
        $gt: new Date('2026-03-01T11:00:00.000Z'),
        $lt: new Date('2026-03-02T00:00:00.000Z'),
      },
    })
  })

  it('keeps the BSON type of a stored time in its page key', () => {
    const date = new Date('2026-03-01T11:00:00.123Z')
    for (const value of [date, 1772362800, 1772362800.5, '2026-03-01T11:00:00Z', 's:odd']) {
      expect(historyKeyValue(historyKey(value))).toEqual(value)
    }
    expect(historyKey(date)).toBe(`d:${date.getTime()}`)
  })

  it('refuses a page key it did not make as a bad cursor', () => {
    for (const key of ['', 'x:1', 'd:soon', 'n:', 'n:NaN']) {
      expect(() => historyKeyValue(key), key).toThrow(ValidationError)
    }
  })
})
