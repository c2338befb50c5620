import type {Logger} from '../logger.js'
import {maskUrl} from '../secrets.js'
import type {Digest, Notifier} from './notifier.js'

interface ChannelResult {
  /** The channel URL with its secrets masked. */
  channel: string
  ok: boolean
  error: string | null
  duration_ms: number
}

export interface DeliveryReport {
  /** At least one channel accepted the digest (the run marks the jobs notified only then). */
  delivered: boolean
  channels: ChannelResult[]
}

/**
 * A URL in an error message, wherever it starts. No scheme is longer than 32 characters, and the bound keeps a long
 * run of scheme characters without `://` from being read again from each of its characters.
 */
const URL_IN_MESSAGE = /[a-z][a-z0-9+.-]{0,31}:\/\/[^\s"'<>]+/gi

/** Any URL quoted in an error message (a driver's, a server's) is masked before it reaches a log or a report. */
function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(URL_IN_MESSAGE, (url) => maskUrl(url)) || 'unknown error'
}

/** Sends a digest to every configured channel at once; one channel failing never keeps the others from it. */
export class NotificationService {
  private readonly logger: Logger

  constructor(
    private readonly notifiers: readonly Notifier[],
    logger: Logger,
  ) {
    this.logger = logger.child('notify')
  }

  /** The configured channels, masked. */
  get channels(): string[] {
    return this.notifiers.map((notifier) => notifier.name)
  }

  async deliver(digest: Digest, signal: AbortSignal): Promise<DeliveryReport> {
    const channels = await Promise.all(this.notifiers.map((notifier) => this.sendOne(notifier, digest, signal)))
    return {delivered: channels.some((result) => result.ok), channels}
  }

  private async sendOne(notifier: Notifier, digest: Digest, signal: AbortSignal): Promise<ChannelResult> {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    try {
      await notifier.send(digest, signal)
      const result = {channel: notifier.name, ok: true, error: null, duration_ms: elapsed()}
      this.logger.debug(`${notifier.name} accepted "${digest.title}" (${result.duration_ms} ms)`)
      return result
    } catch (error) {
      const reason = describeFailure(error)
      this.logger.warning(`${notifier.name} failed: ${reason}`)
      return {channel: notifier.name, ok: false, error: reason, duration_ms: elapsed()}
    }
  }
}
