import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {type CliResult, ROOT, tempDir} from '../helpers/cli.js'
import {type MockServer, sendJson, sendText, startMockServer} from '../helpers/mock-board.js'
import {runCommandLine} from '../helpers/run-command.js'

/**
 * docs/RELIABILITY.md "Terminal escape injection": text from boards, board error pages, the tracker's database,
 * import files and the shipment stores reaches stdout and stderr of the CLI with every control character
 * shown escaped, never as the raw bytes a terminal acts on.
 */

const OSC_TITLE = '\u001b]0;pwned\u0007'
const CLEAR = '\u001b[2J'
const OSC_LINK = '\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\'
const RLO = '\u202e'
const HOSTILE = `Dev${OSC_TITLE} ops${CLEAR} ${OSC_LINK} ${RLO}gpj.exe`

// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters a terminal would act on
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

function expectNoRawControls(result: CliResult) {
  expect(RAW_CONTROL.exec(result.stdout), `stdout: ${JSON.stringify(result.stdout)}`).toBeNull()
  expect(RAW_CONTROL.exec(result.stderr), `stderr: ${JSON.stringify(result.stderr)}`).toBeNull()
}

let boards: MockServer
let home: ReturnType<typeof tempDir>
const jobagent = (...args: string[]) => runCommandLine(args, {home: home.path})

beforeAll(async () => {
  boards = await startMockServer({
    '/remotive/api/remote-jobs': (_req, res) =>
      sendJson(res, {
        jobs: [
          {
            title: HOSTILE,
            company_name: `Acme${RLO}`,
            candidate_required_location: `Remote\u009b31m`,
            url: `https://jobs.example/1${OSC_TITLE}${RLO}`,
            publication_date: '2026-11-20T10:00:00',
          },
        ],
      }),
    // A board's error page quoted in the run log.
    '/jobicy/api/v2/remote-jobs': (_req, res) =>
      sendText(res, `<!doctype html><html><head><title>Busy${OSC_TITLE}${RLO}</title></head></html>`, 200, {
        'content-type': 'text/html',
      }),
  })
})
afterAll(() => boards.close())
beforeEach(() => {
  home = tempDir('jobagent-escape-')
})
afterEach(() => home.cleanup())

describe('terminal escape injection', () => {
  it('a hostile board reaches neither the run log, jobs, jobs --json, apply nor status as raw controls', async () => {
    writeFileSync(
      join(home.path, 'config.json'),
      JSON.stringify({
        sources: [
          {type: 'remotive', url: `${boards.url}/remotive`},
          {type: 'jobicy', url: `${boards.url}/jobicy`},
        ],
      }),
      {mode: 0o600},
    )
    const run = await jobagent('run')
    expect(run.code).toBe(0)
    expectNoRawControls(run)
    expect(run.stderr).toMatch(/WARNING \| jobagent\.sources\.jobicy \| .*Busy\\x1b\]0;pwned\\x07\\u202e/)

    const jobs = await jobagent('jobs')
    expect(jobs.code).toBe(0)
    expectNoRawControls(jobs)
    expect(jobs.stdout).toContain('Dev ]0;pwned ops [2J')

    const listed = await jobagent('jobs', '--json')
    expectNoRawControls(listed)
    const [job] = JSON.parse(listed.stdout)
    // Cleaned when parsed: controls collapsed to spaces, bidi overrides removed, the link percent-encoded.
    expect(job.title).toBe('Dev ]0;pwned ops [2J ]8;;https://evil.example \\click ]8;; \\ gpj.exe')
    expect(job.company).toBe('Acme')
    expect(job.location).toBe('Remote 31m')
    expect(job.url).toBe('https://jobs.example/1%1B]0;pwned%07%E2%80%AE')

    const applied = await jobagent('apply', String(job.id))
    expect(applied.code).toBe(0)
    expectNoRawControls(applied)
    const status = await jobagent('status')
    expect(status.code).toBe(0)
    expectNoRawControls(status)
  })

  it('records written to the database by anything else are printed escaped by status and status <url>', async () => {
    const url = 'https://jobs.example/2'
    expect((await jobagent('apply', url, '--title', 'Dev', '--company', 'Acme', '--source', 'manual')).code).toBe(0)
    const db = new Database(join(home.path, 'jobagent.db'))
    db.prepare('UPDATE applications SET title = ?, company = ?, notes = ?').run(
      HOSTILE,
      `Acme${CLEAR}`,
      `a\nb${OSC_TITLE}`,
    )
    db.close()

    const list = await jobagent('status')
    expect(list.code).toBe(0)
    expectNoRawControls(list)
    expect(list.stdout).toContain('Dev\\x1b]0;pwned\\x07 ops\\x1b[2J')
    expect(list.stdout).toContain('Acme\\x1b[2J')

    const one = await jobagent('status', url)
    expect(one.code).toBe(0)
    expectNoRawControls(one)
    expect(one.stdout).toContain(`Dev\\x1b]0;pwned\\x07 ops\\x1b[2J \\x1b]8;;https://evil.example\\x1b\\click`)
    expect(one.stdout).toContain('\\u202egpj.exe')
    // Notes keep their line break (the next line indented under the first); the escape sequence in them is shown.
    expect(one.stdout).toContain(`a\n${' '.repeat(16)}b\\x1b]0;pwned\\x07`)

    const json = await jobagent('status', url, '--json')
    expectNoRawControls(json)
    expect(JSON.parse(json.stdout).title).toBe(HOSTILE)
  })

  it('apply refuses an escape sequence in --title with exit 2, naming the field', async () => {
    const result = await jobagent(
      'apply',
      'https://jobs.example/3',
      '--title',
      `Dev${OSC_TITLE}`,
      '--company',
      'Acme',
      '--source',
      'manual',
    )
    expect(result.code).toBe(2)
    expectNoRawControls(result)
    expect(result.stderr).toContain('title holds a control character (U+001B at position 4); remove it')
    expect((await jobagent('status', '--json')).stdout.trim()).toBe('[]')
  })

  it('import names the row and the field holding a control character, and imports nothing', async () => {
    const file = join(home.path, 'applications.json')
    const row = (n: number, extra: Record<string, string> = {}) => ({
      title: `Engineer ${n}`,
      company: 'Acme',
      location: 'Berlin',
      url: `https://jobs.example/${n}`,
      source: 'manual',
      ...extra,
    })
    writeFileSync(file, JSON.stringify([row(1), row(2, {company: `Acme${CLEAR}`}), row(3, {location: RLO})]))
    const result = await jobagent('import', file)
    expect(result.code).toBe(2)
    expectNoRawControls(result)
    expect(result.stderr).toContain('row 2, company: company holds a control character (U+001B at position 5)')
    expect(result.stderr).toContain('row 3, location: location holds a control character (U+202E at position 1)')
    expect((await jobagent('status', '--json')).stdout.trim()).toBe('[]')
  })

  it('an error message quoting a path shows its controls escaped', async () => {
    const result = await jobagent('import', join(home.path, `missing${CLEAR}.json`))
    expect(result.code).not.toBe(0)
    expectNoRawControls(result)
    expect(result.stderr).toContain('missing\\x1b[2J.json')
  })

  it('shipment show prints metadata holding escape sequences escaped', async () => {
    const examples = join(ROOT, 'examples/shipments')
    const imported = await jobagent('shipment', 'import', '--metadata', join(examples, 'metadata.csv'))
    expect(imported.code).toBe(0)
    const db = new Database(join(home.path, 'shipments.db'))
    db.prepare('UPDATE shipments SET carrier = ? WHERE shipment_id = ?').run(`Nord${OSC_TITLE}line${RLO}`, 'SHP-1001')
    db.close()

    const shown = await jobagent('shipment', 'show', 'SHP-1001')
    expect(shown.code).toBe(0)
    expectNoRawControls(shown)
    expect(shown.stdout).toMatch(/ {2}carrier +Nord\\x1b\]0;pwned\\x07line\\u202e\n/)

    const json = await jobagent('shipment', 'show', 'SHP-1001', '--json')
    expectNoRawControls(json)
    expect(JSON.parse(json.stdout).metadata.carrier).toBe(`Nord${OSC_TITLE}line${RLO}`)
  })
})
