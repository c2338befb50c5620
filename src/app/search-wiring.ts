import type {DigestSender} from '../core/jobs/agent-run.js'
import {JobSearch} from '../core/jobs/job-search.js'
import type {SourceConfig} from '../core/jobs/source-config.js'
import type {Logger} from '../core/logger.js'
import {buildDigest} from '../core/notifications/digest.js'
import type {NotificationService} from '../core/notifications/notification-service.js'
import {createHttpClient} from '../http-client/index.js'
import {createSources} from '../sources/index.js'
import {USER_AGENT} from './version.js'

/**
 * The configured boards searched concurrently over one shared HTTP client (proxy, retries, per-host limit);
 * `close` releases the client's connections.
 */
export function createJobSearch(
  sources: readonly SourceConfig[],
  options: {logger: Logger; viaProxy: boolean},
): {search: JobSearch; close: () => Promise<void>} {
  const {logger} = options
  const http = createHttpClient({logger: logger.child('http'), proxy: options.viaProxy, userAgent: USER_AGENT})
  return {search: new JobSearch(createSources(sources, {http, logger}), logger), close: () => http.close()}
}

/** The notification service seen through the run's port: digest built with notify.max_items. */
export function createDigestSender(
  service: NotificationService,
  notify: {urls: readonly string[]; max_items: number},
): DigestSender {
  return {
    channelCount: notify.urls.length,
    buildDigest: (jobs, followUps) => buildDigest([...jobs], {maxItems: notify.max_items, type: 'new_jobs', followUps}),
    deliver: (digest, signal) => service.deliver(digest, signal),
  }
}
