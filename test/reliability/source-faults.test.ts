import {Agent} from 'undici'
import {beforeAll, describe, type ExpectStatic, it, type TestContext} from 'vitest'
import {UnavailableError} from '../../src/core/errors.js'
import type {JobResponse} from '../../src/core/jobs/job.js'
import {JobSearch} from '../../src/core/jobs/job-search.js'
import type {JobSource} from '../../src/core/jobs/job-source.js'
import type {SourceConfig} from '../../src/core/jobs/source-config.js'
import {buildDigest} from '../../src/core/notifications/digest.js'
import {NotificationService} from '../../src/core/notifications/notification-service.js'
import {AgentRun, type DigestSender, type RunSummary} from '../../src/core/run/agent-run.js'
import {createNotifiers} from '../../src/notifiers/index.js'
import {createSources} from '../../src/sources/index.js'
import {openSqlite} from '../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../src/storage/sqlite/sqlite-application-store.js'
import {SqliteJobStore} from '../../src/storage/sqlite/sqlite-job-store.js'
import {TRACKER_MIGRATIONS} from '../../src/storage/sqlite/tracker-migrations.js'
import {EMPTY_CRITERIA} from '../helpers/criteria.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {closedPortUrl, type MockHandler, sendText, serveBody, startMockServer} from '../helpers/mock-board.js'
import {silentServer} from '../helpers/shipments.js'
import {fixtureText, testHttpClient} from '../helpers/source-fixtures.js'

// Every board adapter against every fault a board can show, one test per cell. Each cell checks the adapter on its
// own (it rejects with the project's UnavailableError whose message names the cause, never a TypeError or a crash)
// and then a whole agent run with that board beside a healthy one (the run completes with exit 0, finds the healthy
// board's jobs, and names the failing board with the same cause in its outcome and in a WARNING line).

const FAULT_TIMEOUT_SECONDS = 0.3
const MB = 1024 * 1024

/** An HTTP client as the run builds it, with retry delays of a few milliseconds so a cell stays fast. */
function faultClient() {
  // A plain agent, not the run's EnvHttpProxyAgent: an HTTP_PROXY in the environment must never carry these
  // requests (or the `.invalid` host names) off this machine.
  return testHttpClient({dispatcher: new Agent()})
}

// --- the boards ---------------------------------------------------------------------------------------------------

interface Board {
  type: string
  /** The source name its outcome and log lines carry. */
  name: string
  format: 'json' | 'xml'
  /** The config entry of this board pointing at `url`. */
  entry(url: string, timeoutSeconds?: number): SourceConfig
  /** The first response a healthy board gives (what a fault truncates). */
  body: string
  contentType: string
  /** Answers every request a healthy board gets. */
  healthy: MockHandler
}

const JSON_TYPE = 'application/json; charset=utf-8'
const RSS_TYPE = 'application/rss+xml; charset=utf-8'

function fixtureBoard(type: string, file: string, extra: Partial<SourceConfig> = {}, name = type): Board {
  const body = fixtureText(file)
  const format = file.endsWith('.xml') ? 'xml' : 'json'
  const contentType = format === 'xml' ? RSS_TYPE : JSON_TYPE
  return {
    type,
    name,
    format,
    entry: (url, timeoutSeconds) =>
      ({type, url, max_pages: 1, ...extra, timeout_seconds: timeoutSeconds ?? 5}) as SourceConfig,
    body,
    contentType,
    healthy: serveBody(body, contentType),
  }
}

// The Algolia HN API has no capture; these follow the documented shapes (see test/sources/hackernews.test.ts).
const HN_STORY = 44434576
const HN_STORIES = JSON.stringify({
  hits: [
    {
      objectID: String(HN_STORY),
      title: 'Ask HN: Who is hiring? (July 2026)',
      author: 'whoishiring',
      created_at: '2026-07-01T15:00:00Z',
      created_at_i: 1782918000,
    },
  ],
  nbPages: 1,
})
const HN_COMMENTS = JSON.stringify({
  hits: [
    {objectID: '44434600', parent_id: HN_STORY, comment_text: 'Acme | Backend Engineer | Berlin | REMOTE<p>More'},
    {objectID: '44434602', parent_id: HN_STORY, comment_text: 'Initech | SRE | Remote (EU)'},
  ],
  nbPages: 1,
})

const hackerNews: Board = {
  type: 'hackernews',
  name: 'hackernews',
  format: 'json',
  entry: (url, timeoutSeconds) => ({type: 'hackernews', url, max_pages: 1, timeout_seconds: timeoutSeconds ?? 5}),
  body: HN_STORIES,
  contentType: JSON_TYPE,
  healthy: (req, res) =>
    sendText(res, req.url?.includes('tags=story') ? HN_STORIES : HN_COMMENTS, 200, {'content-type': JSON_TYPE}),
}

const rss: Board = {
  ...fixtureBoard('rss', 'weworkremotely.xml', {name: 'failing'}, 'rss:failing'),
  // A generic feed's url is the feed's own address.
  entry: (url, timeoutSeconds) => ({
    type: 'rss',
    name: 'failing',
    url: `${url}/jobs.rss`,
    timeout_seconds: timeoutSeconds ?? 5,
  }),
}

const BOARDS: Board[] = [
  fixtureBoard('remoteok', 'remoteok.json'),
  fixtureBoard('remotive', 'remotive.json'),
  fixtureBoard('arbeitnow', 'arbeitnow.json'),
  fixtureBoard('jobicy', 'jobicy.json'),
  fixtureBoard('himalayas', 'himalayas.json'),
  fixtureBoard('weworkremotely', 'weworkremotely.xml'),
  fixtureBoard('greenhouse', 'greenhouse.json', {boards: ['acme']}, 'greenhouse:acme'),
  fixtureBoard('lever', 'lever.json', {sites: ['acme']}, 'lever:acme'),
  fixtureBoard('ashby', 'ashby.json', {boards: ['acme']}, 'ashby:acme'),
  hackerNews,
  rss,
]

// --- the faults ---------------------------------------------------------------------------------------------------

/** Where a faulty board lives for one phase of a cell, and what it saw. */
interface FaultSite {
  url: string
  /** performance.now() of each request the board received. */
  requestTimes: number[]
  /** Bytes the board managed to hand to the connection, and whether it sent its whole body. */
  sent: {bytes: number; finished: boolean}
  close(): Promise<void>
}

interface Fault {
  name: string
  /** How the cell reads in the test name. */
  outcome: string
  timeoutSeconds?: number
  start(board: Board): Promise<FaultSite>
  /** The cause the failure must name; undefined when the board recovers. */
  cause?: (board: Board) => RegExp
  /** What the board must have seen, checked after the adapter's own phase. */
  verify?(site: FaultSite, expect: ExpectStatic): void
}

const NO_TRAFFIC = {requestTimes: [], sent: {bytes: 0, finished: false}}

/** A real HTTP board on 127.0.0.1 answering every request with `handler(board)`. */
function serving(handler: (board: Board, site: FaultSite) => MockHandler) {
  return async (board: Board): Promise<FaultSite> => {
    const site: FaultSite = {url: '', requestTimes: [], sent: {bytes: 0, finished: false}, close: async () => {}}
    const answer = handler(board, site)
    const server = await startMockServer((req, res) => {
      site.requestTimes.push(performance.now())
      return answer(req, res)
    })
    return Object.assign(site, {url: server.url, close: () => server.close()})
  }
}

const HTML_PAGE =
  '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>'
const MALFORMED = {
  json: `{"jobs": [{'title': 'Engineer'}]}`,
  // The item is never closed: no feed reader may guess where it ends.
  xml: '<?xml version="1.0"?><rss version="2.0"><channel><item><title>Engineer</title></channel></rss>',
}
const UNEXPECTED = {
  json: '{"status": "ok", "message": "this API moved to /v2"}',
  xml: '<?xml version="1.0"?><catalog><book id="1"><title>Not a feed</title></book></catalog>',
}
const HUGE_BYTES = 20 * MB

/** Streams 20 MB without a Content-Length, honouring backpressure, so the size cap must stop it while reading. */
function hugeBody(board: Board, site: FaultSite): MockHandler {
  return async (_req, res) => {
    res.writeHead(200, {'content-type': board.contentType})
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    while (site.sent.bytes < HUGE_BYTES && !res.destroyed) {
      site.sent.bytes += chunk.length
      if (!res.write(chunk)) await drainedOrClosed(res)
    }
    if (!res.destroyed) {
      res.end()
      site.sent.finished = true
    }
  }
}

function drainedOrClosed(res: import('node:http').ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

const FAULTS: Fault[] = [
  {
    name: 'DNS failure',
    outcome: 'names the unresolvable host',
    // RFC 6761 reserves .invalid: no such name ever resolves, so nothing leaves for the internet. A resolver that
    // cannot be reached at all answers EAI_AGAIN instead of ENOTFOUND; either names the host.
    start: async (board) => ({...NO_TRAFFIC, url: `http://${board.type}.jobagent-test.invalid`, close: async () => {}}),
    cause: (board) => new RegExp(`^network error: .*(ENOTFOUND|EAI_AGAIN) ${board.type}\\.jobagent-test\\.invalid`),
  },
  {
    name: 'connection refused',
    outcome: 'names the refused connection',
    start: async () => ({...NO_TRAFFIC, url: await closedPortUrl(), close: async () => {}}),
    cause: () => /^network error: .*ECONNREFUSED/,
  },
  {
    name: 'connect timeout',
    outcome: 'gives up after timeout_seconds',
    timeoutSeconds: FAULT_TIMEOUT_SECONDS,
    // A SYN that is never answered cannot be made on loopback without root (the kernel completes the handshake
    // even when nobody calls accept(), and a full backlog resets or retries unpredictably). A peer that completes
    // the handshake and then never sends a byte is reliable, and it is what the client sees of a dead host behind
    // a load balancer; the per-attempt timeout covers connecting, the headers and the body alike.
    start: async () => {
      const server = await silentServer()
      return {...NO_TRAFFIC, url: `http://127.0.0.1:${server.port}`, close: server.close}
    },
    cause: () => /^timed out after 0\.3 s$/,
  },
  {
    name: 'read stall',
    outcome: 'gives up after timeout_seconds',
    timeoutSeconds: FAULT_TIMEOUT_SECONDS,
    start: serving((board) => (_req, res) => {
      res.writeHead(200, {'content-type': board.contentType, 'content-length': String(Buffer.byteLength(board.body))})
      res.write(board.body.slice(0, 100))
    }),
    cause: () => /^timed out after 0\.3 s$/,
  },
  {
    name: '429 with Retry-After',
    outcome: 'waits as asked, then reads the jobs',
    start: serving((board, site) => (req, res) => {
      if (site.requestTimes.length === 1) sendText(res, 'slow down', 429, {'retry-after': '1'})
      else board.healthy(req, res)
    }),
    verify: (site, expect) => {
      const [first = 0, second = 0] = site.requestTimes
      expect(second - first).toBeGreaterThanOrEqual(950)
    },
  },
  {
    name: '500 (persistent)',
    outcome: 'retries twice, then names the status',
    start: serving(() => (_req, res) => sendText(res, 'boom', 500)),
    cause: () => /^HTTP 500 Internal Server Error$/,
    verify: (site, expect) => expect(site.requestTimes).toHaveLength(3),
  },
  {
    name: 'HTML instead of JSON/XML',
    outcome: 'says it got an HTML page',
    start: serving(() => serveBody(HTML_PAGE, 'text/html; charset=utf-8')),
    cause: (board) =>
      board.format === 'xml'
        ? /^HTML instead of an RSS or Atom feed$/
        : /^HTML instead of JSON \("Just a moment\.\.\."\)$/,
  },
  {
    name: 'malformed body',
    outcome: 'says the body is malformed',
    start: serving((board) => serveBody(MALFORMED[board.format], board.contentType)),
    cause: (board) => (board.format === 'xml' ? /^malformed XML: / : /^malformed JSON: /),
  },
  {
    name: 'truncated body',
    outcome: 'says the connection closed mid-body',
    // Content-Length promises the whole body, half of it arrives, then the connection drops.
    start: serving((board) => (_req, res) => {
      res.writeHead(200, {'content-type': board.contentType, 'content-length': String(Buffer.byteLength(board.body))})
      res.write(board.body.slice(0, Math.floor(board.body.length / 2)), () => res.destroy())
    }),
    cause: () => /^network error: .*other side closed/,
  },
  {
    name: '20 MB body',
    outcome: 'stops reading at the 10 MB cap',
    start: serving(hugeBody),
    // The cap, not the deadline, must end it: on a machine busy with the rest of the suite, reading 10 MB over
    // loopback beside the other boards' faults has taken more than the 5 s the other faults get.
    timeoutSeconds: 20,
    cause: () => /^response larger than 10 MB$/,
    // The board never got to send it all: the client hung up instead of buffering 20 MB.
    verify: (site, expect) => {
      expect(site.sent.finished).toBe(false)
      expect(site.sent.bytes).toBeLessThan(HUGE_BYTES)
    },
  },
  {
    name: 'unexpected shape',
    outcome: 'names the shape it expected',
    start: serving((board) => serveBody(UNEXPECTED[board.format], board.contentType)),
    cause: (board) =>
      board.format === 'xml'
        ? /^unexpected response shape: expected an RSS or Atom feed$/
        : /^unexpected response shape: expected /,
  },
]

// --- the run around a failing board -------------------------------------------------------------------------------

const HEALTHY_FEED = `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>Healthy board</title>
<item><title>Healthy Co: Site Reliability Engineer</title><link>https://healthy.example/jobs/1</link>
<pubDate>Mon, 01 Jun 2026 10:00:00 +0000</pubDate></item>
<item><title>Healthy Co: Platform Engineer</title><link>https://healthy.example/jobs/2</link>
<pubDate>Tue, 02 Jun 2026 10:00:00 +0000</pubDate></item>
</channel></rss>`
const HEALTHY_URLS = ['https://healthy.example/jobs/1', 'https://healthy.example/jobs/2']

interface RunResult {
  summary: RunSummary
  log: ReturnType<typeof memoryLogger>
}

/** A real agent run (SQLite tracker, the log:// channel) over the failing board and a healthy one. */
async function runBeside(
  failing: SourceConfig,
  options: {healthy?: boolean; strict?: boolean} = {},
): Promise<RunResult> {
  const healthy = await startMockServer({'/feed.rss': serveBody(HEALTHY_FEED, RSS_TYPE)})
  const http = faultClient()
  const db = openSqlite(':memory:', {migrations: TRACKER_MIGRATIONS})
  try {
    const log = memoryLogger('INFO')
    const entries: SourceConfig[] = [failing]
    if (options.healthy !== false) entries.push({type: 'rss', name: 'healthy', url: `${healthy.url}/feed.rss`})
    const sources = createSources(entries, {http, logger: log.logger})
    const channels = new NotificationService(createNotifiers(['log://'], {logger: log.logger}), log.logger)
    const notifications: DigestSender = {
      channelCount: 1,
      maxItems: 20,
      buildDigest: (jobs) => buildDigest([...jobs], {maxItems: 20, type: 'new_jobs'}),
      deliver: (digest, signal) => channels.deliver(digest, signal),
    }
    const run = new AgentRun({
      applications: new SqliteApplicationStore(db, ':memory:'),
      jobs: new SqliteJobStore(db, ':memory:'),
      search: new JobSearch(sources, log.logger),
      notifications,
      logger: log.logger,
    })
    const summary = await run.run({
      version: '0.1.0',
      mode: 'production',
      criteria: EMPTY_CRITERIA,
      strict: options.strict ?? false,
    })
    return {summary, log}
  } finally {
    db.close()
    await http.close()
    await healthy.close()
  }
}

function fetchFrom(source: JobSource): Promise<JobResponse[]> {
  return source.fetchJobs(EMPTY_CRITERIA, new AbortController().signal)
}

/** The adapter's rejection, which must be the project's error, never a TypeError or a string. */
async function failureOf(work: Promise<unknown>, expect: ExpectStatic): Promise<Error> {
  const error = await work.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error, 'the adapter should have failed').toBeInstanceOf(UnavailableError)
  return error as Error
}

/** Starts the fault for this board, closed when the test ends (the test's own hook: the tests run concurrently). */
async function open(fault: Fault, board: Board, context: TestContext): Promise<FaultSite> {
  const site = await fault.start(board)
  context.onTestFinished(() => site.close())
  return site
}

// --- the matrix ---------------------------------------------------------------------------------------------------

/** What each board returns when healthy, to compare a recovered board against. */
const baseline = new Map<string, JobResponse[]>()

beforeAll(async () => {
  const http = faultClient()
  try {
    for (const board of BOARDS) {
      const server = await startMockServer(board.healthy)
      try {
        const [source] = createSources([board.entry(server.url)], {http, logger: memoryLogger().logger})
        baseline.set(board.type, await fetchFrom(source as JobSource))
      } finally {
        await server.close()
      }
    }
  } finally {
    await http.close()
  }
})

describe.concurrent('board adapters under faults, and the run around them', () => {
  it('has a non-empty healthy answer for every board to compare against', ({expect}) => {
    for (const board of BOARDS) expect(baseline.get(board.type)?.length, board.type).toBeGreaterThan(0)
  })

  describe.each(BOARDS.map((board) => [board.type, board] as const))('%s', (_type, board) => {
    it.for(cells(FAULTS))('%s: %s; the run goes on with the other board', async ([, , fault], context) => {
      const {expect} = context
      // The adapter alone.
      const site = await open(fault, board, context)
      const http = faultClient()
      context.onTestFinished(() => http.close())
      const [source] = createSources([board.entry(site.url, fault.timeoutSeconds)], {
        http,
        logger: memoryLogger().logger,
      })
      if (!source) throw new Error(`no source built for ${board.type}`)
      expect(source.name).toBe(board.name)
      if (fault.cause) {
        const error = await failureOf(fetchFrom(source), expect)
        expect(error.message).toMatch(fault.cause(board))
      } else {
        expect(await fetchFrom(source)).toEqual(baseline.get(board.type))
      }
      fault.verify?.(site, expect)

      // The same fault inside a run, beside a healthy board.
      const runSite = await open(fault, board, context)
      const {summary, log} = await runBeside(board.entry(runSite.url, fault.timeoutSeconds))
      expect(summary).toMatchObject({status: 'ok', exit_code: 0, error: null})
      const healthy = summary.sources.find((outcome) => outcome.name === 'rss:healthy')
      expect(healthy).toMatchObject({ok: true, count: 2})
      expect(summary.jobs.map((job) => job.url)).toEqual(expect.arrayContaining(HEALTHY_URLS))
      const outcome = summary.sources.find((candidate) => candidate.name === board.name)
      if (fault.cause) {
        expect(outcome).toMatchObject({ok: false, count: 0})
        expect(outcome?.error).toMatch(fault.cause(board))
        const warnings = log.parsed().filter((line) => line.level === 'WARNING')
        const warning = warnings.find((line) => line.name === `jobagent.sources.${board.name}`)
        expect(warning?.message).toMatch(new RegExp(`^${escapeRegExp(board.name)}: failed after [\\d.]+ s: `))
        expect(warning?.message.replace(/^.*? s: /, '')).toMatch(fault.cause(board))
      } else {
        expect(outcome).toMatchObject({ok: true, count: baseline.get(board.type)?.length, error: null})
      }
      expect(summary.notifications.result).toBe('sent')
    })
  })
})

// The exit status of docs/COMMANDS.md ("Logs, errors and exit codes") for each fault, seen through one board: 0 while another board succeeds, 1 when no
// board succeeded, 1 under --strict when any board failed.
describe.concurrent('exit status of a run with a failing board', () => {
  const board = BOARDS[1] as Board
  const failing = FAULTS.filter((fault) => fault.cause)

  it.for(cells(failing))('%s: exits 1 when it was the only board', async ([, , fault], context) => {
    const {expect} = context
    const site = await open(fault, board, context)
    const {summary, log} = await runBeside(board.entry(site.url, fault.timeoutSeconds), {healthy: false})
    expect(summary).toMatchObject({status: 'failed', exit_code: 1, error: 'no source succeeded', jobs_found: 0})
    expect(summary.sources[0]?.error).toMatch(fault.cause!(board))
    const lines = log.parsed()
    expect(lines.filter((line) => line.level === 'ERROR').at(-1)).toMatchObject({name: 'jobagent.run'})
    // A board that could not be reached at all earns the hint about the network; any other failure the one that
    // says where each board's reason is.
    expect(lines.at(-1)?.message).toMatch(
      /DNS|refused/.test(String(fault.name))
        ? /^Hint: .*jobagent run --demo$/
        : /^Hint: the warnings above give each board's reason; .*jobagent boards list/,
    )
  })

  it.for(cells(failing))('%s: exits 1 under --strict, still reporting the jobs found', async ([, , fault], context) => {
    const {expect} = context
    const site = await open(fault, board, context)
    const {summary} = await runBeside(board.entry(site.url, fault.timeoutSeconds), {strict: true})
    expect(summary).toMatchObject({status: 'failed', exit_code: 1, error: '1 source(s) failed (--strict)'})
    expect(summary.jobs.map((job) => job.url)).toEqual(expect.arrayContaining(HEALTHY_URLS))
  })
})

/** Test-table rows whose titles print without quotes: [name, outcome, fault]. */
function cells(faults: readonly Fault[]): (readonly [string, string, Fault])[] {
  return faults.map((fault) => [fault.name, fault.outcome, fault] as const)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
