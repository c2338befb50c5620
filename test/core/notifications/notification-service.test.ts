import {describe, expect, it} from 'vitest'
import {buildTestDigest} from '../../../src/core/notifications/digest.js'
import {NotificationService} from '../../../src/core/notifications/notification-service.js'
import type {Digest, Notifier} from '../../../src/core/notifications/notifier.js'
import {memoryLogger} from '../../helpers/memory-log.js'

function channel(name: string, outcome: 'ok' | Error, received: Digest[] = []): Notifier {
  return {
    name,
    async send(digest) {
      if (outcome instanceof Error) throw outcome
      received.push(digest)
    },
  }
}

const signal = () => new AbortController().signal

describe('notification service', () => {
  it('reports delivered when every channel accepts the digest', async () => {
    const received: Digest[] = []
    const {logger} = memoryLogger()
    const service = new NotificationService(
      [channel('log://', 'ok', received), channel('ntfy://a', 'ok', received)],
      logger,
    )
    const report = await service.deliver(buildTestDigest(), signal())
    expect(report.delivered).toBe(true)
    expect(report.channels.map(({channel, ok, error}) => ({channel, ok, error}))).toEqual([
      {channel: 'log://', ok: true, error: null},
      {channel: 'ntfy://a', ok: true, error: null},
    ])
    expect(received).toHaveLength(2)
  })

  it('still delivers to the others when one channel fails, and warns naming it', async () => {
    const received: Digest[] = []
    const {logger, parsed} = memoryLogger()
    const service = new NotificationService(
      [
        channel('json://hooks.example.org/***', new Error('HTTP 500 Internal Server Error')),
        channel('log://', 'ok', received),
      ],
      logger,
    )
    const report = await service.deliver(buildTestDigest(), signal())
    expect(report.delivered).toBe(true)
    expect(received).toHaveLength(1)
    expect(report.channels[0]).toMatchObject({ok: false, error: 'HTTP 500 Internal Server Error'})
    const warnings = parsed().filter((line) => line.level === 'WARNING')
    expect(warnings).toEqual([
      expect.objectContaining({
        name: 'jobagent.notify',
        message: 'json://hooks.example.org/*** failed: HTTP 500 Internal Server Error',
      }),
    ])
  })

  it('reports not delivered when every channel fails', async () => {
    const {logger} = memoryLogger()
    const service = new NotificationService(
      [channel('a://x', new Error('down')), channel('b://y', new Error('down'))],
      logger,
    )
    const report = await service.deliver(buildTestDigest(), signal())
    expect(report.delivered).toBe(false)
    expect(report.channels.every((result) => !result.ok && result.duration_ms >= 0)).toBe(true)
  })

  it('reports not delivered, with no channels, when none is configured', async () => {
    const {logger, lines} = memoryLogger()
    const report = await new NotificationService([], logger).deliver(buildTestDigest(), signal())
    expect(report).toEqual({delivered: false, channels: []})
    expect(lines).toEqual([])
  })

  it('masks a URL quoted in an error before it reaches the log or the report', async () => {
    const {logger, lines} = memoryLogger()
    const failure = new Error('cannot reach https://hooks.slack.com/services/T1/B2/s3cr3tt0ken?token=abc')
    const service = new NotificationService([channel('https://hooks.slack.com/services/***/***/***', failure)], logger)
    const report = await service.deliver(buildTestDigest(), signal())
    expect(report.channels[0]?.error).toBe('cannot reach https://hooks.slack.com/services/***/***/***?token=***')
    expect(lines.join('\n')).not.toMatch(/s3cr3tt0ken|token=abc/)
  })

  it('sends to all channels at once rather than one after the other', async () => {
    const {logger} = memoryLogger()
    let inFlight = 0
    let most = 0
    const slow: Notifier = {
      name: 'slow://',
      async send() {
        inFlight++
        most = Math.max(most, inFlight)
        await new Promise((resolve) => setTimeout(resolve, 50))
        inFlight--
      },
    }
    await new NotificationService([slow, slow, slow], logger).deliver(buildTestDigest(), signal())
    expect(most).toBe(3)
  })
})
