import ICAL from 'ical.js'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import Interview from '../../commands/interview.js'
import Interviews from '../../commands/interviews.js'
import Status from '../../commands/status.js'
import {tempDir} from '../helpers/cli.js'
import {json, testApi} from '../helpers/http.js'
import {runCommand} from '../helpers/run-command.js'
import {application, seedTracker} from '../helpers/tracker.js'

let dir: ReturnType<typeof tempDir>
let home: string
// A month before the change to summer time in Berlin (2026-03-29 02:00 -> 03:00) and seven before the change back
// (2026-10-25 03:00 -> 02:00).
const env = {TZ: 'Europe/Berlin', JOBAGENT_NOW: '2026-03-01T12:00:00'}

beforeEach(async () => {
  dir = tempDir()
  home = dir.path
  await seedTracker(home, [application({url: 'https://example.org/jobs/1', title: 'Go Developer'})])
})
afterEach(() => dir.cleanup())

/** The instant an ical.js time names, as ISO 8601 in UTC. */
const utcOf = (time: ICAL.Time) => time.toJSDate().toISOString().replace('.000Z', 'Z')

describe('an interview at a time daylight saving skips or repeats', () => {
  it('is refused in the gap with both readings offered, and nothing is added', async () => {
    const result = await runCommand(Interview, ['1', '--at', '2026-03-29 02:30', '--zone', 'Europe/Berlin'], {
      home,
      env,
    })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(
      'Error: 02:30 does not exist on 2026-03-29 in Europe/Berlin: use 01:30+01:00 or 03:30+02:00',
    )
    expect(result.stderr).toContain('Hint: give the time with its offset, e.g. --at "2026-03-29 03:30+02:00"')
    expect(JSON.parse((await runCommand(Interviews, ['--all', '--json'], {home, env})).stdout)).toEqual([])
  })

  it('is refused in the overlap with both readings, and the one given with its offset is kept', async () => {
    const twice = await runCommand(Interview, ['1', '--at', '2026-10-25 02:30'], {home, env})
    expect(twice.code).toBe(2)
    expect(twice.stderr).toContain(
      'Error: 02:30 comes twice on 2026-10-25 in Europe/Berlin: use 02:30+02:00 or 02:30+01:00',
    )
    const wrongOffset = await runCommand(Interview, ['1', '--at', '2026-10-25 02:30+05:00'], {home, env})
    expect(wrongOffset.code).toBe(2)
    expect(wrongOffset.stderr).toContain('2026-10-25 02:30+05:00 is not a time of Europe/Berlin')

    const later = await runCommand(Interview, ['1', '--at', '2026-10-25 02:30+01:00', '--duration', '45m', '--json'], {
      home,
      env,
    })
    expect(later.code).toBe(0)
    expect(JSON.parse(later.stdout).interview).toMatchObject({
      starts_at: '2026-10-25T02:30',
      time_zone: 'Europe/Berlin',
      utc_offset: 60,
      starts_at_utc: '2026-10-25T01:30:00Z',
      duration_minutes: 45,
      ends_at_utc: '2026-10-25T02:15:00Z',
    })
  })

  it('is one instant in the list, the .ics (read by ical.js) and the API', async () => {
    await runCommand(Interview, ['1', '--at', '2026-03-29 03:30+02:00', '--link', 'https://meet.example.org/abc'], {
      home,
      env,
    })
    await runCommand(Interview, ['1', '--at', '2026-10-25 02:30+01:00', '--end', '2026-10-25 04:00'], {home, env})
    await runCommand(Interview, ['1', '--at', '2026-10-25 02:30+02:00', '--place', 'Acme HQ, room 4'], {home, env})
    const listed = JSON.parse((await runCommand(Interviews, ['--json'], {home, env})).stdout)
    expect(
      listed.map((one: {starts_at_utc: string; ends_at_utc: string}) => [one.starts_at_utc, one.ends_at_utc]),
    ).toEqual([
      ['2026-03-29T01:30:00Z', '2026-03-29T02:30:00Z'],
      ['2026-10-25T00:30:00Z', '2026-10-25T01:30:00Z'],
      ['2026-10-25T01:30:00Z', '2026-10-25T03:00:00Z'],
    ])

    const calendar = new ICAL.Component(ICAL.parse((await runCommand(Interviews, ['--ics'], {home, env})).stdout))
    const events = calendar.getAllSubcomponents('vevent').map((event) => new ICAL.Event(event))
    const byUid = new Map(events.map((event) => [event.uid, event]))
    for (const one of listed as {id: number; starts_at_utc: string; ends_at_utc: string}[]) {
      const event = byUid.get(`interview-${one.id}@jobagent`)
      expect(event && utcOf(event.startDate)).toBe(one.starts_at_utc)
      expect(event && utcOf(event.endDate)).toBe(one.ends_at_utc)
    }
    expect(byUid.get('interview-3@jobagent')?.location).toBe('Acme HQ, room 4')
    expect(byUid.get('interview-1@jobagent')?.location).toBe('https://meet.example.org/abc')

    const api = testApi({env: {...env, JOBAGENT_HOME: home}})
    try {
      const answered = await json(await api.app.request('/interviews'))
      expect(answered.interviews.map((one: {starts_at_utc: string}) => one.starts_at_utc)).toEqual(
        listed.map((one: {starts_at_utc: string}) => one.starts_at_utc),
      )
    } finally {
      await api.cleanup()
    }
  })
})

describe('an interview in the past', () => {
  it('is refused without --past and recorded with it, moving the status as a future one does', async () => {
    const refused = await runCommand(Interview, ['1', '--at', '2026-02-20 10:00'], {home, env})
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('Error: 2026-02-20 10:00 Europe/Berlin is in the past; no interview was added')
    expect(refused.stderr).toContain('Hint: to record an interview that took place, add --past')
    const recorded = await runCommand(Interview, ['1', '--at', '2026-02-20 10:00', '--past', '--json'], {home, env})
    expect(recorded.code).toBe(0)
    expect(JSON.parse(recorded.stdout)).toMatchObject({
      interview: {starts_at_utc: '2026-02-20T09:00:00Z'},
      application: {status: 'interviewing'},
    })
  })

  it('refuses a bad link, an end before the start and a bad duration, naming the field', async () => {
    const link = await runCommand(Interview, ['1', '--at', '2026-03-10 10:00', '--link', 'meet.example.org'], {
      home,
      env,
    })
    expect(link.code).toBe(2)
    expect(link.stderr).toContain('link must be an http:// or https:// address')
    const end = await runCommand(Interview, ['1', '--at', '2026-03-10 10:00', '--end', '2026-03-10 09:00'], {home, env})
    expect(end.code).toBe(2)
    expect(end.stderr).toContain('the interview would end before it starts')
    const duration = await runCommand(Interview, ['1', '--at', '2026-03-10 10:00', '--duration', 'soon'], {home, env})
    expect(duration.code).toBe(2)
    expect(duration.stderr).toContain('duration "soon" is not a length of 1 minute to 24 hours')
    expect(JSON.parse((await runCommand(Status, ['1', '--json'], {home, env})).stdout).interviews).toEqual([])
  })
})
