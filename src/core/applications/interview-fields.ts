import {EARLIEST_YEAR, isCalendarDay} from '../time.js'
import type {WallClock} from '../time-zones.js'

export const INTERVIEW_KINDS = ['phone', 'video', 'onsite', 'take-home'] as const

const AT_FORM = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})$/
const AT_EXAMPLE = 'give it as YYYY-MM-DD HH:MM, e.g. 2026-12-02 14:00'

/**
 * `2026-12-02 14:00` or `2026-12-02T14:00` as wall-clock fields, or why the text is no such time: a day that does
 * not exist (2026-02-30) is refused, never rolled over into the next month, and so is a year before EARLIEST_YEAR.
 */
export function parseInterviewAt(text: string, field = 'at'): WallClock | string {
  const match = AT_FORM.exec(text.trim())
  if (!match) return `${field} ${JSON.stringify(text)} is not a date and time; ${AT_EXAMPLE}`
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number]
  if (year < EARLIEST_YEAR) {
    return `at ${JSON.stringify(text)} is before the year ${EARLIEST_YEAR}; write the year in full, e.g. 2026-12-02 14:00`
  }
  if (!isCalendarDay(year, month, day)) {
    return `${field} ${JSON.stringify(text)} is not a day of the calendar (${text.trim().slice(0, 10)} does not exist)`
  }
  if (hour > 23 || minute > 59) return `${field} ${JSON.stringify(text)} is not a time of day (00:00 to 23:59)`
  return {year, month, day, hour, minute}
}

/**
 * An interview in one line at its local time in its zone, its kind and who with, as the dashboard and the web
 * page list it: `2026-12-03 14:00 Europe/Berlin, video, with Ann Lee`.
 */
export function interviewLine(
  interview: {starts_at: string; time_zone: string; kind: string | null; with: string},
  separator = ', ',
): string {
  return [
    `${interview.starts_at.replace('T', ' ')} ${interview.time_zone}`,
    interview.kind ?? '',
    interview.with ? `with ${interview.with}` : '',
  ]
    .filter(Boolean)
    .join(separator)
}
