import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import Profile from '../../commands/profile.js'
import Remove from '../../commands/remove.js'
import {recordRun} from '../../src/core/jobs/run-changes.js'
import {openSqlite} from '../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../src/storage/sqlite/sqlite-application-store.js'
import {SqliteJobStore} from '../../src/storage/sqlite/sqlite-job-store.js'
import {TRACKER_MIGRATIONS} from '../../src/storage/sqlite/tracker-migrations.js'
import {tempDir} from '../helpers/cli.js'
import {acmeJob, closesNothing, foundJobs, runRecord} from '../helpers/job-details.js'
import {runCommand, runCommandLine} from '../helpers/run-command.js'
import {daysAgo} from '../helpers/tracker.js'

let dir: ReturnType<typeof tempDir>
let home: string

/** A run of two jobs; job 1 is tracked (which likes it), job 2 tracked and then liked by the person. */
beforeEach(async () => {
  dir = tempDir()
  home = dir.path
  const file = join(home, 'jobagent.db')
  const db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
  await recordRun(new SqliteJobStore(db, file, new SqliteApplicationStore(db, file)), runRecord(daysAgo(1)), {
    ...closesNothing,
    found: foundJobs([acmeJob(1), acmeJob(2)]),
  })
  db.close()
  for (const args of [
    ['apply', '1'],
    ['apply', '2'],
    ['jobs', '2', '--like'],
  ]) {
    const result = await runCommandLine(args, {home})
    expect(result.code, result.stderr).toBe(0)
  }
})
afterEach(() => dir.cleanup())

function stored() {
  const db = new Database(join(home, 'jobagent.db'), {readonly: true})
  try {
    return {
      applications: (db.prepare('SELECT id FROM applications ORDER BY id').pluck().all() as number[]).length,
      verdicts: db.prepare('SELECT job_id, verdict, given_by FROM job_verdicts ORDER BY job_id').all(),
    }
  } finally {
    db.close()
  }
}

describe('remove --purge', () => {
  it('off a terminal deletes nothing without --yes, and deletes with it', async () => {
    const refused = await runCommand(Remove, ['1', '--purge'], {home})
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('Error: remove --purge deletes #1 for good; off a terminal it needs --yes\n')
    expect(refused.stderr).toContain('Hint: jobagent remove 1 --purge --yes')
    expect(stored().applications).toBe(2)
    const purged = await runCommand(Remove, ['1', '--purge', '-y'], {home})
    expect(purged.code, purged.stderr).toBe(0)
    expect(purged.stdout).toContain('Deleted #1 for good')
    expect(stored().applications).toBe(1)
  })

  it('on a terminal asks first and deletes only on yes', async () => {
    const kept = await runCommand(Remove, ['1', '--purge'], {home, terminal: true, stdin: 'n\n'})
    expect(kept.code).toBe(1)
    expect(kept.stderr).toContain('Delete #1 Engineer 1 at Acme for good, with its history, interviews and contacts?')
    expect(kept.stderr).toContain('Nothing was deleted.')
    expect(stored().applications).toBe(2)
    const purged = await runCommand(Remove, ['1', '--purge'], {home, terminal: true, stdin: 'y\n'})
    expect(purged.code, purged.stderr).toBe(0)
    expect(stored().applications).toBe(1)
  })

  it('takes away the like tracking gave the job, and keeps a like the person gave', async () => {
    expect(stored().verdicts).toEqual([
      {job_id: 1, verdict: 'like', given_by: 'tracked'},
      {job_id: 2, verdict: 'like', given_by: 'user'},
    ])
    for (const id of ['1', '2']) expect((await runCommand(Remove, [id, '--purge', '--yes'], {home})).code).toBe(0)
    expect(stored()).toEqual({applications: 0, verdicts: [{job_id: 2, verdict: 'like', given_by: 'user'}]})
  })
})

describe('profile --forget-verdicts', () => {
  it('off a terminal forgets nothing without --yes; on a terminal asks; --yes forgets', async () => {
    const refused = await runCommand(Profile, ['--forget-verdicts'], {home})
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('off a terminal it needs --yes')
    expect(refused.stderr).toContain('Hint: jobagent profile --forget-verdicts --yes')
    const kept = await runCommand(Profile, ['--forget-verdicts'], {home, terminal: true, stdin: '\n'})
    expect(kept.code).toBe(1)
    expect(kept.stderr).toContain('Forget every like and dismissal?')
    expect(stored().verdicts).toHaveLength(2)
    const forgot = await runCommand(Profile, ['--forget-verdicts', '--yes'], {home})
    expect(forgot.code, forgot.stderr).toBe(0)
    expect(forgot.stdout).toContain('Forgot 2 like(s) and dismissal(s)')
    expect(stored().verdicts).toEqual([])
  })
})
