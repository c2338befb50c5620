import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {tempDir} from '../helpers/cli.js'
import {type MockServer, serveBody, startMockServer} from '../helpers/mock-board.js'
import {runCommandLine} from '../helpers/run-command.js'
import {fixtureText} from '../helpers/source-fixtures.js'
import {type Receiver, startReceiver} from '../notifiers/receiver.js'

let board: MockServer
let home: {path: string; cleanup: () => void}
const receivers: Receiver[] = []

beforeAll(async () => {
  board = await startMockServer({'/api': serveBody(fixtureText('remoteok.json'))})
})
afterAll(() => board.close())
beforeEach(() => {
  home = tempDir()
  writeFileSync(join(home.path, 'config.json'), JSON.stringify({sources: [{type: 'remoteok', url: board.url}]}))
})
afterEach(async () => {
  home.cleanup()
  for (const receiver of receivers.splice(0)) await receiver.close()
})

async function receiver(status: number) {
  const started = await startReceiver(() => ({status, body: status < 300 ? 'ok' : 'nope'}))
  receivers.push(started)
  return started
}
const jobagent = (args: string[]) => runCommandLine(args, {home: home.path})
const notifiedCount = () => {
  const db = new Database(join(home.path, 'jobagent.db'), {readonly: true})
  const {n} = db.prepare('SELECT count(*) AS n FROM jobs WHERE notified_at IS NOT NULL').get() as {n: number}
  db.close()
  return n
}

describe('jobagent run notifies about new jobs once', () => {
  it('sends one digest to the webhook, and nothing on the next run unless --renotify', async () => {
    const hook = await receiver(200)
    const url = `json://127.0.0.1:${hook.port}/hooks/s3cr3t-token`
    const first = await jobagent(['run', '--notify', url])
    expect(first.code).toBe(0)
    expect(hook.requests).toHaveLength(1)
    const digest = JSON.parse(hook.requests[0]?.body ?? '{}')
    expect(digest).toMatchObject({title: '13 new jobs', type: 'new_jobs'})
    expect(digest.jobs).toHaveLength(13)
    expect(notifiedCount()).toBe(13)

    const second = await jobagent(['run', '--notify', url])
    expect(hook.requests).toHaveLength(1)
    expect(second.stderr).toContain('no new jobs to notify (all notified before)')

    await jobagent(['run', '--notify', url, '--renotify'])
    expect(hook.requests).toHaveLength(2)
    for (const result of [first, second]) expect(result.stderr).not.toContain('s3cr3t-token')
  })

  it('sends nothing and marks nothing with --dry-run', async () => {
    const hook = await receiver(200)
    const result = await jobagent(['run', '--dry-run', '--notify', `json://127.0.0.1:${hook.port}/hook`])
    expect(result.code).toBe(0)
    expect(hook.requests).toHaveLength(0)
    expect(notifiedCount()).toBe(0)
  })

  it('still delivers through the channel that works when another fails, with a WARNING naming the failed one', async () => {
    const good = await receiver(200)
    const bad = await receiver(400)
    const result = await jobagent([
      'run',
      '--notify',
      `json://127.0.0.1:${bad.port}/bad/hidden-secret`,
      '--notify',
      `json://127.0.0.1:${good.port}/good`,
    ])
    expect(result.code).toBe(0)
    expect(good.requests).toHaveLength(1)
    expect(result.stderr).toMatch(/WARNING \| jobagent\.notify \| .*127\.0\.0\.1/)
    expect(result.stderr).not.toContain('hidden-secret')
    expect(notifiedCount()).toBe(13)
  })

  it('exits 1 and leaves the jobs unnotified when every channel fails', async () => {
    const bad = await receiver(400)
    const result = await jobagent(['run', '--notify', `json://127.0.0.1:${bad.port}/hook`])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('every channel failed')
    expect(notifiedCount()).toBe(0)
  })

  it('refuses an invalid channel URL with exit 2 before searching', async () => {
    const requestsBefore = board.requests.length
    const result = await jobagent(['run', '--notify', 'ntfy://'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('invalid notification URL')
    expect(board.requests.length).toBe(requestsBefore)
  })
})
