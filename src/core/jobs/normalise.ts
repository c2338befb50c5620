import {decode} from 'html-entities'
import {encodeControlsInUrl, removeBidiControls} from '../control-characters.js'
import {isCalendarDay, utcTimestamp} from '../time.js'

/**
 * One well-formed UTF-8 sequence read as Latin-1 characters: what "São" becomes ("SÃ£o") when a board encodes
 * UTF-8 bytes twice. Matching whole sequences only keeps real Latin-1 text ("Zürich", "café") untouched.
 */
const DOUBLE_ENCODED =
  /[\u00c2-\u00df][\u0080-\u00bf]|[\u00e0-\u00ef][\u0080-\u00bf]{2}|[\u00f0-\u00f4][\u0080-\u00bf]{3}/g

const strictUtf8 = new TextDecoder('utf-8', {fatal: true})

function repairDoubleEncoding(text: string): string {
  return text.replace(DOUBLE_ENCODED, (sequence) => {
    const bytes = Uint8Array.from(sequence, (character) => character.charCodeAt(0))
    try {
      // Only bytes that decode as strict UTF-8 prove a double encoding; anything else is left as written.
      return strictUtf8.decode(bytes)
    } catch {
      return sequence
    }
  })
}

/**
 * Whitespace and control characters (C0, DEL, C1): a board's NUL or ESC is never part of a job's text, and an
 * escape sequence would drive the terminal of whoever lists the jobs.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this removes
const SPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f-\u009f]+/g
/** Half a surrogate pair (`&#xD800;` decodes to one) is no text; HTML5 reads it as U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/**
 * Board text as a person would read it: HTML entities decoded (`CI&amp;T` -> `CI&T`), double-encoded UTF-8
 * repaired (`SÃ£o Paulo` -> `São Paulo`), whitespace and control characters collapsed to single spaces, bidi
 * overrides and isolates removed (they would make a title display in another order than it is stored), trimmed.
 * Anything that is not a string or a number becomes the empty string, so adapters can pass raw fields.
 */
export function cleanText(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value !== 'string' || value === '') return ''
  return removeBidiControls(repairDoubleEncoding(decode(value, {level: 'html5'})))
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(SPACE_OR_CONTROL, ' ')
    .trim()
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: a URL parser drops these, as this does
const URL_EDGE = /^[\s\u0000-\u001f\u007f-\u009f]+|[\s\u0000-\u001f\u007f-\u009f]+$/g
const TAB_OR_NEWLINE = /[\t\n\r]/g

/**
 * A posting's link as a browser would read it (after the WHATWG URL rules): white space and control characters at
 * either end and every tab or newline removed, half a surrogate pair (which no URL can encode) read as U+FFFD,
 * and the control and bidi characters left inside percent-encoded (`%1B`, `%E2%80%AE`) as a browser sends them,
 * so the link leads where it led and holds nothing a terminal would act on.
 * Anything that is not a string becomes the empty string.
 */
export function cleanUrl(value: unknown): string {
  if (typeof value !== 'string') return ''
  return encodeControlsInUrl(value.replace(TAB_OR_NEWLINE, '').replace(LONE_SURROGATE, '\uFFFD').replace(URL_EDGE, ''))
}

/** Epoch values below this are seconds, above it milliseconds (1e11 s is the year 5138, 1e11 ms is 1973). */
const MILLISECONDS_THRESHOLD = 1e11

const NUMERIC = /^\d+(?:\.\d+)?$/
const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/i
/** RFC 2822 (RSS pubDate): `Fri, 10 Jul 2026 22:45:30 +0000`; the zone is optional here and then taken as UTC. */
const RFC_2822 =
  /^(?:[a-z]{3},?\s+)?\d{1,2}\s+[a-z]{3}\s+\d{2,4}\s+\d{1,2}:\d{2}(?::\d{2})?(\s+(?:[+-]\d{4}|UT|UTC|GMT|Z|[ECMP][SD]T))?$/i

/** The last moment a four-digit year can name; a later "epoch" would print as `+033658-...`, no date at all. */
const LAST_FOUR_DIGIT_YEAR = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

function fromEpoch(value: number): string | null {
  if (!Number.isFinite(value) || value <= 0) return null
  const date = new Date(value >= MILLISECONDS_THRESHOLD ? value : value * 1000)
  return Number.isNaN(date.getTime()) || date.getTime() > LAST_FOUR_DIGIT_YEAR ? null : utcTimestamp(date)
}

function offsetMinutes(zone: string | undefined): number {
  if (!zone || /^(Z|UTC|GMT)$/i.test(zone)) return 0
  const match = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)
  if (!match) return 0
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0)
  return match[1] === '-' ? -minutes : minutes
}

function fromIsoDateTime(match: RegExpExecArray): string | null {
  const [, year, month, day, hour, minute, second, fraction, zone] = match
  const parts = [year, month, day, hour, minute, second ?? '0'].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const [y, mo, d, h, mi, s] = parts
  if (!isCalendarDay(y, mo, d) || h > 23 || mi > 59 || s > 60) return null
  const millis = fraction ? Number(fraction.slice(0, 3).padEnd(3, '0')) : 0
  // A string without a zone is taken as UTC, never as the machine's local time.
  const time = Date.UTC(y, mo - 1, d, h, mi, s, millis) - offsetMinutes(zone) * 60_000
  return fromEpoch(time)
}

/**
 * A board's posting time as ISO 8601 UTC without milliseconds (`2026-04-10T00:28:23Z`). Accepts epoch seconds
 * or milliseconds (number or numeric string, told apart by magnitude), ISO 8601 with an offset, naive ISO or
 * `YYYY-MM-DD HH:MM:SS` (taken as UTC) and RFC 2822. A plain `YYYY-MM-DD` stays a plain date.
 * Anything else (empty, invalid, unknown zone names) is null: no date is better than a wrong one.
 */
export function normalisePostedDate(value: unknown): string | null {
  if (typeof value === 'number') return fromEpoch(value)
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : utcTimestamp(value)
  if (typeof value !== 'string') return null
  const text = value.trim()
  if (text === '') return null
  if (NUMERIC.test(text)) return fromEpoch(Number(text))

  const plain = PLAIN_DATE.exec(text)
  if (plain) return isCalendarDay(Number(plain[1]), Number(plain[2]), Number(plain[3])) ? text : null

  const iso = ISO_DATE_TIME.exec(text)
  if (iso) return fromIsoDateTime(iso)

  const rfc = RFC_2822.exec(text)
  if (rfc) {
    // Date.parse reads a zoneless RFC 2822 string as local time; jobagent takes it as UTC.
    const time = Date.parse(rfc[1] ? text : `${text} +0000`)
    return Number.isNaN(time) ? null : fromEpoch(time)
  }
  return null
}
