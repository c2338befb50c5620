import {execFile} from 'node:child_process'
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {promisify} from 'node:util'
import Database from 'better-sqlite3'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {BIN, type CliResult, ROOT, runCli, tempDir} from '../helpers/cli.js'
import {parseLogLine} from '../helpers/memory-log.js'
import {type MockServer, sendJson, serveBody, startMockServer} from '../helpers/mock-board.js'
import {runCommandLine} from '../helpers/run-command.js'
import {fixtureJson, fixtureText} from '../helpers/source-fixtures.js'

// The contract of an unattended run: quiet when fine, dry runs that store nothing, a dead-man's switch, a board
// that suddenly returns nothing, and the ledger of runs.

let boards: MockServer
let home: {path: string; cleanup: () => void}
/** What the switchable board answers: the RemoteOK fixture, or only its legal notice (0 jobs). */
let remoteokEmpty = false
const pings: {method: string; path: string; body: string}[] = []

beforeAll(async () => {
  const remoteok = fixtureJson<unknown[]>('remoteok.json')
  boards = await startMockServer({
    '/remoteok/api': (_req, res) => sendJson(res, remoteokEmpty ? remoteok.slice(0, 1) : remoteok),
    '/remotive/api/remote-jobs': serveBody(fixtureText('remotive.json')),
    '/broken/api': (_req, res) => sendJson(res, {error: 'down'}, 404),
  })
})
afterAll(() => boards.close())
beforeEach(() => {
  home = tempDir()
  remoteokEmpty = false
  pings.length = 0
})
afterEach(() => home.cleanup())

function configure(extra: Record<string, unknown> = {}, sources?: unknown[]) {
  const list = sources ?? [
    {type: 'remoteok', url: `${boards.url}/remoteok`},
    {type: 'remotive', url: `${boards.url}/remotive`},
  ]
  writeFileSync(join(home.path, 'config.json'), JSON.stringify({sources: list, ...extra}), {mode: 0o600})
}

const jobagent = (args: string[], env: Record<string, string> = {}) => runCommandLine(args, {home: home.path, env})
const logLines = (result: CliResult) =>
  result.stderr
    .split('\n')
    .filter((line) => / \| (DEBUG|INFO|WARNING|ERROR) \| /.test(line))
    .map(parseLogLine)

function tableCounts() {
  const db = new Database(join(home.path, 'jobagent.db'), {readonly: true})
  try {
    return {
      jobs: db.prepare('SELECT count(*) FROM jobs').pluck().get(),
      runs: db.prepare('SELECT count(*) FROM runs').pluck().get(),
      seen: db.prepare('SELECT max(last_seen) FROM jobs').pluck().get(),
    }
  } finally {
    db.close()
  }
}

describe('--quiet', () => {
  it('prints nothing on stdout and no INFO line when the run succeeds', async () => {
    configure({notify: {urls: ['log://']}})
    const result = await jobagent(['run', '--quiet'])
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe('')
    // The boards learn who is asking, with the version.
    const {version} = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {version: string}
    expect(boards.requests.at(-1)?.headers['user-agent']).toBe(
      `jobagent/${version} (+https://github.com/jobagent/jobagent)`,
    )
  })
})

describe('--dry-run', {timeout: 120_000}, () => {
  it('stores nothing: not the jobs, not the run that jobs, runs and GET /jobs/last show', async () => {
    configure()
    expect((await jobagent(['run', '--quiet'])).code).toBe(0)
    const before = tableCounts()
    const jobsBefore = (await jobagent(['jobs', '--json'])).stdout
    remoteokEmpty = true
    const dry = await jobagent(['run', '--dry-run', '--json'])
    expect(dry.code).toBe(0)
    const summary = JSON.parse(dry.stdout)
    expect(summary).toMatchObject({status: 'ok', dry_run: true, notifications: {result: 'none_configured'}})
    expect(tableCounts()).toEqual(before)
    expect((await jobagent(['jobs', '--json'])).stdout).toBe(jobsBefore)
    expect(JSON.parse((await jobagent(['runs', '--json'])).stdout).total).toBe(1)
    // Without --json it says the jobs were not stored, instead of pointing at the last real run's.
    remoteokEmpty = false
    const text = await jobagent(['run', '--dry-run'])
    expect(text.stdout).toContain('a dry run stores nothing. Run without --dry-run to store them')
  })

  it('names jobs already stored by their id and new ones with id null', async () => {
    configure({}, [{type: 'remotive', url: `${boards.url}/remotive`}])
    await jobagent(['run', '--quiet'])
    configure()
    const summary = JSON.parse((await jobagent(['run', '--dry-run', '--json', '--quiet'])).stdout)
    const bySource = (source: string) => summary.jobs.filter((job: {source: string}) => job.source === source)
    expect(bySource('remotive').length).toBeGreaterThan(0)
    expect(bySource('remotive').every((job: {id: unknown}) => typeof job.id === 'number')).toBe(true)
    expect(bySource('remoteok').length).toBeGreaterThan(0)
    expect(bySource('remoteok').every((job: {id: unknown}) => job.id === null)).toBe(true)
    expect(tableCounts().runs).toBe(1)
  })
})

describe('dead-man\u2019s switch (healthchecks.io protocol)', () => {
  let monitor: MockServer
  const uuid = '5f4c1b0e-97a4-4b7e-9d0c-2c3f8a61e2b7'

  beforeAll(async () => {
    monitor = await startMockServer(async (req, res) => {
      let body = ''
      for await (const chunk of req) body += chunk
      pings.push({method: req.method ?? '', path: req.url ?? '', body})
      res.writeHead(200, {'content-type': 'text/plain'}).end('OK')
    })
  })
  afterAll(() => monitor.close())

  it('pings /start, then the URL with the log when the run completes; the secret never reaches the log', async () => {
    configure({run: {healthcheck_url: `${monitor.url}/${uuid}`}})
    const result = await jobagent(['run'])
    expect(result.code).toBe(0)
    expect(pings.map(({method, path}) => `${method} ${path}`)).toEqual([`GET /${uuid}/start`, `POST /${uuid}`])
    const body = pings[1]?.body ?? ''
    expect(body).toMatch(/\| INFO \| jobagent\.run \| Job Search Agent v[\d.]+ starting/)
    expect(body).toMatch(/\| INFO \| jobagent\.run \| Run completed in/)
    expect(result.stderr).not.toContain(uuid)
  })

  it('pings /fail with the log when the run fails, and keeps the log under 10 KB', async () => {
    configure({}, [{type: 'remoteok', url: `${boards.url}/broken`}])
    const result = await jobagent(['run', '--quiet', '--healthcheck', `${monitor.url}/${uuid}`])
    expect(result.code).toBe(1)
    expect(pings.map(({method, path}) => `${method} ${path}`)).toEqual([`GET /${uuid}/start`, `POST /${uuid}/fail`])
    // The monitor gets the steps even under --quiet.
    expect(pings[1]?.body).toContain('Run failed (no source succeeded)')
    expect(Buffer.byteLength(pings[1]?.body ?? '')).toBeLessThanOrEqual(10_240)
  })

  it('takes JOBAGENT_HEALTHCHECK_URL, and a monitor that cannot be reached is a WARNING that changes nothing', async () => {
    configure()
    const down = await startMockServer(() => {})
    const url = `${down.url}/${uuid}`
    await down.close()
    const result = await jobagent(['run'], {JOBAGENT_HEALTHCHECK_URL: url})
    expect(result.code).toBe(0)
    const warnings = logLines(result).filter((line) => line.level === 'WARNING')
    expect(warnings.map((line) => line.message)).toEqual([
      expect.stringMatching(/^healthcheck http:\/\/127\.0\.0\.1:\d+\/\*\*\*: the start ping failed: .*ECONNREFUSED/),
      expect.stringMatching(/^healthcheck http:\/\/127\.0\.0\.1:\d+\/\*\*\*: the success ping failed/),
    ])
    expect(result.stderr).not.toContain(uuid)
  })

  it('refuses a URL that is not http(s) with exit 2', async () => {
    configure()
    const result = await jobagent(['run', '--healthcheck', 'ftp://example.org/ping'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('run.healthcheck_url must be an http(s) URL')
  })
})

describe('zero-yield anomaly', {timeout: 120_000}, () => {
  it('warns when a board that always returned jobs returns none, and marks it in --json and the ledger', async () => {
    configure()
    for (let run = 0; run < 3; run++) expect((await jobagent(['run', '--quiet'])).code).toBe(0)
    remoteokEmpty = true
    const result = await jobagent(['run', '--json'])
    expect(result.code).toBe(0)
    const warning = logLines(result).find((line) => line.level === 'WARNING')
    expect(warning).toMatchObject({
      name: 'jobagent.sources.remoteok',
      message: 'remoteok: returned 0 jobs, usually about 13: the board may have changed',
    })
    const summary = JSON.parse(result.stdout)
    expect(summary.sources.find((s: {name: string}) => s.name === 'remoteok').anomaly).toEqual({
      code: 'zero_yield',
      usual_count: 13,
      message: 'returned 0 jobs, usually about 13: the board may have changed',
    })
    expect(summary.sources.find((s: {name: string}) => s.name === 'remotive').anomaly).toBeNull()
    const runs = await jobagent(['runs'])
    expect(runs.stdout).toContain('2/2 ok; remoteok 0 (usually 13)')
  })

  it('stays quiet before a board has three successful runs with jobs', async () => {
    configure()
    await jobagent(['run', '--quiet'])
    await jobagent(['run', '--quiet'])
    remoteokEmpty = true
    const summary = JSON.parse((await jobagent(['run', '--json', '--quiet'])).stdout)
    expect(summary.sources.every((s: {anomaly: unknown}) => s.anomaly === null)).toBe(true)
  })
})

describe('jobagent runs', {timeout: 120_000}, () => {
  it('lists recent runs newest first with their outcome and each board, as a table and as JSON', async () => {
    configure({}, [
      {type: 'remoteok', url: `${boards.url}/remoteok`},
      {type: 'remoteok', name: 'mirror', url: `${boards.url}/broken`},
    ])
    await jobagent(['run', '--quiet'])
    configure({}, [{type: 'remoteok', url: `${boards.url}/broken`}])
    await jobagent(['run', '--quiet'])
    const table = await jobagent(['runs'])
    expect(table.code).toBe(0)
    const rows = table.stdout.trim().split('\n')
    expect(rows[0]).toMatch(/^ID\s+STARTED\s+TOOK\s+STATUS\s+FOUND\s+NEW\s+NOTIFIED\s+BOARDS$/)
    expect(rows[1]).toMatch(/^2\s.*failed: no source succeeded\s+0\s+0\s+0\s+0\/1 ok; remoteok failed$/)
    expect(rows[2]).toMatch(/^1\s.*\sok\s+13\s+13\s+0\s+1\/2 ok; mirror failed$/)

    const page = JSON.parse((await jobagent(['runs', '--json', '--limit', '1'])).stdout)
    expect(page).toMatchObject({count: 1, total: 2, limit: 1, offset: 0})
    expect(page.runs[0]).toMatchObject({id: 2, status: 'failed', jobs_found: 0, error: 'no source succeeded'})
    expect(page.runs[0].duration_ms).toBeGreaterThanOrEqual(0)
    expect(page.runs[0].sources).toEqual([
      expect.objectContaining({name: 'remoteok', ok: false, count: 0, anomaly: null}),
    ])
    expect((await jobagent(['runs', '--limit', '0'])).code).toBe(2)
  })
})

describe('the crontab line of the README', () => {
  it('works on a fresh machine: its log directory is created and the run logs into it', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const line = /^0 7 \* \* \* (.*)$/m.exec(readme)?.[1]
    expect(line, 'the README shows a crontab line starting with "0 7 * * *"').toBeDefined()
    // A fresh HOME holding only a config file, with the boards pointed at the local ones.
    const fresh = join(home.path, 'fresh')
    mkdirSync(join(fresh, '.config', 'jobagent'), {recursive: true})
    writeFileSync(
      join(fresh, '.config', 'jobagent', 'config.json'),
      JSON.stringify({sources: [{type: 'remoteok', url: `${boards.url}/remoteok`}]}),
    )
    const bin = join(home.path, 'bin')
    mkdirSync(bin)
    writeFileSync(join(bin, 'jobagent'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, {mode: 0o755})
    const command = (line as string).replace(/\S*\/jobagent /, 'jobagent ')
    // Asynchronous: the boards answer from this process.
    await promisify(execFile)('/bin/sh', ['-c', command], {
      env: {HOME: fresh, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1'},
      timeout: 60_000,
    })
    const log = readFileSync(join(fresh, '.local', 'share', 'jobagent', 'run.log'), 'utf8')
    // --quiet: a successful run writes nothing; the run is in the ledger.
    expect(log).toBe('')
    const runs = await runCli(['runs', '--json'], {home: fresh, env: {JOBAGENT_HOME: ''}})
    expect(JSON.parse(runs.stdout)).toMatchObject({total: 1, runs: [{status: 'ok', jobs_found: 13}]})
  })
})
