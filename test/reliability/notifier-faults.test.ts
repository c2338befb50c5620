import type {ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import {SMTPServer} from 'smtp-server'
import {Agent} from 'undici'
import {describe, type ExpectStatic, it, type TestContext} from 'vitest'
import type {JobResponse} from '../../src/core/jobs/job.js'
import {JobSearch} from '../../src/core/jobs/job-search.js'
import {buildDigest} from '../../src/core/notifications/digest.js'
import {NotificationService} from '../../src/core/notifications/notification-service.js'
import type {Notifier} from '../../src/core/notifications/notifier.js'
import {AgentRun, type DigestSender} from '../../src/core/run/agent-run.js'
import {createNotifiers} from '../../src/notifiers/index.js'
import {type HttpPolicy, HttpTransport} from '../../src/notifiers/transport.js'
import {openSqlite} from '../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../src/storage/sqlite/sqlite-application-store.js'
import {SqliteJobStore} from '../../src/storage/sqlite/sqlite-job-store.js'
import {TRACKER_MIGRATIONS} from '../../src/storage/sqlite/tracker-migrations.js'
import {EMPTY_CRITERIA} from '../helpers/criteria.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {closedPortUrl, type MockHandler, sendText, startMockServer} from '../helpers/mock-board.js'
import {silentServer} from '../helpers/shipments.js'
import {FAST, jobs} from '../notifiers/fixtures.js'

// Every notification channel against the faults a receiver can show: refused, no answer, a stalled answer, 429 with
// Retry-After, and a persistent server error (for email: SMTP's temporary 451 and permanent 554). Each cell checks
// the channel alone (its error names the cause) and then the channel failing beside a healthy one (the digest is
// delivered, the failing channel is named, masked, with the same cause in its WARNING line).
//
// test/notifiers/failures.test.ts already covers the webhook's 429 and 500, ntfy refused, ntfy with a server that
// never answers, and discord's 500 beside a healthy channel: those cells are left out here (see COVERED).

const TIMEOUT_MS = 300
const digest = buildDigest(jobs(2), {maxItems: 20})

type ChannelKind = 'ntfy' | 'slack' | 'discord' | 'webhook' | 'email'

const CHANNELS: Record<ChannelKind, (origin: string) => string> = {
  ntfy: (origin) => `ntfy://${hostPort(origin)}/jobs`,
  slack: (origin) => `slack+http://${hostPort(origin)}/services/T1/B2/slack-secret`,
  discord: (origin) => `discord+http://${hostPort(origin)}/api/webhooks/42/discord-secret`,
  webhook: (origin) => `json://${hostPort(origin)}/hook`,
  email: (origin) => `mailto://${hostPort(origin)}?to=me@example.org&from=jobs@example.org`,
}

function hostPort(origin: string): string {
  return origin.replace(/^[a-z]+:\/\//, '')
}

/**
 * The channels as the app builds them, with the policy's waits (SMTP's too: the short one only where a fault is a
 * silence, so a loaded machine's slow answer is not taken for one); a plain agent so no proxy from the environment
 * is used.
 */
function channels(urls: string[], policy: Partial<HttpPolicy>, logger = memoryLogger().logger) {
  const dispatcher = new Agent()
  const http = new HttpTransport({policy, dispatcher, logger: logger.child('notify')})
  const notifiers = createNotifiers(urls, {logger, http, smtpTimeoutMs: policy.timeoutMs ?? TIMEOUT_MS})
  return {notifiers, close: () => dispatcher.close()}
}

// --- receivers that misbehave -------------------------------------------------------------------------------------

interface Site {
  origin: string
  /** performance.now() of each request (HTTP) or each message attempt (SMTP). */
  attempts: number[]
  close(): Promise<void>
}

async function httpSite(answer: (attempt: number, res: ServerResponse) => void): Promise<Site> {
  const attempts: number[] = []
  const handler: MockHandler = (_req, res) => {
    attempts.push(performance.now())
    answer(attempts.length, res)
  }
  const server = await startMockServer(handler)
  return {origin: server.url, attempts, close: () => server.close()}
}

/** A real SMTP server in this process; `reject` answers RCPT TO with that SMTP error, `stall` never ends DATA. */
async function smtpSite(behaviour: {reject?: {code: number; message: string}; stall?: boolean} = {}): Promise<Site> {
  const attempts: number[] = []
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      attempts.push(performance.now())
      callback()
    },
    onRcptTo(_address, _session, callback) {
      if (!behaviour.reject) return callback()
      const error = Object.assign(new Error(behaviour.reject.message), {responseCode: behaviour.reject.code})
      callback(error)
    },
    onData(stream, _session, callback) {
      stream.resume()
      if (!behaviour.stall) stream.on('end', () => callback())
    },
  })
  // The client hanging up mid-conversation is reported as a server error; the tests assert on the client.
  server.on('error', () => {})
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const {port} = server.server.address() as AddressInfo
  return {
    origin: `smtp://127.0.0.1:${port}`,
    attempts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

// --- the faults ---------------------------------------------------------------------------------------------------

interface Fault {
  name: string
  outcome: string
  policy: Partial<HttpPolicy>
  start(kind: ChannelKind): Promise<Site>
  /** The cause the failure must name; undefined when the channel recovers. */
  cause?: (kind: ChannelKind) => RegExp | undefined
  verify?(site: Site, expect: ExpectStatic, kind: ChannelKind): void
}

const ONE_RETRY: Partial<HttpPolicy> = {...FAST, timeoutMs: TIMEOUT_MS, retries: 1}

const noSite = async (origin: string): Promise<Site> => ({origin, attempts: [], close: async () => {}})

const FAULTS: Fault[] = [
  {
    name: 'connection refused',
    outcome: 'names the refused connection',
    policy: FAST,
    start: async () => noSite(await closedPortUrl()),
    cause: (kind) => (kind === 'email' ? /ECONNREFUSED/ : /ECONNREFUSED.*\(3 attempts\)$/),
  },
  {
    name: 'no answer',
    outcome: 'gives up after the timeout of each attempt',
    policy: ONE_RETRY,
    // The peer accepts the connection and never says a word: no HTTP status line, no SMTP greeting.
    start: async () => {
      const server = await silentServer()
      return {origin: `tcp://127.0.0.1:${server.port}`, attempts: [], close: server.close}
    },
    cause: (kind) =>
      kind === 'email' ? /^no answer from the SMTP server within 300 ms$/ : /^timed out after 0\.3 s \(2 attempts\)$/,
  },
  {
    name: 'stalled answer',
    outcome: 'gives up when the answer never ends',
    policy: ONE_RETRY,
    // HTTP: the status and headers arrive, the body never finishes. SMTP: the message is sent, the reply never comes.
    start: (kind) =>
      kind === 'email'
        ? smtpSite({stall: true})
        : httpSite((_attempt, res) => {
            res.writeHead(200, {'content-type': 'text/plain', 'content-length': '100'})
            res.write('o')
          }),
    cause: (kind) =>
      kind === 'email' ? /^no answer from the SMTP server within 300 ms$/ : /^timed out after 0\.3 s \(2 attempts\)$/,
    verify: (site, expect, kind) => expect(site.attempts).toHaveLength(kind === 'email' ? 1 : 2),
  },
  {
    name: '429 with Retry-After (SMTP 451)',
    outcome: 'waits as asked, then delivers (email: fails at once with the server’s answer)',
    policy: FAST,
    start: (kind) =>
      kind === 'email'
        ? smtpSite({reject: {code: 451, message: '4.7.1 Try again later'}})
        : httpSite((attempt, res) =>
            attempt === 1 ? sendText(res, 'slow down', 429, {'retry-after': '1'}) : sendText(res, 'ok', 200),
          ),
    // Email is one attempt by design (README, "Failures"): a temporary refusal fails this run's delivery.
    cause: (kind) => (kind === 'email' ? /451 4\.7\.1 Try again later/ : undefined),
    verify: (site, expect, kind) => {
      if (kind === 'email') return expect(site.attempts).toHaveLength(1)
      const [first = 0, second = 0] = site.attempts
      expect(site.attempts).toHaveLength(2)
      expect(second - first).toBeGreaterThanOrEqual(900)
    },
  },
  {
    name: '500 (SMTP 554)',
    outcome: 'retries twice, then names the status (email: one attempt)',
    policy: FAST,
    start: (kind) =>
      kind === 'email'
        ? smtpSite({reject: {code: 554, message: '5.7.1 Relay access denied'}})
        : httpSite((_attempt, res) => sendText(res, 'boom', 500)),
    cause: (kind) =>
      kind === 'email' ? /554 5\.7\.1 Relay access denied/ : /^HTTP 500 Internal Server Error: boom \(3 attempts\)$/,
    verify: (site, expect, kind) => expect(site.attempts).toHaveLength(kind === 'email' ? 1 : 3),
  },
]

/** Cells test/notifiers/failures.test.ts already has (its 'hang' is the same silence as the TCP peer here). */
const COVERED = new Set([
  'ntfy:connection refused',
  'ntfy:no answer',
  'webhook:429 with Retry-After (SMTP 451)',
  'webhook:500 (SMTP 554)',
  'discord:500 (SMTP 554)',
])

const KINDS = Object.keys(CHANNELS) as ChannelKind[]
const CELLS = KINDS.flatMap((kind) =>
  FAULTS.filter((fault) => !COVERED.has(`${kind}:${fault.name}`)).map(
    (fault) => [kind, fault.name, fault.outcome, fault] as const,
  ),
)

async function open(fault: Fault, kind: ChannelKind, context: TestContext): Promise<Site> {
  const site = await fault.start(kind)
  context.onTestFinished(() => site.close())
  return site
}

async function sendError(notifier: Notifier): Promise<unknown> {
  return notifier.send(digest, new AbortController().signal).then(
    () => undefined,
    (error: unknown) => error,
  )
}

describe.concurrent('notification channels under faults', () => {
  it.for(CELLS)('%s, %s: %s; a healthy channel beside it still gets the digest', async ([kind, , , fault], context) => {
    const {expect} = context
    const cause = fault.cause?.(kind)

    // The channel alone.
    const site = await open(fault, kind, context)
    const alone = channels([CHANNELS[kind](site.origin)], fault.policy)
    context.onTestFinished(alone.close)
    const [notifier] = alone.notifiers
    if (!notifier) throw new Error(`no notifier built for ${kind}`)
    const error = await sendError(notifier)
    if (cause) {
      expect(error, 'the channel should have failed').toBeInstanceOf(Error)
      expect((error as Error).message).toMatch(cause)
    } else {
      expect(error).toBeUndefined()
    }
    fault.verify?.(site, expect, kind)

    // The same fault beside a healthy channel.
    const failing = await open(fault, kind, context)
    const healthy = await httpSite((_attempt, res) => sendText(res, 'ok', 200))
    context.onTestFinished(healthy.close)
    const log = memoryLogger('INFO')
    // The healthy channel has a transport of its own with the default waits: under the fault's short timeout a
    // loaded machine can miss the deadline on a good answer, and the retry would then send the digest twice.
    const faulty = channels([CHANNELS[kind](failing.origin)], fault.policy, log.logger)
    const good = channels([CHANNELS.ntfy(healthy.origin)], {}, log.logger)
    context.onTestFinished(faulty.close)
    context.onTestFinished(good.close)
    const both = {notifiers: [...faulty.notifiers, ...good.notifiers]}
    const service = new NotificationService(both.notifiers, log.logger)
    const report = await service.deliver(digest, new AbortController().signal)

    expect(report.delivered).toBe(true)
    expect(healthy.attempts).toHaveLength(1)
    const [failingReport, healthyReport] = report.channels
    expect(healthyReport).toMatchObject({ok: true, error: null})
    expect(failingReport?.channel).toBe(both.notifiers[0]?.name)
    expect(failingReport?.channel).not.toMatch(/slack-secret|discord-secret/)
    if (cause) {
      expect(failingReport?.ok).toBe(false)
      expect(failingReport?.error).toMatch(cause)
      const warning = log
        .parsed()
        .find((line) => line.level === 'WARNING' && line.message.startsWith(`${failingReport?.channel} failed: `))
      expect(warning?.name).toBe('jobagent.notify')
      expect(warning?.message.slice(`${failingReport?.channel} failed: `.length)).toMatch(cause)
    } else {
      expect(failingReport).toMatchObject({ok: true, error: null})
    }
  })
})

// --- the run around the channels ----------------------------------------------------------------------------------

const RUN_JOBS: JobResponse[] = jobs(3).map((job) => ({...job, source: 'board'}))

/** A real agent run with one board that always answers and the given channels; returns the summary and the db. */
async function runWithChannels(urls: string[]) {
  const log = memoryLogger('INFO')
  const built = channels(urls, FAST, log.logger)
  const db = openSqlite(':memory:', {migrations: TRACKER_MIGRATIONS})
  try {
    const service = new NotificationService(built.notifiers, log.logger)
    const notifications: DigestSender = {
      channelCount: built.notifiers.length,
      maxItems: 20,
      buildDigest: (found) => buildDigest([...found], {maxItems: 20, type: 'new_jobs'}),
      deliver: (message, signal) => service.deliver(message, signal),
    }
    const board = {name: 'board', serverSideFilters: [], fetchJobs: async () => RUN_JOBS}
    const run = new AgentRun({
      applications: new SqliteApplicationStore(db, ':memory:'),
      jobs: new SqliteJobStore(db, ':memory:'),
      search: new JobSearch([board], log.logger),
      notifications,
      logger: log.logger,
    })
    const summary = await run.run({version: '0.1.0', mode: 'production', criteria: EMPTY_CRITERIA})
    const unnotified = db.prepare('SELECT count(*) AS n FROM jobs WHERE notified_at IS NULL').get() as {n: number}
    return {summary, unnotified: unnotified.n}
  } finally {
    db.close()
    await built.close()
  }
}

describe.concurrent('a run whose notification channel fails', () => {
  it.for(KINDS)('%s refused as the only channel: exits 1 and leaves the jobs unnotified', async (kind, {expect}) => {
    const {summary, unnotified} = await runWithChannels([CHANNELS[kind](await closedPortUrl())])
    expect(summary).toMatchObject({status: 'failed', exit_code: 1, error: 'every notification channel failed'})
    expect(summary.notifications).toMatchObject({result: 'failed', jobs: 3})
    expect(summary.notifications.channels[0]?.error).toMatch(/ECONNREFUSED/)
    expect(unnotified).toBe(3)
  })

  it.for(KINDS)('%s refused beside a healthy channel: exits 0 and marks the jobs notified', async (kind, context) => {
    const {expect} = context
    const healthy = await httpSite((_attempt, res) => sendText(res, 'ok', 200))
    context.onTestFinished(healthy.close)
    const {summary, unnotified} = await runWithChannels([
      CHANNELS[kind](await closedPortUrl()),
      CHANNELS.ntfy(healthy.origin),
    ])
    expect(summary).toMatchObject({status: 'ok', exit_code: 0, error: null})
    expect(summary.notifications.result).toBe('sent')
    expect(summary.notifications.channels.map((channel) => channel.ok)).toEqual([false, true])
    expect(unnotified).toBe(0)
  })
})
