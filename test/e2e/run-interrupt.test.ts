import {spawn} from 'node:child_process'
import {existsSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {BIN, ROOT, runCli, tempDir} from '../helpers/cli.js'
import {type MockServer, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fixtureText} from '../helpers/source-fixtures.js'

/** Requests the slow board has received and not answered: the run is searching. */
let waiting = 0
let boards: MockServer
let home: ReturnType<typeof tempDir>

beforeAll(async () => {
  boards = await startMockServer({
    '/fast/api/remote-jobs': serveBody(fixtureText('remotive.json')),
    // Answers only after a minute: long past the test's own end, so only the signal ends the run.
    '/slow/api/remote-jobs': async (req, res) => {
      waiting++
      await new Promise((resolve) => setTimeout(resolve, 60_000).unref())
      if (!res.destroyed) serveBody(fixtureText('remotive.json'))(req, res)
    },
  })
})
afterAll(() => boards.close())
beforeEach(() => {
  home = tempDir('jobagent-interrupt-')
  waiting = 0
  const sources = ['fast', 'slow'].map((name) => ({type: 'remotive', name, url: `${boards.url}/${name}`}))
  writeFileSync(join(home.path, 'config.json'), JSON.stringify({sources}), {mode: 0o600})
})
afterEach(() => home.cleanup())

/** `jobagent run` as a process, sent `signal` once the slow board has the request. */
function interruptedRun(
  signal: NodeJS.Signals,
): Promise<{code: number | null; stderr: string; lockWhileRunning: boolean}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'run'], {
      cwd: ROOT,
      env: {PATH: process.env.PATH, HOME: home.path, JOBAGENT_HOME: home.path, NO_COLOR: '1'},
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    let lockWhileRunning = false
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    const poll = setInterval(() => {
      if (waiting === 0) return
      clearInterval(poll)
      lockWhileRunning = existsSync(join(home.path, 'run.lock'))
      child.kill(signal)
    }, 20)
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearInterval(poll)
      clearTimeout(timer)
      resolve({code, stderr, lockWhileRunning})
    })
  })
}

describe('a run stopped by a signal', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s removes the run lock, records the run as interrupted and exits %i', async (signal, exitCode) => {
    const result = await interruptedRun(signal)

    expect(result.lockWhileRunning).toBe(true)
    expect(result.code, result.stderr).toBe(exitCode)
    expect(existsSync(join(home.path, 'run.lock'))).toBe(false)
    expect(result.stderr).toMatch(
      new RegExp(`\\| WARNING \\| jobagent\\.run \\| Run interrupted by ${signal}, stopped in `),
    )
    expect(result.stderr).not.toContain('bug')
    const runs = await runCli(['runs', '--json'], {home: home.path})
    expect(runs.code, runs.stderr).toBe(0)
    const ledger = JSON.parse(runs.stdout) as {runs: {status: string; error: string | null}[]}
    expect(ledger.runs).toHaveLength(1)
    expect(ledger.runs[0]).toMatchObject({status: 'interrupted', error: `interrupted by ${signal}`})
    const table = await runCli(['runs'], {home: home.path})
    expect(table.stdout).toContain(`interrupted (${signal})`)
  })
})
