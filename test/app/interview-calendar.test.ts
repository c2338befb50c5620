import ICAL from 'ical.js'
import {describe, expect, it} from 'vitest'
import {interviewCalendarParts} from '../../src/app/interview-calendar.js'
import type {ScheduledInterview} from '../../src/core/applications/interviews.js'

const TRICKY_TITLE = 'Engineer, Platform; Infra\\Ops\nTeam "B"'

function interview(overrides: Partial<ScheduledInterview> = {}): ScheduledInterview {
  return {
    id: 7,
    application_id: 12,
    starts_at: '2026-07-01T09:30',
    time_zone: 'America/New_York',
    utc_offset: null,
    duration_minutes: 60,
    place: '',
    link: '',
    kind: 'video',
    with: 'Ann Lee, CTO',
    interviewer_ids: [],
    interviewers: [],
    notes: 'system design;\nbring questions',
    created_at: '2026-06-20T10:00:00.000',
    application: {
      id: 12,
      title: TRICKY_TITLE,
      company: 'Acme, Inc.',
      url: 'https://example.org/jobs/12?a=1&b=2',
      status: 'interviewing',
      updated_at: '2026-06-20T10:00:00.000',
    },
    ...overrides,
  }
}

/** The calendar's text, its parts joined as a front end writes them one after the other. */
function interviewCalendar(interviews: readonly ScheduledInterview[], now?: Date): string {
  return [...interviewCalendarParts(interviews, now)].join('')
}

/** The events of an iCalendar text as ical.js reads them, with the file's own zones registered. */
function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text))
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone)
  return {calendar, events: calendar.getAllSubcomponents('vevent').map((event) => new ICAL.Event(event))}
}

describe('the interview calendar', () => {
  const text = interviewCalendar(
    [interview(), interview({id: 8, starts_at: '2026-12-02T14:00', time_zone: 'Europe/Berlin', kind: null})],
    new Date('2026-06-25T08:00:00Z'),
  )

  it('is one event per interview with a stable UID, the title and company in the summary', () => {
    const {calendar, events} = parse(text)
    expect(calendar.name).toBe('vcalendar')
    // Every line ends with CRLF (RFC 5545), the last one too.
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true)
    expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/)
    expect(events.map((event) => event.uid)).toEqual(['interview-7@jobagent', 'interview-8@jobagent'])
    expect(events[0]?.summary).toBe(`Interview: ${TRICKY_TITLE} at Acme, Inc. (video)`)
    expect(events[1]?.summary).toBe(`Interview: ${TRICKY_TITLE} at Acme, Inc.`)
    expect(events[0]?.description).toBe(
      'With: Ann Lee, CTO\nNotes: system design;\nbring questions\n' +
        'Application #12 (interviewing): https://example.org/jobs/12?a=1&b=2',
    )
    expect(events[0]?.component.getFirstPropertyValue('url')).toBe('https://example.org/jobs/12?a=1&b=2')
    expect(String(events[0]?.component.getFirstPropertyValue('dtstamp'))).toBe('2026-06-25T08:00:00Z')
  })

  it('starts each event at its local time in its zone, with the VTIMEZONE, and lasts an hour', () => {
    const {calendar, events} = parse(text)
    expect(
      calendar
        .getAllSubcomponents('vtimezone')
        .map((zone) => zone.getFirstPropertyValue('tzid'))
        .sort(),
    ).toEqual(['America/New_York', 'Europe/Berlin'])
    const [summer, winter] = events
    expect(summer?.startDate.zone.tzid).toBe('America/New_York')
    expect(summer?.startDate.toString()).toBe('2026-07-01T09:30:00')
    expect(summer?.startDate.toJSDate().toISOString()).toBe('2026-07-01T13:30:00.000Z')
    expect(winter?.startDate.zone.tzid).toBe('Europe/Berlin')
    expect(winter?.startDate.toJSDate().toISOString()).toBe('2026-12-02T13:00:00.000Z')
    expect(winter?.duration.toSeconds()).toBe(3600)
  })

  it('writes an interview in UTC when the zone data does not fit the zone (Etc/GMT-3 is three hours east)', () => {
    const {events} = parse(interviewCalendar([interview({starts_at: '2026-12-02T14:00', time_zone: 'Etc/GMT-3'})]))
    const start = events[0]?.startDate
    expect(start?.zone.tzid).toBe('UTC')
    expect(start?.toJSDate().toISOString()).toBe('2026-12-02T11:00:00.000Z')
  })

  it('writes an alias zone under its canonical name, with one VTIMEZONE per TZID that every event names', () => {
    const text = interviewCalendar([
      interview({id: 1, starts_at: '2026-12-02T14:00', time_zone: 'US/Pacific'}),
      interview({id: 2, starts_at: '2026-12-03T14:00', time_zone: 'America/Los_Angeles'}),
      interview({id: 3, starts_at: '2026-07-01T09:30', time_zone: 'GB'}),
      interview({id: 4, starts_at: '2026-07-02T09:30', time_zone: 'Europe/London'}),
    ])
    const {calendar, events} = parse(text)
    const zones = calendar.getAllSubcomponents('vtimezone').map((zone) => zone.getFirstPropertyValue('tzid'))
    expect(zones.sort()).toEqual(['America/Los_Angeles', 'Europe/London'])
    expect(events.map((event) => event.startDate.zone.tzid)).toEqual([
      'America/Los_Angeles',
      'America/Los_Angeles',
      'Europe/London',
      'Europe/London',
    ])
    expect(events.map((event) => event.startDate.toJSDate().toISOString())).toEqual([
      '2026-12-02T22:00:00.000Z',
      '2026-12-03T22:00:00.000Z',
      '2026-07-01T08:30:00.000Z',
      '2026-07-02T08:30:00.000Z',
    ])
    expect(text).not.toMatch(/TZID=(US\/Pacific|GB)[:;]/)
  })
})
