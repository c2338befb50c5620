import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import Jobs from '../../commands/jobs.js'
import {recordRun} from '../../src/core/jobs/run-changes.js'
import {openSqlite} from '../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../src/storage/sqlite/sqlite-application-store.js'
import {SqliteJobStore} from '../../src/storage/sqlite/sqlite-job-store.js'
import {TRACKER_MIGRATIONS} from '../../src/storage/sqlite/tracker-migrations.js'
import {tempDir} from '../helpers/cli.js'
import {acmeJob, closesNothing, foundJobs, runRecord} from '../helpers/job-details.js'
import {runCommand} from '../helpers/run-command.js'
import {daysAgo} from '../helpers/tracker.js'

let dir: ReturnType<typeof tempDir>

/** A run of three jobs in the home's database; job 3 was first seen 40 days ago. */
beforeEach(async () => {
  dir = tempDir()
  const file = join(dir.path, 'jobagent.db')
  const db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
  const jobs = new SqliteJobStore(db, file, new SqliteApplicationStore(db, file))
  await recordRun(jobs, runRecord(daysAgo(1)), {
    ...closesNothing,
    found: foundJobs([
      acmeJob(1, {title: 'TypeScript Engineer', source: 'greenhouse'}),
      acmeJob(2, {company: 'Initech', tags: ['rust', 'wasm'], source: 'remoteok'}),
      acmeJob(3, {source: 'greenhouse'}),
    ]),
  })
  db.prepare("UPDATE jobs SET first_seen = ? WHERE url = 'https://board.example/jobs/3'").run(daysAgo(40))
  db.close()
})
afterEach(() => dir.cleanup())

async function titles(...argv: string[]): Promise<string[]> {
  const result = await runCommand(Jobs, [...argv, '--json'], {home: dir.path})
  expect(result.code).toBe(0)
  return JSON.parse(result.stdout)
    .map((job: {title: string}) => job.title)
    .sort()
}

describe('jobagent jobs filters', () => {
  it('--search matches title, company and tags; --source the board; --since when first seen', async () => {
    expect(await titles('--search', 'typescript')).toEqual(['TypeScript Engineer'])
    expect(await titles('--search', 'WASM')).toEqual(['Engineer 2'])
    expect(await titles('--search', 'initech')).toEqual(['Engineer 2'])
    expect(await titles('--source', 'greenhouse')).toEqual(['Engineer 3', 'TypeScript Engineer'])
    expect(await titles('--since', '30d')).toEqual(['Engineer 2', 'TypeScript Engineer'])
    expect(await titles('--source', 'greenhouse', '--since', '6w')).toEqual(['Engineer 3', 'TypeScript Engineer'])
  })

  it('says so when a filter leaves nothing, and refuses a filter with an id or a since it cannot read', async () => {
    const none = await runCommand(Jobs, ['--search', 'cobol'], {home: dir.path})
    expect(none.stdout).toContain('No jobs to show.')
    const withId = await runCommand(Jobs, ['1', '--search', 'x'], {home: dir.path})
    expect(withId.code).toBe(2)
    expect(withId.stderr).toContain('Error: --search filters the list and takes no id')
    const badSince = await runCommand(Jobs, ['--since', 'soon'], {home: dir.path})
    expect(badSince.code).toBe(2)
    expect(badSince.stderr).toContain('invalid since: soon')
  })
})
