import {describe, expect, it} from 'vitest'
import {makeStyle} from '../../../src/cli/style.js'
import {
  formatAge,
  renderShipmentChange,
  renderShipmentImport,
  renderUnifiedState,
} from '../../../src/shipments/cli/render.js'
import type {UnifiedState} from '../../../src/shipments/core/unified-state.js'

const plain = makeStyle(false)

const state: UnifiedState = {
  shipment_id: 'SHP-1',
  metadata: {shipment_id: 'SHP-1', origin: 'Oslo', dims: {w: 1}, note: null},
  telemetry: {recorded_at: '2026-03-01T11:55:00.000Z', payload: {temperature_c: 4.1}},
  freshness: {last_seen_at: '2026-03-01T11:55:00.000Z', age_seconds: 300, stale: false, stale_after_seconds: 900},
  sources: {metadata: 'postgres', telemetry: 'mongodb'},
  generated_at: '2026-03-01T12:00:00.000Z',
}

describe('shipment renderers', () => {
  it('shows metadata, latest telemetry and freshness in aligned sections', () => {
    expect(renderUnifiedState(state, plain)).toBe(
      [
        'Shipment SHP-1',
        '',
        'Metadata (postgres)',
        '  shipment_id    SHP-1',
        '  origin         Oslo',
        '  dims           {"w":1}',
        '  note           -',
        '',
        'Latest telemetry (mongodb)',
        '  recorded_at    2026-03-01T11:55:00.000Z',
        '  temperature_c  4.1',
        '',
        'Freshness',
        '  last seen      2026-03-01T11:55:00.000Z (5 min ago)',
        '  status         fresh (stale after 15 min)',
      ].join('\n'),
    )
  })

  it('colours the freshness verdict on a colour terminal, escaping only the stored values', () => {
    // Painted as a colour terminal paints it (styleText leaves text plain when stdout is no terminal).
    const green = (text: string) => `\u001b[32m${text}\u001b[39m`
    const coloured = renderUnifiedState({...state, metadata: {origin: 'O\u001b[31mslo'}}, {...plain, green})
    expect(coloured).toContain('status         \u001b[32mfresh\u001b[39m (stale after 15 min)')
    expect(coloured).not.toContain('\u001b[31m')
  })

  it('describes a change in one line: the metadata fields and the latest document that differ', () => {
    const next: UnifiedState = {
      ...state,
      metadata: {...state.metadata, origin: 'Bergen', status: 'delivered'},
      telemetry: {recorded_at: '2026-03-01T12:01:00.000Z', payload: {temperature_c: 4.3, door: 'open'}},
      generated_at: '2026-03-01T12:01:02.000Z',
    }
    expect(renderShipmentChange(state, next)).toBe(
      '2026-03-01T12:01:02.000Z  SHP-1  metadata origin=Bergen status=delivered  ' +
        'telemetry 2026-03-01T12:01:00.000Z temperature_c=4.3 door=open',
    )
    expect(renderShipmentChange(state, {...state, generated_at: '2026-03-01T12:02:00.000Z'})).toBe(
      '2026-03-01T12:02:00.000Z  SHP-1  unchanged',
    )
  })

  it('says when there is no telemetry yet', () => {
    const text = renderUnifiedState(
      {...state, telemetry: null, freshness: {...state.freshness, last_seen_at: null, age_seconds: null, stale: true}},
      plain,
    )
    expect(text).toContain('Latest telemetry (mongodb)\n  none yet\n')
    expect(text).toContain('last seen    never')
    expect(text).toContain('status       stale (stale after 15 min)')
  })

  it('gives ages in their two largest units', () => {
    expect([0, 59, 61, 3600, 3725, 90_061].map(formatAge)).toEqual([
      '0 s',
      '59 s',
      '1 min 1 s',
      '1 h',
      '1 h 2 min',
      '1 d 1 h',
    ])
  })

  it('summarises an import', () => {
    expect(
      renderShipmentImport({
        metadata: {file: 'm.csv', store: 'sqlite', rows: 3, repeated_ids: 1, inserted: 2, updated: 1},
        telemetry: {file: 't.ndjson', store: 'mongodb', documents: 5, inserted: 4, duplicates: 1, repeated_in_file: 0},
      }),
    ).toBe(
      'Metadata: 3 shipments from m.csv into sqlite (2 added, 1 updated; 1 repeated id, the last row of each kept)\n' +
        'Telemetry: 5 documents from t.ndjson into mongodb (4 added, 1 already stored)',
    )
  })

  it('counts one document in the singular and tells repeats within the file from documents already stored', () => {
    expect(
      renderShipmentImport({
        metadata: {file: 'm.csv', store: 'sqlite', rows: 1, repeated_ids: 0, inserted: 1, updated: 0},
        telemetry: {file: 't.ndjson', store: 'sqlite', documents: 2, inserted: 1, duplicates: 0, repeated_in_file: 1},
      }),
    ).toBe(
      'Metadata: 1 shipment from m.csv into sqlite (1 added, 0 updated)\n' +
        'Telemetry: 2 documents from t.ndjson into sqlite (1 added, 0 already stored; 1 repeat of an earlier line of the file, stored once)',
    )
    expect(
      renderShipmentImport({
        telemetry: {file: 't.ndjson', store: 'sqlite', documents: 1, inserted: 0, duplicates: 1, repeated_in_file: 0},
      }),
    ).toBe('Telemetry: 1 document from t.ndjson into sqlite (0 added, 1 already stored)')
  })
})
