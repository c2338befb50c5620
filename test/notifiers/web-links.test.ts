import type {AddressInfo} from 'node:net'
import {SMTPServer} from 'smtp-server'
import {afterEach, describe, expect, it} from 'vitest'
import {buildDigest} from '../../src/core/notifications/digest.js'
import {HttpTransport} from '../../src/notifiers/transport.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {channelFor} from '../helpers/notifiers.js'
import {FAST, job, signal} from './fixtures.js'
import {type Receiver, startReceiver} from './receiver.js'

// Boards' non-web links are dropped when a run reads them; these jobs stand for ones that reached the database
// some other way (stored before that rule, or written by another program). No channel may ever offer them as links.
const HOSTILE = [
  job(1, {url: 'javascript:alert(document.cookie)', title: 'Script job'}),
  job(2, {url: 'data:text/html,<script>alert(1)</script>', title: 'Data job'}),
  job(3, {url: 'ftp://files.example.org/job', title: 'Ftp job'}),
  job(4, {url: 'https://example.org/jobs/4', title: 'Real job'}),
]
const digest = buildDigest(HOSTILE, {maxItems: 20})
const FORBIDDEN = /javascript:|data:text|ftp:\/\/|Script job|Data job|Ftp job/

const receivers: Receiver[] = []
const smtpServers: SMTPServer[] = []
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()))
  await Promise.all(smtpServers.splice(0).map((server) => new Promise((done) => server.close(() => done(undefined)))))
})

function notifierFor(url: string) {
  return channelFor(url, {logger: memoryLogger().logger, http: new HttpTransport({policy: FAST})})
}

async function receive(status = 200): Promise<Receiver> {
  const receiver = await startReceiver(() => ({status}))
  receivers.push(receiver)
  return receiver
}

describe('only http(s) links reach a channel', () => {
  it('ntfy: the Click header and the body carry the https job only; the others count in "+N more"', async () => {
    const receiver = await receive()
    await notifierFor(`ntfy://127.0.0.1:${receiver.port}/jobs`).send(digest, signal())
    const [request] = receiver.requests
    expect(request?.headers.click).toBe('https://example.org/jobs/4')
    expect(request?.headers.title).toBe('4 new jobs')
    expect(request?.body).toBe('Real job, Company 4, remoteok, https://example.org/jobs/4\n+3 more')
  })

  it.each([
    ['Slack', 'slack+http://127.0.0.1:PORT/services/T1/B2/secret', 200],
    ['Discord', 'discord+http://127.0.0.1:PORT/api/webhooks/1/tok', 204],
    ['webhook', 'json://127.0.0.1:PORT/hooks', 200],
  ])('%s: the message lists the https job only', async (_name, url, status) => {
    const receiver = await receive(status)
    await notifierFor(url.replace('PORT', String(receiver.port))).send(digest, signal())
    const body = receiver.requests[0]?.body ?? ''
    expect(body).toContain('https://example.org/jobs/4')
    expect(body).toContain('+3 more')
    expect(body).not.toMatch(FORBIDDEN)
  })

  it('webhook: the jobs array holds the https job only', async () => {
    const receiver = await receive()
    await notifierFor(`json://127.0.0.1:${receiver.port}/hooks`).send(digest, signal())
    const sent = JSON.parse(receiver.requests[0]?.body ?? '{}') as {jobs: {url: string}[]}
    expect(sent.jobs.map((item) => item.url)).toEqual(['https://example.org/jobs/4'])
  })

  it('email: neither the text nor the HTML part links anything but https', async () => {
    const mails: string[] = []
    const server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      logger: false,
      onData(stream, _session, callback) {
        let raw = ''
        stream.setEncoding('utf8')
        stream.on('data', (chunk: string) => {
          raw += chunk
        })
        stream.on('end', () => {
          mails.push(raw)
          callback()
        })
      },
    })
    smtpServers.push(server)
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()))
    const {port} = server.server.address() as AddressInfo
    await notifierFor(`mailto://127.0.0.1:${port}?from=jobagent@example.org&to=me@example.org`).send(digest, signal())
    // Quoted-printable soft line breaks would split a word across lines.
    const raw = (mails[0] ?? '').replace(/=\r?\n/g, '')
    expect(raw).toContain('href=3D"https://example.org/jobs/4"')
    expect(raw).not.toMatch(FORBIDDEN)
  })
})
