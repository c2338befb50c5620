import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'
import {type Receiver, startReceiver} from '../notifiers/receiver.js'

let home: ReturnType<typeof tempDir>
let receiver: Receiver | undefined
const cli = (args: string[], env: Record<string, string> = {}) => runCommandLine(args, {home: home.path, env})

beforeEach(() => {
  home = tempDir('jobagent-e2e-notify-')
})

afterEach(async () => {
  await receiver?.close()
  receiver = undefined
  home.cleanup()
})

describe('jobagent notify test', () => {
  it('sends a test message to the given channel and reports it', async () => {
    const result = await cli(['notify', 'test', 'log://'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^ok {6}log:\/\/ \(\d+ ms\)\nAll 1 channel\(s\) accepted the test message\.\n$/)
    expect(result.stderr).toContain('| INFO | jobagent.notify.log | jobagent test notification')
  })

  it('tests the configured channels, masked, and exits 1 when one fails', async () => {
    receiver = await startReceiver((request) =>
      request.url.startsWith('/services/') ? {status: 404, body: 'no_service'} : {status: 200},
    )
    const urls = [
      `slack+http://127.0.0.1:${receiver.port}/services/T1/B2/topsecret`,
      `ntfy://127.0.0.1:${receiver.port}/jobs`,
    ]
    const result = await cli(['notify', 'test', '--json'], {JOBAGENT_NOTIFY_URLS: urls.join(',')})
    expect(result.code, result.stderr).toBe(1)
    expect(JSON.parse(result.stdout)).toEqual({
      delivered: true,
      channels: [
        {
          channel: `slack+http://127.0.0.1:${receiver.port}/services/***/***/***`,
          ok: false,
          error: 'HTTP 404 Not Found: no_service',
          duration_ms: expect.any(Number),
        },
        {channel: `ntfy://127.0.0.1:${receiver.port}/***`, ok: true, error: null, duration_ms: expect.any(Number)},
      ],
    })
    expect(result.stderr).toContain('| WARNING | jobagent.notify | slack+http://')
    expect(`${result.stdout}${result.stderr}`).not.toContain('topsecret')
    expect(receiver.requests.map((request) => request.url)).toEqual(
      expect.arrayContaining(['/services/T1/B2/topsecret', '/jobs']),
    )
  })

  it('exits 2 with the reason for an invalid channel URL', async () => {
    const result = await cli(['notify', 'test', 'ntfy://'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('invalid notification URL ntfy://: missing topic')
  })

  it('exits 2 with a hint when no channel is configured', async () => {
    const result = await cli(['notify', 'test'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('no notification channel is configured')
    expect(result.stderr).toContain('Hint: add one with: jobagent config set notify.urls')
  })
})

describe('jobagent config set notify.urls', () => {
  it('refuses an invalid channel URL with the reason and writes nothing', async () => {
    const result = await cli(['config', 'set', 'notify.urls', '["mailto://me:pw@smtp.x.org"]'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('invalid notification URL mailto://me:***@smtp.x.org: missing "to"')
    expect(result.stderr).not.toContain(':pw@')
    expect(existsSync(join(home.path, 'config.json'))).toBe(false)
  })
})
