const pad = (value: number, width = 2) => String(value).padStart(width, '0')

/** `2026-11-22T05:17:33.123`: ISO 8601 in local time without a zone, the format of applied_date and log lines. */
export function localTimestamp(date: Date = new Date()): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`
  )
}

// A date, optionally with a time (minutes at least, `T` or a space between) and a zone (`Z`, `+02:00`, `+0200`).
const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i

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
 * An ISO 8601 date or date-time in the form of `localTimestamp` (`2026-11-22T05:17:33.123`): a zone or offset is
 * converted to local time, a date alone is midnight, digits beyond milliseconds are cut off. Undefined for text
 * of another form and for days and times that do not exist (`2026-02-30`, `2026-13-01`, `25:00`), which Date
 * would quietly roll over into the next month or day.
 */
export function toLocalTimestamp(text: string): string | undefined {
  const match = ISO_TIMESTAMP.exec(text.trim())
  if (!match) return undefined
  const [, year = '', month = '', day = '', hour = '00', minute = '00', second = '00', fraction = '', zone] = match
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  if (!isCalendarDay(y, mo, d) || h > 23 || mi > 59 || s > 59) return undefined
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3))
  if (zone === undefined) return `${year}-${month}-${day}T${hour}:${minute}:${second}.${pad(ms, 3)}`
  let offsetMinutes = 0
  if (zone.toUpperCase() !== 'Z') {
    const offsetHours = Number(zone.slice(1, 3))
    const offsetRest = Number(zone.slice(3).replace(':', '') || '0')
    if (offsetHours > 23 || offsetRest > 59) return undefined
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (offsetHours * 60 + offsetRest)
  }
  return localTimestamp(new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms) - offsetMinutes * 60_000))
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
export function daysAgo(localTime: string, now: Date = new Date()): string {
  const days = Math.max(0, Math.floor((now.getTime() - new Date(localTime).getTime()) / 86_400_000))
  if (days === 0) return 'today'
  return `${days} ${days === 1 ? 'day' : 'days'} ago`
}
