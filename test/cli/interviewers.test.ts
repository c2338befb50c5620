import ICAL from 'ical.js'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import Contact from '../../commands/contact.js'
import Interview from '../../commands/interview.js'
import Interviews from '../../commands/interviews.js'
import Status from '../../commands/status.js'
import {tempDir} from '../helpers/cli.js'
import {runCommand} from '../helpers/run-command.js'
import {application, readTracker, seedTracker} from '../helpers/tracker.js'

let dir: ReturnType<typeof tempDir>
let home: string
/** The commands' clock: noon in Berlin, days before the interviews these tests add. */
const env = {TZ: 'Europe/Berlin', JOBAGENT_NOW: '2026-11-30T12:00:00'}

beforeEach(async () => {
  dir = tempDir()
  home = dir.path
  await seedTracker(home, [
    application({url: 'https://example.org/jobs/1', title: 'Go Developer'}),
    application({url: 'https://example.org/jobs/2', title: 'SRE', company: 'Initech'}),
  ])
  await runCommand(Contact, ['1', '--name', 'Ann Lee', '--role', 'recruiter', '--email', 'ann@example.org'], {home})
  await runCommand(Contact, ['1', '--name', 'Bo Chen', '--link', 'https://example.org/bo'], {home})
  await runCommand(Contact, ['2', '--name', 'Cy Diaz', '--email', 'cy@example.org'], {home})
})
afterEach(() => dir.cleanup())

describe('interviewers from the contacts', () => {
  it('takes contacts by number or exact name and anyone else as text, and shows them everywhere', async () => {
    const added = await runCommand(
      Interview,
      ['1', '--at', '2026-12-03 14:00', '--with', '#2', '--with', ' ann lee ', '--with', 'Dee Evans, CTO', '--json'],
      {home, env},
    )
    expect(added.code).toBe(0)
    const printed = JSON.parse(added.stdout).interview
    expect(printed.interviewers).toEqual([
      {id: 2, name: 'Bo Chen', role: '', reach: 'https://example.org/bo'},
      {id: 1, name: 'Ann Lee', role: 'recruiter', reach: 'ann@example.org'},
    ])
    expect(printed.with).toBe('Dee Evans, CTO')
    expect(readTracker(home).history.at(-2)).toMatchObject({
      change: 'interview',
      details: JSON.stringify({
        at: '2026-12-03 14:00 Europe/Berlin',
        with: 'Bo Chen; Ann Lee (recruiter); Dee Evans, CTO',
      }),
    })

    const shown = await runCommand(Status, ['1'], {home, env})
    expect(shown.stdout).toContain(
      'Interviews\n  1. 2026-12-03 14:00+01:00 Europe/Berlin  with Bo Chen; Ann Lee (recruiter); Dee Evans, CTO',
    )
    const listed = await runCommand(Interviews, ['--json'], {home, env})
    expect(JSON.parse(listed.stdout)[0].interviewers.map((one: {id: number}) => one.id)).toEqual([2, 1])
    const table = await runCommand(Interviews, [], {home, env, columns: 200})
    expect(table.stdout).toContain('Bo Chen; Ann Lee (recruiter); Dee Evans, CTO')

    const ics = await runCommand(Interviews, ['--ics'], {home, env})
    const calendar = new ICAL.Component(ICAL.parse(ics.stdout))
    const [event] = calendar.getAllSubcomponents('vevent')
    // Only the contact with an email address is an attendee; the others are in the description.
    const attendees = event?.getAllProperties('attendee') ?? []
    expect(attendees.map((one) => [one.getParameter('cn'), String(one.getFirstValue()).toLowerCase()])).toEqual([
      ['Ann Lee', 'mailto:ann@example.org'],
    ])
    expect(new ICAL.Event(event).description).toContain('With: Bo Chen; Ann Lee (recruiter); Dee Evans, CTO')
  })

  it('refuses a number that is no contact of the application, and adds nothing', async () => {
    const refused = await runCommand(Interview, ['1', '--at', '2026-12-03 14:00', '--with', '3'], {home, env})
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('Error: #1 has no contact 3; no interview was added')
    expect(refused.stderr).toContain('Hint: see its contacts with: jobagent status 1')
    const json = JSON.parse((await runCommand(Status, ['1', '--json'], {home, env})).stdout)
    expect(json.interviews).toEqual([])
    // Contact 3 is another application's: its name is no contact of #1 either, so it is text there.
    const named = await runCommand(Interview, ['1', '--at', '2026-12-03 14:00', '--with', 'Cy Diaz', '--json'], {
      home,
      env,
    })
    expect(JSON.parse(named.stdout).interview).toMatchObject({interviewers: [], with: 'Cy Diaz'})
  })

  it('keeps a removed contact on its interviews as text', async () => {
    await runCommand(Interview, ['1', '--at', '2026-12-03 14:00', '--with', '1', '--with', '2', '--with', 'Dee'], {
      home,
      env,
    })
    expect((await runCommand(Contact, ['1', '--remove', '1'], {home, env})).code).toBe(0)
    const [interview] = JSON.parse((await runCommand(Status, ['1', '--json'], {home, env})).stdout).interviews
    expect(interview).toMatchObject({interviewers: [{id: 2, name: 'Bo Chen'}], with: 'Ann Lee (recruiter); Dee'})
  })
})

describe('jobagent interview --remove', () => {
  it('removes one interview by its number, keeps the status and says so in the history', async () => {
    await runCommand(Interview, ['1', '--at', '2026-12-03 14:00', '--kind', 'video', '--with', '1'], {home, env})
    await runCommand(Interview, ['1', '--at', '2026-12-04 09:00'], {home, env})
    const removed = await runCommand(Interview, ['1', '--remove', '1'], {home, env})
    expect(removed.code, removed.stderr).toBe(0)
    expect(removed.stdout).toBe(
      'Removed interview #1 of #1: 2026-12-03 14:00+01:00 Europe/Berlin, video with Ann Lee (recruiter)\n',
    )
    const json = JSON.parse((await runCommand(Status, ['1', '--json'], {home, env})).stdout)
    expect(json.status).toBe('interviewing')
    expect(json.interviews.map((one: {id: number}) => one.id)).toEqual([2])
    const shown = await runCommand(Status, ['1'], {home, env})
    expect(shown.stdout).toContain('interview removed: 2026-12-03 14:00 Europe/Berlin, video, Ann Lee (recruiter)')
    const again = await runCommand(Interview, ['1', '--remove', '1'], {home, env})
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('Error: #1 has no interview 1')
    // Interview 2 is #1's, not #2's.
    expect((await runCommand(Interview, ['2', '--remove', '2'], {home, env})).code).toBe(1)
    const neither = await runCommand(Interview, ['1'], {home, env})
    expect(neither.code).toBe(2)
    expect(neither.stderr).toContain('Error: --at or --remove is required')
  })
})
