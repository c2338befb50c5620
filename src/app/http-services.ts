import {existsSync} from 'node:fs'
import type {ApplicationService} from '../core/applications/application-service.js'
import type {ContactService} from '../core/applications/contact-service.js'
import type {FollowUps} from '../core/applications/follow-ups.js'
import type {InterviewService} from '../core/applications/interviews.js'
import type {JobCatalog} from '../core/jobs/job-catalog.js'
import type {RunLedger} from '../core/jobs/run-ledger.js'
import {createShipmentService, shipmentHealthChecks} from '../shipments/app/shipments.js'
import type {ShipmentService} from '../shipments/core/shipment-service.js'
import type {AppContext} from './context.js'
import {deadBoardsCheck, type HealthCheck, lastRunCheck, trackerDatabaseCheck} from './health-checks.js'
import type {FoundSearch} from './shared-search.js'
import {VERSION} from './version.js'

/** What the REST API needs from the application: the same services the CLI uses, nothing HTTP-specific. */
export interface HttpServices {
  version: string
  applications: Pick<
    ApplicationService,
    'record' | 'find' | 'get' | 'status' | 'list' | 'page' | 'changeStatus' | 'edit' | 'remove' | 'purge' | 'stats'
  >
  /**
   * GET /jobs: concurrent calls with the same tags share one search; GET /jobs/last: the last run's jobs; the
   * tracker's view of found jobs and tracking one of them (the run's rule, see trackingOfJob).
   */
  jobs: {search(tags: string[], signal?: AbortSignal): Promise<FoundSearch>} & Pick<
    JobCatalog,
    'lastRunPage' | 'withTracking' | 'rankFound' | 'trackFound' | 'giveVerdict' | 'undoVerdict'
  >
  /** The contacts of an application: POST and DELETE /applications/{url}/contacts, GET /applications/{url}. */
  contacts: Pick<ContactService, 'add' | 'list' | 'remove' | 'withContacts'>
  /** GET /applications/followups and POST /applications/{url}/snooze. */
  followUps: Pick<FollowUps, 'due' | 'snooze' | 'afterDays' | 'interviews'>
  /** POST /applications/{url}/interviews, GET /interviews and the calendar file GET /interviews.ics. */
  interviews: Pick<InterviewService, 'schedule' | 'list' | 'of'> & {calendar(): Promise<Iterable<string>>}
  /** GET /runs: the run ledger. */
  runs: Pick<RunLedger, 'list'>
  /** Run by GET /health in order; append the checks of other services (e.g. the shipment stores). */
  healthChecks: HealthCheck[]
  /** GET /shipments/{id}/unified; the route is mounted only when the service is given. */
  shipments?: ShipmentService
}

export function createHttpServices(context: AppContext): HttpServices {
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
      trackFound: async (input) => (await context.openJobCatalog()).trackFound(input),
      giveVerdict: async (id, verdict, options) => (await context.openJobCatalog()).giveVerdict(id, verdict, options),
      undoVerdict: async (id) => (await context.openJobCatalog()).undoVerdict(id),
    },
    get runs() {
      return context.runLedger
    },
    get followUps() {
      return context.followUps
    },
    interviews: {
      schedule: (ref, input) => context.interviews.schedule(ref, input),
      list: (options) => context.interviews.list(options),
      of: (application) => context.interviews.of(application),
      calendar: () => context.interviewCalendar(),
    },
    // Lazy: the checks open the database when they run, so a broken file shows as a failed check; the shipment
    // stores join once they exist (an import while the server runs counts).
    get healthChecks() {
      return [
        trackerDatabaseCheck(() => context.trackerDb, context.logger.child('http')),
        lastRunCheck({lastRun: () => context.jobStore.lastRun()}, context.clock),
        deadBoardsCheck({lastRun: () => context.jobStore.lastRun()}, context.clock),
        ...(shipmentsInUse(context) ? shipmentHealthChecks(() => context.shipmentsBuiltBy(createShipmentService)) : []),
      ]
    },
    get shipments() {
      return context.shipmentsBuiltBy(createShipmentService)
    },
  }
}

/**
 * A user who never set up shipments has no embedded shipments.db: their health must not fail for it. The stores
 * are checked once they exist or point elsewhere (PostgreSQL, MongoDB, another SQLite file).
 */
function shipmentsInUse(context: AppContext): boolean {
  const {metadata, telemetry} = context.config.shipments
  const embedded = `sqlite://${context.paths.shipmentsDb}`
  return metadata.url !== embedded || telemetry.url !== embedded || existsSync(context.paths.shipmentsDb)
}
