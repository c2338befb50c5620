import {getVtimezoneComponent} from '@touch4it/ical-timezones'
import {ICalCalendar, ICalEvent} from 'ical-generator'
import {interviewWho} from '../core/applications/interview-fields.js'
import {interviewEnd, interviewStart, type ScheduledInterview} from '../core/applications/interviews.js'
import {canonicalZone, offsetMinutesAt, readingsOf, type WallClock, wallClockAt} from '../core/time-zones.js'
import {isHttpUrl} from '../core/url-identity.js'

/** Events per part of the calendar: a part is written, then the server answers other requests before the next. */
const EVENTS_PER_PART = 200

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

/** The VTIMEZONE a zone is written with: its TZID, the component and the offsets (minutes east of UTC) it gives. */
interface ZoneData {
  tzid: string
  component: string
  offsets: number[]
}

function zoneData(name: string): ZoneData | undefined {
  const component = getVtimezoneComponent(name)
  const tzid = component && /^TZID:(.+)$/m.exec(component)?.[1]?.trim()
  if (!component || !tzid) return undefined
  const offsets = [...component.matchAll(/TZOFFSETTO:([+-])(\d{2})(\d{2})/g)].map(
    ([, sign, hours, minutes]) => (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes)),
  )
  return {tzid, component, offsets}
}

/**
 * The VTIMEZONE of each zone a calendar names, chosen once per zone. An event names its zone by the TZID of the
 * VTIMEZONE written for it, never by the name kept with the interview: the time zone data files an alias
 * (`US/Pacific`) under its canonical zone (`America/Los_Angeles`), and a reader that finds no VTIMEZONE of the
 * name an event gives places it hours away. Two names of one zone share its one VTIMEZONE.
 */
class CalendarZones {
  private readonly chosen = new Map<string, ZoneData | undefined>()

  /**
   * Chooses the VTIMEZONE of each zone, trying the name kept and then the runtime's canonical name (the data knows
   * `Europe/London`, not `GB`), and takes the first whose offsets include the zone's own at the zone's first
   * interview. UTC (`Etc/UTC`) needs none. Returns the components to write, one per TZID.
   */
  choose(interviews: readonly ScheduledInterview[]): string[] {
    for (const interview of interviews) {
      const zone = interview.time_zone
      if (this.chosen.has(zone)) continue
      const offset = offsetMinutesAt(interviewStart(interview), zone)
      const data = [zone, canonicalZone(zone)]
        .map(zoneData)
        .find((candidate) => candidate?.offsets.includes(offset) && candidate.tzid !== 'Etc/UTC')
      this.chosen.set(zone, data)
    }
    const byTzid = new Map<string, string>()
    for (const data of this.chosen.values()) if (data) byTzid.set(data.tzid, data.component)
    return [...byTzid.values()]
  }

  /**
   * The TZID an event at `instant` is written with: that of its zone's VTIMEZONE when the data gives the zone's
   * offset at that time (it names the POSIX-style `Etc/GMT-3` with the sign turned round), else UTC.
   */
  tzidAt(zone: string, instant: number): string {
    const data = this.chosen.get(zone)
    return data?.offsets.includes(offsetMinutesAt(instant, zone)) ? data.tzid : 'UTC'
  }
}

/** `Interview: Backend Engineer at Acme (video)`. */
function summary(interview: ScheduledInterview): string {
  const {title, company} = interview.application
  return `Interview: ${title} at ${company}${interview.kind ? ` (${interview.kind})` : ''}`
}

function description(interview: ScheduledInterview): string {
  return [
    interviewWho(interview) ? `With: ${interviewWho(interview)}` : '',
    interview.link ? `Link: ${interview.link}` : '',
    interview.notes ? `Notes: ${interview.notes}` : '',
    `Application #${interview.application.id} (${interview.application.status}): ${interview.application.url}`,
  ]
    .filter(Boolean)
    .join('\n')
}

/** The most octets of a content line before it is folded (RFC 5545: 75 with the line break's space). */
const LINE_OCTETS = 74

/**
 * Folds the content lines of `text` (CRLF-separated) as ical-generator does, at 74 octets of UTF-8 and never within
 * a character. ical-generator 10, the last major for Node 20, encodes every character with a new TextEncoder to
 * count its octets, which made the calendar's text cost more than everything else; the octets are counted here
 * from the UTF-16 code units, in one pass without allocating.
 */
function foldLines(text: string): string {
  return text.split('\r\n').map(foldLine).join('\r\n')
}

function foldLine(line: string): string {
  let folded = ''
  let from = 0
  let octets = 0
  for (let index = 0; index < line.length; index++) {
    const code = line.charCodeAt(index)
    const pair = code >= 0xd800 && code <= 0xdbff && index + 1 < line.length
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3
    octets += size
    if (octets > LINE_OCTETS) {
      folded += `${line.slice(from, index)}\r\n `
      from = index
      octets = size
    }
    if (pair) index++
  }
  return from === 0 ? line : folded + line.slice(from)
}

/**
 * The interviews as an iCalendar file (RFC 5545) for calendar apps, in parts: the head with the VTIMEZONE of each
 * zone, then the events EVENTS_PER_PART at a time, then the end. One event per interview with a stable UID
 * (`interview-<id>@jobagent`, so a re-import or a subscription updates it), starting at its local time with its
 * zone (TZID and the zone's VTIMEZONE), lasting its duration_minutes, at its place (or its link). A zone without fitting VTIMEZONE data is written
 * in UTC. Every line ends with CRLF, the last one too.
 */
export function* interviewCalendarParts(
  interviews: readonly ScheduledInterview[],
  now: Date = new Date(),
): Generator<string> {
  const calendar = new ICalCalendar({
    name: 'jobagent interviews',
    prodId: {company: 'jobagent', product: 'interviews'},
  })
  const zones = new CalendarZones()
  // The library writes a calendar without events as its head and END:VCALENDAR; the parts go in between. A zone's
  // VTIMEZONE is written even if some events of it fall back to UTC: calendar apps ignore one that no event names.
  const head = calendar.toString().replace(/END:VCALENDAR$/, '')
  const components = zones.choose(interviews)
  yield head + components.map((component) => `${foldLines(component.replace(/\r?\n/g, '\r\n').trim())}\r\n`).join('')
  for (let first = 0; first < interviews.length; first += EVENTS_PER_PART) {
    let part = ''
    for (const interview of interviews.slice(first, first + EVENTS_PER_PART)) {
      const start = interviewStart(interview)
      const end = interviewEnd(interview)
      // A local time the zone passes twice (falling back) is read differently by calendar apps: such an event is
      // written in UTC, the one instant every reader agrees on.
      const once = [start, end].every(
        (instant) => readingsOf(wallClockAt(instant, interview.time_zone), interview.time_zone).length === 1,
      )
      const tzid = once ? zones.tzidAt(interview.time_zone, start) : 'UTC'
      // The wall clock of the zone kept; under another name of it (or in UTC) the clock is the same.
      const zone = tzid === 'UTC' ? 'UTC' : interview.time_zone
      const event = new ICalEvent(
        {
          id: `interview-${interview.id}@jobagent`,
          timezone: tzid,
          start: zonedTime(wallClockAt(start, zone), tzid, start),
          end: zonedTime(wallClockAt(end, zone), tzid, end),
          stamp: now,
          summary: summary(interview),
          description: description(interview),
          url: interview.application.url,
          ...(interview.place ? {location: interview.place} : interview.link ? {location: interview.link} : {}),
        },
        calendar,
      )
      // The contacts met who have an email address are the event's attendees (a calendar app can invite them).
      for (const {name, reach} of interview.interviewers) {
        if (reach !== '' && !isHttpUrl(reach)) {
          event.createAttendee({name, email: reach})
        }
      }
      part += foldLines(event.toString())
    }
    yield part
  }
  yield 'END:VCALENDAR\r\n'
}
