import type {DigestSender} from '../core/jobs/agent-run.js'
import type {JobSource} from '../core/jobs/job-source.js'
import {buildDigest} from '../core/notifications/digest.js'
import {createHttpClient} from '../http-client/index.js'
import {createSources} from '../sources/index.js'
import type {AppContext} from './context.js'

/** The configured boards over one shared HTTP client (proxy, retries, per-host limit); returns how to close it. */
export function createJobSources(context: AppContext): {sources: JobSource[]; close: () => Promise<void>} {
  const logger = context.logger
  const http = createHttpClient({logger: logger.child('http'), proxy: context.boardsViaProxy})
  return {sources: createSources(context.config.sources, {http, logger}), close: () => http.close()}
}

/** The notification service seen through the run's port: digest built with notify.max_items. */
export async function createDigestSender(context: AppContext): Promise<DigestSender> {
  const service = await context.openNotifications()
  return {
    channelCount: context.config.notify.urls.length,
    buildDigest: (jobs) => buildDigest([...jobs], {maxItems: context.config.notify.max_items, type: 'new_jobs'}),
    deliver: (digest, signal) => service.deliver(digest, signal),
  }
}
