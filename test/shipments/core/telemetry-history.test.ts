import {describe, expect, it} from 'vitest'
import {ValidationError} from '../../../src/core/errors.js'
import {checkHistoryQuery, encodeCursor, historyPage} from '../../../src/shipments/core/telemetry-history.js'
import {fakeStores, serviceWith} from '../../helpers/shipments.js'

function refusal(query: Parameters<typeof checkHistoryQuery>[0]): ValidationError {
  try {
    checkHistoryQuery(query)
  } catch (error) {
    if (error instanceof ValidationError) return error
    throw error
  }
  throw new Error('the query was accepted')
}

describe('checkHistoryQuery', () => {
  it('fills in the default limit and takes no bounds by default', () => {
    expect(checkHistoryQuery({})).toEqual({limit: 100})
  })

  it('normalises ISO 8601 bounds to UTC with milliseconds and decodes the cursor', () => {
    const cursor = encodeCursor('2026-03-01 10:00:00.000123+00')
    expect(checkHistoryQuery({since: '2026-03-01T11:00:00+01:00', until: '2026-03-02', limit: '1000', cursor})).toEqual(
      {
        since: '2026-03-01T10:00:00.000Z',
        until: '2026-03-02T00:00:00.000Z',
        limit: 1000,
        after: '2026-03-01 10:00:00.000123+00',
      },
    )
    expect(checkHistoryQuery({since: '2026-03-01', until: '2026-03-01', limit: 1}).limit).toBe(1)
  })

  it('refuses epoch numbers and text that is no time, naming the parameter', () => {
    expect(refusal({since: '1772359200'}).details).toEqual([
      {field: 'since', message: 'since must be an ISO 8601 time such as 2026-04-10T00:28:23Z, got "1772359200"'},
    ])
    expect(refusal({until: 'tomorrow'}).details[0]?.field).toBe('until')
  })

  it('refuses until before since', () => {
    expect(refusal({since: '2026-03-02', until: '2026-03-01T23:59:59Z'}).message).toBe(
      'until (2026-03-01T23:59:59.000Z) must not be before since (2026-03-02T00:00:00.000Z)',
    )
  })

  it.each([0, 1001, 2.5, '', '1e3', '-1'])('refuses limit %j', (limit) => {
    expect(refusal({limit}).details.map((detail) => detail.field)).toEqual(['limit'])
  })

  it.each(['', 'a+b', 'YQ=', 'not base64!'])('refuses cursor %j', (cursor) => {
    expect(refusal({cursor}).message).toBe('cursor must be the next_cursor of an earlier page, unchanged')
  })

  it.each([
    '0',
    'zzzz',
    '\u0000',
    '2026',
    'n:',
    'n:abc',
    'd:soon',
    's:odd',
    '2026-03-01T10:00:00Z\u0000',
    'x:2026-03-01',
  ])('refuses a well-encoded cursor of %j, which no page gave', (key) => {
    expect(refusal({cursor: encodeCursor(key)}).details).toEqual([
      {field: 'cursor', message: 'cursor must be the next_cursor of an earlier page, unchanged'},
    ])
  })

  it.each([
    '2026-03-01T10:00:00.000Z',
    '2026-03-01 10:00:00.000123+00',
    '2026-03-01 10:00:00',
    'n:1772359200',
    'n:1772359200.5',
    'd:1772359200000',
    's:2026-03-01T11:00:00Z',
  ])('takes the cursor of a page key %j as stores make them', (key) => {
    expect(checkHistoryQuery({cursor: encodeCursor(key)}).after).toBe(key)
  })
})

describe('historyPage', () => {
  const rows = [1, 2, 3].map((n) => ({n}))
  const toDocument = (row: {n: number}) => ({recorded_at: `t${row.n}`, payload: row})
  const key = (row: {n: number}) => `k${row.n}`

  it('keeps `limit` documents and names the key of the last one when one more came', () => {
    expect(historyPage(rows, 2, toDocument, key)).toEqual({documents: rows.slice(0, 2).map(toDocument), next: 'k2'})
  })

  it('says no page follows when no more came', () => {
    expect(historyPage(rows, 3, toDocument, key).next).toBeNull()
    expect(historyPage([], 3, toDocument, key)).toEqual({documents: [], next: null})
  })
})

describe('ShipmentService.history', () => {
  const rows = {S1: {shipment_id: 'S1'}}
  const latest = {S1: {recorded_at: '2026-03-01T10:00:00.000Z', payload: {n: 1}}}

  it('counts each answer as a lookup, by result', async () => {
    const results: string[] = []
    const service = serviceWith(fakeStores(rows, latest), {
      metrics: {lookup: (result) => results.push(result), storeLatency: () => {}},
    })
    expect(await service.history('S1')).toEqual({
      shipment_id: 'S1',
      telemetry: [latest.S1],
      count: 1,
      limit: 100,
      next_cursor: null,
    })
    await expect(service.history('S9')).rejects.toMatchObject({kind: 'not_found'})
    await expect(service.history('S1', {limit: 0})).rejects.toMatchObject({kind: 'validation'})
    expect(results).toEqual(['found', 'not_found', 'invalid'])
  })

  it('passes a store refusing the bounds on as the request error, not as a store down', async () => {
    const refused = new ValidationError('the time field cannot be compared with since', {
      details: [{field: 'since', message: 'no'}],
    })
    const results: string[] = []
    const service = serviceWith(fakeStores(rows, latest, {failTelemetry: refused}), {
      metrics: {lookup: (result) => results.push(result), storeLatency: () => {}},
    })
    await expect(service.history('S1', {since: '2026-03-01'})).rejects.toBe(refused)
    expect(results).toEqual(['invalid'])
  })

  it('refuses to serve a document nested deeper than any import stores', async () => {
    let deep: unknown = {}
    for (let level = 0; level < 70; level++) deep = {deep}
    const service = serviceWith(
      fakeStores(rows, {S1: {recorded_at: '2026-03-01T10:00:00.000Z', payload: deep as Record<string, unknown>}}),
    )
    await expect(service.history('S1')).rejects.toMatchObject({
      kind: 'validation',
      message: expect.stringContaining('telemetry document recorded at 2026-03-01T10:00:00.000Z'),
    })
  })
})
