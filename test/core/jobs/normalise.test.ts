import {describe, expect, it} from 'vitest'
import {cleanText, cleanUrl, normalisePostedDate} from '../../../src/core/jobs/normalise.js'

describe('cleanText', () => {
  it('removes escape sequences and bidi overrides from board text, keeping the words', () => {
    expect(cleanText('Dev\u001b]0;pwned\u0007ops \u001b[2JEngineer')).toBe('Dev ]0;pwned ops [2JEngineer')
    expect(cleanText('Engineer \u202eRLO\u202c \u2066isolated\u2069 \u009b31m')).toBe('Engineer RLO isolated 31m')
    expect(cleanText('&#x202E;reversed&#x1b;')).toBe('reversed')
    // The marks that only steer a neutral character stay: right-to-left names use them.
    expect(cleanText('\u05e9\u05dc\u05d5\u05dd\u200f (Tel Aviv)')).toBe('\u05e9\u05dc\u05d5\u05dd\u200f (Tel Aviv)')
  })

  it('decodes HTML entities, named and numeric', () => {
    expect(cleanText('CI&amp;T')).toBe('CI&T')
    expect(cleanText('DevOps &amp; SysAdmin')).toBe('DevOps & SysAdmin')
    expect(cleanText('It&#x27;s a &#x2F;job&#x2F; &hellip;')).toBe("It's a /job/ …")
  })

  it('repairs UTF-8 that was encoded twice', () => {
    expect(cleanText('S\u00c3\u00a3o Paulo')).toBe('São Paulo')
    expect(cleanText('Gothenburg, V\u00c3\u00a4stra G\u00c3\u00b6taland, Sweden')).toBe(
      'Gothenburg, Västra Götaland, Sweden',
    )
    expect(cleanText('\u00e2\u0082\u00ac100k')).toBe('€100k')
  })

  it('repairs a double encoding next to characters outside Latin-1', () => {
    expect(cleanText('S\u00c3\u00a3o Paulo – São Paulo')).toBe('São Paulo – São Paulo')
  })

  it('leaves real Latin-1 text alone when it does not decode as UTF-8', () => {
    expect(cleanText('Zürich')).toBe('Zürich')
    expect(cleanText('café crème, Bogotá')).toBe('café crème, Bogotá')
    expect(cleanText('Wutöschingen')).toBe('Wutöschingen')
  })

  it('collapses whitespace, including non-breaking spaces, and trims', () => {
    expect(cleanText('  LATAM,  Canada,\n\tUSA  ')).toBe('LATAM, Canada, USA')
    expect(cleanText('Senior&nbsp;Engineer\u00a0 ')).toBe('Senior Engineer')
    expect(cleanText('Coalition Technologies ')).toBe('Coalition Technologies')
  })

  it('turns missing values into the empty string and numbers into text', () => {
    expect(cleanText(undefined)).toBe('')
    expect(cleanText(null)).toBe('')
    expect(cleanText({name: 'x'})).toBe('')
    expect(cleanText(2024)).toBe('2024')
  })
})

describe('normalisePostedDate', () => {
  it('reads epoch seconds, as a number or a numeric string', () => {
    expect(normalisePostedDate(1733260504)).toBe('2024-12-03T21:15:04Z')
    expect(normalisePostedDate('1733260504')).toBe('2024-12-03T21:15:04Z')
  })

  it('reads epoch milliseconds, told apart by magnitude', () => {
    expect(normalisePostedDate(1777410676083)).toBe('2026-04-28T21:11:16Z')
    expect(normalisePostedDate('1777410676083')).toBe('2026-04-28T21:11:16Z')
  })

  it('converts ISO 8601 with an offset to UTC and drops milliseconds', () => {
    expect(normalisePostedDate('2024-12-03T21:15:04+00:00')).toBe('2024-12-03T21:15:04Z')
    expect(normalisePostedDate('2026-04-17T05:58:03-04:00')).toBe('2026-04-17T09:58:03Z')
    expect(normalisePostedDate('2026-04-02T21:00:55.755+00:00')).toBe('2026-04-02T21:00:55Z')
    expect(normalisePostedDate('2026-04-10T00:28:23.123456Z')).toBe('2026-04-10T00:28:23Z')
    expect(normalisePostedDate('2026-04-10T05:58:23+0530')).toBe('2026-04-10T00:28:23Z')
  })

  it('takes naive ISO and "YYYY-MM-DD HH:MM:SS" as UTC, whatever the machine zone', () => {
    expect(normalisePostedDate('2026-07-28T14:23:05')).toBe('2026-07-28T14:23:05Z')
    expect(normalisePostedDate('2024-12-07 04:10:26')).toBe('2024-12-07T04:10:26Z')
    expect(normalisePostedDate('2026-07-28T14:23')).toBe('2026-07-28T14:23:00Z')
  })

  it('reads RFC 2822 dates (RSS pubDate), with a numeric or named zone', () => {
    expect(normalisePostedDate('Fri, 10 Jul 2026 22:45:30 +0000')).toBe('2026-07-10T22:45:30Z')
    expect(normalisePostedDate('Fri, 10 Jul 2026 22:45:30 GMT')).toBe('2026-07-10T22:45:30Z')
    expect(normalisePostedDate('Fri, 10 Jul 2026 18:45:30 -0400')).toBe('2026-07-10T22:45:30Z')
    expect(normalisePostedDate('Fri, 10 Jul 2026 17:45:30 EST')).toBe('2026-07-10T22:45:30Z')
    expect(normalisePostedDate('10 Jul 2026 22:45:30')).toBe('2026-07-10T22:45:30Z')
  })

  it('reads a date before 1973 as the instant it names, not as epoch seconds', () => {
    expect(normalisePostedDate('1971-06-01T00:00:00Z')).toBe('1971-06-01T00:00:00Z')
    expect(normalisePostedDate('Tue, 01 Jun 1971 00:00:00 GMT')).toBe('1971-06-01T00:00:00Z')
  })

  it('refuses a leap second and an offset beyond 23:59 rather than rolling them over', () => {
    expect(normalisePostedDate('2026-12-31T23:59:60Z')).toBeNull()
    expect(normalisePostedDate('2026-04-10T05:58:23+25:00')).toBeNull()
  })

  it('keeps a plain date as a plain date', () => {
    expect(normalisePostedDate('2026-04-10')).toBe('2026-04-10')
    expect(normalisePostedDate(' 2026-04-10 ')).toBe('2026-04-10')
  })

  it('accepts a Date', () => {
    expect(normalisePostedDate(new Date(Date.UTC(2026, 3, 10, 0, 28, 23, 500)))).toBe('2026-04-10T00:28:23Z')
  })

  it('returns null for empty, invalid or unknown values', () => {
    for (const value of [
      undefined,
      null,
      '',
      '   ',
      0,
      -5,
      Number.NaN,
      'yesterday',
      '2026-02-30',
      '2026-13-01T00:00:00Z',
      '2026-04-10T25:00:00Z',
      'Fri, 10 Jul 2026 22:45:30 CET',
      {},
      true,
    ]) {
      expect(normalisePostedDate(value), String(value)).toBeNull()
    }
  })
})

describe('cleanUrl', () => {
  it.each([
    ['  https://example.org/jobs/1 \n', 'https://example.org/jobs/1'],
    ['\u0000\u00a0https://example.org/a\tb\r\n/c\u001b', 'https://example.org/ab/c'],
    ['https://example.org/\udc00x', 'https://example.org/\ufffdx'],
    ['https://example.org/caf%C3%A9?q=a b', 'https://example.org/caf%C3%A9?q=a b'],
    // Inside the link, control and bidi characters are percent-encoded as a browser sends them: the same address.
    [
      'https://example.org/a\u001b]8;;https://evil.example\u0007b',
      'https://example.org/a%1B]8;;https://evil.example%07b',
    ],
    ['https://example.org/\u202egpj.exe?x=\u0085y', 'https://example.org/%E2%80%AEgpj.exe?x=%C2%85y'],
  ])('reads %j as %j', (raw, clean) => {
    expect(cleanUrl(raw)).toBe(clean)
  })

  it('gives the empty string for what is not text', () => {
    expect(cleanUrl(undefined)).toBe('')
    expect(cleanUrl(42)).toBe('')
  })
})
