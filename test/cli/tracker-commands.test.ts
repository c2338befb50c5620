import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import Edit from '../../commands/edit.js'
import Remove from '../../commands/remove.js'
import Status from '../../commands/status.js'
import {tempDir} from '../helpers/cli.js'
import {runCommand} from '../helpers/run-command.js'
import {application, seedTracker} from '../helpers/tracker.js'

let dir: ReturnType<typeof tempDir>
let home: string

const LONG_URL = `https://careers.example.org/jobs/${'backend-platform-engineer-'.repeat(6)}42?team=infra&level=senior`

beforeEach(async () => {
  dir = tempDir()
  home = dir.path
  await seedTracker(home, [
    application({url: 'https://example.org/jobs/1', title: 'Go Developer', source: 'linkedin'}),
    application({url: LONG_URL, company: 'Initech', notes: 'ask Ann'}),
  ])
})
afterEach(() => dir.cleanup())

describe('jobagent status with short ids', () => {
  it('lists ids first and whole URLs off a terminal', async () => {
    const result = await runCommand(Status, [], {home})
    expect(result.code).toBe(0)
    const lines = result.stdout.split('\n')
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+APPLIED\s+TITLE\s+COMPANY\s+URL$/)
    expect(lines.find((line) => line.startsWith('2 '))).toContain(LONG_URL)
    expect(result.stdout).not.toContain('…')
  })

  it('uses the width of the terminal: whole titles on a wide one, titles and URLs cut to fit a narrow one', async () => {
    const title = 'Staff Software Engineer, Developer Productivity and Build Infrastructure'
    await seedTracker(home, [application({url: 'https://example.org/jobs/3', title, company: 'Globex'})])
    const wide = await runCommand(Status, [], {home, terminal: true, columns: 240})
    const row = (output: string, id: string) => output.split('\n').find((line) => line.startsWith(`${id} `)) ?? ''
    expect(row(wide.stdout, '3')).toContain(title)
    for (const line of wide.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(240)
    const narrow = await runCommand(Status, [], {home, terminal: true, columns: 100})
    expect(row(narrow.stdout, '3')).toMatch(/Staff Software Engineer, Developer[^…]*… {2}Globex/)
    expect(row(narrow.stdout, '3')).not.toContain(title)
    for (const line of narrow.stdout.split('\n').slice(0, 4)) expect(line.length).toBeLessThanOrEqual(100)
    const piped = await runCommand(Status, [], {home})
    expect(row(piped.stdout, '3')).toContain(title)
  })

  it('changes a status by id, shows one by id, and filters the list', async () => {
    const change = await runCommand(Status, ['2', 'interviewing', '--notes', 'call Tue'], {home})
    expect(change.code).toBe(0)
    expect(change.stdout).toBe(`#2 ${LONG_URL}: applied -> interviewing (notes: call Tue)\n`)
    const shown = await runCommand(Status, ['#2'], {home})
    expect(shown.stdout).toContain('#2 Backend Engineer')
    expect(shown.stdout).toContain('applied -> interviewing (notes were: ask Ann)')
    const filtered = await runCommand(Status, ['--search', 'go dev', '--json'], {home})
    expect(JSON.parse(filtered.stdout).map((one: {id: number}) => one.id)).toEqual([1])
    const none = await runCommand(Status, ['--source', 'indeed'], {home})
    expect(none.stdout).toContain('No applications from indeed.')
  })

  it('suggests the nearest status for a mistyped one and changes nothing', async () => {
    const typo = await runCommand(Status, ['1', 'intervewing'], {home})
    expect(typo.code).toBe(2)
    expect(typo.stderr).toContain(
      'Error: invalid status: unknown status "intervewing" (did you mean "interviewing"?); use one of: saved, applied,',
    )
    // A refusal without a hint of its own points at the command's help.
    expect(typo.stderr).toMatch(/\nHint: see what it takes with: jobagent status --help\n$/)
    expect((await runCommand(Status, ['1', 'Offer'], {home})).stderr).toContain('(did you mean "offer"?)')
    // A status said in other words is answered with the one it means; nothing near enough, with the list only.
    expect((await runCommand(Status, ['1', 'hired'], {home})).stderr).toContain(
      'unknown status "hired" (did you mean "accepted"?); use one of: saved',
    )
    expect((await runCommand(Status, ['1', 'banana'], {home})).stderr).toContain(
      'unknown status "banana"; use one of: saved',
    )
    const shown = JSON.parse((await runCommand(Status, ['1', '--json'], {home})).stdout)
    expect(shown).toMatchObject({status: 'applied', history: []})
  })

  it('indents the later lines of multi-line notes under the first, in the record, its history and a change', async () => {
    const change = await runCommand(Status, ['1', 'interviewing', '--notes', 'call Tue\nask about remote'], {home})
    expect(change.stdout).toBe(
      '#1 https://example.org/jobs/1: applied -> interviewing (notes: call Tue\n  ask about remote)\n',
    )
    await runCommand(Status, ['1', 'offer'], {home})
    await runCommand(Status, ['1', 'offer', '--notes', 'first line\nsecond line\nthird line'], {home})
    const shown = (await runCommand(Status, ['1'], {home})).stdout.split('\n')
    const notes = shown.findIndex((line) => line.startsWith('  notes '))
    expect(shown.slice(notes, notes + 3)).toEqual([
      '  notes         first line',
      '                second line',
      '                third line',
    ])
    const history = shown.findIndex((line) => line.includes('(notes were: call Tue'))
    const column = shown[history]!.indexOf('interviewing -> offer')
    expect(column).toBeGreaterThan(2)
    expect(shown[history + 1]).toBe(`${' '.repeat(column)}ask about remote)`)
    // Nothing of the notes starts a line at the left edge.
    expect(shown.filter((line) => /^(second|third|ask)/.test(line))).toEqual([])
  })

  it('snoozes any application, and says when the snooze postpones nothing yet', async () => {
    await seedTracker(home, [application({url: 'https://example.org/jobs/3', status: 'saved'})])
    const env = {JOBAGENT_NOW: '2026-11-22T05:00:00'}
    const saved = await runCommand(Status, ['3', '--snooze', '7'], {home, env})
    expect(saved.code, saved.stderr).toBe(0)
    expect(saved.stderr).toBe(
      'Note: #3 is saved; follow-ups are for applied and interviewing applications, so the snooze counts only once it is one\n',
    )
    expect(saved.stdout).toContain('before 2026-11-29.')
    const applied = await runCommand(Status, ['1', '--snooze', '7'], {home, env})
    expect([applied.code, applied.stderr]).toEqual([0, ''])
  })

  it('says which application an id does not name, and refuses a filter with an id', async () => {
    const missing = await runCommand(Status, ['99', 'offer'], {home})
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('Error: no application #99')
    expect(missing.stderr).toContain('Hint: list tracked applications with their ids: jobagent status')
    // Neither an id nor a URL: named as such, not as a bad URL.
    for (const ref of ['abc', '-5']) {
      const neither = await runCommand(Status, ['--', ref], {home})
      expect(neither.code).toBe(2)
      expect(neither.stderr).toContain(`Error: "${ref}" is neither an application id (12 or #12) nor a URL`)
      expect(neither.stderr).toContain('Hint: list tracked applications with their ids: jobagent status')
    }
    const ftp = await runCommand(Status, ['ftp://example.com/job'], {home})
    expect(ftp.stderr).toContain('url must be an http:// or https:// address')
    const mixed = await runCommand(Status, ['2', '--search', 'x'], {home})
    expect(mixed.code).toBe(2)
    expect(mixed.stderr).toContain('Error: --status, --search, --source and --since filter the list')
  })
})

describe('jobagent edit and remove', () => {
  it('edits fields by id, keeps the change in the history, and refuses a URL tracked as another', async () => {
    const edited = await runCommand(Edit, ['1', '--title', 'Staff Go Developer', '--salary-expected', '€80k'], {home})
    expect(edited.code).toBe(0)
    expect(edited.stdout).toBe(
      'Edited #1:\n  title: Go Developer -> Staff Go Developer\n  salary_expected: - -> €80k\n',
    )
    const shown = await runCommand(Status, ['1'], {home})
    expect(shown.stdout).toContain('expected      €80k')
    expect(shown.stdout).toContain('edited title "Go Developer" -> "Staff Go Developer", salary_expected "" -> "€80k"')
    const taken = await runCommand(Edit, ['1', '--url', `${LONG_URL}&utm_source=mail`], {home})
    expect(taken.code).toBe(1)
    expect(taken.stderr).toContain(`Error: already tracked as #2 ${LONG_URL} (status: applied)`)
    const nothing = await runCommand(Edit, ['1'], {home})
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toContain('Error: nothing to change')
  })

  it('says how to give an application the URL another one has, naming both ids', async () => {
    const taken = await runCommand(Edit, ['1', '--url', LONG_URL], {home})
    expect(taken.code).toBe(1)
    expect(taken.stderr).toContain(`Error: already tracked as #2 ${LONG_URL} (status: applied)`)
    expect(taken.stderr).toContain(
      'Hint: #2 has that URL already (see it with: jobagent status 2); to give it to #1, change the URL of #2 ' +
        'first (jobagent edit 2 --url <URL>) or delete #2 (jobagent remove 2 --purge)',
    )
    expect(taken.stderr).not.toContain('<status>')
    await runCommand(Remove, ['2'], {home})
    const removed = await runCommand(Edit, ['1', '--url', LONG_URL], {home})
    expect(removed.stderr).toContain(
      'Hint: #2 is removed from lists but keeps that URL; bring it back with jobagent remove 2 --undo and edit it ' +
        'instead, or delete it for good with jobagent remove 2 --purge',
    )
  })

  it('removes, restores and purges by id', async () => {
    const removed = await runCommand(Remove, ['2', '--json'], {home})
    expect(JSON.parse(removed.stdout)).toMatchObject({id: 2, purged: false, removed_at: expect.any(String)})
    const listed = await runCommand(Status, [], {home})
    expect(listed.stdout).not.toContain(LONG_URL)
    expect(listed.stdout).toContain('Applications: 1 total, 1 applied, 0 pending')
    const restored = await runCommand(Remove, ['2', '--undo'], {home})
    expect(restored.stdout).toBe('Restored #2 to lists and stats. (Backend Engineer at Initech)\n')
    const purged = await runCommand(Remove, ['2', '--purge', '--yes'], {home})
    expect(purged.stdout).toBe('Deleted #2 for good, with its history. (Backend Engineer at Initech)\n')
    expect((await runCommand(Status, ['2'], {home})).code).toBe(1)
    const both = await runCommand(Remove, ['1', '--undo', '--purge'], {home})
    expect(both.code).toBe(2)
  })
})
