import {describe, expect, it} from 'vitest'
import {toLatestTelemetry} from '../../../src/shipments/core/telemetry-document.js'

describe('toLatestTelemetry', () => {
  const fields = {idField: 'shipment_id', timeField: 'recorded_at'}

  it('drops the id, the time and store-internal fields from the payload', () => {
    const document = {_id: 'abc', shipment_id: 'S1', recorded_at: 1772366400, lat: 1, nested: {a: [1]}}
    expect(toLatestTelemetry(document, document.recorded_at, fields)).toEqual({
      recorded_at: '2026-03-01T12:00:00.000Z',
      payload: {lat: 1, nested: {a: [1]}},
    })
  })

  it('uses the configured field names', () => {
    const document = {device: 'S1', ts: '2026-03-01T12:00:00Z', shipment_id: 'kept', recorded_at: 'kept too'}
    expect(toLatestTelemetry(document, document.ts, {idField: 'device', timeField: 'ts'}).payload).toEqual({
      shipment_id: 'kept',
      recorded_at: 'kept too',
    })
  })

  it('passes an unreadable time on as text instead of failing the lookup', () => {
    expect(toLatestTelemetry({}, 'yesterday-ish', fields).recorded_at).toBe('yesterday-ish')
  })

  it('keeps every field of a document that holds none to drop, and drops only the id when only it is there', () => {
    const clean = {lat: 1, lon: 2, constructor_note: 'x'}
    expect(toLatestTelemetry(clean, 1772366400, fields).payload).toEqual({lat: 1, lon: 2, constructor_note: 'x'})
    expect(toLatestTelemetry({shipment_id: 'S1', lat: 1}, 1772366400, fields).payload).toEqual({lat: 1})
    expect(toLatestTelemetry({_id: 'x', lat: 1}, 1772366400, fields).payload).toEqual({lat: 1})
  })

  it('does not take inherited names such as "constructor" for fields of the document', () => {
    const document = JSON.parse('{"lat": 1}')
    const byName = {idField: 'constructor', timeField: 'toString'}
    expect(toLatestTelemetry(document, 1772366400, byName).payload).toEqual({lat: 1})
  })
})
