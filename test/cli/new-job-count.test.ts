import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {AppContext} from '../../src/app/context.js'
import {createHttpServices} from '../../src/app/http-services.js'
import {createHttpApp} from '../../src/http/app.js'
import {dashboardServices} from '../../src/ui/services.js'
import {tempDir} from '../helpers/cli.js'
import {type MockBoard, mockRemoteOk, remoteOkJob} from '../helpers/http.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {runCommandLine} from '../helpers/run-command.js'

let dir: ReturnType<typeof tempDir>
let board: MockBoard

beforeEach(async () => {
  dir = tempDir()
  board = await mockRemoteOk(
    [1, 2, 3, 4].map((n) =>
      remoteOkJob({id: String(n), position: `Engineer ${n}`, url: `https://remoteok.com/remote-jobs/${n}`}),
    ),
  )
  writeFileSync(join(dir.path, 'config.json'), JSON.stringify({sources: [{type: 'remoteok', url: board.url}]}))
})
afterEach(async () => {
  await board.close()
  dir.cleanup()
})

const cli = (...args: string[]) => runCommandLine(args, {home: dir.path})
const newJobsLogged = (stderr: string) => /New jobs \(not yet applied\): (\d+)/.exec(stderr)?.[1]

/** What the dashboard's header and GET /jobs/last say is new, read as each front end reads it. */
async function countsElsewhere() {
  const context = new AppContext({env: {JOBAGENT_HOME: dir.path}})
  try {
    const dashboard = await dashboardServices(context, {env: {}}).load()
    const api = createHttpApp(createHttpServices(context), {logger: memoryLogger('INFO').logger})
    const last = (await (await api.request('/jobs/last')).json()) as {run: {new_jobs: number}}
    return {dashboard: dashboard.newJobs, api: last.run.new_jobs}
  } finally {
    await context.close()
  }
}

describe('the number of new jobs', () => {
  it('is one count in the run log, the jobs header, the dashboard and the API, a dismissed job left out', async () => {
    const first = await cli('run')
    expect(first.code, first.stderr).toBe(0)
    expect(newJobsLogged(first.stderr)).toBe('4')
    const ids = JSON.parse((await cli('jobs', '--json')).stdout).map((job: {id: number}) => job.id)
    expect((await cli('apply', String(ids[0]))).code).toBe(0)
    expect((await cli('jobs', String(ids[1]), '--dismiss')).code).toBe(0)

    const listed = await cli('jobs')
    expect(listed.stdout).toMatch(/^Last run .*: 4 jobs, 2 new\n/)
    const starred = listed.stdout.split('\n').filter((line) => /^\d+\s+\*\s/.test(line))
    expect(starred).toHaveLength(2)
    expect(await countsElsewhere()).toEqual({dashboard: 2, api: 2})

    const second = await cli('run', '--json')
    expect(second.code, second.stderr).toBe(0)
    expect(newJobsLogged(second.stderr)).toBe('2')
    const summary = JSON.parse(second.stdout)
    expect(summary.new_jobs).toBe(2)
    expect(summary.jobs.map((job: {id: number}) => job.id).sort()).toEqual(ids.slice(2).sort())
    expect((await cli('jobs')).stdout).toMatch(/^Last run .*: 4 jobs, 2 new\n/)
    expect(await countsElsewhere()).toEqual({dashboard: 2, api: 2})
    // The ledger keeps each run's count of its own time: 4 before the application and the dismissal, 2 after.
    const ledger = JSON.parse((await cli('runs', '--json')).stdout)
    expect(ledger.runs.map((run: {new_jobs: number}) => run.new_jobs)).toEqual([2, 4])
  })
})
