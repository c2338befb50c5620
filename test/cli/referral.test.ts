import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import Apply from '../../commands/apply.js'
import Edit from '../../commands/edit.js'
import ExportCsv from '../../commands/export-csv.js'
import Import from '../../commands/import.js'
import Status from '../../commands/status.js'
import {tempDir} from '../helpers/cli.js'
import {runCommand} from '../helpers/run-command.js'

let dir: ReturnType<typeof tempDir>
let home: string

beforeEach(() => {
  dir = tempDir()
  home = dir.path
})
afterEach(() => dir.cleanup())

const track = ['https://example.org/jobs/1', '--title', 'Go Developer', '--company', 'Acme', '--source', 'manual']

describe('the referral of an application', () => {
  it('is set by apply --referral, shown by status <id> and changed by edit --referral', async () => {
    const applied = await runCommand(Apply, [...track, '--referral', 'Ana Silva', '--json'], {home})
    expect(applied.code).toBe(0)
    expect(JSON.parse(applied.stdout)).toMatchObject({id: 1, referral: 'Ana Silva'})

    const shown = await runCommand(Status, ['1'], {home})
    expect(shown.stdout).toMatch(/^ {2}referral {6}Ana Silva$/m)

    const edited = await runCommand(Edit, ['1', '--referral', 'Ben Okafor'], {home})
    expect(edited.code).toBe(0)
    expect(edited.stdout).toBe('Edited #1:\n  referral: Ana Silva -> Ben Okafor\n')
    const after = JSON.parse((await runCommand(Status, ['1', '--json'], {home})).stdout)
    expect(after.referral).toBe('Ben Okafor')
    expect(after.history.at(-1)).toMatchObject({
      change: 'edit',
      details: {referral: {from: 'Ana Silva', to: 'Ben Okafor'}},
    })
  })

  it('is empty when apply is not given one, and status <id> leaves its line out', async () => {
    const applied = await runCommand(Apply, [...track, '--json'], {home})
    expect(JSON.parse(applied.stdout).referral).toBe('')
    expect((await runCommand(Status, ['1'], {home})).stdout).not.toContain('referral')
  })

  it('goes through a CSV export and import unchanged, and a CSV without the column keeps it', async () => {
    await runCommand(Apply, [...track, '--referral', '=Ana, "the" recruiter'], {home})
    const file = join(home, 'out.csv')
    expect((await runCommand(ExportCsv, ['--output', file], {home})).code).toBe(0)
    const csv = readFileSync(file, 'utf8')
    expect(csv.split('\r\n')[0]).toBe(
      'title,company,location,url,source,applied_date,status,notes,id,salary_expected,salary_offered,referral,contacts',
    )

    const other = tempDir()
    try {
      expect((await runCommand(Import, [file], {home: other.path})).code).toBe(0)
      const imported = JSON.parse((await runCommand(Status, ['1', '--json'], {home: other.path})).stdout)
      expect(imported.referral).toBe('=Ana, "the" recruiter')

      // A file of the eight columns alone updates the record and keeps the referral it holds.
      const eight = join(other.path, 'eight.csv')
      writeFileSync(
        eight,
        'title,company,location,url,source,status,notes\r\nGo Developer,Acme,,https://example.org/jobs/1,manual,offer,\r\n',
      )
      expect((await runCommand(Import, [eight, '--update'], {home: other.path})).code).toBe(0)
      const updated = JSON.parse((await runCommand(Status, ['1', '--json'], {home: other.path})).stdout)
      expect(updated).toMatchObject({status: 'offer', referral: '=Ana, "the" recruiter'})
    } finally {
      other.cleanup()
    }
  })
})
