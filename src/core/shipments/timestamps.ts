import {isCalendarDay} from '../time.js'

/**
 * Epoch values below this are seconds, above it milliseconds: 1e11 seconds is the year 5138, 1e11 milliseconds
 * is March 1973, so neither reading of a real telemetry time is ambiguous.
 */
const SECONDS_LIMIT = 1e11

const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const EPOCH_TEXT = /^[+-]?\d+(\.\d+)?$/
/** ISO 8601 / RFC 3339 and what PostgreSQL prints: `2026-04-10 00:28:23.123456+00`, `2026-04-10T00:28:23Z`. */
const ISO_TEXT = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:[.,](\d+))?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** The two digits of `text` at `at` as a number (CANONICAL has checked they are digits). */
function twoDigits(text: string, at: number): number {
  return (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48
}

/**
 * Whether the text is a real instant exactly as toISOString() prints it. The calendar is checked by arithmetic:
 * Date would roll 02-30 over into March, and making one per lookup cost about 3% of the shipment route.
 */
function isCanonical(text: string): boolean {
  if (!CANONICAL.test(text)) return false
  const year = Number(text.slice(0, 4))
  const month = twoDigits(text, 5)
  const day = twoDigits(text, 8)
  if (month < 1 || month > 12 || day < 1) return false
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number)
  return day <= days && twoDigits(text, 11) < 24 && twoDigits(text, 14) < 60 && twoDigits(text, 17) < 60
}

function fromDate(date: Date): string | undefined {
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString()
}

function fromEpoch(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined
  const ms = Math.abs(value) < SECONDS_LIMIT ? value * 1000 : value
  return fromDate(new Date(Math.round(ms)))
}

function fromIsoText(text: string): string | undefined {
  const match = ISO_TEXT.exec(text)
  if (!match) return undefined
  const [, date = '', time = '00:00:00', fraction = '', zone = 'Z'] = match
  // Date rolls 2026-02-30 over into March: an impossible day is no time at all.
  const [year = 0, month = 0, day = 0] = date.split('-').map(Number)
  if (!isCalendarDay(year, month, day)) return undefined
  const seconds = time.length === 5 ? `${time}:00` : time
  const millis = fraction.padEnd(3, '0').slice(0, 3)
  const offset = /^[+-]\d{2}$/.test(zone)
    ? `${zone}:00`
    : zone.length === 5
      ? `${zone.slice(0, 3)}:${zone.slice(3)}`
      : zone
  // Text without a zone is taken as UTC, as for job posting dates: stores that drop the zone almost always mean UTC.
  return fromDate(new Date(`${date}T${seconds}.${millis}${offset.toUpperCase()}`))
}

/**
 * A stored time as ISO 8601 UTC with milliseconds (`2026-04-10T00:28:23.000Z`), or undefined when the value is no
 * time at all. Accepts ISO text (with or without zone), epoch seconds or milliseconds as numbers or digit
 * strings, Date objects (timestamptz from pg, BSON dates from the MongoDB driver) and extended JSON `{"$date": ...}`.
 * The output has a fixed width, so text comparison orders it in time (the embedded store relies on that).
 */
export function normaliseTimestamp(value: unknown): string | undefined {
  // What the embedded store holds and what this function returns: already normal (the hot path of every lookup).
  if (typeof value === 'string' && isCanonical(value)) return value
  if (value instanceof Date) return fromDate(value)
  if (typeof value === 'number') return fromEpoch(value)
  if (typeof value === 'bigint') return fromEpoch(Number(value))
  if (typeof value === 'string') {
    const text = value.trim()
    if (EPOCH_TEXT.test(text)) return fromEpoch(Number(text))
    // ISO text is read by its fields (an impossible day is refused); other text with letters (RFC 2822) by Date.
    if (ISO_TEXT.test(text)) return fromIsoText(text)
    return /[a-z]/i.test(text) ? fromDate(new Date(text)) : undefined
  }
  if (typeof value === 'object' && value !== null && '$date' in value) {
    const inner = (value as {$date: unknown}).$date
    // Extended JSON numbers are always milliseconds, even small ones.
    if (typeof inner === 'number') return fromDate(new Date(inner))
    if (typeof inner === 'object' && inner !== null && '$numberLong' in inner) {
      return fromDate(new Date(Number((inner as {$numberLong: unknown}).$numberLong)))
    }
    return typeof inner === 'string' ? normaliseTimestamp(inner) : undefined
  }
  return undefined
}
