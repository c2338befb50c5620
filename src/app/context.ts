import {existsSync} from 'node:fs'
import {ApplicationService} from '../core/applications/application-service.js'
import {ContactService} from '../core/applications/contact-service.js'
import {FollowUps} from '../core/applications/follow-ups.js'
import {InterviewService} from '../core/applications/interviews.js'
import type {JobCatalog} from '../core/jobs/job-catalog.js'
import type {JobSearch} from '../core/jobs/job-search.js'
import {RunLedger} from '../core/jobs/run-ledger.js'
import type {Logger} from '../core/logger.js'
import {silentLogger} from '../core/logger.js'
import type {NotificationService} from '../core/notifications/notification-service.js'
import type {DigestSender} from '../core/run/agent-run.js'
import {maskedLogger, type SecretMask} from '../core/secrets.js'
import type {Clock} from '../core/time.js'
import {systemTimeZone} from '../core/time-zones.js'
import {openSqlite, type SqliteDatabase, writeRefusalOf} from '../storage/sqlite/database.js'
import {SqliteApplicationStore} from '../storage/sqlite/sqlite-application-store.js'
import {SqliteContactStore} from '../storage/sqlite/sqlite-contact-store.js'
import {SqliteInterviewStore} from '../storage/sqlite/sqlite-interview-store.js'
import {SqliteJobStore} from '../storage/sqlite/sqlite-job-store.js'
import {SqliteTermsCache} from '../storage/sqlite/sqlite-terms-cache.js'
import {SqliteVerdictStore} from '../storage/sqlite/sqlite-verdict-store.js'
import {TRACKER_MIGRATIONS} from '../storage/sqlite/tracker-migrations.js'
import type {ApplicationDocuments} from './application-documents.js'
import type {Boards} from './boards.js'
import {clockFromEnv} from './clock.js'
import {type Env, type JobagentConfig, loadConfig, type Paths, selectSources, serverPortFromEnv} from './config.js'
import {configuredSecrets} from './configured-secrets.js'
import type {SharedSearch} from './shared-search.js'
import type {Slice, SliceWiring} from './slice.js'
import type {TrackerBackup} from './tracker-backup.js'
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
  /** The clock of every service; by default the system's, or the one JOBAGENT_NOW sets (see clock.ts). */
  clock?: Clock
  /** An empty tracker in memory instead of jobagent.db: reads that must create nothing (forReading). */
  emptyTracker?: boolean
}

/** Everything the context builds, each on first use. */
interface Services {
  trackerDb: SqliteDatabase
  applicationStore: SqliteApplicationStore
  applications: ApplicationService
  interviews: InterviewService
  contacts: ContactService
  jobStore: SqliteJobStore
  verdictStore: SqliteVerdictStore
  termsCache: SqliteTermsCache
  runLedger: RunLedger
  jobCatalog: Promise<JobCatalog>
  followUps: FollowUps
  sharedSearch: Promise<SharedSearch>
  trackerFiles: Promise<TrackerFiles>
  trackerBackup: Promise<TrackerBackup>
  applicationDocuments: Promise<ApplicationDocuments>
  jobSearch: Promise<JobSearch>
  notifications: Promise<NotificationService>
  digestSender: Promise<DigestSender>
  boards: Promise<Boards>
  emptyTracker: AppContext
}

/**
 * The composition root shared by the CLI, the server and the dashboard: config -> stores -> services, each built
 * by a leaf factory from the config section it needs. Everything is built on first use so a command pays only
 * for what it touches; the parts only some commands need (search, notifications, files, the slices' services)
 * are also loaded on first use, through the async open* methods.
 */
export class AppContext {
  readonly config: JobagentConfig
  readonly paths: Paths
  readonly env: Env
  /** The configured secrets, masked in the log and in what the front ends write wherever they appear. */
  readonly secrets: SecretMask
  readonly logger: Logger
  readonly boardsViaProxy: boolean
  readonly clock: Clock
  /** `--port` was given: JOBAGENT_PORT is not used, so not checked either. */
  private readonly portGiven: boolean
  private built: Partial<Services> = {}
  /** Each slice's service by the slice's key, built on first use (see slice.ts). */
  private sliceServices = new Map<string, unknown>()
  private closers: (() => void | Promise<void>)[] = []
  private readonly options: ContextOptions

  constructor(options: ContextOptions = {}) {
    this.options = options
    this.env = options.env ?? process.env
    const loaded = loadConfig({env: this.env, overrides: options.overrides ?? {}})
    this.config = loaded.config
    this.paths = options.emptyTracker ? {...loaded.paths, trackerDb: ':memory:'} : loaded.paths
    this.portGiven = (options.overrides?.server as {port?: number} | undefined)?.port !== undefined
    this.secrets = configuredSecrets(this.config, this.env)
    this.logger = maskedLogger(options.logger ?? silentLogger, this.secrets)
    this.boardsViaProxy = options.boardsViaProxy ?? true
    this.clock = options.clock ?? clockFromEnv(this.env)
    if (options.selectSources && options.selectSources.length > 0) {
      this.config = {...this.config, sources: selectSources(this.config.sources, options.selectSources)}
    }
  }

  /** The server's address and hosts; a JOBAGENT_PORT that is no port is refused here, where it is used. */
  serverConfig(): JobagentConfig['server'] {
    if (!this.portGiven) serverPortFromEnv(this.env)
    return this.config.server
  }

  private once<K extends keyof Services>(key: K, build: () => Services[K]): Services[K] {
    if (!(key in this.built)) this.built[key] = build()
    return this.built[key] as Services[K]
  }

  private closeWith(close: () => void | Promise<void>): void {
    this.closers.push(close)
  }

  /**
   * The context for reads that must create nothing (the MCP server's read-only tools on a fresh home): this one
   * once jobagent.db exists, else one with the same config over an empty tracker in memory, so the reads answer as
   * from an empty tracker and the data directory is not made. Changes go through this context, which creates it.
   */
  forReading(): AppContext {
    if (this.options.emptyTracker || 'trackerDb' in this.built || existsSync(this.paths.trackerDb)) return this
    return this.once('emptyTracker', () => {
      const empty = new AppContext({...this.options, clock: this.clock, emptyTracker: true})
      this.closeWith(() => empty.close())
      return empty
    })
  }

  get trackerDb(): SqliteDatabase {
    return this.once('trackerDb', () => {
      const db = openSqlite(this.paths.trackerDb, {migrations: TRACKER_MIGRATIONS})
      this.closeWith(() => {
        db.close()
      })
      if (writeRefusalOf(db)) {
        this.logger.warning(
          `${this.paths.trackerDb} is open for reading only: its disk is full, so every change fails until some space is freed on it`,
        )
      }
      return db
    })
  }

  get applicationStore(): SqliteApplicationStore {
    return this.once('applicationStore', () => new SqliteApplicationStore(this.trackerDb, this.paths.trackerDb))
  }

  get followUps(): FollowUps {
    return this.once(
      'followUps',
      () => new FollowUps(this.applicationStore, this.config.followups, this.clock, this.interviews),
    )
  }

  /** Interviews in the user's zone: `TZ` when it names one, else the system's. */
  get interviews(): InterviewService {
    return this.once('interviews', () => {
      const store = new SqliteInterviewStore(this.trackerDb, this.paths.trackerDb, this.applicationStore)
      return new InterviewService(store, this.applications, this.contacts, {
        timeZone: systemTimeZone(this.env),
        clock: this.clock,
      })
    })
  }

  /**
   * Every interview as an iCalendar file (RFC 5545), in parts to write one after the other; the calendar library
   * loads on first use.
   */
  async interviewCalendar(): Promise<Iterable<string>> {
    const [{interviewCalendarParts}, interviews] = await Promise.all([
      import('./interview-calendar.js'),
      this.interviews.list({all: true}),
    ])
    return interviewCalendarParts(interviews, this.clock.now())
  }

  get applications(): ApplicationService {
    return this.once('applications', () => new ApplicationService(this.applicationStore, this.clock))
  }

  /** The contacts of tracked applications, in jobagent.db beside them. */
  get contacts(): ContactService {
    return this.once(
      'contacts',
      () =>
        new ContactService(
          this.applications,
          new SqliteContactStore(this.trackerDb, this.paths.trackerDb, this.applicationStore),
          this.clock,
        ),
    )
  }

  get jobStore(): SqliteJobStore {
    return this.once('jobStore', () => new SqliteJobStore(this.trackerDb, this.paths.trackerDb, this.applicationStore))
  }

  /** What descriptions said for the profile in earlier runs, so a run reads only the texts it has not read. */
  get termsCache(): SqliteTermsCache {
    return this.once('termsCache', () => new SqliteTermsCache(this.trackerDb, this.paths.trackerDb))
  }

  /** The person's likes and dismissals of jobs, in jobagent.db. */
  get verdictStore(): SqliteVerdictStore {
    return this.once('verdictStore', () => new SqliteVerdictStore(this.trackerDb, this.paths.trackerDb))
  }

  get runLedger(): RunLedger {
    return this.once('runLedger', () => new RunLedger(this.jobStore))
  }

  /**
   * The last run's jobs with what the tracker holds about each, ranked by the profile; loaded on first use, so
   * commands that list no jobs do not load the matching modules.
   */
  openJobCatalog(): Promise<JobCatalog> {
    return this.once('jobCatalog', async () => {
      const [{JobCatalog}, {matchingFrom}] = await Promise.all([
        import('../core/jobs/job-catalog.js'),
        import('./shared-search.js'),
      ])
      return new JobCatalog(this.jobStore, this.applicationStore, this.applications, {
        matching: matchingFrom(this.config),
        verdicts: this.verdictStore,
        termsCache: this.termsCache,
        clock: this.clock,
      })
    })
  }

  /** The search of GET /jobs: one per context, so concurrent calls with the same tags find each other. */
  openSharedSearch(): Promise<SharedSearch> {
    return this.once('sharedSearch', async () => {
      const {SharedSearch} = await import('./shared-search.js')
      return new SharedSearch(() => this.openJobSearch(), this.config.search)
    })
  }

  /** CSV export and JSON/CSV import; loads the CSV and atomic-write libraries on first use. */
  openTrackerFiles(): Promise<TrackerFiles> {
    return this.once('trackerFiles', async () => {
      const {TrackerFiles} = await import('./tracker-files.js')
      return new TrackerFiles(this.applications, this.contacts, this.paths.dataDir, this.clock)
    })
  }

  /** `backup` and `restore`: the whole tracker, the verdicts, the profile and the config in one file. */
  openTrackerBackup(): Promise<TrackerBackup> {
    return this.once('trackerBackup', async () => {
      const [{TrackerBackup}, {SqliteBackupStore}] = await Promise.all([
        import('./tracker-backup.js'),
        import('../storage/sqlite/sqlite-backup-store.js'),
      ])
      const store = new SqliteBackupStore(this.trackerDb, this.paths.trackerDb, this.applicationStore)
      return new TrackerBackup(store, this.paths.configFile, this.paths.dataDir, this.clock)
    })
  }

  /** The documents sent with applications (`apply`/`edit --cv --cover-letter`): hashes and kept copies. */
  openApplicationDocuments(): Promise<ApplicationDocuments> {
    return this.once('applicationDocuments', async () => {
      const {ApplicationDocuments} = await import('./application-documents.js')
      return new ApplicationDocuments(this.applications, this.paths.dataDir, this.clock)
    })
  }

  /**
   * The enabled boards of the config (or of `--source`), searched concurrently. Loaded on demand so commands
   * that never search do not load the HTTP and XML libraries.
   */
  openJobSearch(): Promise<JobSearch> {
    return this.once('jobSearch', async () => {
      const {createJobSearch} = await import('./search-wiring.js')
      const boards = createJobSearch(this.config.sources, {
        logger: this.logger,
        viaProxy: this.boardsViaProxy,
        clock: this.clock,
        secrets: this.secrets,
        tracker: {db: this.trackerDb, file: this.paths.trackerDb, jobs: this.jobStore},
        configFile: this.paths.configFile,
        limits: this.config.sweep,
      })
      this.closeWith(boards.close)
      return boards.search
    })
  }

  /** The configured channels (`notify.urls`), built and checked on first use; their connections close with the context. */
  openNotifications(): Promise<NotificationService> {
    return this.once('notifications', async () => {
      const {openNotifications} = await import('./notifications.js')
      const opened = openNotifications(this.config.notify.urls, {logger: this.logger, secrets: this.secrets})
      this.closeWith(() => opened.close())
      return opened.service
    })
  }

  /**
   * `boards find`, `boards directory` and `boards list`: the shipped directory of boards, read on first use; probes
   * over a client of their own (no retries, closed when the search ends), `--add` through the config editor;
   * JOBAGENT_BOARDS_PROBE_URL sends probes to a mirror instead of each ATS.
   */
  openBoards(): Promise<Boards> {
    return this.once('boards', async () => {
      const [{Boards}, {ConfigEditor}, {criteriaFrom}] = await Promise.all([
        import('./boards.js'),
        import('./config-editor.js'),
        import('./shared-search.js'),
      ])
      return new Boards({
        sources: this.config.sources,
        search: criteriaFrom(this.config.search, {tags: []}),
        runLedger: () => this.runLedger,
        editor: new ConfigEditor(this.env),
        logger: this.logger,
        viaProxy: this.boardsViaProxy,
        secrets: this.secrets,
        directory: async () => (await import('./board-directory.js')).loadBoardDirectory(),
        probeBaseUrl: this.env.JOBAGENT_BOARDS_PROBE_URL,
      })
    })
  }

  /** The run's port to the notification channels: digest built with notify.max_items. */
  openDigestSender(): Promise<DigestSender> {
    return this.once('digestSender', async () => {
      const [{createDigestSender}, service] = await Promise.all([
        import('./search-wiring.js'),
        this.openNotifications(),
      ])
      return createDigestSender(service, this.config.notify)
    })
  }

  /**
   * A slice's service over its section of the config, one per context and closed with it. The slice's wiring loads
   * on first use, so a command that never uses the slice does not load it.
   */
  async openSlice<Config, Service>(slice: Slice<string, never, Config, Service, never>): Promise<Service> {
    return this.sliceService(slice, await slice.loadWiring())
  }

  /**
   * The same service for a caller that has loaded the slice's wiring already and needs the service at once (the
   * HTTP services mount the slices' routes synchronously).
   */
  sliceService<Config, Service>(
    slice: Slice<string, never, Config, Service, never>,
    wiring: SliceWiring<Config, Service>,
  ): Service {
    if (!this.sliceServices.has(slice.key)) {
      const config = (this.config as unknown as Record<string, Config>)[slice.key] as Config
      const closeWith = (close: () => void | Promise<void>) => this.closeWith(close)
      this.sliceServices.set(
        slice.key,
        wiring.createService({config, logger: this.logger, clock: this.clock, closeWith}),
      )
    }
    return this.sliceServices.get(slice.key) as Service
  }

  async close(): Promise<void> {
    const closers = this.closers.reverse()
    this.closers = []
    this.built = {}
    this.sliceServices.clear()
    for (const close of closers) await close()
  }
}
