import {epochMilliseconds, isCalendarDay, parseDateTime, utcInstant} from '../../core/time.js'

const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const EPOCH_TEXT = /^[+-]?\d+(\.\d+)?$/
/** Text that starts as an ISO date does (`2026-04-10 00:28:23.123456+00` from PostgreSQL): read by parseDateTime. */
const ISO_START = /^\d{4}-\d{2}-\d{2}/

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
  return (
    isCalendarDay(Number(text.slice(0, 4)), twoDigits(text, 5), twoDigits(text, 8)) &&
    twoDigits(text, 11) < 24 &&
    twoDigits(text, 14) < 60 &&
    twoDigits(text, 17) < 60
  )
}

function fromDate(date: Date): string | undefined {
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString()
}

function fromEpoch(value: number): string | undefined {
  return Number.isFinite(value) ? fromDate(new Date(Math.round(epochMilliseconds(value)))) : undefined
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
    // ISO text is read by its fields (an impossible day or time is refused), text without a zone as UTC, as for job
    // posting dates: stores that drop the zone almost always mean UTC. Other text with letters (RFC 2822) by Date.
    if (ISO_START.test(text)) {
      const fields = parseDateTime(text)
      return fields ? fromDate(new Date(utcInstant(fields))) : undefined
    }
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
