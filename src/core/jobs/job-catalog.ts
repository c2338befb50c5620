import type {TrackedApplication} from '../applications/application.js'
import type {ApplicationService} from '../applications/application-service.js'
import type {ApplicationStore} from '../applications/application-store.js'
import {ConflictError, NotFoundError} from '../errors.js'
import type {Matching, ScorePart} from '../matching/score.js'
import {checkPage, JOBS_PAGE, type Page} from '../paging.js'
import {canonicalJobUrl, jobApplicationKeys} from '../url-identity.js'
import type {FoundJob} from './dedupe.js'
import type {JobResponse} from './job.js'
import type {JobFields, JobStore, JobSummary, Keyed, RunRecord, StoredJob} from './job-store.js'
import {type JobTracking, jobTrackingKeys, judgeJob} from './job-tracking.js'

/** A job seen against the tracker (see judgeJob), with its score against the profile (null without one). */
type Listed<J> = J & JobTracking & {score: number | null; reasons: string[]}

/** A stored job, every field of it, as a listing holds it. */
export type ListedJob = Listed<StoredJob>

/** A job of a listing of summaries (`fields: 'summary'`): what a table of jobs shows. */
export type ListedSummary = Listed<JobSummary>

interface JobListing<J = ListedJob> {
  run: RunRecord | null
  jobs: J[]
}

interface ListingOptions {
  newOnly?: boolean
  minScore?: number
  state?: JobState
}

/** Which jobs a listing holds: the last run's (open), the closed ones, or both. */
type JobState = 'open' | 'closed' | 'all'

/** The most closed jobs a listing holds, most recently closed first: they pile up over the months. */
const CLOSED_LISTED = 1000

/** A page of the last run's jobs (GET /jobs/last). */
interface JobListingPage extends JobListing, Page {
  /** Every job the listing holds (with `newOnly`, every new one), for paging. */
  total: number
}

/** The last run's jobs seen against the tracker: what `jobagent jobs`, the dashboard and `apply <id>` use. */
export class JobCatalog {
  constructor(
    private readonly jobs: JobStore,
    private readonly applicationStore: ApplicationStore,
    private readonly applications: ApplicationService,
    private readonly matching: Matching | null = null,
  ) {}

  private scoringModule: Promise<typeof import('../matching/score.js')> | undefined

  /** Whether jobs are scored: a profile is configured. */
  get scored(): boolean {
    return this.matching !== null
  }

  /**
   * The last run's jobs (`state` open, the default), the closed ones (the CLOSED_LISTED most recently closed) or
   * both: with a profile, by score (highest first, `minScore` and above); without one, new jobs first. Either way
   * the store's order (newest posting first, then most recently closed) breaks ties. With `fields: 'summary'` the
   * jobs hold only what a table shows, unless a profile scores them, which takes every field.
   */
  async lastRun(options: ListingOptions & {fields: 'summary'}): Promise<JobListing<ListedSummary>>
  async lastRun(options?: ListingOptions): Promise<JobListing<ListedJob>>
  async lastRun(options: ListingOptions & {fields?: JobFields} = {}): Promise<JobListing<ListedSummary>> {
    const state = options.state ?? 'open'
    const fields = this.matching ? 'all' : (options.fields ?? 'all')
    const listing = state === 'closed' ? {run: null, jobs: []} : await this.jobs.lastRunJobs(fields)
    const closed = state === 'open' ? [] : await this.jobs.closedJobs(CLOSED_LISTED, fields)
    const run = listing.run ?? (await this.jobs.lastRun())
    // A job of the last run is open; only a database edited by hand could list one in both.
    const inRun = new Set(listing.jobs.map((job) => job.id))
    const stored = [...listing.jobs, ...closed.filter((job) => !inRun.has(job.id))]
    const judged = await this.judgeStored(stored)
    // Each job is made once, unscored (with a profile, `order` scores it): assigned into its own copy, which costs a
    // cold start far less than spreading every job again (about 4 ms for 1,000 jobs).
    const listed = stored.map(
      ({url_key: _canonical, ...job}, index): ListedSummary =>
        Object.assign(job, judged[index]!, {score: null, reasons: []}),
    )
    const wanted = options.newOnly ? listed.filter((job) => job.is_new) : listed
    // Open jobs come before closed ones, each part in its own order.
    const open = wanted.filter((job) => job.closed_at === null)
    const gone = wanted.filter((job) => job.closed_at !== null)
    return {run, jobs: [...(await this.order(open, options.minScore)), ...(await this.order(gone, options.minScore))]}
  }

  /**
   * With a profile, by score (highest first, `minScore` and above); without one, new jobs first. Jobs are scored
   * only when they hold every field (`lastRun` reads them all when there is a profile).
   */
  private async order(jobs: ListedSummary[], minScore: number | undefined): Promise<ListedSummary[]> {
    if (!this.matching) return [...jobs.filter((job) => job.is_new), ...jobs.filter((job) => !job.is_new)]
    const {rankJobs} = await this.scoring()
    return rankJobs(jobs as ListedJob[], this.matching, {minScore})
  }

  /** The scoring module, loaded on first use: a catalog without a profile never scores. */
  private scoring(): Promise<typeof import('../matching/score.js')> {
    this.scoringModule ??= import('../matching/score.js')
    return this.scoringModule
  }

  /**
   * One page of `lastRun`. The order puts new jobs first, which only the tracker can tell, so the listing is judged
   * whole and cut here: what is bounded is the answer, which at a million jobs would be hundreds of MB.
   */
  async lastRunPage(options: ListingOptions & {limit?: number; offset?: number} = {}): Promise<JobListingPage> {
    const page = checkPage(options, JOBS_PAGE)
    const {run, jobs} = await this.lastRun(options)
    return {run, jobs: jobs.slice(page.offset, page.offset + page.limit), total: jobs.length, ...page}
  }

  /** URLs with what the tracker holds about each, judged as the run judges them (POST /jobs/tracking). */
  async withTracking<J extends {url: string}>(jobs: readonly J[]): Promise<(J & JobTracking)[]> {
    const judged = await this.judge(jobs.map((job) => jobApplicationKeys(job.url)))
    return jobs.map((job, index) => ({...job, ...judged[index]!}))
  }

  /**
   * Found jobs (GET /jobs): seen against the tracker by every listing of each, as the run sees them, then scored and
   * ranked as `lastRun` ranks the stored ones.
   */
  async rankFound(
    found: readonly FoundJob[],
    options: {minScore?: number} = {},
  ): Promise<(JobResponse & JobTracking & {score: number | null; reasons: string[]})[]> {
    const judged = await this.judge(
      found.map(({job, also_on, urlKey}) => jobTrackingKeys({url: job.url, also_on}, urlKey)),
    )
    const jobs = found.map(({job}, index) => ({...job, ...judged[index]!, score: null, reasons: [] as string[]}))
    if (!this.matching) return jobs
    const {rankJobs} = await this.scoring()
    return rankJobs(jobs, this.matching, {minScore: options.minScore})
  }

  /**
   * Stored jobs judged against the tracker. A closed job is not new whatever the tracker holds: no board lists it,
   * so there is nothing left to apply for (every front end counts and filters new jobs by `is_new` alone).
   */
  private async judgeStored(jobs: readonly Keyed<JobSummary>[]): Promise<JobTracking[]> {
    // The canonical URL is the key the job was stored under, so no URL is parsed again here.
    const judged = await this.judge(jobs.map((job) => jobTrackingKeys(job, job.url_key)))
    return judged.map((tracking, index) => (jobs[index]?.closed_at ? {...tracking, is_new: false} : tracking))
  }

  /** One lookup of every job's keys, then judgeJob per job. */
  private async judge(keysOfJobs: readonly string[][]): Promise<JobTracking[]> {
    const tracked = await this.applicationStore.trackedOf(keysOfJobs.flat())
    return keysOfJobs.map((keys) => judgeJob(keys, tracked))
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

  /** One stored job in full, seen against the tracker and scored (`jobagent jobs <id>`), with its score's parts. */
  async show(id: number): Promise<ListedJob & {parts: ScorePart[]}> {
    const job = await this.find(id)
    const [judged] = await this.judgeStored([{...job, url_key: canonicalJobUrl(job.url)}])
    if (!this.matching) return {...job, ...judged!, score: null, reasons: [], parts: []}
    const {scoreJobs} = await this.scoring()
    const [scored] = scoreJobs([job], this.matching.profile, {...this.matching.options, explain: true})
    return {...job, ...judged!, score: scored!.score, reasons: scored!.reasons, parts: scored!.parts}
  }

  /** Tracks a found job without retyping its fields; explicit fields win over the job's. */
  async track(
    id: number,
    fields: {status?: string; notes?: string; title?: string; company?: string; location?: string; source?: string},
  ): Promise<TrackedApplication> {
    const job = await this.find(id)
    const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
    return this.trackFound({
      title: job.title,
      company: job.company,
      location: job.location,
      url: job.url,
      source: job.source,
      ...defined,
    })
  }

  /**
   * Tracks a job a board listed (its fields as ApplicationService.record takes them), unless the job is already
   * tracked by the run's rule: an application under its URL or its canonical URL is a conflict, so a URL that
   * differs only by tracking parameters never becomes a second application.
   */
  async trackFound(input: Record<string, unknown>): Promise<TrackedApplication> {
    const url = typeof input.url === 'string' ? input.url : ''
    const [tracking] = url ? await this.withTracking([{url}]) : []
    if (tracking?.tracked_url) {
      throw new ConflictError(
        `${url} is already tracked as ${tracking.tracked_url} (status: ${tracking.tracked_status})`,
        {
          hint: `change it with: jobagent status ${tracking.tracked_url} <status>`,
          details: [{field: 'url', message: 'already tracked'}],
        },
      )
    }
    return this.applications.record(input)
  }
}
