import {EARLIEST_YEAR, isCalendarDay} from '../time.js'
import type {WallClock} from '../time-zones.js'

export const INTERVIEW_KINDS = ['phone', 'video', 'onsite', 'take-home'] as const

const AT_FORM = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?:\s*([+-])(\d{2}):?(\d{2}))?$/
const AT_EXAMPLE = 'give it as YYYY-MM-DD HH:MM, e.g. 2026-12-02 14:00'

/**
 * `2026-12-02 14:00` or `2026-12-02T14:00` (optionally with the zone's UTC offset, `2026-03-29 03:30+02:00`, to
 * say which of two readings is meant) as wall-clock fields, or why the text is no such time: a day that does
 * not exist (2026-02-30) is refused, never rolled over into the next month, and so is a year before EARLIEST_YEAR.
 */
export function parseInterviewAt(text: string, field = 'at'): (WallClock & {offset?: number}) | string {
  const match = AT_FORM.exec(text.trim())
  if (!match) return `${field} ${JSON.stringify(text)} is not a date and time; ${AT_EXAMPLE}`
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number) as [number, number, number, number, number]
  const [, , , , , , sign, offsetHours, offsetMinutes] = match
  if (year < EARLIEST_YEAR) {
    return `at ${JSON.stringify(text)} is before the year ${EARLIEST_YEAR}; write the year in full, e.g. 2026-12-02 14:00`
  }
  if (!isCalendarDay(year, month, day)) {
    return `${field} ${JSON.stringify(text)} is not a day of the calendar (${text.trim().slice(0, 10)} does not exist)`
  }
  if (hour > 23 || minute > 59) return `${field} ${JSON.stringify(text)} is not a time of day (00:00 to 23:59)`
  if (sign === undefined) return {year, month, day, hour, minute}
  const offset = (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes))
  if (Math.abs(offset) > 18 * 60) return `${field} ${JSON.stringify(text)} has an offset past ±18:00`
  return {year, month, day, hour, minute, offset}
}

/** `45m`, `1h`, `1h30m`, `90`: a length in minutes, 1 to 24 hours; or why the text is none. */
export function parseDuration(text: string): number | string {
  const match = /^(?:(\d{1,2})h)?\s*(?:(\d{1,4})m?)?$/.exec(text.trim())
  const minutes = match && (match[1] || match[2]) ? Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0) : Number.NaN
  if (!(minutes >= 1 && minutes <= 24 * 60)) {
    return `duration ${JSON.stringify(text)} is not a length of 1 minute to 24 hours; e.g. 45m, 1h or 1h30m`
  }
  return minutes
}

/**
 * Who an interview is with, in words: its contacts (`Ann Lee (recruiter)`), then the people not recorded as
 * written; empty when nobody is named.
 */
export function interviewWho(interview: {
  with: string
  interviewers?: readonly {name: string; role: string}[]
}): string {
  const contacts = (interview.interviewers ?? []).map(({name, role}) => (role ? `${name} (${role})` : name))
  return [...contacts, interview.with].filter(Boolean).join('; ')
}

/**
 * An interview in one line at its local time in its zone, its kind and who with, as the dashboard and the web
 * page list it: `2026-12-03 14:00 Europe/Berlin, video, with Ann Lee`.
 */
export function interviewLine(
  interview: Parameters<typeof interviewWho>[0] & {starts_at: string; time_zone: string; kind: string | null},
  separator = ', ',
): string {
  const who = interviewWho(interview)
  return [
    `${interview.starts_at.replace('T', ' ')} ${interview.time_zone}`,
    interview.kind ?? '',
    who ? `with ${who}` : '',
  ]
    .filter(Boolean)
    .join(separator)
}
