import type {TrackedApplication} from '../applications/application.js'
import type {ApplicationService} from '../applications/application-service.js'
import type {ApplicationStore} from '../applications/application-store.js'
import {findControl} from '../control-characters.js'
import {definedFields} from '../defined-fields.js'
import {ConflictError, NotFoundError, ValidationError} from '../errors.js'
import type {DescriptionTerms, Matching, ScorePart} from '../matching/score.js'
import type {Verdict, VerdictModel} from '../matching/verdicts.js'
import {wantedTerms} from '../matching/verdicts.js'
import {checkPage, JOBS_PAGE, type Page} from '../paging.js'
import {type Clock, localTimestamp, systemClock} from '../time.js'
import {canonicalJobUrl, jobApplicationKeys} from '../url-identity.js'
import type {FoundJob} from './dedupe.js'
import type {TermsCache} from './description-store.js'
import {dismissalProposal} from './dismissal-proposal.js'
import type {JobResponse} from './job.js'
import type {JobFields, JobStore, JobSummary, Keyed, RunRecord, ScoringJob, StoredJob} from './job-store.js'
import {countsAsNew, isNewJob, type JobTracking, jobTrackingKeys, trackingOfJob} from './job-tracking.js'
import {type JobVerdict, LEARNED_VERDICTS, type Learned, learnFrom, type VerdictStore} from './job-verdicts.js'
import {type JobListFilter, jobListFilter} from './listing-filter.js'

/** A job seen against the tracker (see trackingOfJob), with its score against the profile (null without one). */
type Listed<J> = J & JobTracking & {score: number | null; reasons: string[]}

/** A stored job, every field of it, as a listing holds it. */
export type ListedJob = Listed<StoredJob>

/** A job of a listing of summaries (`fields: 'summary'`): what a table of jobs shows. */
export type ListedSummary = Listed<JobSummary>

interface JobListing<J = ListedJob> {
  run: RunRecord | null
  jobs: J[]
  /**
   * How many of the last run's jobs are new now (countsAsNew: not applied for, not dismissed, still open), whatever
   * the listing shows: the run's record keeps the count of its own time, before later applications and dismissals.
   */
  new_jobs: number
}

interface ListingOptions {
  newOnly?: boolean
  minScore?: number
  state?: JobState
  /** true: only the jobs the person dismissed; otherwise they are left out. */
  dismissed?: boolean
  /** Text, a board and how recent (jobListFilter). */
  filter?: JobListFilter
}

/** What the catalog reads besides the jobs and the tracker: the profile to rank by and the person's verdicts. */
interface CatalogOptions {
  matching?: Matching | null
  verdicts?: VerdictStore | null
  /** What the runs read in the descriptions for the profile: a listing scores on these instead of loading the texts. */
  termsCache?: TermsCache | null
  clock?: Clock
}

/** A verdict as given (`jobs <id> --like`), with the one it replaced and, after dismissals alike, a rule to adopt. */
export interface GivenVerdict {
  job: Pick<StoredJob, 'id' | 'title' | 'company'>
  verdict: JobVerdict
  previous: JobVerdict | null
  /** A config change that several dismissals with one reason suggest, as a command; null when none does. */
  proposal: string | null
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
/** The fields tracking a job may give over the job's own. */
type TrackFields = {
  status?: string
  notes?: string
  title?: string
  company?: string
  location?: string
  source?: string
  referral?: string
}

export class JobCatalog {
  private readonly matching: Matching | null
  private readonly verdicts: VerdictStore | null
  private readonly termsCache: TermsCache | null
  private readonly clock: Clock

  constructor(
    private readonly jobs: JobStore,
    private readonly applicationStore: ApplicationStore,
    private readonly applications: ApplicationService,
    options: CatalogOptions = {},
  ) {
    this.matching = options.matching ?? null
    this.verdicts = options.verdicts ?? null
    this.termsCache = options.termsCache ?? null
    this.clock = options.clock ?? systemClock
  }

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
    const matches = jobListFilter(options.filter ?? {}, this.clock.now())
    // Scoring needs every field; a table needs no description, which its kept terms stand for (termsOf).
    const fields = this.matching ? (options.fields === 'summary' ? 'scoring' : 'all') : (options.fields ?? 'all')
    // The last run's jobs are read for every listing: the count of new jobs is theirs, and with a profile they are what
    // every job is scored among.
    const listing = await this.jobs.lastRunJobs(fields)
    const closed = state === 'open' ? [] : await this.jobs.closedJobs(CLOSED_LISTED, fields)
    const run = listing.run ?? (await this.jobs.lastRun())
    // A job of the last run is open; only a database edited by hand could list one in both.
    const inRun = new Set(listing.jobs.map((job) => job.id))
    const stored = [...listing.jobs, ...closed.filter((job) => !inRun.has(job.id))]
    const tracking = await this.trackingOfStored(stored)
    // Each job is made once, unscored (with a profile, `order` scores it): its tracking and an empty score go into
    // the copy the destructuring made, rather than into a second copy.
    const listed = stored.map(
      ({url_key: _canonical, ...job}, index): ListedSummary =>
        Object.assign(job, tracking[index]!, {score: null, reasons: []}),
    )
    const learned = await this.learned()
    const shown = (job: ListedSummary) =>
      learned.dismissed.has(job.id) === (options.dismissed ?? false) &&
      (!options.newOnly || job.is_new) &&
      (state === 'all' || (state === 'open') === (job.closed_at === null)) &&
      matches(job)
    const ordered = await this.order(listed, shown, options.minScore, learned.model, (job) => inRun.has(job.id))
    // A closed job is not new (trackingOfStored), so only the run's own jobs can count.
    const newJobs = listed.filter((job) => inRun.has(job.id) && countsAsNew(job, job.is_new, learned.dismissed))
    // Open jobs come before closed ones, each part in its own order.
    return {
      run,
      jobs: [...ordered.filter((job) => job.closed_at === null), ...ordered.filter((job) => job.closed_at !== null)],
      new_jobs: newJobs.length,
    }
  }

  /** What the person's verdicts teach, read afresh for each listing: a verdict counts at once. */
  private learned(): Promise<Learned> {
    return learnFrom(this.verdicts, this.matching?.knowledge.occupations)
  }

  /**
   * The `shown` of `jobs`: with a profile, by score (highest first, `minScore` and above), each scored among the
   * last run's jobs (`among`), so a job has the same score in every listing and in `show`; without one, new jobs
   * first. Jobs are scored
   * only when they hold every field (`lastRun` reads them all when there is a profile).
   */
  private async order(
    jobs: ListedSummary[],
    shown: (job: ListedSummary) => boolean,
    minScore: number | undefined,
    verdictModel: VerdictModel | null,
    among: (job: ListedSummary) => boolean,
  ): Promise<ListedSummary[]> {
    if (!this.matching) {
      const wanted = jobs.filter(shown)
      return [...wanted.filter((job) => job.is_new), ...wanted.filter((job) => !job.is_new)]
    }
    const {rankJobs} = await this.scoring()
    const scored = jobs as (ListedJob | (ListedSummary & ScoringJob))[]
    const termsOf = await this.termsOf(scored)
    return rankJobs(scored as ListedJob[], this.matching, {minScore, verdictModel, only: shown, among, termsOf})
  }

  /**
   * The terms of each job's description for the profile, for jobs listed without their texts (ScoringJob): those the
   * runs kept under this profile's analyser where there are some, else those of the text, loaded for those jobs only.
   * A listing keeps nothing: the next run analyses and keeps what a changed profile needs.
   */
  private async termsOf(
    jobs: readonly {description: string | null; description_hash?: string | null}[],
  ): Promise<
    (
      job: {description: string | null; description_hash?: string | null},
      analyse: (text: string | null) => DescriptionTerms,
    ) => DescriptionTerms
  > {
    const hashes = [
      ...new Set(
        jobs.flatMap((job) => (job.description === null && job.description_hash ? [job.description_hash] : [])),
      ),
    ]
    if (hashes.length === 0 || !this.matching) return (job, analyse) => analyse(job.description)
    const {descriptionAnalyser} = await this.scoring()
    const analyser = descriptionAnalyser(this.matching)
    const kept = this.termsCache ? await this.termsCache.find(analyser.key, hashes) : new Map<string, string>()
    const terms = new Map<string, DescriptionTerms>()
    for (const [hash, text] of kept) {
      const decoded = analyser.decode(text)
      if (decoded) terms.set(hash, decoded)
    }
    const texts = await this.jobs.descriptionTexts(hashes.filter((hash) => !terms.has(hash)))
    return (job, analyse) => {
      const hash = job.description_hash
      if (job.description !== null || !hash) return analyse(job.description)
      return terms.get(hash) ?? analyse(texts.get(hash) ?? null)
    }
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
    const {run, jobs, new_jobs} = await this.lastRun(options)
    return {run, jobs: jobs.slice(page.offset, page.offset + page.limit), total: jobs.length, new_jobs, ...page}
  }

  /** URLs with what the tracker holds about each, judged as the run judges them (POST /jobs/tracking). */
  async withTracking<J extends {url: string}>(jobs: readonly J[]): Promise<(J & JobTracking)[]> {
    const tracking = await this.trackingOf(jobs.map((job) => jobApplicationKeys(job.url)))
    return jobs.map((job, index) => ({...job, ...tracking[index]!}))
  }

  /**
   * Found jobs (GET /jobs): seen against the tracker by every listing of each, as the run sees them, then scored and
   * ranked as `lastRun` ranks the stored ones.
   */
  async rankFound(
    found: readonly FoundJob[],
    options: {minScore?: number} = {},
  ): Promise<(JobResponse & JobTracking & {score: number | null; reasons: string[]})[]> {
    const tracking = await this.trackingOf(
      found.map(({job, also_on, urlKey}) => jobTrackingKeys({url: job.url, also_on}, urlKey)),
    )
    const jobs = found.map(({job}, index) => ({...job, ...tracking[index]!, score: null, reasons: [] as string[]}))
    if (!this.matching) return jobs
    const [{rankJobs}, learned] = await Promise.all([this.scoring(), this.learned()])
    return rankJobs(jobs, this.matching, {minScore: options.minScore, verdictModel: learned.model})
  }

  /**
   * Stored jobs judged against the tracker. A closed job is not new whatever the tracker holds: no board lists it,
   * so there is nothing left to apply for (every front end counts and filters new jobs by `is_new` alone).
   */
  private async trackingOfStored(jobs: readonly Keyed<JobSummary>[]): Promise<JobTracking[]> {
    // The canonical URL is the key the job was stored under, so no URL is parsed again here.
    const tracking = await this.trackingOf(jobs.map((job) => jobTrackingKeys(job, job.url_key)))
    return tracking.map((tracking, index) => ({...tracking, is_new: isNewJob(jobs[index]!, tracking.tracked_status)}))
  }

  /** One lookup of every job's keys, then trackingOfJob per job. */
  private async trackingOf(keysOfJobs: readonly string[][]): Promise<JobTracking[]> {
    const tracked = await this.applicationStore.trackedOf(keysOfJobs.flat())
    return keysOfJobs.map((keys) => trackingOfJob(keys, tracked))
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

  /**
   * One stored job in full, seen against the tracker and scored (`jobagent jobs <id>`), with its score's parts and
   * the person's verdict on it. It is scored among the last run's jobs, as the listings score it.
   */
  async show(id: number): Promise<ListedJob & {parts: ScorePart[]; verdict: JobVerdict | null}> {
    const job = await this.find(id)
    const [[tracking], learned] = await Promise.all([
      this.trackingOfStored([{...job, url_key: canonicalJobUrl(job.url)}]),
      this.learned(),
    ])
    const verdict = learned.verdicts.get(id) ?? null
    if (!this.matching) return {...job, ...tracking!, score: null, reasons: [], parts: [], verdict}
    const [{rankJobs}, listing] = await Promise.all([this.scoring(), this.jobs.lastRunJobs('scoring')])
    const inRun = new Set(listing.jobs.map((listed) => listed.id))
    const others = listing.jobs.filter((listed) => listed.id !== id)
    const termsOf = await this.termsOf(others)
    const ranked = rankJobs<StoredJob | ScoringJob>([job, ...others], this.matching, {
      termsOf,
      verdictModel: learned.model,
      explain: (scored) => scored === job,
      among: (scored) => inRun.has(scored.id),
    })
    const scored = ranked.find((ranked) => ranked.id === id)!
    return {...job, ...tracking!, score: scored.score, reasons: scored.reasons, parts: scored.parts ?? [], verdict}
  }

  /**
   * Keeps the person's verdict on a stored job (`jobs <id> --like`, a key, a button, POST /jobs/{id}/verdict). A
   * dismissal with a reason shared by earlier ones may come with a rule to adopt.
   */
  async giveVerdict(
    id: number,
    verdict: Verdict,
    options: {reason?: string | null; givenBy?: JobVerdict['given_by']} = {},
  ): Promise<GivenVerdict> {
    const verdicts = this.requireVerdicts()
    const job = await this.find(id)
    const reason = options.reason?.trim() || null
    // One line of plain text: a reason is shown in tables, on the web page and in the dashboard.
    if (reason !== null && (reason.length > 200 || findControl(reason) !== undefined)) {
      const message = reason.length > 200 ? 'must be 200 characters or fewer' : 'must be one line of text'
      throw new ValidationError(`the reason ${message}`, {
        details: [{field: 'reason', message}],
        hint: 'say why in a few words, e.g. "too senior"',
      })
    }
    const given: JobVerdict = {
      job_id: id,
      verdict,
      reason,
      given_by: options.givenBy ?? 'user',
      given_at: localTimestamp(this.clock.now()),
      title: job.title,
      company: job.company,
      tags: job.tags,
    }
    const previous = await verdicts.give(given)
    const proposal =
      verdict === 'dismiss' && reason !== null
        ? dismissalProposal(await verdicts.verdicts(LEARNED_VERDICTS), given, {
            avoid: this.matching?.profile.avoid ?? [],
            wanted: this.matching ? wantedTerms(this.matching.profile, this.matching.knowledge.occupations) : new Set(),
          })
        : null
    return {job: {id: job.id, title: job.title, company: job.company}, verdict: given, previous, proposal}
  }

  /** Takes back the verdict on a job (`--undo`); a NotFoundError when it has none. */
  async undoVerdict(id: number): Promise<JobVerdict> {
    const job = await this.find(id)
    const removed = await this.requireVerdicts().take(id)
    if (!removed) {
      throw new NotFoundError(`job ${id} (${job.title}) has no like or dismissal to undo`, {
        hint: `like or dismiss it with: jobagent jobs ${id} --like (or --dismiss)`,
      })
    }
    return removed
  }

  /** Forgets every verdict (`profile --forget-verdicts`); returns how many there were. */
  forgetVerdicts(): Promise<number> {
    return this.requireVerdicts().forget()
  }

  private requireVerdicts(): VerdictStore {
    if (!this.verdicts) throw new Error('the job catalog was built without a verdict store')
    return this.verdicts
  }

  /**
   * Tracks a job by its id or by a link to it (`apply <id|URL>`, POST /jobs/track, track_job): a link to a stored
   * job, whatever tracking parameters it carries (the canonical URL the job is stored under), fills the fields from
   * the job as its id does, keeping the link as given; a link to no stored job is recorded from the fields given.
   * Either way a job tracked already is refused with the application it is.
   */
  async trackLink(target: {jobId?: number; url?: string}, fields: TrackFields): Promise<TrackedApplication> {
    if (target.jobId !== undefined && target.url !== undefined) {
      // The job's own URL identifies it: with another one beside its id, the job would be tracked a second time.
      throw new ValidationError('give a job id or a URL, not both', {
        details: [{field: 'url', message: 'leave out the URL when a job id names the job'}],
        hint: 'give the id of a job from the list of jobs alone, or a URL',
      })
    }
    if (target.jobId !== undefined) return this.track(target.jobId, fields)
    if (target.url === undefined) {
      throw new ValidationError('give a job id or a URL', {
        hint: 'give the id of a job from the list of jobs, or a URL (with title, company and source unless a run found it)',
      })
    }
    const jobId = await this.jobs.jobIdOf(canonicalJobUrl(target.url))
    if (jobId !== null) return this.track(jobId, {...fields, url: target.url})
    return this.trackFound({...definedFields(fields), url: target.url})
  }

  /** Tracks a found job without retyping its fields; explicit fields win over the job's. */
  async track(id: number, fields: TrackFields & {url?: string}): Promise<TrackedApplication> {
    const job = await this.find(id)
    const defined = definedFields(fields)
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
      // Named by its short id, as the tracker's own conflict names it: that is what every list shows first.
      const {id} = await this.applications.find(tracking.tracked_url)
      throw new ConflictError(
        `${url} is already tracked as #${id} ${tracking.tracked_url} (status: ${tracking.tracked_status})`,
        {
          hint: `jobagent status ${id}`,
          details: [{field: 'url', message: `already tracked as #${id}`}],
        },
      )
    }
    const recorded = await this.applications.record(input)
    // Tracking a stored job is liking it: the verdicts teach it as from --like.
    const jobId = this.verdicts && url ? await this.jobs.jobIdOf(canonicalJobUrl(url)) : null
    if (jobId !== null) await this.giveVerdict(jobId, 'like', {givenBy: 'tracked'})
    return recorded
  }
}
