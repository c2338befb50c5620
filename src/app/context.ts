import {ApplicationService} from '../core/applications/application-service.js'
import type {DigestSender} from '../core/jobs/agent-run.js'
import {JobCatalog} from '../core/jobs/job-catalog.js'
import type {JobSearch} from '../core/jobs/job-search.js'
import {RunLedger} from '../core/jobs/run-ledger.js'
import type {Logger} from '../core/logger.js'
import {silentLogger} from '../core/logger.js'
import type {NotificationService} from '../core/notifications/notification-service.js'
import type {ShipmentService} from '../core/shipments/shipment-service.js'
import {openSqlite, type SqliteDatabase} from '../storage/sqlite/database.js'
import {SqliteApplicationStore} from '../storage/sqlite/sqlite-application-store.js'
import {SqliteJobStore} from '../storage/sqlite/sqlite-job-store.js'
import {TRACKER_MIGRATIONS} from '../storage/sqlite/tracker-migrations.js'
import {type Env, type JobagentConfig, loadConfig, type Paths, selectSources} from './config.js'
import type {TrackerFiles} from './tracker-files.js'

export interface ContextOptions {
  env?: Env
  /** Values from command-line flags, shaped like the config; they win over everything else. */
  overrides?: Record<string, unknown>
  logger?: Logger
  /** Only these sources (`--source`), by type or name; unknown ones are a configuration error. */
  selectSources?: string[]
  /** false: boards are reached directly, never through HTTP(S)_PROXY (the demo serves its boards itself). */
  boardsViaProxy?: boolean
}

/**
 * The composition root shared by the CLI, the server and the dashboard: config -> stores -> services.
 * Everything is built on first use so a command pays only for what it touches; the parts only some commands need
 * (search, notifications, files, shipments) are also loaded on first use, through the async open* methods.
 */
export class AppContext {
  readonly config: JobagentConfig
  readonly paths: Paths
  readonly env: Env
  readonly logger: Logger
  readonly boardsViaProxy: boolean
  private trackerDatabase: SqliteDatabase | undefined
  private cache = new Map<string, unknown>()
  private closers: (() => void | Promise<void>)[] = []

  constructor(options: ContextOptions = {}) {
    this.env = options.env ?? process.env
    const loaded = loadConfig({env: this.env, overrides: options.overrides ?? {}})
    this.config = loaded.config
    this.paths = loaded.paths
    this.logger = options.logger ?? silentLogger
    this.boardsViaProxy = options.boardsViaProxy ?? true
    if (options.selectSources && options.selectSources.length > 0) {
      this.config = {...this.config, sources: selectSources(this.config.sources, options.selectSources)}
    }
  }

  /** Memoises a service under `key` and registers how to release it (for the wiring modules of src/app too). */
  memo<T>(key: string, build: () => T, close?: (value: T) => void | Promise<void>): T {
    if (!this.cache.has(key)) {
      const value = build()
      this.cache.set(key, value)
      if (close) this.closers.push(() => close(value))
    }
    return this.cache.get(key) as T
  }

  get trackerDb(): SqliteDatabase {
    if (!this.trackerDatabase) {
      const db = openSqlite(this.paths.trackerDb, {migrations: TRACKER_MIGRATIONS})
      this.trackerDatabase = db
      this.closers.push(() => {
        db.close()
      })
    }
    return this.trackerDatabase
  }

  get applicationStore(): SqliteApplicationStore {
    return this.memo('applicationStore', () => new SqliteApplicationStore(this.trackerDb, this.paths.trackerDb))
  }

  get applications(): ApplicationService {
    return this.memo('applications', () => new ApplicationService(this.applicationStore))
  }

  /** CSV export and JSON/CSV import; loads the CSV and atomic-write libraries on first use. */
  openTrackerFiles(): Promise<TrackerFiles> {
    return this.memo('trackerFiles', async () => {
      const {TrackerFiles} = await import('./tracker-files.js')
      return new TrackerFiles(this.applications, this.paths.dataDir)
    })
  }

  get jobStore(): SqliteJobStore {
    return this.memo('jobStore', () => new SqliteJobStore(this.trackerDb, this.paths.trackerDb))
  }

  get runLedger(): RunLedger {
    return this.memo('runLedger', () => new RunLedger(this.jobStore))
  }

  get jobCatalog(): JobCatalog {
    return this.memo('jobCatalog', () => new JobCatalog(this.jobStore, this.applicationStore, this.applications))
  }

  /**
   * The enabled boards of the config (or of `--source`), searched concurrently. Loaded on demand so commands
   * that never search do not load the HTTP and XML libraries.
   */
  openJobSearch(): Promise<JobSearch> {
    return this.memo('jobSearch', async () => {
      const [{createJobSources}, {JobSearch}] = await Promise.all([
        import('./search-wiring.js'),
        import('../core/jobs/job-search.js'),
      ])
      const boards = createJobSources(this)
      this.closers.push(boards.close)
      return new JobSearch(boards.sources, this.logger)
    })
  }

  openDigestSender(): Promise<DigestSender> {
    return this.memo('digestSender', async () => (await import('./search-wiring.js')).createDigestSender(this))
  }

  async close(): Promise<void> {
    const closers = this.closers.reverse()
    this.closers = []
    this.cache.clear()
    this.trackerDatabase = undefined
    for (const close of closers) await close()
  }

  /** The configured channels (`notify.urls`), built and checked on first use; their connections close with the context. */
  openNotifications(): Promise<NotificationService> {
    return this.memo('notifications', async () => {
      const {openNotifications} = await import('./notifications.js')
      const opened = openNotifications(this.config.notify.urls, {logger: this.logger})
      this.closers.push(() => opened.close())
      return opened.service
    })
  }

  /** Unified shipment state over the configured stores; pools and files open on first use, close with the context. */
  async openShipments(): Promise<ShipmentService> {
    return (await import('./shipments.js')).shipmentServiceOf(this)
  }
}
