import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import BoardsList from '../../commands/boards/list.js'
import {runAgent} from '../../src/app/agent.js'
import {AppContext} from '../../src/app/context.js'
import {createHttpServices} from '../../src/app/http-services.js'
import {createHttpApp} from '../../src/http/app.js'
import {tempDir} from '../helpers/cli.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {type MockServer, sendJson, serveBody, startMockServer} from '../helpers/mock-board.js'
import {runCommand} from '../helpers/run-command.js'
import {fixtureText} from '../helpers/source-fixtures.js'

let boards: MockServer
let home: ReturnType<typeof tempDir>
/** Whether the `acme` board is gone (answers 404) or back (answers jobs). */
let acmeGone = true

beforeAll(async () => {
  boards = await startMockServer({
    '/fine/api/remote-jobs': serveBody(fixtureText('remotive.json')),
    '/acme/api/remote-jobs': (req, res) =>
      acmeGone ? sendJson(res, {error: 'not found'}, 404) : serveBody(fixtureText('remotive.json'))(req, res),
  })
})
afterAll(() => boards.close())
beforeEach(() => {
  home = tempDir('jobagent-dead-board-')
  acmeGone = true
  const sources = ['fine', 'acme'].map((name) => ({type: 'remotive', name, url: `${boards.url}/${name}`}))
  writeFileSync(join(home.path, 'config.json'), JSON.stringify({sources}), {mode: 0o600})
})
afterEach(() => home.cleanup())

async function run() {
  const log = memoryLogger('INFO')
  const context = new AppContext({env: {JOBAGENT_HOME: home.path}, logger: log.logger})
  try {
    const summary = await runAgent(context, {})
    return {summary, warnings: log.parsed().filter((line) => line.level === 'WARNING')}
  } finally {
    await context.close()
  }
}

async function serverView() {
  const context = new AppContext({env: {JOBAGENT_HOME: home.path}, logger: memoryLogger().logger})
  try {
    const app = createHttpApp(createHttpServices(context), {logger: memoryLogger().logger})
    const health = (await (await app.request('/health')).json()) as {
      status: string
      checks: Record<string, Array<Record<string, unknown>>>
    }
    const runs = (await (await app.request('/runs')).json()) as {
      runs: Array<{sources: Array<{name: string; status?: number; anomaly: unknown}>}>
    }
    return {health, runs: runs.runs}
  } finally {
    await context.close()
  }
}

const acmeOf = (sources: ReadonlyArray<{name: string}>) => sources.find((source) => source.name === 'acme')

describe('a board that answers 404 run after run', () => {
  it('is reported dead on the third run, in the log, the run, GET /runs and /health; jobs again clear it', async () => {
    for (const _ of [1, 2]) {
      const {summary, warnings} = await run()
      expect(acmeOf(summary.sources)).toMatchObject({ok: false, status: 404, anomaly: null})
      expect(warnings.some((line) => line.message.includes('the board may be gone'))).toBe(false)
    }

    const third = await run()
    expect(third.summary.exit_code).toBe(0)
    const message =
      'no jobs or 404 in the last 3 runs; the board may be gone: check the slug, ' +
      'or remove the source with jobagent config set sources ...'
    expect(acmeOf(third.summary.sources)).toMatchObject({ok: false, anomaly: {code: 'dead', runs: 3, message}})
    expect(third.warnings.map((line) => line.message)).toContain(`acme: ${message}`)
    expect(third.summary.sources.find((source) => source.name === 'fine')?.anomaly).toBeNull()

    const dead = await serverView()
    expect(acmeOf(dead.runs[0]!.sources)).toMatchObject({status: 404, anomaly: {code: 'dead', runs: 3}})
    expect(dead.health.status).toBe('warn')
    expect(dead.health.checks.dead_boards![0]).toMatchObject({status: 'warn', observedValue: 1, sources: ['acme']})
    expect(dead.health.checks.dead_boards![0]!.output).toContain('acme')

    acmeGone = false
    const fourth = await run()
    expect(acmeOf(fourth.summary.sources)).toMatchObject({ok: true, anomaly: null})
    expect(fourth.warnings.some((line) => line.message.includes('the board may be gone'))).toBe(false)
    const back = await serverView()
    expect(back.health.status).toBe('pass')
    expect(back.health.checks.dead_boards![0]).toMatchObject({status: 'pass', sources: []})
  })

  it('counts every run in a row that failed, in the run and in boards list, not just the first three', async () => {
    for (let runs = 1; runs <= 7; runs++) await run()
    const eighth = await run()
    expect(acmeOf(eighth.summary.sources)).toMatchObject({anomaly: {code: 'dead', runs: 8}})
    expect(eighth.warnings.map((line) => line.message)).toContain(
      'acme: no jobs or 404 in the last 8 runs; the board may be gone: check the slug, ' +
        'or remove the source with jobagent config set sources ...',
    )
    const listed = await runCommand(BoardsList, [], {home: home.path})
    expect(listed.stdout).toMatch(/^acme\s+yes\s+\S+ \S+\s+dead \(8 runs\): HTTP 404/m)
  })
})

describe('with an API token, the open routes', () => {
  const TOKEN = 'open-routes-token-0123456789'

  async function tokenServer() {
    const context = new AppContext({env: {JOBAGENT_HOME: home.path}, logger: memoryLogger().logger})
    const app = createHttpApp(createHttpServices(context), {logger: memoryLogger().logger, apiToken: TOKEN})
    const withToken = {headers: {authorization: `Bearer ${TOKEN}`}}
    return {app, withToken, close: () => context.close()}
  }

  it('/health and /metrics count the dead and failing boards but name them only with the token', async () => {
    for (const _ of [1, 2, 3]) await run()
    const {app, withToken, close} = await tokenServer()
    try {
      expect((await app.request('/jobs', withToken)).status).toBe(200)

      const open = await app.request('/health')
      const openText = await open.text()
      expect(open.status).toBe(200)
      expect(JSON.parse(openText).checks.dead_boards[0]).toMatchObject({status: 'warn', observedValue: 1})
      expect(JSON.parse(openText).checks.dead_boards[0].output).toContain('1 board gave no jobs or 404')
      expect(openText).not.toContain('acme')
      const named = (await (await app.request('/health', withToken)).json()) as {
        checks: {dead_boards: [{output: string}]}
      }
      expect(named.checks.dead_boards[0]).toMatchObject({status: 'warn', observedValue: 1, sources: ['acme']})
      expect(named.checks.dead_boards[0].output).toContain('acme')

      const metrics = await (await app.request('/metrics')).text()
      expect(metrics).toMatch(/^jobagent_source_errors_total 1$/m)
      expect(metrics).not.toContain('acme')
      expect(await (await app.request('/metrics', withToken)).text()).toMatch(
        /^jobagent_source_errors_total\{source="acme"\} 1$/m,
      )
      // A wrong token is no token: counts only, and still no 401 on an open route.
      const wrong = await app.request('/health', {headers: {authorization: 'Bearer wrong-token-0123456789'}})
      expect(wrong.status).toBe(200)
      expect(await wrong.text()).not.toContain('acme')
    } finally {
      await close()
    }
  })
})
