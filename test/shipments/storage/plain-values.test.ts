import {describe, expect, it} from 'vitest'
import {plainRow} from '../../../src/shipments/storage/plain-values.js'

describe('plainRow', () => {
  it('turns dates, binary and 64-bit integers into JSON values and leaves the rest as it is', () => {
    const row = {
      text: 'SHP-1',
      number: 2.5,
      none: null,
      at: new Date('2026-03-01T12:00:00Z'),
      bad_date: new Date('nope'),
      bytes: Buffer.from('hi'),
      small: 42n,
      huge: 2n ** 63n - 1n,
    }
    expect(plainRow(row)).toEqual({
      text: 'SHP-1',
      number: 2.5,
      none: null,
      at: '2026-03-01T12:00:00.000Z',
      bad_date: null,
      bytes: 'aGk=',
      small: 42,
      huge: '9223372036854775807',
    })
    expect(JSON.parse(JSON.stringify(plainRow({a: 1n, b: new Date(0)})))).toEqual({a: 1, b: '1970-01-01T00:00:00.000Z'})
  })
})
