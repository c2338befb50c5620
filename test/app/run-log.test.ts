import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {runAgent} from '../../src/app/agent.js'
import {AppContext} from '../../src/app/context.js'
import {tempDir} from '../helpers/cli.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {type MockServer, sendJson, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fixtureText} from '../helpers/source-fixtures.js'

/** How long the slow board waits, at most, for the fast board's line to appear in the log. */
const PATIENCE_MS = 3000

let boards: MockServer
let home: ReturnType<typeof tempDir>
let log: ReturnType<typeof memoryLogger>
/** Whether the fast board's line was in the log when the slow board answered. */
let fastLoggedFirst: boolean | undefined

beforeAll(async () => {
  boards = await startMockServer({
    '/fast/api/remote-jobs': serveBody(fixtureText('remotive.json')),
    '/failing/api/remote-jobs': (_req, res) => sendJson(res, {error: 'down'}, 404),
    '/slow/api/remote-jobs': async (_req, res) => {
      const until = Date.now() + PATIENCE_MS
      while (!log.lines.some((line) => line.includes('| jobagent.sources.fast |')) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      fastLoggedFirst = log.lines.some((line) => line.includes('| jobagent.sources.fast |'))
      serveBody(fixtureText('remotive.json'))(_req, res)
    },
  })
})
afterAll(() => boards.close())
beforeEach(() => {
  home = tempDir('jobagent-run-log-')
  log = memoryLogger('INFO')
  fastLoggedFirst = undefined
})
afterEach(() => home.cleanup())

function configure(names: string[]) {
  const sources = names.map((name) => ({type: 'remotive', name, url: `${boards.url}/${name}`}))
  writeFileSync(join(home.path, 'config.json'), JSON.stringify({sources}), {mode: 0o600})
}

async function run() {
  const context = new AppContext({env: {JOBAGENT_HOME: home.path}, logger: log.logger})
  try {
    return await runAgent(context, {})
  } finally {
    await context.close()
  }
}

describe('the run log of the boards', () => {
  it("writes a board's line when it answers, before a slower board answers, each with its own time", async () => {
    configure(['slow', 'fast'])

    const summary = await run()

    expect(summary.exit_code).toBe(0)
    expect(fastLoggedFirst).toBe(true)
    const lines = log.parsed()
    const fast = lines.find((line) => line.name === 'jobagent.sources.fast')
    const slow = lines.find((line) => line.name === 'jobagent.sources.slow')
    expect(fast?.message).toMatch(/^fast: \d+ jobs in \d+\.\d s$/)
    expect(slow?.message).toMatch(/^slow: \d+ jobs in \d+\.\d s$/)
    expect(lines.indexOf(fast!)).toBeLessThan(lines.indexOf(slow!))
    expect(fast!.timestamp < slow!.timestamp).toBe(true)
    // The steps keep their order: search start, the boards, jobs found.
    const names = lines.map((line) => line.message.split(':')[0])
    expect(names.indexOf('Searching 2 source(s)')).toBeLessThan(lines.indexOf(fast!))
    expect(lines.indexOf(slow!)).toBeLessThan(names.indexOf('Jobs found'))
  })

  it('logs a board that failed at once when it failed, not when the slow board answers', async () => {
    configure(['slow', 'failing', 'fast'])

    await run()

    const lines = log.parsed()
    const failing = lines.find((line) => line.name === 'jobagent.sources.failing')
    const slow = lines.find((line) => line.name === 'jobagent.sources.slow')
    expect(failing?.level).toBe('WARNING')
    expect(failing?.message).toMatch(/^failing: failed after 0\.\d s: /)
    expect(lines.indexOf(failing!)).toBeLessThan(lines.indexOf(slow!))
    expect(failing!.timestamp < slow!.timestamp).toBe(true)
  })
})
