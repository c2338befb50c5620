import {describe, expect, it} from 'vitest'
import {ValidationError} from '../../../src/core/errors.js'
import {parseMetadataFile, parseTelemetryNdjson} from '../../../src/shipments/core/import-files.js'

const fields = {idField: 'shipment_id', timeField: 'recorded_at'}

function refusal(work: () => unknown): ValidationError {
  try {
    work()
  } catch (error) {
    if (error instanceof ValidationError) return error
    throw error
  }
  throw new Error('expected a ValidationError')
}

describe('metadata files', () => {
  it('reads a CSV with a header, empty cells as null', () => {
    const csv = 'shipment_id,origin,note\nS1,"Rotterdam, NL",\nS2,Oslo,"two\nlines"\n'
    expect(parseMetadataFile(csv, 'm.csv', 'shipment_id')).toEqual({
      rows: [
        {shipment_id: 'S1', origin: 'Rotterdam, NL', note: null},
        {shipment_id: 'S2', origin: 'Oslo', note: 'two\nlines'},
      ],
      repeated: 0,
    })
  })

  it('reads a JSON array and keeps value types, a numeric id becoming text', () => {
    const json = JSON.stringify([{shipment_id: 7, weight: 12.5, fragile: true, dims: {w: 1}}])
    expect(parseMetadataFile(json, 'm.json', 'shipment_id').rows).toEqual([
      {shipment_id: '7', weight: 12.5, fragile: true, dims: {w: 1}},
    ])
  })

  it('keeps the last row of a repeated id and counts the repeats', () => {
    const parsed = parseMetadataFile('shipment_id,v\nS1,a\nS1,b\n', 'm.csv', 'shipment_id')
    expect(parsed).toEqual({rows: [{shipment_id: 'S1', v: 'b'}], repeated: 1})
  })

  it('reports every bad row with its line number, counting lines inside quoted cells', () => {
    const csv = 'shipment_id,note\nS1,"multi\nline"\n,missing id\nS3,a,extra\n'
    const error = refusal(() => parseMetadataFile(csv, 'm.csv', 'shipment_id'))
    expect(error.message).toBe('m.csv is not a metadata CSV: 2 problems on lines 4, 5; nothing of it was imported')
    expect(error.details).toEqual([
      {row: 4, field: 'shipment_id', message: 'missing "shipment_id"'},
      {row: 5, message: 'has 3 cells, the header has 2'},
    ])
  })

  it('refuses column names that are not plain identifiers', () => {
    const error = refusal(() => parseMetadataFile('shipment_id,"x; DROP TABLE y"\nS1,1\n', 'm.csv', 'shipment_id'))
    expect(error.details[0]).toMatchObject({row: 2, field: 'x; DROP TABLE y'})
  })

  it('refuses a column repeated in the header, naming it and the line', () => {
    const error = refusal(() => parseMetadataFile('shipment_id,v,w,v\nS1,a,b,c\n', 'm.csv', 'shipment_id'))
    expect(error.message).toBe('m.csv is not a metadata CSV: 1 problem on line 1; nothing of it was imported')
    expect(error.details).toEqual([{row: 1, field: 'v', message: 'column "v" appears more than once in the header'}])
  })

  it('keeps a column named __proto__ as data, in a CSV and in a JSON array', () => {
    const csv = parseMetadataFile('shipment_id,__proto__\nS1,kept\n', 'm.csv', 'shipment_id').rows[0]
    const json = parseMetadataFile('[{"shipment_id":"S1","__proto__":"kept"}]', 'm.json', 'shipment_id').rows[0]
    for (const row of [csv, json]) {
      expect(JSON.stringify(row)).toBe('{"shipment_id":"S1","__proto__":"kept"}')
      expect(Object.getPrototypeOf(row)).toBe(Object.prototype)
    }
  })

  it('numbers JSON problems by item', () => {
    const error = refusal(() => parseMetadataFile('[{"shipment_id":"S1"}, 3, {"other":1}]', 'm.json', 'shipment_id'))
    expect(error.message).toContain('2 problems on items 2, 3')
  })

  it('refuses JSON that is not an array', () => {
    expect(refusal(() => parseMetadataFile('{"shipment_id":"S1"}', 'm.json', 'shipment_id')).message).toBe(
      'm.json must hold a JSON array of objects',
    )
  })
})

describe('telemetry NDJSON', () => {
  it('reads one document per line, normalising the time and dropping _id', () => {
    const text =
      '{"shipment_id":"S1","recorded_at":1772366400,"lat":1,"_id":"x"}\n\n{"shipment_id":"S2","recorded_at":{"$date":"2026-03-01T12:00:00Z"}}\n'
    expect(parseTelemetryNdjson(text, 't.ndjson', fields)).toEqual({
      records: [
        {id: 'S1', recorded_at: '2026-03-01T12:00:00.000Z', payload: {lat: 1}},
        {id: 'S2', recorded_at: '2026-03-01T12:00:00.000Z', payload: {}},
      ],
      repeated: 0,
    })
  })

  it('keeps the first of the documents that repeat an id and time within the file, and counts the repeats', () => {
    const text = [
      '{"shipment_id":"S1","recorded_at":"2026-03-01T12:00:00Z","n":1}',
      '{"shipment_id":"S1","recorded_at":"2026-03-01T13:00:00+01:00","n":2}',
      '{"shipment_id":"S2","recorded_at":"2026-03-01T12:00:00Z","n":3}',
    ].join('\n')
    expect(parseTelemetryNdjson(text, 't.ndjson', fields)).toEqual({
      records: [
        {id: 'S1', recorded_at: '2026-03-01T12:00:00.000Z', payload: {n: 1}},
        {id: 'S2', recorded_at: '2026-03-01T12:00:00.000Z', payload: {n: 3}},
      ],
      repeated: 1,
    })
  })

  it('reports bad lines by number and imports none of the file', () => {
    const text = [
      '{"shipment_id":"S1","recorded_at":"2026-03-01T12:00:00Z"}',
      '{"shipment_id":"S1",',
      '{"recorded_at":"2026-03-01T12:00:00Z"}',
      '{"shipment_id":"S1","recorded_at":"soon"}',
      '[1,2]',
    ].join('\n')
    const error = refusal(() => parseTelemetryNdjson(text, 't.ndjson', fields))
    expect(error.message).toBe(
      't.ndjson is not telemetry NDJSON: 4 problems on lines 2, 3, 4, 5; nothing of it was imported',
    )
    expect(error.details.map((detail) => detail.row)).toEqual([2, 3, 4, 5])
    expect(error.details[2]?.message).toBe('"recorded_at" is not a time: "soon"')
  })

  it('refuses what a store cannot hold as a document, in a metadata file and in telemetry alike', () => {
    const deep = `${'['.repeat(64)}1${']'.repeat(64)}`
    const metadata = refusal(() =>
      parseMetadataFile(`[[1], {"shipment_id":"S1","v":${deep}}]`, 'm.json', 'shipment_id'),
    )
    const telemetry = refusal(() =>
      parseTelemetryNdjson(`[1]\n{"shipment_id":"S1","recorded_at":"2026-03-01T12:00:00Z","v":${deep}}`, 't', fields),
    )
    const expected = [
      {row: 1, message: 'not a JSON object'},
      {row: 2, message: 'nests objects and arrays deeper than 64 levels'},
    ]
    expect(metadata.details).toEqual(expected)
    expect(telemetry.details).toEqual(expected)
  })

  it('uses the configured id and time fields', () => {
    const parsed = parseTelemetryNdjson('{"device":"D1","ts":"2026-03-01T12:00:00Z","v":1}', 't', {
      idField: 'device',
      timeField: 'ts',
    })
    expect(parsed.records).toEqual([{id: 'D1', recorded_at: '2026-03-01T12:00:00.000Z', payload: {v: 1}}])
  })
})
