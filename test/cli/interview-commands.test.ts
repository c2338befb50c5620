import ICAL from 'ical.js'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import FollowUpsCommand from '../../commands/followups.js'
import Interview from '../../commands/interview.js'
import Interviews from '../../commands/interviews.js'
import Status from '../../commands/status.js'
import {formatWallClock, wallClockAt} from '../../src/core/time-zones.js'
import {tempDir} from '../helpers/cli.js'
import {runCommand} from '../helpers/run-command.js'
import {application, seedTracker} from '../helpers/tracker.js'

let dir: ReturnType<typeof tempDir>
let home: string
/** The commands' clock: noon in Berlin, a day before the interviews these tests add. */
const NOW = Date.parse('2026-11-30T12:00:00+01:00')
const env = {TZ: 'Europe/Berlin', JOBAGENT_NOW: '2026-11-30T12:00:00'}

/** `YYYY-MM-DD HH:MM` in Berlin, `days` from NOW at `time`. */
function berlinDay(days: number, time: string): string {
  return `${formatWallClock(wallClockAt(NOW + days * 86_400_000, 'Europe/Berlin')).slice(0, 10)} ${time}`
}

beforeEach(async () => {
  dir = tempDir()
  home = dir.path
  await seedTracker(home, [
    application({url: 'https://example.org/jobs/1', title: 'Go Developer'}),
    application({url: 'https://example.org/jobs/2', title: 'SRE', company: 'Initech', status: 'offer'}),
  ])
})
afterEach(() => dir.cleanup())

describe('jobagent interview', () => {
  it('adds an interview in the user zone, moves the application to interviewing and shows it on status', async () => {
    const at = berlinDay(1, '14:00')
    const added = await runCommand(
      Interview,
      ['1', '--at', at, '--kind', 'video', '--with', 'Ann Lee, CTO', '--notes', 'system design'],
      {home, env},
    )
    expect(added.code).toBe(0)
    expect(added.stdout).toBe(
      `Interview #1 added to #1 Go Developer at Acme: ${at}+01:00 Europe/Berlin, video with Ann Lee, CTO\n` +
        '#1: applied -> interviewing\n',
    )
    const shown = await runCommand(Status, ['1'], {home, env})
    expect(shown.stdout).toContain(
      `Interviews\n  1. ${at}+01:00 Europe/Berlin  video with Ann Lee, CTO (system design)`,
    )
    expect(shown.stdout).toContain(`interview added: ${at} Europe/Berlin, video, Ann Lee, CTO`)
    expect(shown.stdout).toContain('applied -> interviewing')
    const json = JSON.parse((await runCommand(Status, ['1', '--json'], {home, env})).stdout)
    expect(json.status).toBe('interviewing')
    expect(json.interviews).toEqual([
      expect.objectContaining({starts_at: at.replace(' ', 'T'), time_zone: 'Europe/Berlin', kind: 'video'}),
    ])
  })

  it("lists an application's interviews by when they start, whatever order and zones they were added in", async () => {
    await runCommand(Interview, ['1', '--at', berlinDay(8, '10:00')], {home, env})
    // 09:00 in Tokyo is 01:00 in Berlin: before the Berlin one of the same day.
    await runCommand(Interview, ['1', '--at', `${berlinDay(8, '09:00').replace(' ', 'T')}`, '--zone', 'Asia/Tokyo'], {
      home,
      env,
    })
    await runCommand(Interview, ['1', '--at', berlinDay(1, '15:00')], {home, env})
    const json = JSON.parse((await runCommand(Status, ['1', '--json'], {home, env})).stdout)
    expect(json.interviews.map((one: {id: number}) => one.id)).toEqual([3, 2, 1])
    const shown = (await runCommand(Status, ['1'], {home, env})).stdout
    expect(shown.indexOf(berlinDay(1, '15:00'))).toBeLessThan(shown.indexOf(berlinDay(8, '10:00')))
  })

  it('prints --json and keeps a later status', async () => {
    const result = await runCommand(Interview, ['2', '--at', '2026-12-02T09:00', '--zone', 'Asia/Tokyo', '--json'], {
      home,
      env,
    })
    expect(result.code).toBe(0)
    const printed = JSON.parse(result.stdout)
    expect(printed.previous_status).toBe('offer')
    expect(printed.application.status).toBe('offer')
    expect(printed.interview).toMatchObject({
      starts_at: '2026-12-02T09:00',
      time_zone: 'Asia/Tokyo',
      starts_at_utc: '2026-12-02T00:00:00Z',
      kind: null,
      with: '',
    })
  })

  it('refuses an impossible date with the field named, and an unknown application', async () => {
    const bad = await runCommand(Interview, ['1', '--at', '2026-02-30 14:00'], {home, env})
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain(
      'Error: invalid interview: at "2026-02-30 14:00" is not a day of the calendar (2026-02-30 does not exist)',
    )
    expect(bad.stderr).toContain('Hint: e.g. jobagent interview 12 --at "2026-12-02 14:00"')
    const missing = await runCommand(Interview, ['99', '--at', '2026-12-02 14:00'], {home, env})
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('Error: no application #99')
  })
})

describe('jobagent interviews', () => {
  beforeEach(async () => {
    await runCommand(Interview, ['1', '--at', berlinDay(3, '10:00'), '--kind', 'onsite'], {home, env})
    await runCommand(Interview, ['2', '--at', berlinDay(1, '09:30'), '--kind', 'phone'], {home, env})
    await runCommand(Interview, ['1', '--at', berlinDay(-5, '11:00'), '--past'], {home, env})
  })

  it('lists upcoming ones soonest first, and the past ones after them with --all', async () => {
    const upcoming = await runCommand(Interviews, ['--json'], {home, env})
    expect(JSON.parse(upcoming.stdout).map((one: {id: number}) => one.id)).toEqual([2, 1])
    const all = await runCommand(Interviews, ['--all'], {home, env})
    const rows = all.stdout.trim().split('\n')
    expect(rows[0]).toMatch(/^STARTS\s+ZONE\s+KIND\s+WITH\s+APP\s+TITLE\s+COMPANY$/)
    expect(rows.slice(1).map((row) => row.slice(0, 16))).toEqual([
      berlinDay(1, '09:30'),
      berlinDay(3, '10:00'),
      berlinDay(-5, '11:00'),
    ])
  })

  it('writes every interview as a calendar ical.js reads', async () => {
    const result = await runCommand(Interviews, ['--ics'], {home, env})
    expect(result.code).toBe(0)
    const calendar = new ICAL.Component(ICAL.parse(result.stdout))
    const events = calendar.getAllSubcomponents('vevent').map((event) => new ICAL.Event(event))
    expect(events.map((event) => event.uid).sort()).toEqual([
      'interview-1@jobagent',
      'interview-2@jobagent',
      'interview-3@jobagent',
    ])
    const phone = events.find((event) => event.uid === 'interview-2@jobagent')
    expect(phone?.summary).toBe('Interview: SRE at Initech (phone)')
    expect(phone?.startDate.zone.tzid).toBe('Europe/Berlin')
    expect(phone?.startDate.toString()).toBe(`${berlinDay(1, '09:30').replace(' ', 'T')}:00`)
  })

  it('names tomorrow interviews and applications waiting after one in followups', async () => {
    const text = await runCommand(FollowUpsCommand, [], {home, env})
    expect(text.stdout).toContain('Interview tomorrow 09:30 Europe/Berlin: SRE at Initech (#2)')
    const json = JSON.parse((await runCommand(FollowUpsCommand, ['--json'], {home, env})).stdout)
    expect(json.upcoming_interviews).toEqual([expect.objectContaining({id: 2, when: 'tomorrow 09:30 Europe/Berlin'})])
    expect(json.waiting_after_interview).toEqual([])
  })
})
