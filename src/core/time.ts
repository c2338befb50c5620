const pad = (value: number, width = 2) => String(value).padStart(width, '0')

/** `2026-11-22T05:17:33.123`: ISO 8601 in local time without a zone, the format of applied_date and log lines. */
export function localTimestamp(date: Date = new Date()): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`
  )
}

/**
 * `2026-11-22T05:17:33.123+01:00`: the local timestamp with the UTC offset it had, the time of a status history
 * entry. Changes made either side of a change of zone (a trip, a move, the switch to summer time) then still say in
 * what order they happened, which their local times alone do not.
 */
export function offsetTimestamp(date: Date = new Date()): string {
  const east = -date.getTimezoneOffset()
  const minutes = Math.abs(east)
  return `${localTimestamp(date)}${east < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`
}

/** The local timestamp of an offsetTimestamp (a local one is its own): what the record's own times keep. */
export function wallClockOf(timestamp: string): string {
  return timestamp.slice(0, 23)
}

/**
 * The earliest year the tracker takes in a date a person or a file gives (an interview's time, an imported
 * applied_date). A year written with fewer digits (`0026` for 2026) is a typing mistake, not a date: JavaScript's
 * Date.UTC reads the years 0-99 as 1900-1999, and no job search tracked here is older than 1970.
 */
export const EARLIEST_YEAR = 1970

/** The number of days of a month (1-12) of a year in the proleptic Gregorian calendar, leap years included. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}

/** A day that exists: month 1-12 and a day of that month (Date would roll 2026-02-30 over into March). */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
}

/**
 * A date, optionally with a time (minutes at least, `T` or a space between) and a zone: `Z`, `UTC`, `GMT`,
 * `+02:00`, `+0200` or `+02`, optionally after a space.
 */
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?)?$/i

/** The fields of an ISO 8601 date or date-time (parseDateTime). */
interface DateTimeFields {
  year: number
  month: number
  day: number
  /** 0 when the text is a date alone. */
  hour: number
  minute: number
  second: number
  /** The first three digits of the fraction; finer digits are cut off. */
  millisecond: number
  /** Whether the text holds a time at all. */
  hasTime: boolean
  /** East of UTC in minutes; undefined when the text names no zone. */
  offsetMinutes: number | undefined
}

/**
 * The fields of ISO 8601 text, each checked: a day that exists, hours 0-23, minutes and seconds 0-59 (no leap
 * second), an offset of at most 23:59. Undefined for text of another form and for any field out of range, which
 * Date would quietly roll over into the next minute, day or month. Every ISO date of jobagent is read here: posting
 * dates of boards (UTC when zoneless) and dates of imported applications (local when zoneless).
 */
export function parseDateTime(text: string): DateTimeFields | undefined {
  const match = ISO_DATE_TIME.exec(text)
  if (!match) return undefined
  const [, year = '', month = '', day = '', hour, minute = '00', second = '00', fraction = '', zone] = match
  const fields = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour ?? 0),
    minute: Number(minute),
    second: Number(second),
    millisecond: Number(fraction.slice(0, 3).padEnd(3, '0')),
    hasTime: hour !== undefined,
    offsetMinutes: zone === undefined ? undefined : zoneOffsetMinutes(zone),
  }
  const {hour: h, minute: mi, second: s, offsetMinutes} = fields
  if (!isCalendarDay(fields.year, fields.month, fields.day) || h > 23 || mi > 59 || s > 59) return undefined
  return Number.isNaN(offsetMinutes) ? undefined : fields
}

/** `Z`, `UTC` and `GMT` are 0; `+HH`, `+HHMM` and `+HH:MM` up to 23:59 east or west; anything else NaN. */
function zoneOffsetMinutes(zone: string): number {
  if (/^(Z|UTC|GMT)$/i.test(zone)) return 0
  const hours = Number(zone.slice(1, 3))
  const minutes = Number(zone.slice(3).replace(':', '') || '0')
  if (hours > 23 || minutes > 59) return Number.NaN
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes)
}

/** The instant of date-time fields; zoneless fields are read as UTC. */
export function utcInstant(fields: DateTimeFields): number {
  const {year, month, day, hour, minute, second, millisecond, offsetMinutes = 0} = fields
  return Date.UTC(year, month - 1, day, hour, minute, second, millisecond) - offsetMinutes * 60_000
}

/**
 * An ISO 8601 date or date-time in the form of `localTimestamp` (`2026-11-22T05:17:33.123`): a zone or offset is
 * converted to local time, a date alone is midnight, digits beyond milliseconds are cut off. Undefined for text
 * that parseDateTime refuses.
 */
export function toLocalTimestamp(text: string): string | undefined {
  const fields = parseDateTime(text.trim())
  if (!fields) return undefined
  if (fields.offsetMinutes !== undefined) return localTimestamp(new Date(utcInstant(fields)))
  const {year, month, day, hour, minute, second, millisecond} = fields
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}.${pad(millisecond, 3)}`
}

/** Epoch values below this are seconds, above it milliseconds (1e11 s is the year 5138, 1e11 ms is 1973). */
const MILLISECONDS_THRESHOLD = 1e11

/** Epoch seconds or milliseconds as milliseconds, told apart by magnitude; real times are never ambiguous. */
export function epochMilliseconds(value: number): number {
  return Math.abs(value) < MILLISECONDS_THRESHOLD ? value * 1000 : value
}

/** `2026-04-10T00:28:23Z`: ISO 8601 in UTC without milliseconds, the format of posted dates. */
export function utcTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

export interface Clock {
  now(): Date
}

export const systemClock: Clock = {now: () => new Date()}

/** How long ago a local timestamp was, in whole days: `today`, `1 day ago`, `12 days ago`. */
export function daysAgo(localTime: string, now: Date): string {
  const days = Math.max(0, Math.floor((now.getTime() - new Date(localTime).getTime()) / 86_400_000))
  if (days === 0) return 'today'
  return `${days} ${days === 1 ? 'day' : 'days'} ago`
}
