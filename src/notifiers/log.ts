import type {Logger} from '../core/logger.js'
import {moreLine} from '../core/notifications/digest.js'
import type {Digest, Notifier} from '../core/notifications/notifier.js'

/** `log://`: the digest as INFO lines of `jobagent.notify.log`, for cron mail and for trying things out. */
export class LogNotifier implements Notifier {
  readonly name = 'log://'
  private readonly logger: Logger

  constructor(logger: Logger) {
    this.logger = logger.child('notify.log')
  }

  async send(digest: Digest): Promise<void> {
    this.logger.info(digest.title)
    for (const line of digest.lines) this.logger.info(line)
    if (digest.more > 0) this.logger.info(moreLine(digest.more))
    for (const line of digest.followUps) this.logger.info(line)
  }
}
