import {getVtimezoneComponent} from '@touch4it/ical-timezones'
import {ICalCalendar} from 'ical-generator'
import {INTERVIEW_MINUTES, interviewStart, type ScheduledInterview} from '../core/applications/interviews.js'
import {type WallClock, wallClockAt} from '../core/time-zones.js'

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
 * zone (TZID and the zone's VTIMEZONE), lasting INTERVIEW_MINUTES. A zone without VTIMEZONE data is written in UTC.
 */
export function interviewCalendar(interviews: readonly ScheduledInterview[], now: Date = new Date()): string {
  const calendar = new ICalCalendar({
    name: 'jobagent interviews',
    prodId: {company: 'jobagent', product: 'interviews'},
    timezone: {name: null, generator: getVtimezoneComponent},
  })
  for (const interview of interviews) {
    const zone = getVtimezoneComponent(interview.time_zone) ? interview.time_zone : 'UTC'
    const start = interviewStart(interview)
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
  return calendar.toString()
}
