import type {ApplicationService} from '../core/applications/application-service.js'
import type {Backup} from '../core/applications/backup.js'
import type {ContactService} from '../core/applications/contact-service.js'
import type {FollowUps} from '../core/applications/follow-ups.js'
import type {InterviewService} from '../core/applications/interviews.js'
import type {JobCatalog} from '../core/jobs/job-catalog.js'
import type {RunLedger} from '../core/jobs/run-ledger.js'
import type {AppContext} from './context.js'
import {deadBoardsCheck, type HealthCheck, lastRunCheck, trackerDatabaseCheck} from './health-checks.js'
import type {FoundSearch} from './shared-search.js'
import type {AnySlice, MountedSlice, SliceHttp} from './slice.js'
import {SLICES} from './slices.js'
import {VERSION} from './version.js'

/** What every mode of `jobagent serve` has: its version, its health checks and the slices' routes. */
export interface ServedSlices {
  version: string
  /** Run by GET /health in order: the job side's checks (when it is served), then each slice's. */
  healthChecks: HealthCheck[]
  /** The slices' routes, mounted after the job side's; none unless their HTTP halves are given (loadSliceHttp). */
  slices?: MountedSlice<unknown>[]
}

/** What the REST API needs from the application: the same services the CLI uses, nothing HTTP-specific. */
export interface HttpServices extends ServedSlices {
  applications: Pick<
    ApplicationService,
    | 'record'
    | 'find'
    | 'get'
    | 'status'
    | 'list'
    | 'page'
    | 'changeStatus'
    | 'edit'
    | 'setNext'
    | 'remove'
    | 'purge'
    | 'stats'
  >
  /**
   * GET /jobs: concurrent calls with the same tags share one search; GET /jobs/last: the last run's jobs; the
   * tracker's view of found jobs and tracking one of them (the run's rule, see trackingOfJob).
   */
  jobs: {search(tags: string[], signal?: AbortSignal): Promise<FoundSearch>} & Pick<
    JobCatalog,
    'lastRunPage' | 'withTracking' | 'rankFound' | 'trackLink' | 'giveVerdict' | 'undoVerdict'
  >
  /** The contacts of an application: POST and DELETE /applications/{url}/contacts, GET /applications/{url}. */
  contacts: Pick<ContactService, 'add' | 'list' | 'remove' | 'withContacts'>
  /** GET /applications/followups and POST /applications/{url}/snooze. */
  followUps: Pick<FollowUps, 'due' | 'snooze' | 'afterDays' | 'interviews' | 'nextActions'>
  /** POST /applications/{url}/interviews, DELETE one, GET /interviews and the calendar file GET /interviews.ics. */
  interviews: Pick<InterviewService, 'schedule' | 'remove' | 'list' | 'of'> & {calendar(): Promise<Iterable<string>>}
  /** GET /backup: what `jobagent backup` writes. */
  backup: {create(): Promise<Backup>}
  /** GET /runs: the run ledger. */
  runs: Pick<RunLedger, 'list'>
}

/** A slice with its HTTP half loaded. */
interface LoadedSlice {
  slice: AnySlice
  http: SliceHttp<unknown, unknown, never>
}

/** Every slice's HTTP half, in the order of the list; the server loads them before it builds the app. */
export function loadSliceHttp(): Promise<LoadedSlice[]> {
  return Promise.all(SLICES.map(async (slice: AnySlice) => ({slice, http: await slice.loadHttp()})))
}

/** The services of `jobagent serve`: the job side's and every slice's. */
export async function openHttpServices(context: AppContext): Promise<HttpServices> {
  return createHttpServices(context, await loadSliceHttp())
}

/**
 * `jobagent serve --only <key>`: one slice's routes with its health checks and nothing of the job side, so no
 * tracker database is opened or created and no board is searched.
 */
export async function openSliceOnlyServices(context: AppContext, key: string): Promise<ServedSlices> {
  const loaded = (await loadSliceHttp()).filter(({slice}) => slice.key === key)
  const slices = loaded.map((slice) => mounted(context, slice, true))
  return {
    version: VERSION,
    get healthChecks() {
      return slices.flatMap((slice) => slice.healthChecks())
    },
    slices,
  }
}

/**
 * A slice's HTTP half over the context's one service of that slice, built when the routes are mounted. `alone`: the
 * slice is all the server serves (--only), so its stores are checked even where it looks unused.
 */
function mounted(context: AppContext, {slice, http}: LoadedSlice, alone = false): MountedSlice<unknown> {
  const service = () => context.sliceService(slice, http)
  const config = () => (context.config as unknown as Record<string, unknown>)[slice.key]
  return {
    key: slice.key,
    healthChecks: () => http.healthChecks(service, config(), {dataDir: context.paths.dataDir, alone}),
    routes: (options) => http.routes(service(), config(), options as never),
  }
}

export function createHttpServices(context: AppContext, slices: readonly LoadedSlice[] = []): HttpServices {
  const mountedSlices = slices.map((loaded) => mounted(context, loaded))
  return {
    version: VERSION,
    get applications() {
      return context.applications
    },
    get contacts() {
      return context.contacts
    },
    jobs: {
      search: async (tags, signal) => (await context.openSharedSearch()).run(tags, signal),
      lastRunPage: async (options) => (await context.openJobCatalog()).lastRunPage(options),
      withTracking: async (jobs) => (await context.openJobCatalog()).withTracking(jobs),
      rankFound: async (jobs, options) => (await context.openJobCatalog()).rankFound(jobs, options),
      trackLink: async (target, fields) => (await context.openJobCatalog()).trackLink(target, fields),
      giveVerdict: async (id, verdict, options) => (await context.openJobCatalog()).giveVerdict(id, verdict, options),
      undoVerdict: async (id) => (await context.openJobCatalog()).undoVerdict(id),
    },
    backup: {create: async () => (await context.openTrackerBackup()).create()},
    get runs() {
      return context.runLedger
    },
    get followUps() {
      return context.followUps
    },
    interviews: {
      schedule: (ref, input) => context.interviews.schedule(ref, input),
      remove: (ref, interviewId) => context.interviews.remove(ref, interviewId),
      list: (options) => context.interviews.list(options),
      of: (application) => context.interviews.of(application),
      calendar: () => context.interviewCalendar(),
    },
    // Lazy: the checks open the database when they run, so a broken file shows as a failed check; a slice's checks
    // may join while the server runs (its stores once they exist).
    get healthChecks() {
      return [
        trackerDatabaseCheck(() => context.trackerDb, context.logger.child('http')),
        lastRunCheck({lastRun: () => context.jobStore.lastRun()}, context.clock),
        deadBoardsCheck({lastRun: () => context.jobStore.lastRun()}, context.clock),
        ...mountedSlices.flatMap((slice) => slice.healthChecks()),
      ]
    },
    slices: mountedSlices,
  }
}
