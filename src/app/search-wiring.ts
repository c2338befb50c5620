import {JobSearch} from '../core/jobs/job-search.js'
import type {SourceConfig} from '../core/jobs/source-config.js'
import type {Logger} from '../core/logger.js'
import {buildDigest} from '../core/notifications/digest.js'
import type {NotificationService} from '../core/notifications/notification-service.js'
import type {DigestSender} from '../core/run/agent-run.js'
import type {SecretMask} from '../core/secrets.js'
import type {Clock} from '../core/time.js'
import {createHttpClient} from '../http-client/index.js'
import {createSources} from '../sources/index.js'
import type {SqliteDatabase} from '../storage/sqlite/database.js'
import {SqliteDescriptionCache} from '../storage/sqlite/sqlite-description-cache.js'
import type {SqliteJobStore} from '../storage/sqlite/sqlite-job-store.js'
import {USER_AGENT} from './version.js'

/**
 * The configured boards searched concurrently over one shared HTTP client (proxy, retries, per-host limit),
 * reading descriptions through the tracker's cache of earlier reads, whose new pairs are stored with the next run
 * the job store saves; `close` releases the client's connections.
 */
export function createJobSearch(
  sources: readonly SourceConfig[],
  options: {
    logger: Logger
    viaProxy: boolean
    clock: Clock
    secrets: SecretMask
    tracker: {db: SqliteDatabase; file: string; jobs: SqliteJobStore}
  },
): {search: JobSearch; close: () => Promise<void>} {
  const {logger, tracker} = options
  const http = createHttpClient({
    logger: logger.child('http'),
    proxy: options.viaProxy,
    userAgent: USER_AGENT,
    secrets: options.secrets,
  })
  const cache = new SqliteDescriptionCache(tracker.db, tracker.file, logger.child('descriptions'))
  tracker.jobs.writeWithEachRun(cache.writePending)
  return {
    search: new JobSearch(createSources(sources, {http, logger, toText: cache.toText}), logger, options.clock),
    close: () => http.close(),
  }
}

/** The notification service seen through the run's port: digest built with notify.max_items. */
export function createDigestSender(
  service: NotificationService,
  notify: {urls: readonly string[]; max_items: number},
): DigestSender {
  return {
    channelCount: notify.urls.length,
    maxItems: notify.max_items,
    buildDigest: (jobs, followUps) => buildDigest([...jobs], {maxItems: notify.max_items, type: 'new_jobs', followUps}),
    deliver: (digest, signal) => service.deliver(digest, signal),
  }
}
