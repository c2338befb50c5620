import {spawn} from 'node:child_process'
import {existsSync, mkdirSync, readdirSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {BIN, type CliResult, runCli, tempDir} from '../helpers/cli.js'
import {parseLogLine} from '../helpers/memory-log.js'
import {type MockServer, serveBody, startMockServer} from '../helpers/mock-board.js'
import {runCommandLine} from '../helpers/run-command.js'
import {fixtureText} from '../helpers/source-fixtures.js'

// What a new user meets first: a machine where jobagent has never run (no config, no data dir), no network.

let root: {path: string; cleanup: () => void}
/** JOBAGENT_HOME: a directory that does not exist yet. */
let home: string
/** The temporary directory of the child processes, to see what the demo leaves behind. */
let tmp: string
let boards: MockServer
let closedPort: number

beforeAll(async () => {
  boards = await startMockServer({'/remoteok/api': serveBody(fixtureText('remoteok.json'))})
  // Port 4 on loopback (unassigned, below the ephemeral range, allowed by fetch): refused at once, and no
  // parallel test can take it meanwhile.
  closedPort = 4
})
afterAll(() => boards.close())
beforeEach(() => {
  root = tempDir()
  home = join(root.path, 'not', 'yet', 'home')
  tmp = join(root.path, 'tmp')
  mkdirSync(tmp)
})
afterEach(() => root.cleanup())

const jobagent = (args: string[], env: Record<string, string> = {}) =>
  runCommandLine(args, {home, env: {TMPDIR: tmp, ...env}})

const logMessages = (result: CliResult) =>
  result.stderr
    .split('\n')
    .filter((line) => / \| (DEBUG|INFO|WARNING|ERROR) \| /.test(line))
    .map(parseLogLine)

function expectNoBug(result: CliResult) {
  expect(result.stderr).not.toContain('This is a bug')
  expect(result.stderr).not.toMatch(/\n\s+at /)
}

describe('run --demo on a machine where jobagent never ran', () => {
  it('runs the whole pipeline on the sample boards, logs the seven steps and says what to do next', async () => {
    const result = await jobagent(['run', '--demo'])
    expect(result.code).toBe(0)
    expectNoBug(result)
    const lines = logMessages(result)
    const steps = [
      /^Job Search Agent v\d+\.\d+\.\d+ starting \(mode: production\)$/,
      /^Applications: 5 total, 4 applied, 1 pending$/,
      /^Searching 7 source\(s\): remoteok, remotive, arbeitnow, jobicy, himalayas, weworkremotely, greenhouse:gitlab$/,
      /^Jobs found: \d+ \(\d+ fetched, after filters and deduplication\)$/,
      /^New jobs \(not yet applied\): \d+$/,
      // The sample applications in applied were sent weeks before: they are due for a follow-up too.
      /^Notifications: sent \d+ job\(s\)( and \d+ follow-up\(s\))? to 1 of 1 channel\(s\)$/,
      /^Run completed in \d+\.\d s$/,
    ]
    const positions = steps.map((pattern) => lines.findIndex((line) => pattern.test(line.message)))
    expect(positions).not.toContain(-1)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    // Every sample board answered, and the tracked sample applications are not "new".
    expect(lines.filter((line) => line.level === 'WARNING' || line.level === 'ERROR')).toEqual([])
    const found = Number(/Jobs found: (\d+)/.exec(result.stderr)?.[1])
    const fresh = Number(/New jobs \(not yet applied\): (\d+)/.exec(result.stderr)?.[1])
    expect(found).toBeGreaterThan(40)
    expect(fresh).toBe(found - 3)
    expect(lines.some((line) => line.name === 'jobagent.notify.log')).toBe(true)
    expect(result.stdout.trim().split('\n')).toHaveLength(1)
    expect(result.stdout).toMatch(
      /^Demo finished: \d+ jobs on 7 sample boards, \d+ new\. Your own data was not touched\./,
    )
    expect(result.stdout).toContain('jobagent config set sources')
    // A file of the repository is no help to a user of the single executable; the help topic is there offline.
    expect(result.stdout).toContain('see jobagent help sources')
    expect(result.stdout).not.toContain('docs/')
    expect(result.stdout).toContain('jobagent jobs')
  })

  it('never touches the user data and removes its temporary data dir', async () => {
    const result = await jobagent(['run', '--demo', '--quiet'])
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('')
    expect(existsSync(home)).toBe(false)
    expect(readdirSync(tmp)).toEqual([])
  })

  it('finishes and removes its data dir when the reader of its output goes away after the first line', async () => {
    // `jobagent run --demo 2>&1 | head -1`: both pipes close after the first line the reader gets.
    const child = spawn(process.execPath, [BIN, 'run', '--demo'], {
      env: {PATH: process.env.PATH, HOME: root.path, JOBAGENT_HOME: home, TMPDIR: tmp, NO_COLOR: '1'},
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const firstLine = new Promise<string>((resolve) => {
      const close = (chunk: Buffer) => {
        child.stdout.destroy()
        child.stderr.destroy()
        resolve(chunk.toString().split('\n')[0] ?? '')
      }
      child.stdout.once('data', close)
      child.stderr.once('data', close)
    })
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(await firstLine).toContain('Job Search Agent')
    expect(code).toBe(0)
    expect(readdirSync(tmp)).toEqual([])
  })

  it('ignores the user\u2019s channels and dead-man\u2019s switch', async () => {
    const hooks = await startMockServer(() => {})
    try {
      const result = await jobagent(['run', '--demo', '--quiet'], {
        JOBAGENT_NOTIFY_URLS: `${hooks.url}/webhook`,
        JOBAGENT_HEALTHCHECK_URL: `${hooks.url}/ping`,
      })
      expect(result.code).toBe(0)
      expect(hooks.requests).toEqual([])
    } finally {
      await hooks.close()
    }
  })

  it('keeps its data dir with --keep and names it', async () => {
    const result = await jobagent(['run', '--demo', '--keep'])
    expect(result.code).toBe(0)
    const kept = readdirSync(tmp)
    expect(kept).toHaveLength(1)
    const dir = join(tmp, kept[0] as string)
    expect(result.stdout).toContain(`JOBAGENT_HOME=${dir} jobagent jobs`)
    const jobs = await runCommandLine(['jobs', '--json'], {home: dir})
    expect(jobs.code).toBe(0)
    expect(JSON.parse(jobs.stdout).length).toBeGreaterThan(40)
    // Quiet, it still says where the kept data is.
    const quiet = await jobagent(['run', '--demo', '--keep', '--quiet'])
    const second = readdirSync(tmp).find((name) => !kept.includes(name))
    expect(quiet.stdout.trim()).toBe(`The demo's data is in ${join(tmp, second as string)}`)
  })

  it('prints one JSON summary with --json', async () => {
    const result = await jobagent(['run', '--demo', '--json'])
    expect(result.code).toBe(0)
    const summary = JSON.parse(result.stdout)
    expect(summary).toMatchObject({status: 'ok', exit_code: 0, dry_run: false, demo: {kept: false}})
    expect(summary.sources).toHaveLength(7)
    expect(summary.applications).toEqual({total: 5, applied: 4, pending: 1})
    expect(summary.new_jobs).toBe(summary.jobs_found - 3)
    expect(existsSync(summary.demo.data_dir)).toBe(false)
  })
})

describe('every command of the README on a data dir that does not exist yet', () => {
  it('creates the data dir with mode 0700 on the first run, even when no board can be reached', async () => {
    // The keyless public boards through a proxy that refuses: no request leaves this machine.
    // The HTTP agent takes the proxy from the process's environment: the built CLI in its own process.
    const result = await runCli(['run'], {home, env: {TMPDIR: tmp, HTTPS_PROXY: `http://127.0.0.1:${closedPort}`}})
    expect(result.code).toBe(1)
    expectNoBug(result)
    expect(statSync(home).mode & 0o777).toBe(0o700)
    const lines = logMessages(result)
    expect(lines.at(-1)?.message).toMatch(/^Hint: .*proxy.*jobagent run --demo$/)
  })

  it('names a refused connection in the hint when no board answers', async () => {
    mkdirSync(home, {recursive: true})
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({sources: [{type: 'remoteok', url: `http://127.0.0.1:${closedPort}`}]}),
    )
    const result = await jobagent(['run', '--json'])
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stdout)).toMatchObject({status: 'failed', error: 'no source succeeded'})
    expect(logMessages(result).at(-1)?.message).toMatch(/^Hint: every connection was refused.*jobagent run --demo$/)
  })

  it('ends a run whose boards all failed, for different reasons, with a hint of where to look', async () => {
    mkdirSync(home, {recursive: true})
    const gone = await startMockServer((_req, res) => {
      res.writeHead(404).end()
    })
    try {
      writeFileSync(
        join(home, 'config.json'),
        JSON.stringify({
          sources: [
            {type: 'remoteok', url: `http://127.0.0.1:${closedPort}`},
            {type: 'ashby', url: gone.url, boards: ['nosuchco']},
          ],
        }),
      )
      const result = await jobagent(['run'])
      expect(result.code).toBe(1)
      expect(logMessages(result).at(-1)?.message).toMatch(
        /^Hint: the warnings above give each board's reason; .*jobagent boards list/,
      )
    } finally {
      await gone.close()
    }
  })

  it('runs, lists, tracks, exports and imports on a fresh home', async () => {
    const configured = await jobagent([
      'config',
      'set',
      'sources',
      JSON.stringify([{type: 'remoteok', url: `${boards.url}/remoteok`}]),
    ])
    expect(configured.code).toBe(0)
    // Only the config file exists: the data (databases, lock, exports) is created by the commands below.
    expect(readdirSync(home)).toEqual(['config.json'])
    const commands: [string[], number][] = [
      [['run', '--json', '--quiet'], 0],
      [['run'], 0],
      [['jobs'], 0],
      [['jobs', '--new', '--json'], 0],
      [['runs'], 0],
      [['apply', '1', '--status', 'saved'], 0],
      [
        ['apply', 'https://example.org/jobs/42', '--title', 'Backend Engineer', '--company', 'Acme', '--source', 'x'],
        0,
      ],
      [['status'], 0],
      [['status', '--status', 'interviewing'], 0],
      [['status', 'https://example.org/jobs/42', 'interviewing', '--notes', 'call on Tuesday'], 0],
      [['status', 'https://example.org/jobs/42'], 0],
      [['export-csv', '--output', join(root.path, 'applications.csv')], 0],
      [['config', 'list'], 0],
      [['config', 'path'], 0],
    ]
    for (const [args, code] of commands) {
      const result = await jobagent(args)
      expectNoBug(result)
      expect({args, code: result.code, stderr: result.stderr}).toMatchObject({args, code})
    }
    const other = join(root.path, 'other-home')
    const imported = await runCommandLine(['import', join(root.path, 'applications.csv')], {home: other})
    expect(imported.code).toBe(0)
    expect(JSON.parse((await runCommandLine(['status', '--json'], {home: other})).stdout)).toHaveLength(2)
  }, 180_000)

  it('answers read-only commands on a home that does not exist', async () => {
    for (const args of [
      ['status'],
      ['status', '--json'],
      ['jobs'],
      ['runs', '--json'],
      ['config', 'list'],
      ['config', 'path'],
    ]) {
      const result = await jobagent(args)
      expectNoBug(result)
      expect({args, code: result.code}).toEqual({args, code: 0})
    }
  }, 120_000)
})
