import {runAgent} from '../app/agent.js'
import type {AppContext} from '../app/context.js'
import type {ExportResult} from '../app/tracker-files.js'
import type {
  ApplicationCounts,
  ApplicationStatus,
  EditableField,
  TrackedApplication,
} from '../core/applications/application.js'
import {type ApplicationInFull, applicationInFull} from '../core/applications/application-in-full.js'
import type {StatusUpdate} from '../core/applications/application-store.js'
import type {ApplicationStats} from '../core/applications/stats.js'
import type {GivenVerdict, ListedJob} from '../core/jobs/job-catalog.js'
import type {SourceProgress} from '../core/jobs/job-search.js'
import type {RunRecord} from '../core/jobs/job-store.js'
import type {JobVerdict} from '../core/jobs/job-verdicts.js'
import type {Verdict} from '../core/matching/verdicts.js'
import type {RunSummary} from '../core/run/agent-run.js'
import type {Clock} from '../core/time.js'
import {type OpenOutcome, openInBrowser} from './open-url.js'

/** Everything the dashboard shows, read in one go and then kept in memory. */
export interface DashboardData {
  run: RunRecord | null
  /** In score order with a profile, which `scored` tells; each job carries its score and reasons then. */
  jobs: ListedJob[]
  scored: boolean
  applications: TrackedApplication[]
  counts: ApplicationCounts
  newJobs: number
  /** Tracked applications by their URL as stored, to find the application of a tracked job (its tracked_url). */
  byUrl: Map<string, TrackedApplication>
  /** Applications due for a follow-up: their URL and the days they have waited. */
  followUps: Map<string, number>
  /** The funnel statistics of every application (the `t` view), as `jobagent stats` counts them. */
  stats: ApplicationStats
  /** The person's likes by job id (dismissed jobs are not in `jobs`): what `u` can take back, what shows as liked. */
  likes: ReadonlyMap<number, JobVerdict>
}

/** A status change with the notes that replace the old ones, or an edit of the notes alone. */
export type StatusOrNotes = {status: ApplicationStatus; notes: string} | {notes: string}

/**
 * The dashboard's window on the core services; every change is written at once. An application is named by `ref`,
 * its short id as a string (what the application service takes, like a URL).
 */
export interface DashboardServices {
  /** The dashboard's clock: how long ago a posting closed is counted from it. */
  readonly clock: Clock
  load(): Promise<DashboardData>
  /** The application with its history, interviews and contacts, as `jobagent status <id>` shows it. */
  inFull(ref: string): Promise<ApplicationInFull>
  track(jobId: number, status: ApplicationStatus, notes: string): Promise<TrackedApplication>
  /**
   * Changes the status, replacing the notes with the ones given with it, or edits the notes alone (the status kept
   * as the tracker holds it when it is written): the two rules of the application service.
   */
  update(ref: string, change: StatusOrNotes): Promise<StatusUpdate>
  /** Changes the fields given, as `jobagent edit`; a URL tracked as another application is a ConflictError. */
  edit(ref: string, fields: Partial<Record<EditableField, string>>): Promise<StatusUpdate>
  /** Takes the application out of lists and stats (`jobagent remove`), or brings it back (`--undo`). */
  remove(ref: string): Promise<StatusUpdate>
  restore(ref: string): Promise<StatusUpdate>
  /** Likes or dismisses a job of the last run (as `jobagent jobs <id> --like`); the next load ranks with it. */
  giveVerdict(jobId: number, verdict: Verdict, reason: string | null): Promise<GivenVerdict>
  /** Takes back a job's like or dismissal (`--undo`); a NotFoundError when it has none. */
  undoVerdict(jobId: number): Promise<JobVerdict>
  exportCsv(): Promise<ExportResult>
  open(url: string): Promise<OpenOutcome>
  runSearch(options: {onProgress: (progress: SourceProgress) => void; signal: AbortSignal}): Promise<RunSummary>
}

/** The application tracked for a job of the last run: the one the catalog matched (see trackingOfJob), by its URL. */
export function applicationOfJob(data: DashboardData, job: ListedJob): TrackedApplication | undefined {
  return job.tracked_url === null ? undefined : data.byUrl.get(job.tracked_url)
}

/** Enough verdicts to mark every liked job of a listing; the catalog learns from the most recent 500. */
const LIKES_READ = 10_000

export function dashboardServices(context: AppContext, options: {env?: NodeJS.ProcessEnv} = {}): DashboardServices {
  const env = options.env ?? process.env
  return {
    clock: context.clock,
    async load() {
      const catalog = await context.openJobCatalog()
      const [{run, jobs, new_jobs: newJobs}, {applications, counts}, due, stats, verdicts] = await Promise.all([
        // Closed jobs too, after the open ones, marked in the list (docs/LIFECYCLE.md); dismissed ones are left out.
        catalog.lastRun({state: 'all'}),
        context.applications.list(),
        context.followUps.due(),
        context.applications.stats(),
        context.verdictStore.verdicts(LIKES_READ),
      ])
      const byUrl = new Map(applications.map((application) => [application.url, application]))
      const scored = catalog.scored
      const followUps = new Map(due.map((application) => [application.url, application.days_waiting]))
      const likes = new Map(verdicts.filter((given) => given.verdict === 'like').map((given) => [given.job_id, given]))
      return {run, jobs, scored, applications, counts, newJobs, byUrl, followUps, stats, likes}
    },
    inFull: (ref) => applicationInFull(context, ref),
    track: async (jobId, status, notes) => (await context.openJobCatalog()).track(jobId, {status, notes}),
    update: (ref, change) =>
      'status' in change
        ? context.applications.changeStatus(ref, change.status, change.notes)
        : context.applications.editNotes(ref, change.notes),
    edit: (ref, fields) => context.applications.edit(ref, fields),
    remove: (ref) => context.applications.remove(ref, true),
    restore: (ref) => context.applications.remove(ref, false),
    giveVerdict: async (jobId, verdict, reason) =>
      (await context.openJobCatalog()).giveVerdict(jobId, verdict, {reason}),
    undoVerdict: async (jobId) => (await context.openJobCatalog()).undoVerdict(jobId),
    exportCsv: async () => (await context.openTrackerFiles()).exportCsv(),
    open: (url) => openInBrowser(url, {env}),
    // A failed board is quoted as it answered, and may have echoed a configured secret.
    runSearch: async ({onProgress, signal}) =>
      context.secrets.maskStrings(
        await runAgent(context, {onProgress: (progress) => onProgress(context.secrets.maskStrings(progress)), signal}),
      ),
  }
}
