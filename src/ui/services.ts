import {runAgent} from '../app/agent.js'
import type {AppContext} from '../app/context.js'
import type {ExportResult} from '../app/tracker-files.js'
import type {
  ApplicationCounts,
  ApplicationStatus,
  StatusChange,
  TrackedApplication,
} from '../core/applications/application.js'
import type {StatusUpdate} from '../core/applications/application-store.js'
import type {ApplicationStats} from '../core/applications/stats.js'
import type {RunSummary} from '../core/jobs/agent-run.js'
import type {ListedJob} from '../core/jobs/job-catalog.js'
import type {SourceProgress} from '../core/jobs/job-search.js'
import type {RunRecord} from '../core/jobs/job-store.js'
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
}

/** The dashboard's window on the core services; every change is written at once. */
export interface DashboardServices {
  load(): Promise<DashboardData>
  history(url: string): Promise<StatusChange[]>
  track(jobId: number, status: ApplicationStatus, notes: string): Promise<TrackedApplication>
  /** Changes the status or the notes; the other keeps what the tracker holds when it is written. */
  update(url: string, change: {status: ApplicationStatus} | {notes: string}): Promise<StatusUpdate>
  exportCsv(): Promise<ExportResult>
  open(url: string): Promise<OpenOutcome>
  runSearch(options: {onProgress: (progress: SourceProgress) => void; signal: AbortSignal}): Promise<RunSummary>
}

/** The application tracked for a job of the last run: the one the catalog matched (see judgeJob), by its URL. */
export function applicationOfJob(data: DashboardData, job: ListedJob): TrackedApplication | undefined {
  return job.tracked_url === null ? undefined : data.byUrl.get(job.tracked_url)
}

export function dashboardServices(context: AppContext, options: {env?: NodeJS.ProcessEnv} = {}): DashboardServices {
  const env = options.env ?? process.env
  return {
    async load() {
      const catalog = await context.openJobCatalog()
      const [{run, jobs}, {applications, counts}, due, stats] = await Promise.all([
        // Closed jobs too, after the open ones, marked in the list (docs/LIFECYCLE.md).
        catalog.lastRun({state: 'all'}),
        context.applications.list(),
        context.followUps.due(),
        context.applications.stats(),
      ])
      const byUrl = new Map(applications.map((application) => [application.url, application]))
      const scored = catalog.scored
      const followUps = new Map(due.map((application) => [application.url, application.days_waiting]))
      const newJobs = jobs.filter((job) => job.is_new).length
      return {run, jobs, scored, applications, counts, newJobs, byUrl, followUps, stats}
    },
    async history(url) {
      return (await context.applications.get(url)).history
    },
    track: async (jobId, status, notes) => (await context.openJobCatalog()).track(jobId, {status, notes}),
    update: (url, change) => context.applications.edit(url, change),
    exportCsv: async () => (await context.openTrackerFiles()).exportCsv(),
    open: (url) => openInBrowser(url, {env}),
    runSearch: ({onProgress, signal}) => runAgent(context, {onProgress, signal}),
  }
}
