const pad = (value: number, width = 2) => String(value).padStart(width, '0')

/** `2026-11-22T05:17:33.123`: ISO 8601 in local time without a zone, the format of applied_date and log lines. */
export function localTimestamp(date: Date = new Date()): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`
  )
}

/** `2026-04-10T00:28:23Z`: ISO 8601 in UTC without milliseconds, the format of posted dates. */
export function utcTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

export interface Clock {
  now(): Date
}

export const systemClock: Clock = {now: () => new Date()}
