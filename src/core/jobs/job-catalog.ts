import type {ApplicationStatus, TrackedApplication} from '../applications/application.js'
import type {ApplicationService} from '../applications/application-service.js'
import type {ApplicationStore} from '../applications/application-store.js'
import {applicationUrlKey} from '../applications/url-key.js'
import {NotFoundError} from '../errors.js'
import type {JobStore, RunRecord, StoredJob} from './job-store.js'

export interface ListedJob extends StoredJob {
  /** The status of the tracked application with this URL, or null when it is not tracked. */
  tracked_status: ApplicationStatus | null
  /** Not yet applied for: untracked, or tracked as `saved`. */
  is_new: boolean
}

export interface JobListing {
  run: RunRecord | null
  jobs: ListedJob[]
}

/** The last run's jobs seen against the tracker: what `jobagent jobs`, the dashboard and `apply <id>` use. */
export class JobCatalog {
  constructor(
    private readonly jobs: JobStore,
    private readonly applicationStore: ApplicationStore,
    private readonly applications: ApplicationService,
  ) {}

  async lastRun(options: {newOnly?: boolean} = {}): Promise<JobListing> {
    const listing = await this.jobs.lastRunJobs()
    const run = listing.run ?? (await this.jobs.lastRun())
    // A job matches an application tracked under its URL as posted or under its canonical form (the key it was
    // stored under, so no URL is parsed again here).
    const keys = listing.jobs.map((job) => {
      const canonical = applicationUrlKey(job.url_key)
      // Most boards link their postings by a URL that is already canonical: one key serves both.
      return [job.url === job.url_key ? canonical : applicationUrlKey(job.url), canonical] as const
    })
    const statuses = await this.applicationStore.statusesOf(keys.flat())
    const listed = listing.jobs.map(({url_key: _canonical, ...job}, index) => {
      const [asPosted, canonical] = keys[index] ?? []
      const status = statuses.get(asPosted ?? '') ?? statuses.get(canonical ?? '') ?? null
      return {...job, tracked_status: status, is_new: status === null || status === 'saved'}
    })
    // New jobs first; within each group the store's order (newest posting first) stays.
    const ordered = [...listed.filter((job) => job.is_new), ...listed.filter((job) => !job.is_new)]
    return {run, jobs: options.newOnly ? ordered.filter((job) => job.is_new) : ordered}
  }

  async find(id: number): Promise<StoredJob> {
    const job = await this.jobs.findJob(id)
    if (!job) {
      throw new NotFoundError(`no job with id ${id}`, {
        hint: 'list the last run’s jobs and their ids with: jobagent jobs',
      })
    }
    return job
  }

  /** Tracks a found job without retyping its fields; explicit fields win over the job's. */
  async track(
    id: number,
    fields: {status?: string; notes?: string; title?: string; company?: string; location?: string; source?: string},
  ): Promise<TrackedApplication> {
    const job = await this.find(id)
    const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
    return this.applications.record({
      title: job.title,
      company: job.company,
      location: job.location,
      url: job.url,
      source: job.source,
      ...defined,
    })
  }
}
