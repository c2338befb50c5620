import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import Contact from '../../commands/contact.js'
import Edit from '../../commands/edit.js'
import ExportCsv from '../../commands/export-csv.js'
import Import from '../../commands/import.js'
import Status from '../../commands/status.js'
import {tempDir} from '../helpers/cli.js'
import {runCommand} from '../helpers/run-command.js'
import {application, seedTracker} from '../helpers/tracker.js'

let dir: ReturnType<typeof tempDir>
let home: string

beforeEach(async () => {
  dir = tempDir()
  home = join(dir.path, 'home')
  await seedTracker(home, [
    application({url: 'https://example.org/jobs/1', title: 'Go Developer', source: 'linkedin'}),
    application({url: 'https://example.org/jobs/2', company: 'Initech', notes: 'ask Ann'}),
  ])
})
afterEach(() => dir.cleanup())

describe('jobagent contact', () => {
  it('adds contacts, shows them in status <id> with the salary lines, and removes one by its number', async () => {
    const added = await runCommand(
      Contact,
      ['2', '--name', 'Ann Lee', '--role', 'recruiter', '--email', 'ann@example.org', '--notes', 'met at\nthe fair'],
      {home},
    )
    expect(added.code).toBe(0)
    expect(added.stdout).toBe(
      'Added contact 1 of #2: Ann Lee (recruiter) <ann@example.org>; remove it with: jobagent contact 2 --remove 1\n',
    )
    const link = await runCommand(Contact, ['#2', '--name', 'Bo Chen', '--link', 'https://example.org/bo', '--json'], {
      home,
    })
    expect(JSON.parse(link.stdout)).toMatchObject({
      id: 2,
      application_id: 2,
      name: 'Bo Chen',
      reach: 'https://example.org/bo',
    })
    await runCommand(Edit, ['2', '--salary-expected', '€80k', '--salary-offered', '€76k'], {home})

    const shown = await runCommand(Status, ['2'], {home})
    expect(shown.stdout).toContain('  expected      €80k\n  offered       €76k')
    expect(shown.stdout).toContain(
      'Contacts\n  1. Ann Lee (recruiter) <ann@example.org>\n     met at\n     the fair\n  2. Bo Chen <https://example.org/bo>',
    )
    expect(shown.stdout).toContain('contact added: Ann Lee (recruiter) <ann@example.org>')

    const removed = await runCommand(Contact, ['2', '--remove', '1'], {home})
    expect(removed.stdout).toBe('Removed contact 1 of #2: Ann Lee (recruiter) <ann@example.org>\n')
    const json = JSON.parse((await runCommand(Status, ['2', '--json'], {home})).stdout)
    expect(json.contacts.map((one: {name: string}) => one.name)).toEqual(['Bo Chen'])
    expect(json.history.at(-1)).toMatchObject({
      change: 'contact',
      details: {removed: 'Ann Lee (recruiter) <ann@example.org>'},
    })
  })

  it('refuses a contact without a name, an address that is none, and a number the application does not have', async () => {
    const noName = await runCommand(Contact, ['2'], {home})
    expect(noName.code).toBe(2)
    expect(noName.stderr).toContain('Error: --name or --remove is required')
    const badEmail = await runCommand(Contact, ['2', '--name', 'Ann', '--email', 'ann at example'], {home})
    expect(badEmail.code).toBe(2)
    expect(badEmail.stderr).toContain('email must be an address such as ann@example.org')
    const badLink = await runCommand(Contact, ['2', '--name', 'Ann', '--link', 'javascript:alert(1)'], {home})
    expect(badLink.stderr).toContain('link must be an http:// or https:// address')
    const control = await runCommand(Contact, ['2', '--name', 'Ann\u001b[31m'], {home})
    expect(control.stderr).toContain('name holds a control character')
    const missing = await runCommand(Contact, ['2', '--remove', '9'], {home})
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('Error: #2 has no contact 9')
    expect(missing.stderr).toContain('Hint: see its contacts with: jobagent status 2')
    const noApplication = await runCommand(Contact, ['99', '--name', 'Ann'], {home})
    expect(noApplication.stderr).toContain('Error: no application #99')
  })
})

describe('the export and import with salary lines and contacts', () => {
  async function fill(): Promise<void> {
    await runCommand(Contact, ['1', '--name', '=Eve', '--role', 'hiring manager', '--email', 'eve@example.org'], {home})
    await runCommand(Contact, ['1', '--name', 'Ann Lee', '--notes', 'two\nlines'], {home})
    await runCommand(Edit, ['1', '--salary-expected', '-5% of €90k', '--salary-offered', '€85k'], {home})
  }

  /** The records of a home as status --json prints them, without what the tracker numbers or times itself. */
  async function records(at: string) {
    const listed = JSON.parse((await runCommand(Status, ['--json'], {home: at})).stdout)
    return listed.map(({id: _id, updated_at: _updated, ...record}: Record<string, unknown>) => record)
  }

  it('writes the eight columns first, then id, salary lines and contacts, and reads them back into an empty home', async () => {
    await fill()
    const file = join(dir.path, 'out.csv')
    expect((await runCommand(ExportCsv, ['--output', file], {home})).code).toBe(0)
    const csv = readFileSync(file, 'utf8')
    expect(csv.split('\r\n')[0]).toBe(
      'title,company,location,url,source,applied_date,status,notes,id,salary_expected,salary_offered,referral,contacts',
    )
    expect(csv).toContain(",'-5% of €90k,€85k,")
    const other = join(dir.path, 'other')
    const imported = await runCommand(Import, [file, '--json'], {home: other})
    expect(JSON.parse(imported.stdout)).toMatchObject({inserted: 2})
    expect(await records(other)).toEqual(await records(home))
    expect((await records(other))[1]).toMatchObject({
      salary_expected: '-5% of €90k',
      contacts: [
        {name: '=Eve', role: 'hiring manager', reach: 'eve@example.org', notes: ''},
        {name: 'Ann Lee', role: '', reach: '', notes: 'two\nlines'},
      ],
    })
  })

  it('takes status --json back with its contacts, an older eight-column file too, and merges contacts by name', async () => {
    await fill()
    const file = join(dir.path, 'out.json')
    writeFileSync(file, (await runCommand(Status, ['--json'], {home})).stdout)
    const other = join(dir.path, 'other')
    await runCommand(Import, [file], {home: other})
    expect(await records(other)).toEqual(await records(home))
    expect((await runCommand(Import, [file, '--json'], {home: other})).stdout).toContain('"identical": 2')

    const old = join(dir.path, 'old.csv')
    writeFileSync(
      old,
      'title,company,location,url,source,applied_date,status,notes\nDev,Acme,,https://example.org/jobs/1,x,,offer,\n',
    )
    expect((await runCommand(Import, [old, '--update'], {home: other})).code).toBe(0)
    // The JSON lists the newest first, so the other home numbers them the other way round: found by URL.
    const first = 'https://example.org/jobs/1'
    const kept = JSON.parse((await runCommand(Status, [first, '--json'], {home: other})).stdout)
    expect(kept).toMatchObject({title: 'Dev', status: 'offer', salary_offered: '€85k'})
    expect(kept.contacts).toHaveLength(2)

    const update = join(dir.path, 'update.json')
    const contacts = [
      {name: 'ann lee', role: 'referrer', reach: 'https://example.org/ann', notes: ''},
      {name: 'Cy', role: '', reach: '', notes: ''},
    ]
    writeFileSync(update, JSON.stringify([{...kept, salary_offered: '€88k', contacts}]))
    expect((await runCommand(Import, [update, '--update'], {home: other})).code).toBe(0)
    const merged = JSON.parse((await runCommand(Status, [first, '--json'], {home: other})).stdout)
    expect(merged.salary_offered).toBe('€88k')
    expect(merged.contacts.map(({name, role}: {name: string; role: string}) => [name, role])).toEqual([
      ['=Eve', 'hiring manager'],
      ['ann lee', 'referrer'],
      ['Cy', ''],
    ])
    expect(
      merged.history.slice(-3).map((entry: {change: string; details: unknown}) => [entry.change, entry.details]),
    ).toEqual([
      ['edit', {salary_offered: {from: '€85k', to: '€88k'}}],
      ['contact', {changed: 'ann lee (referrer) <https://example.org/ann>'}],
      ['contact', {added: 'Cy'}],
    ])
  })

  it('refuses a contacts cell that is not a list of contacts, naming the row and field', async () => {
    const bad = join(dir.path, 'bad.csv')
    writeFileSync(
      bad,
      'title,company,url,source,contacts\nDev,Acme,https://example.org/jobs/9,x,Ann\nDev,Acme,https://example.org/jobs/8,x,"[{""name"":""Ann"",""reach"":""nope""}]"\n',
    )
    const result = await runCommand(Import, [bad, '--json'], {home})
    expect(result.code).toBe(2)
    const error = JSON.parse(result.stdout).error
    expect(error.details).toEqual([
      {row: 2, field: 'contacts', message: expect.stringContaining('contacts must be a JSON array')},
      {row: 3, field: 'contacts.0.reach', message: 'reach must be an email address or an http:// or https:// link'},
    ])
  })
})
