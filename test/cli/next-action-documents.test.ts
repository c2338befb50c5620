import {createHash} from 'node:crypto'
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import Apply from '../../commands/apply.js'
import Edit from '../../commands/edit.js'
import FollowUpsCommand from '../../commands/followups.js'
import Status from '../../commands/status.js'
import {tempDir} from '../helpers/cli.js'
import {runCommand} from '../helpers/run-command.js'

let dir: ReturnType<typeof tempDir>
let home: string
const env = {JOBAGENT_NOW: '2026-12-01T09:00:00'}

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

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

describe('the next action of an application', () => {
  it('is set with a due date, shown by status and followups (due first first), moved and cleared', async () => {
    const first = JSON.parse((await runCommand(Apply, [...track(1), '--json'], {home, env})).stdout)
    for (const n of [2, 3]) await runCommand(Apply, track(n), {home, env})
    const set = await runCommand(Status, ['1', '--next', 'send portfolio', '--due', '2026-12-05'], {home, env})
    expect(set.code).toBe(0)
    expect(set.stdout).toBe('Next for #1 Job 1: send portfolio (due 2026-12-05).\n')
    await runCommand(Status, ['2', '--next', 'call Ana', '--due', '2026-12-03'], {home, env})
    await runCommand(Status, ['3', '--next', 'read their blog'], {home, env})

    expect((await runCommand(Status, ['1'], {home, env})).stdout).toMatch(
      /^ {2}next {10}send portfolio \(due 2026-12-05\)$/m,
    )
    const followups = await runCommand(FollowUpsCommand, ['--json'], {home, env})
    const document = JSON.parse(followups.stdout)
    expect(document.next_actions.map((one: {id: number}) => one.id)).toEqual([2, 1, 3])
    const text = (await runCommand(FollowUpsCommand, [], {home, env})).stdout
    expect(text).toContain(
      'Next actions\n  2026-12-03  #2 Job 2 at Acme: call Ana\n  2026-12-05  #1 Job 1 at Acme: send portfolio\n  no date     #3 Job 3 at Acme: read their blog\n',
    )

    // --due alone moves the date and keeps the action; the history keeps each change.
    await runCommand(Status, ['1', '--due', '2026-12-08'], {home, env})
    const moved = JSON.parse((await runCommand(Status, ['1', '--json'], {home, env})).stdout)
    expect(moved).toMatchObject({next_action: 'send portfolio', next_action_due: '2026-12-08'})
    expect(moved.history.at(-1)).toMatchObject({
      change: 'edit',
      details: {next_action_due: {from: '2026-12-05', to: '2026-12-08'}},
    })
    // Neither a next action nor its date starts the follow-up wait again.
    expect(moved.updated_at).toBe(first.updated_at)

    const done = await runCommand(Status, ['1', '--done', '--json'], {home, env})
    expect(JSON.parse(done.stdout)).toMatchObject({next_action: '', next_action_due: null})
    // Done says which action it marks done.
    expect((await runCommand(Status, ['3', '--done'], {home, env})).stdout).toBe(
      'Done: read their blog (#3 Job 3); no next action now.\n',
    )
    expect((await runCommand(Status, ['3', '--done'], {home, env})).stdout).toBe('No next action for #3 Job 3.\n')
    await runCommand(Status, ['3', '--next', 'read their blog'], {home, env})
    const cleared = await runCommand(Status, ['2', '--next', '', '--json'], {home, env})
    expect(JSON.parse(cleared.stdout)).toMatchObject({next_action: '', next_action_due: null})
    const left = JSON.parse((await runCommand(FollowUpsCommand, ['--json'], {home, env})).stdout)
    expect(left.next_actions.map((one: {id: number}) => one.id)).toEqual([3])
  })

  it('refuses a day that does not exist, a date with no action, and --next with a status', async () => {
    await runCommand(Apply, track(1), {home, env})
    const badDay = await runCommand(Status, ['1', '--next', 'x', '--due', '2026-02-30'], {home, env})
    expect(badDay.code).toBe(2)
    expect(badDay.stderr).toContain(
      'Error: invalid due: "2026-02-30" is no day of the calendar (2026-02 has no day 30)',
    )
    expect(badDay.stderr).toContain('Hint: give a day the month has, e.g. --due 2026-12-05')
    const badForm = await runCommand(Status, ['1', '--next', 'x', '--due', '5 Dec'], {home, env})
    expect(badForm.stderr).toContain('Error: invalid due: "5 Dec" is not a day written YYYY-MM-DD')
    const noAction = await runCommand(Status, ['1', '--due', '2026-12-05'], {home, env})
    expect(noAction.code).toBe(2)
    expect(noAction.stderr).toContain('#1 has no next action to give a date to')
    const withStatus = await runCommand(Status, ['1', 'interviewing', '--next', 'x'], {home, env})
    expect(withStatus.code).toBe(2)
    expect(withStatus.stderr).toContain('--next, --due and --done go with the id or URL of an application alone')
    const after = JSON.parse((await runCommand(Status, ['1', '--json'], {home, env})).stdout)
    expect(after).toMatchObject({status: 'applied', next_action: '', next_action_due: null})
  })
})

describe('the documents sent with an application', () => {
  it('are recorded by apply with path and SHA-256, copied by hash with --keep-copy, and replaced by edit', async () => {
    const cv = join(home, 'cv.pdf')
    const letter = join(home, 'letter.txt')
    writeFileSync(cv, 'my cv, version 1')
    writeFileSync(letter, 'Dear Acme')
    const applied = await runCommand(
      Apply,
      [...track(1), '--cv', cv, '--cover-letter', letter, '--keep-copy', '--json'],
      {home, env},
    )
    expect(applied.code).toBe(0)
    const copy = join(home, 'documents', `${sha256('my cv, version 1')}.pdf`)
    expect(JSON.parse(applied.stdout).documents).toEqual([
      {
        kind: 'cv',
        path: cv,
        sha256: sha256('my cv, version 1'),
        copy,
        recorded_at: expect.stringMatching(/^2026-12-01T09:00:00\.\d{3}\+00:00$/),
      },
      {
        kind: 'cover_letter',
        path: letter,
        sha256: sha256('Dear Acme'),
        copy: join(home, 'documents', `${sha256('Dear Acme')}.txt`),
        recorded_at: expect.stringMatching(/^2026-12-01T09:00:00\.\d{3}\+00:00$/),
      },
    ])
    expect(readFileSync(copy, 'utf8')).toBe('my cv, version 1')
    expect((await runCommand(Status, ['1'], {home, env})).stdout).toContain(
      `  cv            ${cv} (sha256 ${sha256('my cv, version 1').slice(0, 12)}, copy ${copy})`,
    )

    // The file changes after it was sent: the copy still holds what went out.
    writeFileSync(cv, 'my cv, version 2')
    const edited = await runCommand(Edit, ['1', '--cv', cv], {home, env})
    expect(edited.code).toBe(0)
    expect(edited.stdout).toBe(`Edited #1:\n  cv: ${cv} (sha256 ${sha256('my cv, version 2').slice(0, 12)})\n`)
    expect(readFileSync(copy, 'utf8')).toBe('my cv, version 1')
    const shown = JSON.parse((await runCommand(Status, ['1', '--json'], {home, env})).stdout)
    expect(shown.documents.map((document: {kind: string; sha256: string}) => [document.kind, document.sha256])).toEqual(
      [
        ['cv', sha256('my cv, version 2')],
        ['cover_letter', sha256('Dear Acme')],
      ],
    )
    expect(shown.history.at(-1)).toMatchObject({
      change: 'edit',
      details: {
        cv: {
          from: `${cv} (sha256 ${sha256('my cv, version 1').slice(0, 12)})`,
          to: `${cv} (sha256 ${sha256('my cv, version 2').slice(0, 12)})`,
        },
      },
    })
  })

  it('tracks nothing when a document cannot be read, naming the file', async () => {
    const missing = join(home, 'nope.pdf')
    const applied = await runCommand(Apply, [...track(1), '--cv', missing], {home, env})
    expect(applied.code).not.toBe(0)
    expect(applied.stderr).toContain(`Error: cannot read ${missing}: the file does not exist`)
    expect(JSON.parse((await runCommand(Status, ['--json'], {home, env})).stdout)).toEqual([])
    expect(existsSync(join(home, 'documents'))).toBe(false)
    const keepAlone = await runCommand(Edit, ['1', '--keep-copy'], {home, env})
    expect(keepAlone.code).toBe(2)
    expect(keepAlone.stderr).toContain('--keep-copy goes with --cv or --cover-letter')
  })
})
