import {setTimeout as delay} from 'node:timers/promises'
import {JobSearch} from '../core/jobs/job-search.js'
import type {JobSource} from '../core/jobs/job-source.js'
import {boardListKey, type SourceConfig, validateSourceConfigs} from '../core/jobs/source-config.js'
import type {Logger} from '../core/logger.js'
import {buildDigest} from '../core/notifications/digest.js'
import type {NotificationService} from '../core/notifications/notification-service.js'
import type {DigestSender} from '../core/run/agent-run.js'
import type {SecretMask} from '../core/secrets.js'
import type {Clock} from '../core/time.js'
import {createHttpClient, type HttpClient} from '../http-client/index.js'
import {sweepReader} from '../sources/board-sweep.js'
import {createSources} from '../sources/index.js'
import {boardAdapter} from '../sources/registry.js'
import {boardRef} from '../sources/shared.js'
import type {SqliteDatabase} from '../storage/sqlite/database.js'
import {SqliteDescriptionCache} from '../storage/sqlite/sqlite-description-cache.js'
import type {SqliteJobStore} from '../storage/sqlite/sqlite-job-store.js'
import {SqliteRunBoardStore} from '../storage/sqlite/sqlite-run-board-store.js'
import {boardSetSource, boardSources} from './board-set-source.js'
import {readBoardsFile} from './boards-file.js'
import {PoliteBoards, type PoliteLimits} from './polite-boards.js'
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
    /** Where a relative `boards_file` starts: the config file's folder. */
    configFile: string
    /** The sweep's limits, which the boards of every `boards_file` entry are asked within. */
    limits: PoliteLimits
  },
): {search: JobSearch; close: () => Promise<void>} {
  const {logger, tracker} = options
  const client = (retries?: number) =>
    createHttpClient({
      logger: logger.child('http'),
      proxy: options.viaProxy,
      userAgent: USER_AGENT,
      secrets: options.secrets,
      ...(retries === undefined ? {} : {retries, concurrencyPerHost: options.limits.concurrency}),
    })
  const http = client()
  const cache = new SqliteDescriptionCache(tracker.db, tracker.file, logger.child('descriptions'))
  tracker.jobs.writeWithEachRun(cache.writePending)
  validateSourceConfigs(sources)
  // The boards of every ATS entry, named in it or in its file, are asked as a sweep asks them: through one
  // PoliteBoards (Retry-After waited out per platform, not by the client) and with the validators of each board's
  // last answer, so 300 unchanged boards cost 300 conditional requests and no parsing.
  const many = sources.filter((config) => boardListKey(config.type) !== undefined && config.enabled !== false)
  const setsHttp = many.length > 0 ? client(0) : undefined
  const polite = setsHttp
    ? new PoliteBoards(options.limits, (ms, signal) => delay(ms, undefined, {signal}), logger.child('sources'))
    : undefined
  const sets =
    setsHttp && polite ? boardSets(many, setsHttp, polite, cache.toText, options) : new Map<SourceConfig, JobSource[]>()
  // In the order of `sources`, as the run logs and reports them; the list is checked as a whole above.
  const ordered = sources.flatMap(
    (config) => sets.get(config) ?? createSources([config], {http, logger, toText: cache.toText}),
  )
  return {
    search: new JobSearch(ordered, logger, options.clock),
    close: async () => {
      // A back-off still running when the run is done holds the process open no longer.
      polite?.endPauses()
      await Promise.all([http.close(), setsHttp?.close()])
    },
  }
}

function searchesByTag(type: string): boolean {
  const adapter = boardAdapter(type)
  return adapter?.list !== undefined && adapter.spec?.searchesByTag === true
}

/**
 * The sources of each ATS entry: one for an entry with `boards_file` (its file read; a bad file is a
 * ConfigurationError naming it), one per board for the boards an entry names in itself.
 */
function boardSets(
  configs: readonly SourceConfig[],
  http: HttpClient,
  polite: PoliteBoards,
  toText: SqliteDescriptionCache['toText'],
  options: Parameters<typeof createJobSearch>[1],
): Map<SourceConfig, JobSource[]> {
  const {logger, tracker} = options
  const store = new SqliteRunBoardStore(tracker.db, tracker.file, logger.child('run-boards'))
  tracker.jobs.writeWithEachRun(store.writePending)
  const sets = new Map<SourceConfig, JobSource[]>()
  for (const config of configs) {
    const reader = sweepReader(config.type, {http, logger: logger.child(`sources.${config.type}`), toText}, 'run')
    const listKey = boardListKey(config.type)
    if (!reader || !listKey) continue
    const deps = {polite, reader, store, clock: options.clock, logger, searchesByTag: searchesByTag(config.type)}
    sets.set(
      config,
      config.boards_file === undefined
        ? boardSources(config, (config[listKey] ?? []).map(boardRef), deps)
        : [boardSetSource(config, readBoardsFile(config, options.configFile), deps)],
    )
  }
  return sets
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
