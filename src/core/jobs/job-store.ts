import type {FoundJob, Sighting} from './dedupe.js'
import type {DescriptionStore} from './description-store.js'
import type {JobResponse} from './job.js'
import type {RunSourceOutcome} from './search-result.js'

/** Where a stored job is in its life: closed, reopened, reposted, and where else it was listed. */
export interface JobLifecycle {
  /** When the job was found closed: every board that listed it stopped listing it (docs/LIFECYCLE.md); null: open. */
  closed_at: string | null
  /** How many times the job came back after it was closed. */
  reopened: number
  /** How many times the role reappeared after closing or under a new URL. */
  reposted: number
  /** The other boards and URLs the role was listed under (this run's and earlier ones), newest first. */
  also_on: Sighting[]
}

/** A job as stored between runs. */
export interface StoredJob extends JobResponse, JobLifecycle {
  /** Short id shown by `jobagent jobs` and accepted by `jobagent apply <id>`. */
  id: number
  first_seen: string
  last_seen: string
  notified_at: string | null
}

/** `interrupted`: stopped by Ctrl-C or SIGTERM before it finished. */
type RunStatus = 'ok' | 'failed' | 'interrupted'

export interface RunRecord {
  id: number
  started_at: string
  finished_at: string
  status: RunStatus
  mode: string
  jobs_found: number
  new_jobs: number
  notified: number
  sources: RunSourceOutcome[]
  error: string | null
}

export type NewRunRecord = Omit<RunRecord, 'id'>

/** A job as a run would store it; `id` is null for a job never stored before (a dry run stores nothing). */
export type PreviewedJob = Omit<StoredJob, 'id'> & {id: number | null}

/** What one board listed in a run that can close jobs: it answered, with jobs, nothing looked wrong. */
export interface BoardListing {
  /** The board's name (`remoteok`, `greenhouse:gitlab`). */
  board: string
  /** The search criteria it was asked with, as text: a job is only closed by runs asked the same way. */
  criteria: string
  /** The canonical URLs of every job it returned, before jobagent's own filters. */
  urlKeys: string[]
}

/** What the lifecycle rules need of a run: the boards that can close jobs, and after how many runs. */
export interface LifecycleInput {
  listings: BoardListing[]
  closeAfterRuns: number
}

/** What a run changed in the jobs' lives. */
export interface LifecycleChanges {
  /** Jobs closed by this run. */
  closed: Pick<StoredJob, 'id' | 'title' | 'company'>[]
  reopened: number
  reposted: number
  /** Tracked applications whose posting closed in this run. */
  postings_closed: number
}

/**
 * The jobs seen between runs, when, and whether the user was told about them; a storing run also keeps its jobs'
 * descriptions here as the boards answer (DescriptionStore).
 */
export interface JobStore extends DescriptionStore {
  /**
   * In one transaction: records the run, upserts its jobs and persists what the lifecycle rules (lifecycle.ts,
   * docs/LIFECYCLE.md) decide, the applications' side included. A job is the same as a stored one when one of its
   * canonical URLs or, failing that, its role (company + title) seen within the repost window matches; first_seen and notified_at are kept, the other fields and last_seen
   * take the new values. `newJobs` are the stored jobs `isNew` holds new (every one without it), and with `isNew`
   * the run's `new_jobs` is their number, so the row is right from the start, whatever happens to the run after.
   * The stored `jobs` come in the order of the found ones: the run finds each one's stored description by it.
   */
  saveRun(
    run: NewRunRecord,
    jobs: readonly FoundJob[],
    lifecycle: LifecycleInput,
    isNew?: (job: StoredJob) => boolean,
  ): Promise<{run: RunRecord; jobs: StoredJob[]; newJobs: StoredJob[]; changes: LifecycleChanges}>
  /** What saveRun would return for these jobs, in their order, without writing anything (for --dry-run). */
  previewRun(jobs: readonly FoundJob[], seenAt: string): Promise<PreviewedJob[]>
  /** Records a run that failed; the jobs table is left as it was. */
  saveFailedRun(run: NewRunRecord): Promise<RunRecord>
  /** Sets the final status of a run saved by saveRun. */
  completeRun(
    id: number,
    outcome: Pick<RunRecord, 'finished_at' | 'status' | 'new_jobs' | 'notified' | 'error'>,
  ): Promise<void>
  markNotified(ids: readonly number[], at: string): Promise<void>
  lastRun(): Promise<RunRecord | null>
  /** The run ledger, newest first, with the number of runs recorded. */
  listRuns(page: {limit: number; offset: number}): Promise<{runs: RunRecord[]; total: number}>
  /**
   * The last run that stored jobs, whatever its final status (a run whose every notification channel failed
   * still found its jobs), with those jobs, newest first; run is null before any run stored jobs. With `summary`,
   * each job holds only the summary's fields.
   */
  lastRunJobs(): Promise<{run: RunRecord | null; jobs: KeyedStoredJob[]}>
  lastRunJobs(fields: 'scoring'): Promise<{run: RunRecord | null; jobs: Keyed<ScoringJob>[]}>
  lastRunJobs(fields: JobFields): Promise<{run: RunRecord | null; jobs: Keyed<JobSummary>[]}>
  /** Closed jobs, most recently closed first, at most `limit`; with `summary`, only the summary's fields. */
  closedJobs(limit: number): Promise<KeyedStoredJob[]>
  closedJobs(limit: number, fields: 'scoring'): Promise<Keyed<ScoringJob>[]>
  closedJobs(limit: number, fields: JobFields): Promise<Keyed<JobSummary>[]>
  /** The description texts kept under these keys (`ScoringJob.description_hash`), by key; missing ones left out. */
  descriptionTexts(hashes: readonly string[]): Promise<Map<string, string>>
  findJob(id: number): Promise<StoredJob | null>
  /** The id of the stored job listed under this canonical URL (any of its listings); null when none is. */
  jobIdOf(urlKey: string): Promise<number | null>
}

/** A stored job with the canonical URL it was stored under (`canonicalJobUrl`), so readers need not parse again. */
export type Keyed<J> = J & {url_key: string}

export type KeyedStoredJob = Keyed<StoredJob>

/**
 * What a table of jobs shows of a stored job, what the tracker judges it by and what a list filters it by (tags,
 * first_seen). A listing for people reads only these; one for programs (JSON) or for scoring reads every field.
 */
export type JobSummary = Pick<
  StoredJob,
  | 'id'
  | 'title'
  | 'company'
  | 'location'
  | 'url'
  | 'source'
  | 'posted_date'
  | 'salary'
  | 'closed_at'
  | 'reposted'
  | 'also_on'
  | 'tags'
  | 'first_seen'
>

/**
 * A stored job as a listing scores it: every field but its description's text, which stays in the store under
 * `description_hash` (null for a job without one). The profile's kept reading of the text stands for it, so a
 * listing of thousands of jobs need not load megabytes of text.
 */
export type ScoringJob = Omit<StoredJob, 'description'> & {description: null; description_hash: string | null}

/** Which fields the jobs of a listing hold: every one, the summary's, or every one but the description's text. */
export type JobFields = 'all' | 'summary' | 'scoring'
