import {describe, expect, it} from 'vitest'
import {
  appendOperation,
  databaseName,
  findLatestIndex,
  latestTelemetryBatchPipeline,
  latestTelemetryQuery,
  telemetryIndexSpec,
} from '../../../src/storage/mongodb/telemetry-queries.js'

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
})
