import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {Agent} from 'undici'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {UnavailableError} from '../../src/core/errors.js'
import {JobSearch} from '../../src/core/jobs/job-search.js'
import {createSources} from '../../src/sources/index.js'
import {type CliResult, tempDir} from '../helpers/cli.js'
import {EMPTY_CRITERIA} from '../helpers/criteria.js'
import {memoryLogger, parseLogLine} from '../helpers/memory-log.js'
import {type MockServer, serveBody, startMockServer} from '../helpers/mock-board.js'
import {runCommandLine} from '../helpers/run-command.js'
import {fixtureText, testHttpClient} from '../helpers/source-fixtures.js'

// Boards that send what no job board sends: links that are not web addresses, megabytes of title, and documents
// nested millions of levels deep. Each is met where a run meets it: the adapters over real sockets, the search,
// and the CLI's run command.

const RSS_TYPE = 'application/rss+xml; charset=utf-8'
const FIVE_MB = 5 * 1024 * 1024

/** A RemoteOK answer: the legal notice first, then one job per entry. */
function remoteOkBody(jobs: {url: string; position?: string; company?: string}[]): string {
  return JSON.stringify([
    {legal: 'API Terms of Service'},
    ...jobs.map((job, n) => ({
      id: String(n + 1),
      position: job.position ?? `Engineer ${n + 1}`,
      company: job.company ?? `Company ${n + 1}`,
      location: 'Remote',
      date: '2026-11-20T00:00:00+00:00',
      url: job.url,
    })),
  ])
}

const HOSTILE_LINKS = remoteOkBody([
  {url: 'javascript:alert(document.cookie)'},
  {url: 'data:text/html,<script>alert(1)</script>'},
  {url: 'ftp://files.example.org/job'},
  {url: `https://example.org/${'x'.repeat(5000)}`},
  {url: 'https://example.org/jobs/huge', position: 'T'.repeat(FIVE_MB), company: 'C'.repeat(1000)},
  {url: 'https://example.org/jobs/fine', position: 'Fine engineer'},
])

/** 10 MB of brackets: `[[[[...]]]]`. */
const DEEP_JSON = `${'['.repeat(5 * 1024 * 1024)}${']'.repeat(5 * 1024 * 1024)}`
/** An RSS document whose one item holds about 1.4 million nested elements (10 MB). */
const DEEP_XML = `<rss version="2.0"><channel><title>t</title><item>${'<a>'.repeat(1_400_000)}${'</a>'.repeat(1_400_000)}</item></channel></rss>`
/** A board answer nested exactly 100 levels deep (the array, a job, and 98 levels under one field). */
const DEPTH_100 = `[{"legal":"x"},{"id":"1","position":"Deep","company":"C","url":"https://example.org/jobs/deep","x":${'['.repeat(98)}${']'.repeat(98)}}]`

let boards: MockServer
beforeAll(async () => {
  boards = await startMockServer({
    '/links/api': serveBody(HOSTILE_LINKS),
    '/deep-json/api': serveBody(DEEP_JSON),
    '/depth-100/api': serveBody(DEPTH_100),
    '/deep-xml/feed': serveBody(DEEP_XML, RSS_TYPE),
    '/healthy/api': serveBody(fixtureText('remoteok.json')),
    '/links.rss': serveBody(
      `<rss version="2.0"><channel><title>Links</title>
        <item><title>Acme: Script</title><link>javascript:alert(1)</link></item>
        <item><title>Acme: Real</title><link>https://example.org/jobs/rss-real</link></item>
      </channel></rss>`,
      RSS_TYPE,
    ),
  })
})
afterAll(() => boards.close())

function searchOf(sources: Parameters<typeof createSources>[0]) {
  const log = memoryLogger('INFO')
  const http = testHttpClient({dispatcher: new Agent()})
  const search = new JobSearch(createSources(sources, {http, logger: log.logger}), log.logger)
  return {search, log}
}

describe('a board job whose link is not http(s) is dropped, with a count per board', () => {
  it('drops javascript:, data: and ftp: links and over-long links, and says how many per board', async () => {
    const {search, log} = searchOf([
      {type: 'remoteok', url: `${boards.url}/links`},
      {type: 'rss', url: `${boards.url}/links.rss`, name: 'links'},
    ])
    const result = await search.search(EMPTY_CRITERIA)
    expect(result.jobs.map((job) => job.url).sort()).toEqual([
      'https://example.org/jobs/fine',
      'https://example.org/jobs/huge',
      'https://example.org/jobs/rss-real',
    ])
    expect(result.sources.map((source) => [source.name, source.ok, source.count])).toEqual([
      ['remoteok', true, 2],
      ['rss:links', true, 1],
    ])
    const warnings = log.parsed().filter((line) => line.level === 'WARNING')
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'jobagent.sources.remoteok',
          message: 'remoteok: 3 jobs dropped: link is not http(s)',
        }),
        expect.objectContaining({
          name: 'jobagent.sources.remoteok',
          message: 'remoteok: 1 job dropped: link longer than 4096 characters',
        }),
        expect.objectContaining({
          name: 'jobagent.sources.rss:links',
          message: 'rss:links: 1 job dropped: link is not http(s)',
        }),
      ]),
    )
  })

  it('cuts a 5 MB title to 500 characters and a long company to 200, with a count', async () => {
    const {search, log} = searchOf([{type: 'remoteok', url: `${boards.url}/links`}])
    const result = await search.search(EMPTY_CRITERIA)
    const huge = result.jobs.find((job) => job.url === 'https://example.org/jobs/huge')
    expect(huge?.title).toBe('T'.repeat(500))
    expect(huge?.company).toBe('C'.repeat(200))
    expect(log.parsed().map((line) => line.message)).toContain(
      'remoteok: 1 job cut to the longest text kept (title 500, company 200, location 500 characters)',
    )
  })
})

describe('a board answer nested deeper than 100 levels fails the board without being built', () => {
  it.each([
    ['JSON', {type: 'remoteok', url: '/deep-json'}, 'JSON nested deeper than 100 levels'],
    ['XML', {type: 'rss', url: '/deep-xml/feed', name: 'deep'}, 'XML nested deeper than 100 levels'],
  ])('%s: the adapter rejects with the limit in its message', async (_format, entry, message) => {
    const http = testHttpClient({dispatcher: new Agent()})
    const [source] = createSources([{...entry, url: `${boards.url}${entry.url}`} as never], {
      http,
      logger: memoryLogger().logger,
    })
    const started = performance.now()
    const failure = await source?.fetchJobs(EMPTY_CRITERIA, new AbortController().signal).catch((error) => error)
    expect(failure).toBeInstanceOf(UnavailableError)
    expect((failure as Error).message).toBe(message)
    // Refused by a scan, not after building millions of objects.
    expect(performance.now() - started).toBeLessThan(5000)
  })

  it('reads an answer nested exactly 100 levels deep', async () => {
    const {search} = searchOf([{type: 'remoteok', url: `${boards.url}/depth-100`}])
    const result = await search.search(EMPTY_CRITERIA)
    expect(result.sources[0]).toMatchObject({ok: true, count: 1})
    expect(result.jobs[0]?.title).toBe('Deep')
  })
})

describe('jobagent run against hostile boards', () => {
  let home: {path: string; cleanup: () => void}
  beforeEach(() => {
    home = tempDir()
  })
  afterEach(() => home.cleanup())

  const warnings = (result: CliResult) =>
    result.stderr
      .split('\n')
      .filter((line) => line.includes(' | WARNING | '))
      .map((line) => parseLogLine(line).message)

  it('stores only http(s) jobs with capped text, fails the nested boards and completes with exit 0', async () => {
    const sources = [
      {type: 'remoteok', url: `${boards.url}/links`, name: 'links'},
      {type: 'remoteok', url: `${boards.url}/deep-json`, name: 'deep-json'},
      {type: 'rss', url: `${boards.url}/deep-xml/feed`, name: 'deep-xml'},
      {type: 'remoteok', url: `${boards.url}/healthy`, name: 'healthy'},
    ]
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({sources}), {mode: 0o600})
    const run = await runCommandLine(['run', '--json'], {home: home.path})
    expect(run.stderr).not.toMatch(/This is a bug|at .*\.js:\d+/)
    expect(run.code).toBe(0)
    expect(warnings(run)).toEqual(
      expect.arrayContaining([
        'links: 3 jobs dropped: link is not http(s)',
        'links: 1 job dropped: link longer than 4096 characters',
        'links: 1 job cut to the longest text kept (title 500, company 200, location 500 characters)',
        expect.stringMatching(/^deep-json: failed after \d+\.\d s: JSON nested deeper than 100 levels$/),
        expect.stringMatching(/^rss:deep-xml: failed after \d+\.\d s: XML nested deeper than 100 levels$/),
      ]),
    )

    const listed = await runCommandLine(['jobs', '--json'], {home: home.path})
    expect(listed.code).toBe(0)
    const jobs = JSON.parse(listed.stdout) as {url: string; title: string}[]
    expect(jobs.length).toBeGreaterThan(2)
    expect(jobs.every((job) => /^https?:\/\//.test(job.url))).toBe(true)
    expect(Math.max(...jobs.map((job) => job.title.length))).toBe(500)
  })
})
