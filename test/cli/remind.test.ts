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
