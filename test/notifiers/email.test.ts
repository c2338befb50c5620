import type {AddressInfo} from 'node:net'
import {SMTPServer, type SMTPServerOptions} from 'smtp-server'
import {afterEach, describe, expect, it} from 'vitest'
import {buildDigest} from '../../src/core/notifications/digest.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {channelFor} from '../helpers/notifiers.js'
import {jobs, signal} from './fixtures.js'
import {selfSignedCertificate} from './receiver.js'

interface Mail {
  from: string
  to: string[]
  raw: string
}

interface Part {
  contentType: string
  body: string
}

const servers: SMTPServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))))
})

/** A real SMTP server in this process: `user`/`password` are required when given. */
async function startSmtp(options: Partial<SMTPServerOptions> & {user?: string; password?: string} = {}) {
  const mails: Mail[] = []
  const {user, password, ...rest} = options
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: user === undefined,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) callback(null, {user: auth.username})
      else callback(new Error('Invalid username or password'))
    },
    onData(stream, session, callback) {
      let raw = ''
      stream.setEncoding('utf8')
      stream.on('data', (chunk: string) => {
        raw += chunk
      })
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : ''
        mails.push({from, to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw})
        callback()
      })
    },
    ...rest,
  })
  // A client that hangs up during the TLS handshake is reported as a server error; the test asserts on the client.
  server.on('error', () => {})
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  return {mails, port: (server.server.address() as AddressInfo).port}
}

function header(block: string, name: string): string {
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ')
  return new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(unfolded)?.[1]?.trim() ?? ''
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
  return Buffer.from(bytes, 'latin1').toString('utf8')
}

/** Just enough MIME: the parts of a multipart body, split by its boundary, with their transfer encoding undone. */
function partsOf(raw: string): Part[] {
  const [head = ''] = raw.split(/\r?\n\r?\n/)
  const boundary = /boundary="?([^";\s]+)"?/.exec(header(head, 'Content-Type'))?.[1]
  if (!boundary) throw new Error('not a multipart message')
  return raw
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((section) => {
      const [partHead = '', ...rest] = section.replace(/^\r?\n/, '').split(/\r?\n\r?\n/)
      const body = rest.join('\r\n\r\n').replace(/\r?\n$/, '')
      const encoding = header(partHead, 'Content-Transfer-Encoding').toLowerCase()
      const decoded =
        encoding === 'quoted-printable'
          ? decodeQuotedPrintable(body)
          : encoding === 'base64'
            ? Buffer.from(body, 'base64').toString('utf8')
            : body
      return {contentType: header(partHead, 'Content-Type'), body: decoded.replace(/\r\n/g, '\n')}
    })
}

const digest = buildDigest(jobs(3), {maxItems: 2})

describe('email channel', () => {
  it('sends a digest with a text and an HTML part, logged in with the URL’s user and password', async () => {
    const smtp = await startSmtp({user: 'me@x.org', password: 'p@ss w0rd'})
    const url = `mailto://me%40x.org:p%40ss%20w0rd@127.0.0.1:${smtp.port}?to=a@x.org,b+jobs@y.org`
    await channelFor(url, {logger: memoryLogger().logger}).send(digest, signal())

    expect(smtp.mails).toHaveLength(1)
    const [mail] = smtp.mails
    expect(mail?.from).toBe('me@x.org')
    expect(mail?.to).toEqual(['a@x.org', 'b+jobs@y.org'])
    const [head = ''] = (mail?.raw ?? '').split(/\r?\n\r?\n/)
    expect(header(head, 'Subject')).toBe('3 new jobs')
    expect(header(head, 'From')).toBe('me@x.org')
    expect(header(head, 'To')).toBe('a@x.org, b+jobs@y.org')

    const parts = partsOf(mail?.raw ?? '')
    expect(parts.map((part) => part.contentType.split(';')[0])).toEqual(['text/plain', 'text/html'])
    expect(parts[0]?.body).toBe(
      [
        '3 new jobs',
        '',
        'Engineer 1, Company 1 (Remote), remoteok, https://example.org/jobs/1',
        'Engineer 2, Company 2, remoteok, https://example.org/jobs/2',
        '+1 more',
        '',
      ].join('\n'),
    )
    expect(parts[1]?.body).toContain('<h2>3 new jobs</h2>')
    expect(parts[1]?.body).toContain(
      '<li><a href="https://example.org/jobs/1">Engineer 1</a>, Company 1 (Remote), remoteok</li>',
    )
    expect(parts[1]?.body).toContain('<p>+1 more</p>')
  })

  it('takes the sender from the from parameter and sends without login when the URL has no user', async () => {
    const smtp = await startSmtp()
    const url = `mailto://127.0.0.1:${smtp.port}?to=a@x.org&from=Job%20alerts%20%3Cjobs@x.org%3E`
    await channelFor(url, {logger: memoryLogger().logger}).send(digest, signal())
    expect(smtp.mails[0]?.from).toBe('jobs@x.org')
    expect(header(smtp.mails[0]?.raw ?? '', 'From')).toBe('Job alerts <jobs@x.org>')
  })

  it('fails, without repeating the password, when the server refuses the login', async () => {
    const smtp = await startSmtp({user: 'me', password: 'right'})
    const url = `mailto://me:wrong-secret@127.0.0.1:${smtp.port}?to=a@x.org`
    const sending = channelFor(url, {logger: memoryLogger().logger}).send(digest, signal())
    await expect(sending).rejects.toThrow(/Invalid login/)
    await sending.catch((error: Error) => expect(error.message).not.toContain('wrong-secret'))
    expect(smtp.mails).toEqual([])
  })

  it('speaks TLS from the first byte with mailtos:// (refusing a certificate it cannot trust)', async () => {
    const tls = selfSignedCertificate()
    const smtp = await startSmtp({secure: true, key: tls.key, cert: tls.cert, disabledCommands: []})
    const url = `mailtos://127.0.0.1:${smtp.port}?to=a@x.org`
    const notifier = channelFor(url, {logger: memoryLogger().logger, smtpTimeoutMs: 5000})
    await expect(notifier.send(digest, signal())).rejects.toThrow(/self[- ]signed certificate/)
    expect(smtp.mails).toEqual([])
  })
})
