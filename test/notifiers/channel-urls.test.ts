import {describe, expect, it} from 'vitest'
import {ConfigurationError} from '../../src/core/errors.js'
import {parseNotifierUrl} from '../../src/notifiers/channel-urls.js'

function refusal(url: string): ConfigurationError {
  try {
    parseNotifierUrl(url)
  } catch (error) {
    if (error instanceof ConfigurationError) return error
    throw error
  }
  throw new Error(`${url} was accepted`)
}

describe('parseNotifierUrl', () => {
  it.each([
    ['ntfy://my-jobs', {kind: 'ntfy', target: {endpoint: 'https://ntfy.sh/my-jobs'}}],
    [
      'ntfy://tk_abc@ntfy.lan:8080/jobs',
      {kind: 'ntfy', target: {endpoint: 'http://ntfy.lan:8080/jobs', authorization: 'Bearer tk_abc'}},
    ],
    ['ntfys://ntfy.example.org/jobs', {kind: 'ntfy', target: {endpoint: 'https://ntfy.example.org/jobs'}}],
    [
      'ntfys://al:pw@ntfy.example.org/jobs',
      {kind: 'ntfy', target: {endpoint: 'https://ntfy.example.org/jobs', authorization: `Basic ${btoa('al:pw')}`}},
    ],
    [
      'https://hooks.slack.com/services/T1/B2/xyz',
      {kind: 'slack', endpoint: 'https://hooks.slack.com/services/T1/B2/xyz'},
    ],
    ['slack+http://127.0.0.1:9000/services/T/B/X', {kind: 'slack', endpoint: 'http://127.0.0.1:9000/services/T/B/X'}],
    [
      'https://discord.com/api/webhooks/123/tok-en_1',
      {kind: 'discord', endpoint: 'https://discord.com/api/webhooks/123/tok-en_1'},
    ],
    [
      'https://discordapp.com/api/webhooks/123/token',
      {kind: 'discord', endpoint: 'https://discordapp.com/api/webhooks/123/token'},
    ],
    [
      'discord+http://127.0.0.1:9000/api/webhooks/1/t',
      {kind: 'discord', endpoint: 'http://127.0.0.1:9000/api/webhooks/1/t'},
    ],
    ['json://hooks.lan:8080/jobs?k=v', {kind: 'webhook', target: {endpoint: 'http://hooks.lan:8080/jobs?k=v'}}],
    ['jsons://hooks.example.org/jobs', {kind: 'webhook', target: {endpoint: 'https://hooks.example.org/jobs'}}],
    ['log://', {kind: 'log', name: 'log://'}],
  ])('understands %s', (url, expected) => {
    expect(parseNotifierUrl(url)).toMatchObject(expected)
  })

  it('reads an email URL: STARTTLS on 587 by default, the user as sender, every recipient', () => {
    expect(parseNotifierUrl('mailto://me%40x.org:p%40ss@smtp.x.org?to=a@x.org,b+jobs@y.org')).toMatchObject({
      kind: 'email',
      target: {
        host: 'smtp.x.org',
        port: 587,
        secure: false,
        user: 'me@x.org',
        password: 'p@ss',
        from: 'me@x.org',
        to: ['a@x.org', 'b+jobs@y.org'],
      },
    })
  })

  it('reads mailtos:// as implicit TLS on 465, with an explicit sender', () => {
    expect(parseNotifierUrl('mailtos://u:p@smtp.x.org?to=a@x.org&from=Jobs%20%3Cjobs@x.org%3E')).toMatchObject({
      kind: 'email',
      target: {port: 465, secure: true, from: 'Jobs <jobs@x.org>'},
    })
  })

  it('names each channel with its secrets masked', () => {
    expect(parseNotifierUrl('ntfy://tk_secret@ntfy.lan/jobs').name).toBe('ntfy://***@ntfy.lan/***')
    expect(parseNotifierUrl('ntfy://my-job-alerts').name).toBe('ntfy://***')
    expect(parseNotifierUrl('https://hooks.slack.com/services/T1/B2/xyz').name).toBe(
      'https://hooks.slack.com/services/***/***/***',
    )
    expect(parseNotifierUrl('mailto://me:pw@smtp.x.org?to=a@x.org').name).toBe('mailto://me:***@smtp.x.org?to=***')
  })

  it.each([
    ['ftp://x.org/jobs', 'unknown scheme "ftp"'],
    ['not a url', 'not a URL'],
    ['ntfy://', 'missing topic'],
    ['ntfy://ntfy.lan:8080', 'missing topic'],
    ['ntfy://host/bad topic!', 'the topic may only hold'],
    ['https://example.org/hook', 'not a Slack or Discord webhook'],
    ['http://example.org/hook', 'plain http is not a channel'],
    ['https://hooks.slack.com/services/T1', 'a Slack webhook URL looks like'],
    ['https://discord.com/api/webhooks/abc', 'a Discord webhook URL looks like'],
    ['slack+http://127.0.0.1:9000/', 'missing the webhook path'],
    ['mailto://u:p@smtp.x.org', 'missing "to"'],
    ['mailto://u:p@smtp.x.org?to=nobody', '"nobody" in "to" is not an email address'],
    ['mailto://u:p@smtp.x.org?to=a@x.org&cc=b@x.org', 'unknown parameter "cc"'],
    ['json:///jobs', 'missing host'],
  ])('refuses %s with the reason', (url, reason) => {
    const error = refusal(url)
    expect(error.message).toContain(reason)
    expect(error.message).toMatch(/^invalid notification URL /)
    expect(error.hint).toContain('ntfy://my-topic')
  })

  it('never repeats a secret of the refused URL', () => {
    const error = refusal('mailto://me:hunter2@smtp.x.org?to=a@x.org&bcc=z@x.org')
    expect(`${error.message} ${JSON.stringify(error.details)}`).not.toContain('hunter2')
  })
})
