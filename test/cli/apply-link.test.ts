import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import Apply from '../../commands/apply.js'
import {recordRun} from '../../src/core/jobs/run-changes.js'
import {openSqlite} from '../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../src/storage/sqlite/sqlite-application-store.js'
import {SqliteJobStore} from '../../src/storage/sqlite/sqlite-job-store.js'
import {TRACKER_MIGRATIONS} from '../../src/storage/sqlite/tracker-migrations.js'
import {tempDir} from '../helpers/cli.js'
import {acmeJob, closesNothing, foundJobs, runRecord} from '../helpers/job-details.js'
import {runCommand} from '../helpers/run-command.js'

const NOW = {JOBAGENT_NOW: '2026-11-23T09:00:00'}

let dir: ReturnType<typeof tempDir>
let home: string

beforeEach(async () => {
  dir = tempDir()
  home = dir.path
  const file = join(home, 'jobagent.db')
  const db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
  await recordRun(
    new SqliteJobStore(db, file, new SqliteApplicationStore(db, file)),
    runRecord('2026-11-20T08:00:00'),
    {
      ...closesNothing,
      found: foundJobs([acmeJob(1, {location: 'Berlin'}), acmeJob(2)]),
    },
  )
  db.close()
})
afterEach(() => dir.cleanup())

function applications() {
  const db = new Database(join(home, 'jobagent.db'), {readonly: true})
  try {
    return db.prepare('SELECT id, url, title, company, location, source FROM applications ORDER BY id').all()
  } finally {
    db.close()
  }
}

describe('jobagent apply <URL>', () => {
  it('of a stored job, whatever its tracking parameters, fills the fields from the job and keeps the link', async () => {
    const link = 'https://board.example/jobs/1/?utm_source=x&gh_src=abc&ref=newsletter'
    const tracked = await runCommand(Apply, [link], {home, env: NOW})
    expect(tracked.code, tracked.stderr).toBe(0)
    expect(tracked.stdout).toBe(`Tracked #1 ${link} (applied): Engineer 1 at Acme\n`)
    expect(applications()).toEqual([
      {id: 1, url: link, title: 'Engineer 1', company: 'Acme', location: 'Berlin', source: 'remotive'},
    ])
  })

  it('lets a flag win over the job field it gives', async () => {
    const tracked = await runCommand(Apply, ['https://board.example/jobs/2?utm_campaign=y', '--title', 'SRE'], {
      home,
      env: NOW,
    })
    expect(tracked.code, tracked.stderr).toBe(0)
    expect(applications()).toMatchObject([{title: 'SRE', company: 'Acme', source: 'remotive'}])
  })

  it('of a tracked job says which application it is and how to see it, and adds nothing', async () => {
    expect((await runCommand(Apply, ['1'], {home, env: NOW})).code).toBe(0)
    const again = await runCommand(Apply, ['https://board.example/jobs/1?gh_src=zzz'], {home, env: NOW})
    expect(again.code).toBe(1)
    expect(again.stderr).toContain(
      'Error: https://board.example/jobs/1?gh_src=zzz is already tracked as #1 https://board.example/jobs/1 (status: applied)',
    )
    expect(again.stderr).toContain('Hint: jobagent status 1\n')
    expect(applications()).toHaveLength(1)
  })

  it('of a job jobagent does not have still asks for the fields', async () => {
    const unknown = await runCommand(Apply, ['https://other.example/jobs/5'], {home, env: NOW})
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('Hint: give --title, --company, --source (for example manual)')
    expect(applications()).toEqual([])
  })
})
