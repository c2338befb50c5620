import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import Apply from '../../commands/apply.js'
import FollowUpsCommand from '../../commands/followups.js'
import Interview from '../../commands/interview.js'
import {tempDir} from '../helpers/cli.js'
import {runCommand} from '../helpers/run-command.js'

let dir: ReturnType<typeof tempDir>
let home: string
beforeEach(() => {
  dir = tempDir()
  home = dir.path
})
afterEach(() => dir.cleanup())

/** 2026-03-02 plus `days`, at `time`, as JOBAGENT_NOW reads it (the zone is UTC). */
const day = (days: number, time = '12:00') =>
  `${new Date(Date.UTC(2026, 2, 2 + days)).toISOString().slice(0, 10)}T${time}:00`
const on = (days: number, time?: string) => ({home, env: {TZ: 'UTC', JOBAGENT_NOW: day(days, time)}})

const track = (n: number) => [
  `https://example.org/jobs/${n}`,
  '--title',
  `Job ${n}`,
  '--company',
  'Acme',
  '--source',
  'manual',
]

describe('follow-ups over a simulated month', () => {
  it('leave out an application with an interview ahead or one less than after_interview_days (5) ago', async () => {
    await runCommand(Apply, track(1), on(0, '09:00'))
    await runCommand(Apply, track(2), on(0, '09:00'))
    // On day 2, #1 books an interview for day 9 at 10:00.
    const booked = await runCommand(Interview, ['1', '--at', `${day(9).slice(0, 10)} 10:00`], on(2, '09:00'))
    expect(booked.code).toBe(0)

    const dueByDay: number[][] = []
    for (let days = 0; days <= 30; days++) {
      const listed = JSON.parse((await runCommand(FollowUpsCommand, ['--json'], on(days))).stdout)
      dueByDay.push(listed.applications.map((one: {id: number}) => one.id).sort())
    }
    // #2 waits from day 0 and is due from day 7; #1 changed on day 2 (interviewing) and would be due from day 9,
    // but its interview is ahead until day 9 10:00 and less than 5 days ago until day 14 10:00.
    const expected = Array.from({length: 31}, (_, days) => [...(days >= 14 ? [1] : []), ...(days >= 7 ? [2] : [])])
    expect(dueByDay).toEqual(expected)
  })
})
