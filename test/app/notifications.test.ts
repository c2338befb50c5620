import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {ConfigEditor} from '../../src/app/config-editor.js'
import {AppContext} from '../../src/app/context.js'
import {ConfigurationError} from '../../src/core/errors.js'
import {buildDigest} from '../../src/core/notifications/digest.js'
import {tempDir} from '../helpers/cli.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {jobs, signal} from '../notifiers/fixtures.js'

let home: ReturnType<typeof tempDir>

beforeEach(() => {
  home = tempDir('jobagent-notifications-')
})

afterEach(() => {
  home.cleanup()
})

describe('the context’s notification service', () => {
  it('is built from the configured channel URLs', async () => {
    const log = memoryLogger()
    const context = new AppContext({
      env: {JOBAGENT_HOME: home.path, JOBAGENT_NOTIFY_URLS: 'log://'},
      logger: log.logger,
    })
    const notifications = await context.openNotifications()
    expect(notifications.channels).toEqual(['log://'])
    const report = await notifications.deliver(buildDigest(jobs(1), {maxItems: 20}), signal())
    expect(report.delivered).toBe(true)
    expect(log.parsed()[0]).toMatchObject({name: 'jobagent.notify.log', message: '1 new job'})
    await context.close()
  })

  it('refuses an invalid configured channel before anything is sent', async () => {
    const context = new AppContext({env: {JOBAGENT_HOME: home.path, JOBAGENT_NOTIFY_URLS: 'log://,ntfy://'}})
    await expect(context.openNotifications()).rejects.toThrow(ConfigurationError)
    await expect(context.openNotifications()).rejects.toThrow('invalid notification URL ntfy://: missing topic')
    await context.close()
  })

  it('has no channels, and delivers nothing, when none is configured', async () => {
    const context = new AppContext({env: {JOBAGENT_HOME: home.path}})
    expect(await (await context.openNotifications()).deliver(buildDigest(jobs(1), {maxItems: 20}), signal())).toEqual({
      delivered: false,
      channels: [],
    })
    await context.close()
  })
})

describe('config set of notification channels', () => {
  const editor = () => new ConfigEditor({JOBAGENT_HOME: home.path})

  it('stores valid channel URLs', () => {
    editor().set('notify.urls', '["log://","ntfy://my-jobs"]')
    expect(JSON.parse(readFileSync(join(home.path, 'config.json'), 'utf8'))).toEqual({
      notify: {urls: ['log://', 'ntfy://my-jobs']},
    })
  })

  it.each([
    ['notify.urls', '["https://example.org/hook"]', 'not a Slack or Discord webhook'],
    ['notify', '{"urls": ["ftp://x.org"], "max_items": 5}', 'unknown scheme "ftp"'],
  ])('refuses %s %s with the reason, leaving the file as it was', (key, value, reason) => {
    editor().set('notify.max_items', '7')
    expect(() => editor().set(key, value)).toThrow(reason)
    expect(JSON.parse(readFileSync(join(home.path, 'config.json'), 'utf8'))).toEqual({notify: {max_items: 7}})
  })
})
