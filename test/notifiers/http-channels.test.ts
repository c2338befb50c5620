import {Agent, MockAgent} from 'undici'
import {afterEach, describe, expect, it} from 'vitest'
import {buildDigest} from '../../src/core/notifications/digest.js'
import {HttpTransport} from '../../src/notifiers/transport.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {channelFor} from '../helpers/notifiers.js'
import {FAST, jobs, signal} from './fixtures.js'
import {type Receiver, selfSignedCertificate, startReceiver} from './receiver.js'

const digest = buildDigest(jobs(2), {maxItems: 20})
const LINES = [
  'Engineer 1, Company 1 (Remote), remoteok, https://example.org/jobs/1',
  'Engineer 2, Company 2, remoteok, https://example.org/jobs/2',
]

let receiver: Receiver | undefined
let tlsCertificate: {key: string; cert: string} | undefined
/** Made once, on first use, by openssl. */
const certificate = () => {
  tlsCertificate ??= selfSignedCertificate()
  return tlsCertificate
}
afterEach(async () => {
  await receiver?.close()
  receiver = undefined
})

function notifierFor(url: string, dispatcher?: Agent | MockAgent) {
  const {logger} = memoryLogger()
  return channelFor(url, {logger, http: new HttpTransport({policy: FAST, ...(dispatcher ? {dispatcher} : {})})})
}

/** Undici's mock agent stands in for the public servers (ntfy.sh, Slack, Discord): nothing leaves the machine. */
function publicServer(origin: string, path: string, status = 200) {
  const agent = new MockAgent()
  agent.disableNetConnect()
  const seen: {headers: Record<string, string>; body: string}[] = []
  agent
    .get(origin)
    .intercept({path, method: 'POST'})
    .reply(status, (options) => {
      seen.push({headers: options.headers as Record<string, string>, body: String(options.body)})
      return status === 204 ? '' : 'ok'
    })
  return {agent, seen}
}

describe('ntfy channel', () => {
  it('posts the jobs to the topic with title, tags, click link and the token', async () => {
    receiver = await startReceiver(() => ({status: 200, body: '{"id":"x"}'}))
    await notifierFor(`ntfy://tk_secret@127.0.0.1:${receiver.port}/jobs`).send(digest, signal())
    const [request] = receiver.requests
    expect(request).toMatchObject({
      method: 'POST',
      url: '/jobs',
      headers: {
        title: '2 new jobs',
        tags: 'briefcase',
        click: 'https://example.org/jobs/1',
        authorization: 'Bearer tk_secret',
        'content-type': 'text/plain; charset=utf-8',
        'user-agent': expect.stringMatching(/^jobagent\b/),
      },
      body: LINES.join('\n'),
    })
    expect(receiver.requests).toHaveLength(1)
  })

  it('speaks https with ntfys:// and sends user and password as basic auth', async () => {
    const tls = certificate()
    receiver = await startReceiver(() => ({status: 200}), tls)
    const dispatcher = new Agent({connect: {ca: tls.cert}})
    await notifierFor(`ntfys://alice:s3cret@127.0.0.1:${receiver.port}/jobs`, dispatcher).send(digest, signal())
    expect(receiver.requests[0]).toMatchObject({
      url: '/jobs',
      headers: {authorization: `Basic ${Buffer.from('alice:s3cret').toString('base64')}`, title: '2 new jobs'},
      body: LINES.join('\n'),
    })
    await dispatcher.close()
  })

  it('publishes ntfy://topic to the public server ntfy.sh', async () => {
    const {agent, seen} = publicServer('https://ntfy.sh', '/my-jobs')
    await notifierFor('ntfy://my-jobs', agent).send(digest, signal())
    expect(seen).toEqual([{headers: expect.objectContaining({title: '2 new jobs'}), body: LINES.join('\n')}])
    await agent.close()
  })

  it('keeps the message within ntfy’s 4,096 bytes by listing fewer jobs', async () => {
    receiver = await startReceiver()
    const many = buildDigest(jobs(200), {maxItems: 200})
    await notifierFor(`ntfy://127.0.0.1:${receiver.port}/jobs`).send(many, signal())
    const body = receiver.requests[0]?.body ?? ''
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(4096)
    const shown = body.split('\n').length - 1
    expect(body.endsWith(`\n+${200 - shown} more`)).toBe(true)
  })
})

describe('Slack channel', () => {
  it('posts mrkdwn text with linked job titles', async () => {
    receiver = await startReceiver(() => ({status: 200, body: 'ok'}))
    await notifierFor(`slack+http://127.0.0.1:${receiver.port}/services/T1/B2/secret`).send(digest, signal())
    const [request] = receiver.requests
    expect(request).toMatchObject({
      method: 'POST',
      url: '/services/T1/B2/secret',
      headers: {'content-type': 'application/json'},
    })
    expect(JSON.parse(request?.body ?? '')).toEqual({
      text: [
        '*2 new jobs*',
        '• <https://example.org/jobs/1|Engineer 1>, Company 1 (Remote), remoteok',
        '• <https://example.org/jobs/2|Engineer 2>, Company 2, remoteok',
      ].join('\n'),
      unfurl_links: false,
      unfurl_media: false,
    })
  })

  it('posts to the native hooks.slack.com URL as given', async () => {
    const {agent, seen} = publicServer('https://hooks.slack.com', '/services/T1/B2/secret')
    await notifierFor('https://hooks.slack.com/services/T1/B2/secret', agent).send(digest, signal())
    expect(JSON.parse(seen[0]?.body ?? '{}').text).toContain('*2 new jobs*')
    await agent.close()
  })
})

describe('Discord channel', () => {
  it('posts Markdown content that can mention nobody and takes 204 as success', async () => {
    receiver = await startReceiver(() => ({status: 204}))
    await notifierFor(`discord+http://127.0.0.1:${receiver.port}/api/webhooks/1/tok`).send(digest, signal())
    const [request] = receiver.requests
    expect(request).toMatchObject({
      method: 'POST',
      url: '/api/webhooks/1/tok',
      headers: {'content-type': 'application/json'},
    })
    expect(JSON.parse(request?.body ?? '')).toEqual({
      content: [
        '**2 new jobs**',
        '- [Engineer 1](<https://example.org/jobs/1>), Company 1 (Remote), remoteok',
        '- [Engineer 2](<https://example.org/jobs/2>), Company 2, remoteok',
      ].join('\n'),
      allowed_mentions: {parse: []},
    })
  })

  it('stays within 2,000 characters by dropping whole lines into "+N more"', async () => {
    receiver = await startReceiver(() => ({status: 204}))
    const many = buildDigest(
      jobs(120).map((item) => ({...item, title: `${item.title} ${'x'.repeat(60)}`})),
      {maxItems: 100},
    )
    await notifierFor(`discord+http://127.0.0.1:${receiver.port}/api/webhooks/1/tok`).send(many, signal())
    const {content} = JSON.parse(receiver.requests[0]?.body ?? '') as {content: string}
    expect(content.length).toBeLessThanOrEqual(2000)
    const lines = content.split('\n')
    const listed = lines.filter((line) => line.startsWith('- ['))
    expect(listed.every((line) => line.endsWith(', remoteok'))).toBe(true)
    expect(lines.at(-1)).toBe(`+${120 - listed.length} more`)
  })

  it('posts to the native discord.com URL as given', async () => {
    const {agent, seen} = publicServer('https://discord.com', '/api/webhooks/123/tok', 204)
    await notifierFor('https://discord.com/api/webhooks/123/tok', agent).send(digest, signal())
    expect(JSON.parse(seen[0]?.body ?? '{}').content).toContain('**2 new jobs**')
    await agent.close()
  })
})

describe('generic JSON webhook', () => {
  it('posts {title, message, type, jobs} with basic auth from the URL', async () => {
    receiver = await startReceiver(() => ({status: 202}))
    await notifierFor(`json://bot:pw@127.0.0.1:${receiver.port}/hooks/jobs?source=jobagent`).send(digest, signal())
    const [request] = receiver.requests
    expect(request).toMatchObject({
      method: 'POST',
      url: '/hooks/jobs?source=jobagent',
      headers: {'content-type': 'application/json', authorization: `Basic ${Buffer.from('bot:pw').toString('base64')}`},
    })
    expect(JSON.parse(request?.body ?? '')).toEqual({
      title: '2 new jobs',
      message: LINES.join('\n'),
      type: 'new_jobs',
      // Every JobResponse field but the description.
      jobs: jobs(2).map(({description: _description, ...job}) => job),
    })
  })

  it('speaks https with jsons://', async () => {
    const tls = certificate()
    receiver = await startReceiver(() => ({status: 200}), tls)
    const dispatcher = new Agent({connect: {ca: tls.cert}})
    await notifierFor(`jsons://127.0.0.1:${receiver.port}/jobs`, dispatcher).send(digest, signal())
    expect(JSON.parse(receiver.requests[0]?.body ?? '').title).toBe('2 new jobs')
    await dispatcher.close()
  })
})

describe('log channel', () => {
  it('writes the title and one INFO line per job to jobagent.notify.log', async () => {
    const log = memoryLogger()
    await channelFor('log://', {logger: log.logger}).send(buildDigest(jobs(3), {maxItems: 2}), signal())
    expect(log.parsed().map(({level, name, message}) => `${level} ${name} ${message}`)).toEqual([
      'INFO jobagent.notify.log 3 new jobs',
      `INFO jobagent.notify.log ${LINES[0]}`,
      `INFO jobagent.notify.log ${LINES[1]}`,
      'INFO jobagent.notify.log +1 more',
    ])
  })
})
