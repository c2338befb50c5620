import {describe, expect, it} from 'vitest'
import {parseInterviewAt} from '../../../src/core/applications/interview-fields.js'
import {
  interviewReminders,
  interviewStart,
  type ScheduledInterview,
  soonLine,
  waitingLine,
  whenText,
} from '../../../src/core/applications/interviews.js'
import {instantOf, systemTimeZone, wallClockAt} from '../../../src/core/time-zones.js'

function interview(overrides: Partial<ScheduledInterview> = {}): ScheduledInterview {
  return {
    id: 1,
    application_id: 12,
    starts_at: '2026-12-02T14:00',
    time_zone: 'Europe/Berlin',
    utc_offset: null,
    duration_minutes: 60,
    place: '',
    link: '',
    kind: 'video',
    with: '',
    interviewer_ids: [],
    interviewers: [],
    notes: '',
    created_at: '2026-11-20T10:00:00.000',
    application: {
      id: 12,
      title: 'Backend Engineer',
      company: 'Acme',
      url: 'https://example.org/jobs/12',
      status: 'interviewing',
      updated_at: '2026-11-20T10:00:00.000',
    },
    ...overrides,
  }
}

describe('reading --at', () => {
  it('takes a space or a T between date and time', () => {
    const fields = {year: 2026, month: 12, day: 2, hour: 14, minute: 0}
    expect(parseInterviewAt('2026-12-02 14:00')).toEqual(fields)
    expect(parseInterviewAt(' 2026-12-02T14:00 ')).toEqual(fields)
  })

  it('refuses impossible dates and times, naming the field and what was given', () => {
    expect(parseInterviewAt('2026-02-30 14:00')).toBe(
      'at "2026-02-30 14:00" is not a day of the calendar (2026-02-30 does not exist)',
    )
    expect(parseInterviewAt('2026-12-02 24:00')).toBe('at "2026-12-02 24:00" is not a time of day (00:00 to 23:59)')
    expect(parseInterviewAt('tomorrow')).toBe(
      'at "tomorrow" is not a date and time; give it as YYYY-MM-DD HH:MM, e.g. 2026-12-02 14:00',
    )
    expect(parseInterviewAt('2028-02-29 09:00')).toEqual({year: 2028, month: 2, day: 29, hour: 9, minute: 0})
  })
})

describe('the earliest year --at takes', () => {
  it('refuses a year before 1970 (0026 is no 1926), naming the field, and takes 1970 itself', () => {
    expect(parseInterviewAt('0026-12-02 14:00')).toBe(
      'at "0026-12-02 14:00" is before the year 1970; write the year in full, e.g. 2026-12-02 14:00',
    )
    expect(parseInterviewAt('1969-12-31 23:59')).toMatch(/^at "1969-12-31 23:59" is before the year 1970;/)
    expect(parseInterviewAt('1970-01-01 00:00')).toEqual({year: 1970, month: 1, day: 1, hour: 0, minute: 0})
  })
})

describe('local times in a zone', () => {
  it('finds the instant of a wall-clock time in winter and in summer', () => {
    expect(new Date(interviewStart(interview())).toISOString()).toBe('2026-12-02T13:00:00.000Z')
    const summer = interview({starts_at: '2026-07-01T09:30', time_zone: 'America/New_York'})
    expect(new Date(interviewStart(summer)).toISOString()).toBe('2026-07-01T13:30:00.000Z')
  })

  it('moves a time the clocks skip past the gap and takes the first of a time that comes twice', () => {
    // Berlin springs forward at 02:00 on 2026-03-29 and falls back at 03:00 on 2026-10-25.
    const skipped = instantOf({year: 2026, month: 3, day: 29, hour: 2, minute: 30}, 'Europe/Berlin')
    expect(wallClockAt(skipped, 'Europe/Berlin')).toMatchObject({hour: 3, minute: 30})
    const twice = instantOf({year: 2026, month: 10, day: 25, hour: 2, minute: 30}, 'Europe/Berlin')
    expect(new Date(twice).toISOString()).toBe('2026-10-25T00:30:00.000Z')
  })

  it('takes TZ when it names a zone, else the system zone', () => {
    expect(systemTimeZone({TZ: 'Asia/Tokyo'})).toBe('Asia/Tokyo')
    expect(systemTimeZone({TZ: 'Not/AZone'})).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone)
  })
})

describe('when an interview is, in words', () => {
  const now = new Date('2026-12-01T20:00:00Z') // 21:00 in Berlin
  it('says today, tomorrow or the weekday in the user zone, with the interview own time when held in another zone', () => {
    expect(whenText(interview(), now, 'Europe/Berlin')).toBe('tomorrow 14:00 Europe/Berlin')
    expect(whenText(interview({starts_at: '2026-12-01T22:00'}), now, 'Europe/Berlin')).toBe('today 22:00 Europe/Berlin')
    expect(whenText(interview({starts_at: '2026-12-03T09:00'}), now, 'Europe/Berlin')).toBe(
      'Thu 2026-12-03 09:00 Europe/Berlin',
    )
    expect(whenText(interview(), now, 'Europe/London')).toBe(
      'tomorrow 13:00 Europe/London (2026-12-02 14:00 Europe/Berlin)',
    )
    // Today and tomorrow are the person's days: it is 09:00 on 2026-12-02 in Auckland, and 14:00 in Berlin that
    // day is 02:00 on 2026-12-03 there.
    expect(whenText(interview(), now, 'Pacific/Auckland')).toBe(
      'tomorrow 02:00 Pacific/Auckland (2026-12-02 14:00 Europe/Berlin)',
    )
  })
})

describe('interview reminders', () => {
  const now = new Date('2026-12-01T12:00:00Z')

  it('names interviews of the next 48 hours, soonest first', () => {
    const later = interview({id: 2, starts_at: '2026-12-03T12:30'}) // 11:30Z: inside
    const soon = interview({id: 3, starts_at: '2026-12-01T18:00'})
    const beyond = interview({id: 4, starts_at: '2026-12-03T13:30'}) // 12:30Z: outside
    const past = interview({id: 5, starts_at: '2026-12-01T12:00'})
    const {soon: named} = interviewReminders([later, beyond, soon, past], now, 'Europe/Berlin')
    expect(named.map((one) => one.id)).toEqual([3, 2])
    expect(soonLine(named[0] as (typeof named)[number])).toBe(
      'Interview today 18:00 Europe/Berlin: Backend Engineer at Acme (#12)',
    )
  })

  it('names applications waiting after their last interview with no change since', () => {
    const waitingOne = interview({starts_at: '2026-11-27T10:00'})
    const changedSince = interview({
      id: 2,
      application_id: 13,
      starts_at: '2026-11-27T10:00',
      application: {...waitingOne.application, id: 13, updated_at: '2026-11-28T08:00:00.000'},
    })
    const offer = interview({
      id: 3,
      application_id: 14,
      starts_at: '2026-11-27T10:00',
      application: {...waitingOne.application, id: 14, status: 'offer'},
    })
    const earlier = interview({id: 4, application_id: 15, starts_at: '2026-11-20T10:00'})
    const stillToCome = interview({id: 5, application_id: 15, starts_at: '2026-12-10T10:00'})
    for (const one of [earlier, stillToCome]) one.application = {...one.application, id: 15}
    const addedAfterwards = interview({
      id: 6,
      application_id: 16,
      starts_at: '2026-11-25T10:00',
      created_at: '2026-11-26T08:00:00.000',
      application: {...waitingOne.application, id: 16, updated_at: '2026-11-26T08:00:00.000'},
    })
    const {waiting} = interviewReminders(
      [waitingOne, changedSince, offer, earlier, stillToCome, addedAfterwards],
      now,
      'Europe/Berlin',
    )
    expect(waiting.map((one) => one.application.id)).toEqual([16, 12])
    expect(waitingLine(waiting[1] as (typeof waiting)[number])).toBe(
      'Waiting after interview: Backend Engineer at Acme (#12), interviewed 4 days ago, no news since',
    )
  })
})
