/** The wall-clock fields of a time in some zone (month 1-12). */
export interface WallClock {
  year: number
  month: number
  day: number
  hour: number
  minute: number
}

const DAY_MS = 86_400_000
const pad = (value: number, width = 2) => String(value).padStart(width, '0')

/**
 * The formatter that reads wall clocks in a zone, one per zone name: making one costs far more than using it (it
 * loads the zone's rules), and a list of interviews reads several wall clocks per interview. Only zones the runtime
 * knows get one, a few hundred at most; past MAX_FORMATTERS names (spellings in other cases count apart) the
 * cache starts afresh, so no input can grow it without bound.
 */
const formatters = new Map<string, Intl.DateTimeFormat>()
const MAX_FORMATTERS = 1000

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone)
  if (formatter) return formatter
  formatter = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  })
  if (formatters.size >= MAX_FORMATTERS) formatters.clear()
  formatters.set(zone, formatter)
  return formatter
}

/** Whether the runtime knows `zone` as an IANA time zone (`Europe/Berlin`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  if (zone.trim() === '') return false
  try {
    formatterOf(zone)
    return true
  } catch {
    return false
  }
}

/**
 * The name the runtime's time zone data gives `zone`: `America/Los_Angeles` for the alias `US/Pacific`,
 * `Europe/London` for `GB`, `Europe/Berlin` for `europe/berlin`.
 */
export function canonicalZone(zone: string): string {
  return formatterOf(zone).resolvedOptions().timeZone
}

/**
 * The zone the user lives in: `TZ` of the environment when it names an IANA zone, else the one the runtime
 * reads from the system.
 */
export function systemTimeZone(env: {TZ?: string | undefined}): string {
  const named = env.TZ?.trim()
  if (named && isTimeZone(named)) return named
  return Intl.DateTimeFormat().resolvedOptions().timeZone
}

/** The wall clock in `zone` at an instant. */
export function wallClockAt(instant: number, zone: string): WallClock {
  // `12/2/2026, 14:00` in en-US: month, day, year, hour, minute. format() and the digits of its text cost a fifth
  // of formatToParts, which builds an object per part.
  const [month = 0, day = 0, year = 0, hour = 0, minute = 0] = (
    formatterOf(zone).format(instant).match(DIGITS) ?? []
  ).map(Number)
  return {year, month, day, hour, minute}
}

const DIGITS = /\d+/g

const asUtc = (clock: WallClock) => Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute)

/** How far `zone` is ahead of UTC at an instant, in milliseconds (whole minutes). */
function offsetAt(instant: number, zone: string): number {
  const floored = Math.floor(instant / 60_000) * 60_000
  return asUtc(wallClockAt(floored, zone)) - floored
}

/** How far `zone` is ahead of UTC at an instant, in minutes (`Europe/Berlin` in winter: 60). */
export function offsetMinutesAt(instant: number, zone: string): number {
  return offsetAt(instant, zone) / 60_000
}

/**
 * The instant a wall-clock time in `zone` names. A time the clocks skip (the hour a zone springs forward) is read
 * with the offset before the change, so it lands after the gap; a time that comes twice (falling back) is the
 * earlier one. Offsets change at most once a day in every zone there is, so the offsets a day before and after
 * cover both.
 */
export function instantOf(clock: WallClock, zone: string): number {
  const guess = asUtc(clock)
  const before = offsetAt(guess - DAY_MS, zone)
  const after = offsetAt(guess + DAY_MS, zone)
  const fitting = [guess - before, guess - after]
    .filter((instant) => asUtc(wallClockAt(instant, zone)) === guess)
    .sort((a, b) => a - b)
  return fitting[0] ?? guess - before
}

/** `2026-12-02T14:00`: a wall-clock time as interviews keep it. */
export function formatWallClock(clock: WallClock): string {
  return `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}T${pad(clock.hour)}:${pad(clock.minute)}`
}

/** The fields of `YYYY-MM-DDTHH:MM` text written by formatWallClock. */
export function parseWallClock(text: string): WallClock {
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0] = text.split(/[-T:]/).map(Number)
  return {year, month, day, hour, minute}
}

/** Whole calendar days from the day of `from` to the day of `to` (both wall clocks of one zone). */
export function calendarDaysBetween(from: WallClock, to: WallClock): number {
  return Math.round((Date.UTC(to.year, to.month - 1, to.day) - Date.UTC(from.year, from.month - 1, from.day)) / DAY_MS)
}

/**
 * Every instant a wall-clock time in `zone` names, earliest first: one on most days, none in the hour the zone
 * springs forward (a gap), two in the hour it falls back (an overlap). Offsets change at most once a day in every
 * zone there is, so the offsets a day before and after cover both.
 */
export function readingsOf(clock: WallClock, zone: string): number[] {
  const guess = asUtc(clock)
  const candidates = new Set([guess - offsetAt(guess - DAY_MS, zone), guess - offsetAt(guess + DAY_MS, zone)])
  return [...candidates].filter((instant) => asUtc(wallClockAt(instant, zone)) === guess).sort((a, b) => a - b)
}

/**
 * The two readings of a wall-clock time in a gap: with the offset before the change and with the one after, each
 * an instant, earliest first.
 */
export function gapReadingsOf(clock: WallClock, zone: string): number[] {
  const guess = asUtc(clock)
  return [guess - offsetAt(guess - DAY_MS, zone), guess - offsetAt(guess + DAY_MS, zone)].sort((a, b) => a - b)
}

/** `03:30+02:00`: the wall-clock time of an instant in `zone` with the zone's offset then. */
export function timeWithOffset(instant: number, zone: string): string {
  const clock = wallClockAt(instant, zone)
  return `${pad(clock.hour)}:${pad(clock.minute)}${offsetText(offsetMinutesAt(instant, zone))}`
}

/** `+02:00`, `-05:00`, `+05:30`: an offset of minutes east of UTC as ISO 8601 writes it. */
export function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+'
  const whole = Math.abs(minutes)
  return `${sign}${pad(Math.floor(whole / 60))}:${pad(whole % 60)}`
}
