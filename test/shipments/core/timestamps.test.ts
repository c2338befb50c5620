import {describe, expect, it} from 'vitest'
import {normaliseTimestamp} from '../../../src/shipments/core/timestamps.js'

describe('normaliseTimestamp', () => {
  const noon = '2026-03-01T12:00:00.000Z'

  it.each([
    ['ISO text with Z', '2026-03-01T12:00:00Z'],
    ['ISO text with milliseconds', '2026-03-01T12:00:00.000Z'],
    ['ISO text with an offset', '2026-03-01T13:00:00+01:00'],
    ['an offset without a colon', '2026-03-01T07:00:00-0500'],
    ['PostgreSQL timestamptz text', '2026-03-01 12:00:00+00'],
    ['PostgreSQL text with microseconds', '2026-03-01 12:00:00.000000+00'],
    ['naive text, taken as UTC', '2026-03-01 12:00:00'],
    ['naive text without seconds', '2026-03-01T12:00'],
    ['epoch seconds', 1772366400],
    ['epoch milliseconds', 1772366400000],
    ['epoch seconds as text', '1772366400'],
    ['epoch milliseconds as text', '1772366400000'],
    ['a bigint (int8 column)', 1772366400n],
    ['a Date (timestamptz from pg, BSON date from mongodb)', new Date(noon)],
    ['extended JSON $date text', {$date: '2026-03-01T12:00:00Z'}],
    ['extended JSON $date milliseconds', {$date: 1772366400000}],
    ['extended JSON $numberLong', {$date: {$numberLong: '1772366400000'}}],
    ['RFC 2822 text', 'Sun, 01 Mar 2026 12:00:00 GMT'],
  ])('reads %s as ISO 8601 UTC', (_name, value) => {
    expect(normaliseTimestamp(value)).toBe(noon)
  })

  it('keeps fractional epoch seconds to the millisecond', () => {
    expect(normaliseTimestamp(1772366400.25)).toBe('2026-03-01T12:00:00.250Z')
  })

  it('refuses an impossible day instead of rolling it over into the next month', () => {
    expect(normaliseTimestamp('2026-02-30T00:00:00.000Z')).toBeUndefined()
    expect(normaliseTimestamp('2026-02-29T10:00:00Z')).toBeUndefined()
    expect(normaliseTimestamp('2024-02-29T10:00:00Z')).toBe('2024-02-29T10:00:00.000Z')
    expect(normaliseTimestamp('2026-04-31')).toBeUndefined()
  })

  it('passes canonical text on exactly when it is a real calendar day and Date agrees it is a real instant', () => {
    const texts: string[] = []
    for (const year of ['1900', '2000', '2024', '2026', '0000'])
      for (let month = 0; month <= 13; month++)
        for (const day of [0, 1, 28, 29, 30, 31, 32])
          for (const time of ['00:00:00', '23:59:59', '24:00:00', '23:60:00', '23:59:60'])
            texts.push(`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${time}.000Z`)
    const realDay = (text: string) => {
      const [year = 0, month = 0, day = 0] = text.slice(0, 10).split('-').map(Number)
      const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0
      return day >= 1 && day <= days
    }
    // The hour 24 (the end of a day, which Date reads as the next midnight) is refused, as in every date jobagent reads.
    const hour24 = (text: string) => text.slice(11, 13) === '24'
    for (const text of texts) {
      const date = new Date(text)
      const expected = Number.isNaN(date.getTime()) || !realDay(text) || hour24(text) ? undefined : date.toISOString()
      expect(normaliseTimestamp(text), text).toBe(expected)
    }
  })

  it('reads a plain date as midnight UTC', () => {
    expect(normaliseTimestamp('2026-03-01')).toBe('2026-03-01T00:00:00.000Z')
  })

  it.each([['not a time'], [''], [null], [undefined], [Number.NaN], [{}], [true], [new Date('nope')], ['2026-13-45']])(
    'returns undefined for %j',
    (value) => {
      expect(normaliseTimestamp(value)).toBeUndefined()
    },
  )

  it('gives fixed-width text, so text order is time order', () => {
    const times = [1, 1772366400, '2001-09-09T01:46:40Z'].map(normaliseTimestamp) as string[]
    expect(new Set(times.map((time) => time.length))).toEqual(new Set([24]))
  })
})
