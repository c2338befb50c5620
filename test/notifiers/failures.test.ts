import {afterEach, describe, expect, it} from 'vitest'
import {buildDigest} from '../../src/core/notifications/digest.js'
import {NotificationService} from '../../src/core/notifications/notification-service.js'
import {createNotifiers} from '../../src/notifiers/index.js'
import {type HttpPolicy, HttpTransport} from '../../src/notifiers/transport.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {channelFor} from '../helpers/notifiers.js'
import {FAST, jobs, signal} from './fixtures.js'
import {closedPort, type Receiver, startReceiver} from './receiver.js'

const digest = buildDigest(jobs(2), {maxItems: 20})
const receivers: Receiver[] = []

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args)
  receivers.push(started)
  return started
}

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((started) => started.close()))
})

async function sendError(url: string, policy: Partial<HttpPolicy> = FAST): Promise<string> {
  const {logger} = memoryLogger()
  const notifier = channelFor(url, {logger, http: new HttpTransport({policy})})
  try {
    await notifier.send(digest, signal())
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('the channel accepted the digest')
}

describe('HTTP channel failures', () => {
  it('waits for Retry-After on 429, then delivers', async () => {
    const server = await receiver((_, index) =>
      index === 0 ? {status: 429, headers: {'retry-after': '1'}, body: 'slow down'} : {status: 200},
    )
    const {logger, parsed} = memoryLogger()
    const http = new HttpTransport({policy: FAST, logger: logger.child('notify')})
    await channelFor(`json://127.0.0.1:${server.port}/hook`, {logger, http}).send(digest, signal())
    expect(server.requests).toHaveLength(2)
    const [first, second] = server.requests
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(900)
    expect(parsed().map((line) => `${line.level} ${line.message}`)).toEqual([
      `INFO HTTP 429 Too Many Requests: slow down from json://127.0.0.1:${server.port}/hook; retrying in 1 s (1 of 2)`,
      expect.stringMatching(
        new RegExp(`^DEBUG json://127\\.0\\.0\\.1:${server.port}/hook: HTTP 200, 0 bytes in \\d+ ms \\(2 attempts\\)$`),
      ),
    ])
  })

  it('fails at once when Retry-After asks for longer than the cap', async () => {
    const server = await receiver(() => ({status: 429, headers: {'retry-after': '3600'}}))
    const message = await sendError(`json://127.0.0.1:${server.port}/hook`)
    expect(message).toBe('HTTP 429 Too Many Requests (retry after 3600 s)')
    expect(server.requests).toHaveLength(1)
  })

  it('retries a 500 a bounded number of times, then fails saying so', async () => {
    const server = await receiver(() => ({status: 500, body: 'boom'}))
    const message = await sendError(`json://127.0.0.1:${server.port}/hook`)
    expect(message).toBe('HTTP 500 Internal Server Error: boom (3 attempts)')
    expect(server.requests).toHaveLength(3)
  })

  it('does not retry a refusal such as 404', async () => {
    const server = await receiver(() => ({status: 404, body: '{"message": "Unknown Webhook"}'}))
    const message = await sendError(`discord+http://127.0.0.1:${server.port}/api/webhooks/1/t`)
    expect(message).toBe('HTTP 404 Not Found: {"message": "Unknown Webhook"}')
    expect(server.requests).toHaveLength(1)
  })

  it('reports a refused connection', async () => {
    const port = await closedPort()
    expect(await sendError(`ntfy://127.0.0.1:${port}/jobs`)).toMatch(/ECONNREFUSED.*\(3 attempts\)$/)
  })

  it('gives up on a server that never answers after the timeout of each attempt', async () => {
    const server = await receiver(() => 'hang')
    const message = await sendError(`ntfy://127.0.0.1:${server.port}/jobs`, {...FAST, timeoutMs: 300, retries: 1})
    expect(message).toBe('timed out after 0.3 s (2 attempts)')
    expect(server.requests).toHaveLength(2)
  })

  it('stops waiting when the run is cancelled', async () => {
    const server = await receiver(() => 'hang')
    const {logger} = memoryLogger()
    const notifier = channelFor(`ntfy://127.0.0.1:${server.port}/jobs`, {
      logger,
      http: new HttpTransport({policy: FAST}),
    })
    const controller = new AbortController()
    const sending = notifier.send(digest, controller.signal)
    setTimeout(() => controller.abort(new Error('interrupted')), 100)
    await expect(sending).rejects.toThrow('aborted: interrupted')
  })
})

describe('delivering to several channels', () => {
  it('delivers to the healthy channel when the other fails, and warns with the masked name', async () => {
    const broken = await receiver(() => ({status: 500}))
    const healthy = await receiver(() => ({status: 200}))
    const {logger, parsed} = memoryLogger()
    const urls = [
      `discord+http://127.0.0.1:${broken.port}/api/webhooks/42/super-secret-token`,
      `ntfy://127.0.0.1:${healthy.port}/jobs`,
    ]
    const service = new NotificationService(
      createNotifiers(urls, {logger, http: new HttpTransport({policy: FAST})}),
      logger,
    )
    const report = await service.deliver(digest, signal())
    expect(report.delivered).toBe(true)
    expect(healthy.requests).toHaveLength(1)
    expect(report.channels.map(({channel, ok}) => ({channel, ok}))).toEqual([
      {channel: `discord+http://127.0.0.1:${broken.port}/api/***/***/***`, ok: false},
      {channel: `ntfy://127.0.0.1:${healthy.port}/***`, ok: true},
    ])
    const warnings = parsed().filter((line) => line.level === 'WARNING')
    expect(warnings.map((line) => `${line.name} ${line.message}`)).toEqual([
      `jobagent.notify discord+http://127.0.0.1:${broken.port}/api/***/***/*** failed: HTTP 500 Internal Server Error (3 attempts)`,
    ])
  })

  it('reports not delivered when every channel fails', async () => {
    const broken = await receiver(() => ({status: 503}))
    const port = await closedPort()
    const {logger} = memoryLogger()
    const urls = [`json://127.0.0.1:${broken.port}/hook`, `ntfy://127.0.0.1:${port}/jobs`]
    const service = new NotificationService(
      createNotifiers(urls, {logger, http: new HttpTransport({policy: FAST})}),
      logger,
    )
    const report = await service.deliver(digest, signal())
    expect(report.delivered).toBe(false)
    expect(report.channels.map((result) => result.ok)).toEqual([false, false])
  })

  it('never writes a token, password or webhook secret to the log', async () => {
    const refusing = await receiver(() => ({status: 401, body: 'unauthorized'}))
    const port = await closedPort()
    const secrets = ['tk_ntfysecret', 'hunter2pass', 'slackpathsecret', 'discordpathsecret', 'basicpw']
    const urls = [
      `ntfy://tk_ntfysecret@127.0.0.1:${refusing.port}/jobs`,
      `mailto://me:hunter2pass@127.0.0.1:${port}?to=a@x.org`,
      `slack+http://127.0.0.1:${refusing.port}/services/T1/B2/slackpathsecret`,
      `discord+http://127.0.0.1:${port}/api/webhooks/9/discordpathsecret`,
      `json://bot:basicpw@127.0.0.1:${refusing.port}/hook?token=basicpw`,
    ]
    const {logger, lines} = memoryLogger('DEBUG')
    const http = new HttpTransport({policy: FAST, logger: logger.child('notify')})
    const service = new NotificationService(createNotifiers(urls, {logger, http, smtpTimeoutMs: 2000}), logger)
    const report = await service.deliver(digest, signal())
    expect(report.delivered).toBe(false)
    expect(lines.filter((line) => line.includes('| WARNING |'))).toHaveLength(5)
    const written = `${lines.join('\n')}\n${JSON.stringify(report)}`
    for (const secret of secrets) expect(written).not.toContain(secret)
  })
})
