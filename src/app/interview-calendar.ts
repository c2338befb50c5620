import {getVtimezoneComponent} from '@touch4it/ical-timezones'
import {ICalCalendar} from 'ical-generator'
import {INTERVIEW_MINUTES, interviewStart, type ScheduledInterview} from '../core/applications/interviews.js'
import {offsetMinutesAt, type WallClock, wallClockAt} from '../core/time-zones.js'

/**
 * A wall-clock time in a zone in the shape ical-generator reads as a Temporal.ZonedDateTime: it writes the fields
 * as they are, after `TZID=<zone>`, whatever the zone of the process writing the file. (A Date would be written in
 * the process's own zone.)
 */
function zonedTime(clock: WallClock, zone: string, instant: number) {
  const iso = `${new Date(Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute)).toISOString().slice(0, 16)}[${zone}]`
  const fields = {...clock, second: 0}
  const plain = {
    ...fields,
    toZonedDateTime: () => zoned,
    toPlainDate: () => ({year: clock.year, month: clock.month, day: clock.day}),
    toString: () => iso,
    toJSON: () => iso,
  }
  const zoned = {
    ...fields,
    timeZoneId: zone,
    withTimeZone: () => zoned,
    toPlainDateTime: () => plain,
    toInstant: () => ({epochMilliseconds: instant}),
    toString: () => iso,
    toJSON: () => iso,
  }
  return zoned
}

/**
 * The zone an event is written in: its own when there is VTIMEZONE data for it that gives the zone's offset at
 * that time (the data names the POSIX-style `Etc/GMT-3` with the sign turned round), else UTC.
 */
function calendarZone(zone: string, instant: number): string {
  const component = getVtimezoneComponent(zone)
  if (!component) return 'UTC'
  const offset = offsetMinutesAt(instant, zone)
  const offsets = [...component.matchAll(/TZOFFSETTO:([+-])(\d{2})(\d{2})/g)].map(
    ([, sign, hours, minutes]) => (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes)),
  )
  return offsets.includes(offset) ? zone : 'UTC'
}

/** `Interview: Backend Engineer at Acme (video)`. */
function summary(interview: ScheduledInterview): string {
  const {title, company} = interview.application
  return `Interview: ${title} at ${company}${interview.kind ? ` (${interview.kind})` : ''}`
}

function description(interview: ScheduledInterview): string {
  return [
    interview.with ? `With: ${interview.with}` : '',
    interview.notes ? `Notes: ${interview.notes}` : '',
    `Application #${interview.application.id} (${interview.application.status}): ${interview.application.url}`,
  ]
    .filter(Boolean)
    .join('\n')
}

/**
 * The interviews as an iCalendar file (RFC 5545) for calendar apps: one event per interview with a stable UID
 * (`interview-<id>@jobagent`, so a re-import or a subscription updates it), starting at its local time with its
 * zone (TZID and the zone's VTIMEZONE), lasting INTERVIEW_MINUTES. A zone without fitting VTIMEZONE data is written in UTC.
 */
export function interviewCalendar(interviews: readonly ScheduledInterview[], now: Date = new Date()): string {
  const calendar = new ICalCalendar({
    name: 'jobagent interviews',
    prodId: {company: 'jobagent', product: 'interviews'},
    timezone: {name: null, generator: getVtimezoneComponent},
  })
  for (const interview of interviews) {
    const start = interviewStart(interview)
    const zone = calendarZone(interview.time_zone, start)
    const end = start + INTERVIEW_MINUTES * 60_000
    calendar.createEvent({
      id: `interview-${interview.id}@jobagent`,
      timezone: zone,
      start: zonedTime(wallClockAt(start, zone), zone, start),
      end: zonedTime(wallClockAt(end, zone), zone, end),
      stamp: now,
      summary: summary(interview),
      description: description(interview),
      url: interview.application.url,
    })
  }
  // RFC 5545 ends every content line with CRLF, the last one too; the library leaves the last line open.
  return `${calendar.toString()}\r\n`
}
