import {decode} from 'html-entities'
import {encodeControlsInUrl, removeBidiControls} from '../control-characters.js'
import {trimEdgesOf} from '../text-runs.js'
import {epochMilliseconds, parseDateTime, utcInstant, utcTimestamp} from '../time.js'

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

// biome-ignore lint/suspicious/noControlCharactersInRegex: a URL parser drops these at the ends, as this does
const URL_EDGE = /[\s\u0000-\u001f\u007f-\u009f]/
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
  return encodeControlsInUrl(trimEdgesOf(value.replace(TAB_OR_NEWLINE, '').replace(LONE_SURROGATE, '\uFFFD'), URL_EDGE))
}

const NUMERIC = /^\d+(?:\.\d+)?$/
/** RFC 2822 (RSS pubDate): `Fri, 10 Jul 2026 22:45:30 +0000`; the zone is optional here and then taken as UTC. */
const RFC_2822 =
  /^(?:[a-z]{3},?\s+)?\d{1,2}\s+[a-z]{3}\s+\d{2,4}\s+\d{1,2}:\d{2}(?::\d{2})?(\s+(?:[+-]\d{4}|UT|UTC|GMT|Z|[ECMP][SD]T))?$/i

/** The last moment a four-digit year can name; a later "epoch" would print as `+033658-...`, no date at all. */
const LAST_FOUR_DIGIT_YEAR = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

/** An instant in milliseconds as a posting date; none before 1970 or after the year 9999. */
function fromInstant(time: number): string | null {
  if (!Number.isFinite(time) || time <= 0 || time > LAST_FOUR_DIGIT_YEAR) return null
  return utcTimestamp(new Date(time))
}

/**
 * A board's posting time as ISO 8601 UTC without milliseconds (`2026-04-10T00:28:23Z`). Accepts epoch seconds
 * or milliseconds (number or numeric string, told apart by magnitude), ISO 8601 with an offset, naive ISO or
 * `YYYY-MM-DD HH:MM:SS` (taken as UTC) and RFC 2822. A plain `YYYY-MM-DD` stays a plain date.
 * Anything else (empty, invalid, unknown zone names) is null: no date is better than a wrong one.
 */
export function normalisePostedDate(value: unknown): string | null {
  if (typeof value === 'number') return fromInstant(epochMilliseconds(value))
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : utcTimestamp(value)
  if (typeof value !== 'string') return null
  const text = value.trim()
  if (text === '') return null
  if (NUMERIC.test(text)) return fromInstant(epochMilliseconds(Number(text)))

  // A plain date stays a plain date; a date-time without a zone is taken as UTC, never as the machine's local time.
  const iso = parseDateTime(text)
  if (iso) return iso.hasTime ? fromInstant(utcInstant(iso)) : text

  const rfc = RFC_2822.exec(text)
  if (rfc) {
    // Date.parse reads a zoneless RFC 2822 string as local time; jobagent takes it as UTC.
    const time = Date.parse(rfc[1] ? text : `${text} +0000`)
    return fromInstant(time)
  }
  return null
}
