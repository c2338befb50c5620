import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import Apply from '../../commands/apply.js'
import Interview from '../../commands/interview.js'
import Remind from '../../commands/remind.js'
import Status from '../../commands/status.js'
import {tempDir} from '../helpers/cli.js'
import {runCommand} from '../helpers/run-command.js'

let dir: ReturnType<typeof tempDir>
let home: string
const env = {TZ: 'UTC', JOBAGENT_NOW: '2026-12-01T08:00:00'}
beforeEach(() => {
  dir = tempDir()
  home = dir.path
})
afterEach(() => dir.cleanup())

const track = (n: number) => [
  `https://example.org/jobs/${n}`,
  '--title',
  `Job ${n}`,
  '--company',
  'Acme',
  '--source',
  'manual',
]

describe('jobagent remind', () => {
  it('exits 0 saying nothing is due, then names the interviews of today and tomorrow and the next actions due', async () => {
    const empty = await runCommand(Remind, [], {home, env})
    expect(empty.code).toBe(0)
    expect(empty.stdout).toBe('Nothing due today or tomorrow: no interview and no next action.\n')

    for (const n of [1, 2, 3]) await runCommand(Apply, track(n), {home, env})
    await runCommand(Interview, ['1', '--at', '2026-12-02 09:30'], {home, env})
    await runCommand(Interview, ['2', '--at', '2026-12-04 09:30'], {home, env})
    await runCommand(Status, ['2', '--next', 'send portfolio', '--due', '2026-11-30'], {home, env})
    await runCommand(Status, ['3', '--next', 'call Ana', '--due', '2026-12-09'], {home, env})

    const text = await runCommand(Remind, [], {home, env})
    expect(text.code).toBe(0)
    expect(text.stdout).toBe(
      'Interview tomorrow 09:30 UTC: Job 1 at Acme (#1)\n' +
        'Next action overdue since 2026-11-30: send portfolio for #2 Job 2 at Acme\n',
    )
    const json = JSON.parse((await runCommand(Remind, ['--json'], {home, env})).stdout)
    expect(json.interviews.map((one: {id: number}) => one.id)).toEqual([1])
    expect(json.next_actions.map((one: {id: number}) => one.id)).toEqual([2])
  })
})

describe('jobagent remind in zones far from UTC, around midnight', () => {
  it('decides today and tomorrow in Pacific/Auckland, for an interview held in Berlin and a next action', async () => {
    // 23:30 on 2026-12-01 in Auckland (UTC+13), 11:30 in Berlin the same day.
    const auckland = {TZ: 'Pacific/Auckland', JOBAGENT_NOW: '2026-12-01T10:30:00Z'}
    for (const n of [1, 2, 3]) await runCommand(Apply, track(n), {home, env: auckland})
    // 14:00 in Berlin on 2026-12-01 is 02:00 on 2026-12-02 in Auckland: tomorrow for the person, not today.
    await runCommand(Interview, ['1', '--at', '2026-12-01 14:00', '--zone', 'Europe/Berlin'], {home, env: auckland})
    // 00:30 on 2026-12-03 in Auckland: the day after tomorrow.
    await runCommand(Interview, ['2', '--at', '2026-12-03 00:30'], {home, env: auckland})
    await runCommand(Status, ['3', '--next', 'send portfolio', '--due', '2026-12-02'], {home, env: auckland})
    await runCommand(Status, ['2', '--next', 'call Ana', '--due', '2026-12-03'], {home, env: auckland})

    const text = await runCommand(Remind, [], {home, env: auckland})
    expect(text.stdout).toBe(
      'Interview tomorrow 02:00 Pacific/Auckland (2026-12-01 14:00 Europe/Berlin): Job 1 at Acme (#1)\n' +
        'Next action due 2026-12-02: send portfolio for #3 Job 3 at Acme\n',
    )
    const json = JSON.parse((await runCommand(Remind, ['--json'], {home, env: auckland})).stdout)
    expect(json).toMatchObject({today: '2026-12-01', tomorrow: '2026-12-02'})
    // Half an hour later it is 2026-12-02 in Auckland: the interview is today and #2's is tomorrow.
    const later = {TZ: 'Pacific/Auckland', JOBAGENT_NOW: '2026-12-01T11:00:00Z'}
    expect((await runCommand(Remind, [], {home, env: later})).stdout).toBe(
      'Interview today 02:00 Pacific/Auckland (2026-12-01 14:00 Europe/Berlin): Job 1 at Acme (#1)\n' +
        'Interview tomorrow 00:30 Pacific/Auckland: Job 2 at Acme (#2)\n' +
        'Next action due 2026-12-02: send portfolio for #3 Job 3 at Acme\n' +
        'Next action due 2026-12-03: call Ana for #2 Job 2 at Acme\n',
    )
  })

  it('decides them in America/Los_Angeles for an interview held in Tokyo, whose own date is another day', async () => {
    // 23:30 on 2026-12-01 in Los Angeles (UTC-8), 16:30 on 2026-12-02 in Tokyo.
    const losAngeles = {TZ: 'America/Los_Angeles', JOBAGENT_NOW: '2026-12-02T07:30:00Z'}
    await runCommand(Apply, track(1), {home, env: losAngeles})
    // 17:00 on 2026-12-02 in Tokyo is 00:00 on 2026-12-02 in Los Angeles: tomorrow, though the interview's own
    // date is today's in Tokyo.
    await runCommand(Interview, ['1', '--at', '2026-12-02 17:00', '--zone', 'Asia/Tokyo'], {home, env: losAngeles})
    expect((await runCommand(Remind, [], {home, env: losAngeles})).stdout).toBe(
      'Interview tomorrow 00:00 America/Los_Angeles (2026-12-02 17:00 Asia/Tokyo): Job 1 at Acme (#1)\n',
    )
  })

  it('takes tomorrow as the next day of the calendar on the night the clocks spring forward', async () => {
    // 23:30 on 2027-03-13 in Los Angeles; 2027-03-14 is 23 hours long there, so 24 hours on is 2027-03-15.
    const losAngeles = {TZ: 'America/Los_Angeles', JOBAGENT_NOW: '2027-03-14T07:30:00Z'}
    await runCommand(Apply, track(1), {home, env: losAngeles})
    await runCommand(Status, ['1', '--next', 'send portfolio', '--due', '2027-03-15'], {home, env: losAngeles})
    const json = JSON.parse((await runCommand(Remind, ['--json'], {home, env: losAngeles})).stdout)
    expect(json).toMatchObject({today: '2027-03-13', tomorrow: '2027-03-14', next_actions: []})
  })
})
