import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import Backup from '../../commands/backup.js'
import Restore from '../../commands/restore.js'
import {AppContext} from '../../src/app/context.js'
import {recordRun} from '../../src/core/jobs/run-changes.js'
import {openSqlite} from '../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../src/storage/sqlite/sqlite-application-store.js'
import {SqliteJobStore} from '../../src/storage/sqlite/sqlite-job-store.js'
import {TRACKER_MIGRATIONS} from '../../src/storage/sqlite/tracker-migrations.js'
import {tempDir} from '../helpers/cli.js'
import {acmeJob, closesNothing, foundJobs, runRecord} from '../helpers/job-details.js'
import {runCommand, runCommandLine} from '../helpers/run-command.js'

const NOW = {JOBAGENT_NOW: '2026-11-23T09:00:00'}
const WEBHOOK = 'https://hooks.slack.com/services/T000/B000/secretpart'

let dir: ReturnType<typeof tempDir>
let home: string
let other: string

/** A month of the tracker: two applications tracked from a run, one moved on with notes, an interview, a contact, a salary, a dismissal, a profile and a webhook. */
async function seedHome(at: string): Promise<void> {
  const file = join(at, 'jobagent.db')
  const db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
  await recordRun(
    new SqliteJobStore(db, file, new SqliteApplicationStore(db, file)),
    runRecord('2026-11-20T08:00:00'),
    {
      ...closesNothing,
      found: foundJobs([acmeJob(1), acmeJob(2), acmeJob(3)]),
    },
  )
  db.close()
  writeFileSync(join(at, 'cv.pdf'), 'the CV sent to Acme')
  for (const args of [
    ['apply', '1'],
    ['apply', '2'],
    ['jobs', '3', '--dismiss', '--reason', 'too senior'],
    ['status', '1', 'interviewing', '--notes', 'call Tue'],
    ['contact', '1', '--name', 'Ann Lee', '--role', 'recruiter', '--email', 'ann@example.org'],
    ['interview', '1', '--at', '2026-11-30 14:00', '--zone', 'Europe/Berlin', '--with', 'Ann Lee', '--with', 'Bo'],
    ['status', '2', '--snooze', '5'],
    ['edit', '2', '--salary-expected', '€70k'],
    ['edit', '2', '--cv', join(at, 'cv.pdf'), '--keep-copy'],
    ['config', 'set', 'notify.urls', WEBHOOK],
    ['config', 'set', 'profile.roles', 'backend engineer'],
    ['config', 'set', 'search.tags', 'typescript'],
  ]) {
    const result = await runCommandLine(args, {home: at, env: NOW})
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0)
  }
  // A digest named #2 as due before it was snoozed.
  const written = new Database(file)
  written.prepare("UPDATE applications SET reminded_at = '2026-11-22T08:00:00.000' WHERE id = 2").run()
  written.close()
}

function tracker(at: string) {
  const db = new Database(join(at, 'jobagent.db'), {readonly: true})
  try {
    return {
      applications: db
        .prepare(
          'SELECT id, url, status, notes, salary_expected, snoozed_until, reminded_at FROM applications ORDER BY id',
        )
        .all(),
      history: db.prepare('SELECT application_id, old_status, new_status, old_notes FROM status_history').all(),
      interviews: db.prepare('SELECT id, application_id, starts_at, with_whom, interviewer_ids FROM interviews').all(),
      contacts: db.prepare('SELECT id, application_id, name, reach FROM contacts').all(),
      verdicts: db.prepare('SELECT job_id, verdict, reason FROM job_verdicts ORDER BY job_id').all(),
    }
  } finally {
    db.close()
  }
}

beforeEach(async () => {
  dir = tempDir()
  home = join(dir.path, 'home')
  other = join(dir.path, 'other')
  await seedHome(home)
})
afterEach(() => dir.cleanup())

describe('jobagent backup', () => {
  it('writes every application in full, the verdicts, the profile and the config without its secrets', async () => {
    const file = join(dir.path, 'backup.json')
    const result = await runCommand(Backup, [file], {home, env: NOW})
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain(`Backed up 2 application(s), 3 verdict(s), the profile and the config to ${file}`)
    expect(result.stdout).toContain('Left out (secrets are never written to a backup): notify.urls')
    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain('secretpart')
    const backup = JSON.parse(text)
    expect(Object.keys(backup)).toEqual([
      'format',
      'version',
      'created_at',
      'applications',
      'verdicts',
      'document_copies',
      'profile',
      'config',
      'config_left_out',
    ])
    expect(backup).toMatchObject({format: 'jobagent-backup', version: 2, config: {search: {tags: ['typescript']}}})
    expect(backup.created_at).toMatch(/^2026-11-23T09:00:/)
    expect(backup.profile).toEqual({roles: ['backend engineer']})
    const [first, second] = backup.applications
    expect(first).toMatchObject({id: 1, status: 'interviewing', notes: 'call Tue'})
    expect(first.history.map((entry: {change: string}) => entry.change)).toEqual(['status', 'contact', 'interview'])
    expect(first.interviews).toMatchObject([
      {starts_at: '2026-11-30T14:00', time_zone: 'Europe/Berlin', with: 'Bo', interviewer_ids: [1]},
    ])
    expect(first.interviews[0]).not.toHaveProperty('interviewers')
    expect(first.contacts).toMatchObject([{id: 1, name: 'Ann Lee', role: 'recruiter', reach: 'ann@example.org'}])
    expect(first).toMatchObject({snoozed_until: null, reminded_at: null})
    expect(second).toMatchObject({
      id: 2,
      salary_expected: '€70k',
      snoozed_until: expect.stringMatching(/^2026-11-28T09:00:/),
      reminded_at: '2026-11-22T08:00:00.000',
    })
    // The follow-up state sits after the record's fields, before the lists.
    expect(Object.keys(second).slice(-5)).toEqual(['snoozed_until', 'reminded_at', 'history', 'interviews', 'contacts'])
    expect(backup.verdicts).toMatchObject([
      {job_id: 1, verdict: 'like', given_by: 'tracked', job_url: 'https://board.example/jobs/1'},
      {job_id: 2, verdict: 'like', given_by: 'tracked'},
      {job_id: 3, verdict: 'dismiss', reason: 'too senior', job_source: 'remotive'},
    ])
  })

  it('writes to stdout with "-" and its summary with --json', async () => {
    const piped = await runCommand(Backup, ['-'], {home, env: NOW})
    expect(piped.code).toBe(0)
    expect(JSON.parse(piped.stdout).applications).toHaveLength(2)
    expect(piped.stderr).toContain('Backed up 2 application(s)')
    const summary = await runCommand(Backup, [join(dir.path, 'b.json'), '--json'], {home, env: NOW})
    expect(JSON.parse(summary.stdout)).toMatchObject({applications: 2, verdicts: 3, config_left_out: ['notify.urls']})
  })
})

describe('jobagent restore', () => {
  it('gives the same file back: backup, restore into an empty home, backup again', async () => {
    // The same clock for both backups, so created_at is the same.
    const at = new Date(2026, 10, 23, 9, 0, 0)
    const clock = {now: () => at}
    const backupOf = async (where: string) => {
      const context = new AppContext({env: {JOBAGENT_HOME: where, HOME: where}, clock})
      try {
        const file = join(dir.path, `${where === home ? 'first' : 'second'}.json`)
        await (await context.openTrackerBackup()).writeFile(file)
        return readFileSync(file, 'utf8')
      } finally {
        await context.close()
      }
    }
    const first = await backupOf(home)
    const restored = await runCommand(Restore, [join(dir.path, 'first.json'), '--json'], {home: other, env: NOW})
    expect(restored.code, restored.stderr).toBe(0)
    expect(JSON.parse(restored.stdout)).toMatchObject({
      mode: 'empty home',
      applications: 2,
      verdicts: 3,
      skipped: [],
      config_written: true,
      config_left_out: ['notify.urls'],
    })
    expect(tracker(other)).toEqual(tracker(home))
    // The secrets the backup left out are set again in the new home, as the restore says to.
    await runCommandLine(['config', 'set', 'notify.urls', WEBHOOK], {home: other, env: NOW})
    expect(await backupOf(other)).toBe(first)
    // The restored home works as the first did: the ids and the interview are there.
    const shown = await runCommandLine(['status', '1'], {home: other, env: NOW})
    expect(shown.stdout).toContain('Ann Lee')
    // The kept copy of the CV is in the file once, named within the data directory, and back in the new home.
    const file = JSON.parse(first) as {document_copies: {copy: string; base64: string}[]}
    expect(file.document_copies).toHaveLength(1)
    expect(file.document_copies[0]?.copy).toMatch(/^documents\/[0-9a-f]{64}\.pdf$/)
    const record = JSON.parse((await runCommandLine(['status', '2', '--json'], {home: other, env: NOW})).stdout)
    const [cv] = record.documents as {copy: string; path: string}[]
    expect(cv?.path).toBe(join(home, 'cv.pdf'))
    expect(cv?.copy.startsWith(join(other, 'documents'))).toBe(true)
    expect(readFileSync(cv?.copy ?? '', 'utf8')).toBe('the CV sent to Acme')
  })

  it('refuses a copy whose bytes are not the file its hash names, writing nothing', async () => {
    await runCommand(Backup, [join(dir.path, 'b.json')], {home, env: NOW})
    const backup = JSON.parse(readFileSync(join(dir.path, 'b.json'), 'utf8'))
    backup.document_copies[0].base64 = Buffer.from('another file').toString('base64')
    writeFileSync(join(dir.path, 'changed.json'), JSON.stringify(backup))
    const refused = await runCommand(Restore, [join(dir.path, 'changed.json')], {home: other, env: NOW})
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('document_copies[0] does not hold the file its name')
    expect(tracker(other).applications).toEqual([])
    const outside = structuredClone(backup)
    outside.document_copies[0].copy = `documents/../${'a'.repeat(64)}`
    writeFileSync(join(dir.path, 'outside.json'), JSON.stringify(outside))
    const named = await runCommand(Restore, [join(dir.path, 'outside.json')], {home: other, env: NOW})
    expect(named.code).toBe(2)
    expect(named.stderr).toContain('document_copies[0].copy')
  })

  it('on a home that holds applications needs --replace or --merge, and changes nothing without', async () => {
    const file = join(dir.path, 'backup.json')
    await runCommand(Backup, [file], {home, env: NOW})
    await runCommandLine(
      ['apply', 'https://other.example/jobs/9', '--title', 'SRE', '--company', 'Initech', '--source', 'hn'],
      {home: other, env: NOW},
    )
    const before = tracker(other)
    const refused = await runCommand(Restore, [file], {home: other, env: NOW})
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(
      'Error: this home holds 1 application(s), 0 verdict(s) and 0 setting(s); nothing was restored',
    )
    expect(refused.stderr).toContain(`Hint: say what to do with them: jobagent restore ${file} --replace (or --merge)`)
    expect(tracker(other)).toEqual(before)
    const asked = await runCommand(Restore, [file], {home: other, env: NOW, terminal: true, stdin: '\n'})
    expect(asked.code).toBe(1)
    expect(asked.stderr).toContain('Replace them with the backup (r), merge the backup into them (m)')
    expect(tracker(other)).toEqual(before)
  })

  it('merges: keeps what the home holds, adds the rest under a new id where the id is taken, says what it skipped', async () => {
    const file = join(dir.path, 'backup.json')
    await runCommand(Backup, [file], {home, env: NOW})
    // The other home tracks job 2's posting (with tracking parameters) as its #1.
    await runCommandLine(
      [
        'apply',
        'https://board.example/jobs/2?utm_source=x',
        '--title',
        'Engineer 2',
        '--company',
        'Acme',
        '--source',
        'remotive',
      ],
      {home: other, env: NOW},
    )
    const merged = await runCommand(Restore, [file, '--merge'], {home: other, env: NOW})
    expect(merged.code, merged.stderr).toBe(0)
    expect(merged.stdout).toContain('#1 is #2 here: #1 is another application')
    expect(merged.stdout).toContain('skipped #2 https://board.example/jobs/2: already tracked as #1')
    const after = tracker(other)
    expect(after.applications).toMatchObject([
      {id: 1, url: 'https://board.example/jobs/2?utm_source=x', status: 'applied'},
      {id: 2, url: 'https://board.example/jobs/1', status: 'interviewing', notes: 'call Tue'},
    ])
    expect(after.interviews).toMatchObject([{application_id: 2, with_whom: 'Bo'}])
  })

  it('merges the contacts met at an interview under the ids their contacts get here', async () => {
    const file = join(dir.path, 'backup.json')
    await runCommand(Backup, [file], {home, env: NOW})
    await runCommandLine(
      ['apply', 'https://other.example/jobs/9', '--title', 'SRE', '--company', 'Initech', '--source', 'hn'],
      {home: other, env: NOW},
    )
    // Contact 1 is this home's own: the file's contact 1 comes in as 2, and its interview names 2.
    await runCommandLine(['contact', '1', '--name', 'Cy Diaz'], {home: other, env: NOW})
    const merged = await runCommand(Restore, [file, '--merge'], {home: other, env: NOW})
    expect(merged.code, merged.stderr).toBe(0)
    expect(tracker(other).contacts).toMatchObject([
      {id: 1, application_id: 1, name: 'Cy Diaz'},
      {id: 2, application_id: 2, name: 'Ann Lee'},
    ])
    expect(tracker(other).interviews).toMatchObject([{application_id: 2, interviewer_ids: '[2]'}])
    const shown = await runCommandLine(['status', '2'], {home: other, env: NOW})
    expect(shown.stdout).toContain('with Ann Lee (recruiter); Bo')
  })

  it('merges the config: the settings and profile this home has win, the others come from the file', async () => {
    const file = join(dir.path, 'backup.json')
    await runCommand(Backup, [file], {home, env: NOW})
    mkdirSync(other, {recursive: true})
    writeFileSync(
      join(other, 'config.json'),
      JSON.stringify({search: {keywords: ['go']}, notify: {max_items: 5}, profile: {roles: ['sre']}}),
      {mode: 0o600},
    )
    const merged = await runCommand(Restore, [file, '--merge', '--json'], {home: other, env: NOW})
    expect(merged.code, merged.stderr).toBe(0)
    expect(JSON.parse(merged.stdout)).toMatchObject({mode: 'merge', config_written: true})
    expect(JSON.parse(readFileSync(join(other, 'config.json'), 'utf8'))).toEqual({
      search: {keywords: ['go'], tags: ['typescript']},
      notify: {max_items: 5},
      profile: {roles: ['sre']},
    })
  })

  it('reads a version 1 file: no follow-up state, interviews without contacts met', async () => {
    const file = join(dir.path, 'backup.json')
    await runCommand(Backup, [file], {home, env: NOW})
    const backup = JSON.parse(readFileSync(file, 'utf8'))
    backup.version = 1
    for (const application of backup.applications) {
      delete application.snoozed_until
      delete application.reminded_at
      for (const interview of application.interviews) delete interview.interviewer_ids
    }
    writeFileSync(file, JSON.stringify(backup))
    const restored = await runCommand(Restore, [file, '--json'], {home: other, env: NOW})
    expect(restored.code, restored.stderr).toBe(0)
    expect(JSON.parse(restored.stdout)).toMatchObject({mode: 'empty home', applications: 2})
    const after = tracker(other)
    expect(after.applications).toMatchObject([
      {id: 1, snoozed_until: null, reminded_at: null},
      {id: 2, snoozed_until: null, reminded_at: null},
    ])
    expect(after.interviews).toMatchObject([{application_id: 1, with_whom: 'Bo', interviewer_ids: '[]'}])
    // A version 2 file without them is refused by name: it was written by a jobagent that keeps them.
    backup.version = 2
    writeFileSync(file, JSON.stringify(backup))
    const refused = await runCommand(Restore, [file, '--replace'], {home: other, env: NOW})
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('applications[0].snoozed_until')
  })

  it("replaces: empties the tracker, restores the file and keeps this home's secret settings", async () => {
    const file = join(dir.path, 'backup.json')
    await runCommand(Backup, [file], {home, env: NOW})
    const otherHook = 'https://hooks.slack.com/services/T111/B111/othersecret'
    await runCommandLine(
      ['apply', 'https://other.example/jobs/9', '--title', 'SRE', '--company', 'Initech', '--source', 'hn'],
      {home: other, env: NOW},
    )
    await runCommandLine(['config', 'set', 'notify.urls', otherHook], {home: other, env: NOW})
    const replaced = await runCommand(Restore, [file, '--replace'], {home: other, env: NOW})
    expect(replaced.code, replaced.stderr).toBe(0)
    expect(tracker(other)).toEqual(tracker(home))
    const config = JSON.parse(readFileSync(join(other, 'config.json'), 'utf8'))
    expect(config).toEqual({
      search: {tags: ['typescript']},
      notify: {urls: [otherHook]},
      profile: {roles: ['backend engineer']},
    })
  })

  it('refuses a newer format version and a bad record by its place, restoring nothing', async () => {
    const file = join(dir.path, 'backup.json')
    await runCommand(Backup, [file], {home, env: NOW})
    const backup = JSON.parse(readFileSync(file, 'utf8'))
    writeFileSync(file, JSON.stringify({...backup, version: 3}))
    const newer = await runCommand(Restore, [file], {home: other, env: NOW})
    expect(newer.code).toBe(2)
    expect(newer.stderr).toContain(
      `Error: ${file} is a backup of format version 3; this jobagent reads versions up to 2`,
    )
    expect(newer.stderr).toContain('Hint: upgrade jobagent')
    backup.applications[1].status = 'hired'
    backup.applications[0].contacts[0].application_id = 7
    writeFileSync(file, JSON.stringify(backup))
    const bad = await runCommand(Restore, [file, '--json'], {home: other, env: NOW})
    expect(bad.code).toBe(2)
    const fields = JSON.parse(bad.stdout).error.details.map((detail: {field: string}) => detail.field)
    expect(fields).toEqual(['applications[1].status'])
    const said = await runCommand(Restore, [file], {home: other, env: NOW})
    expect(said.stderr).toContain(
      'nothing was restored: applications[1].status: "hired" is not one of: saved, applied,',
    )
    // A field is named once on a line, not twice.
    expect(said.stderr).not.toMatch(/applications\[1\]\.status: applications/)
    backup.applications[1].status = 'intervewing'
    writeFileSync(file, JSON.stringify(backup))
    const typo = await runCommand(Restore, [file], {home: other, env: NOW})
    expect(typo.stderr).toContain('(did you mean "interviewing"?)')
    // What import refuses, restore refuses too: a record jobagent could not have stored.
    backup.applications[1].status = 'applied'
    const url = backup.applications[1].url
    backup.applications[1].url = 'notaurl'
    backup.applications[1].applied_date = '2026-02-30'
    writeFileSync(file, JSON.stringify(backup))
    const unstorable = await runCommand(Restore, [file, '--json'], {home: other, env: NOW})
    expect(unstorable.code).toBe(2)
    expect(JSON.parse(unstorable.stdout).error.details).toEqual(
      expect.arrayContaining([
        {field: 'applications[1].url', message: 'must be an http:// or https:// address'},
        {field: 'applications[1].applied_date', message: '"2026-02-30" is not a real date'},
      ]),
    )
    backup.applications[1].url = url
    backup.applications[1].applied_date = backup.applications[0].applied_date
    writeFileSync(file, JSON.stringify(backup))
    const inconsistent = await runCommand(Restore, [file], {home: other, env: NOW})
    expect(inconsistent.code).toBe(2)
    expect(inconsistent.stderr).toContain('applications[0].contacts[0].application_id: must be 1')
    expect(() => readFileSync(join(other, 'config.json'))).toThrow()
    const db = new Database(join(other, 'jobagent.db'), {readonly: true})
    expect(db.prepare('SELECT count(*) FROM applications').pluck().get()).toBe(0)
    db.close()
  })
})
