import {describe, expect, it} from 'vitest'
import {localTimestamp, parseDateTime, toLocalTimestamp, utcInstant} from '../../src/core/time.js'

describe('toLocalTimestamp', () => {
  it('keeps a local timestamp, filling in seconds and milliseconds and cutting finer digits', () => {
    expect(toLocalTimestamp('2026-11-22T05:17:33.123')).toBe('2026-11-22T05:17:33.123')
    expect(toLocalTimestamp(' 2026-11-22 05:17 ')).toBe('2026-11-22T05:17:00.000')
    expect(toLocalTimestamp('2026-11-22T05:17:33.9')).toBe('2026-11-22T05:17:33.900')
    expect(toLocalTimestamp('2026-11-22T05:17:33.123999')).toBe('2026-11-22T05:17:33.123')
    expect(toLocalTimestamp('2026-11-22')).toBe('2026-11-22T00:00:00.000')
    expect(toLocalTimestamp('2028-02-29')).toBe('2028-02-29T00:00:00.000')
  })

  it('converts a zone or offset to the local time of the same instant', () => {
    // Compared with Date's own reading of the instant, so the test holds in any TZ (the e2e test fixes one).
    for (const given of ['2026-11-22T04:17:33.123Z', '2026-07-01T10:00:00+02:00', '2026-11-22T05:17:33-0800']) {
      expect(toLocalTimestamp(given), given).toBe(localTimestamp(new Date(given.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'))))
    }
    expect(toLocalTimestamp('2026-11-22T05:17:33+05')).toBe(localTimestamp(new Date('2026-11-22T05:17:33+05:00')))
  })

  it('refuses days and times that do not exist and text of another form', () => {
    for (const given of [
      '2026-02-30',
      '2027-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-11-00',
      '2026-11-22T25:00',
      '2026-11-22T24:00',
      '2026-11-22T10:60',
      '2026-11-22T10:00:61',
      '2026-11-22T10:00+24:00',
      '2026-11-22T10:00+01:75',
      '22.11.2026',
      '2026-11-22Z',
      'yesterday',
      '',
    ]) {
      expect(toLocalTimestamp(given), given).toBeUndefined()
    }
  })
})

describe('parseDateTime', () => {
  it('reads every zone form alike: Z, UTC, GMT, an offset with or without a colon, after a space or not', () => {
    const instant = Date.UTC(2026, 10, 22, 4, 17, 33)
    for (const given of [
      '2026-11-22T04:17:33Z',
      '2026-11-22T04:17:33 utc',
      '2026-11-22 04:17:33 GMT',
      '2026-11-22T05:17:33+01:00',
      '2026-11-22T05:17:33+0100',
      '2026-11-22T05:17:33 +01',
      '2026-11-21T23:17:33-05:00',
    ]) {
      const fields = parseDateTime(given)
      expect(fields && utcInstant(fields), given).toBe(instant)
    }
  })

  it('tells a date alone and a time without a zone apart', () => {
    expect(parseDateTime('2026-11-22')).toMatchObject({hasTime: false, hour: 0, offsetMinutes: undefined})
    expect(parseDateTime('2026-11-22T05:17')).toMatchObject({
      hasTime: true,
      hour: 5,
      minute: 17,
      offsetMinutes: undefined,
    })
  })

  it('refuses a leap second, the hour 24 and an offset beyond 23:59, which Date would roll over', () => {
    for (const given of [
      '2026-12-31T23:59:60Z',
      '2026-11-22T24:00:00Z',
      '2026-11-22T10:00+24:00',
      '2026-11-22T10:00-01:60',
    ]) {
      expect(parseDateTime(given), given).toBeUndefined()
    }
  })
})
