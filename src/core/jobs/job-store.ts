import * as z from '../zod-mini.js'
import {type FoundJob, otherListingSchema} from './dedupe.js'
import type {DescriptionStore} from './description-store.js'
import {type JobDetails, jobDetailsSchema, jobResponseSchema} from './job.js'
import {runSourceOutcomeSchema} from './search-result.js'

/** Where a stored job is in its life: closed, reopened, reposted, and where else it was listed. */
const jobLifecycleSchema = z.object({
  /** When the job was found closed: every board that listed it stopped listing it (docs/LIFECYCLE.md); null: open. */
  closed_at: z.nullable(z.string()),
  /** How many times the job came back after it was closed. */
  reopened: z.int(),
  /** How many times the role reappeared after closing or under a new URL. */
  reposted: z.int(),
  /** The other boards and URLs the role was listed under (this run's and earlier ones), newest first. */
  also_on: z.array(otherListingSchema),
})

export type JobLifecycle = z.output<typeof jobLifecycleSchema>

/**
 * A job as stored between runs, in the order every listing of stored jobs shows it (`jobagent jobs --json`, GET
 * /jobs/last): its id, the JobResponse, when it was seen and notified, its life. Each field is the jobs table's
 * column of its name, but `description`, which the descriptions table keeps once per text (the store joins it).
 */
export const storedJobSchema = z.extend(
  z.extend(
    z.object({
      /** Short id shown by `jobagent jobs` and accepted by `jobagent apply <id>`. */
      id: z.int(),
    }),
    jobResponseSchema.shape,
  ),
  {
    first_seen: z.string(),
    last_seen: z.string(),
    notified_at: z.nullable(z.string()),
    ...jobLifecycleSchema.shape,
  },
)

export type StoredJob = z.output<typeof storedJobSchema>

/** `interrupted`: stopped by Ctrl-C or SIGTERM before it finished. */
const RUN_STATUSES = ['ok', 'failed', 'interrupted'] as const

/**
 * A run as the ledger keeps it (`jobagent runs`, GET /runs), one column of the runs table (of the same name) each:
 * the board outcomes are one column of JSON.
 */
export const runRecordSchema = z.object({
  id: z.int(),
  started_at: z.string(),
  finished_at: z.string(),
  status: z.enum(RUN_STATUSES),
  mode: z.string(),
  jobs_found: z.int(),
  new_jobs: z.int(),
  notified: z.int(),
  error: z.nullable(z.string()),
  sources: z.array(runSourceOutcomeSchema),
})

export type RunRecord = z.output<typeof runRecordSchema>

export type NewRunRecord = Omit<RunRecord, 'id'>

/** What a run's record says once the run is over (JobStore.completeRun): the fields that change then. */
export const RUN_OUTCOME_FIELDS = [
  'finished_at',
  'status',
  'new_jobs',
  'notified',
  'error',
] as const satisfies readonly (keyof RunRecord)[]

export type RunOutcome = Pick<RunRecord, (typeof RUN_OUTCOME_FIELDS)[number]>

/** A job as a run would store it; `id` is null for a job never stored before (a dry run stores nothing). */
export type PreviewedJob = Omit<StoredJob, 'id'> & {id: number | null}

/** The fields of a stored job the lifecycle rules read (KnownJob), and the columns the store reads for them. */
export const KNOWN_JOB_FIELDS = [
  'id',
  'first_seen',
  'last_seen',
  'notified_at',
  'posted_date',
  'closed_at',
  'reopened',
  'reposted',
  'also_on',
  'url',
  'source',
  'location',
] as const satisfies readonly (keyof StoredJob)[]

/** A stored job as the lifecycle rules need it to decide what a run makes of it. */
export type KnownJob = Pick<StoredJob, (typeof KNOWN_JOB_FIELDS)[number]>

/** One board's count for one job: how many runs in a row, asked with `criteria`, it did not list the job. */
export interface BoardCount {
  jobId: number
  criteria: string
  misses: number
}

/** The fields of a stored job a run closes or reopens without having found it (LifeOfJob), as the store reads them. */
export const LIFE_OF_JOB_FIELDS = [
  'id',
  'title',
  'company',
  'url',
  'also_on',
  'closed_at',
  'reopened',
  'reposted',
] as const satisfies readonly (keyof StoredJob)[]

/** A stored job a run closes or reopens without having found it, with what marks its applications' postings. */
export type LifeOfJob = Pick<StoredJob, (typeof LIFE_OF_JOB_FIELDS)[number]> & {url_key: string}

/**
 * What a run's change set is worked out from: the stored rows it needs, read in the transaction that writes the
 * change set, so nothing changes between what was read and what is written.
 */
export interface StoredRunView {
  /** The stored job listed under this canonical URL (any of its listings). */
  byUrlKey(urlKey: string): KnownRow | undefined
  /** The stored job of this role (jobIdentityKey) seen most recently. */
  latestByRole(identityKey: string): KnownRow | undefined
  /** The ids of the stored jobs listed under these canonical URLs. */
  jobIdsOf(urlKeys: readonly string[]): number[]
  /** Every board's counts, each with its board and whether the job it counts is open. */
  boardCounts(): (BoardCount & {board: string; open: boolean})[]
  /** These stored jobs, as closing or reopening them needs them. */
  lives(ids: readonly number[]): LifeOfJob[]
}

/** A stored job as a run finds it again: what the rules read, and the fingerprint of what its row holds. */
export type KnownRow = KnownJob & {
  /** rowFingerprint of the row as the last run wrote it; null when unknown (it never matches). */
  fingerprint: string | null
}

/** A job a change names: a stored one by its id, or one the run stores first by its place among the found jobs. */
type JobRef = {id: number} | {found: number}

/**
 * What a run writes for one of its jobs, in the order they were found: a job found for the first time is
 * inserted; one seen again is updated to what the rules make of it, or only touched (when it was last seen, by
 * which run) when its row already holds exactly that.
 */
export type FoundJobChange = {found: FoundJob; descriptionHash: string | null; fingerprint: string} & (
  | {change: 'insert'; job: Omit<StoredJob, 'id'>}
  | {change: 'update' | 'touch'; job: StoredJob}
)

/**
 * Everything one run changes in jobagent's stored jobs and the applications tracked under them, as the rules of
 * a job's life (lifecycle.ts, docs/LIFECYCLE.md) decide it from what the boards answered and what was stored. The
 * store writes it in one transaction and decides nothing.
 */
export interface RunChangeSet {
  /** The run's record, its count of new jobs included. */
  run: NewRunRecord
  /** One change per found job, in the order found: the stored jobs are returned in this order. */
  jobs: FoundJobChange[]
  /** Closed jobs the boards listed again though the run left them out (filters): open again, and these counts. */
  reopen: {id: number; reopened: number; reposted: number}[]
  /** Jobs every board that counts them missed long enough: closed at `closedAt`, and their board counts dropped. */
  close: number[]
  closedAt: string
  /** The board counts that change, per board: set to these values (a job the board listed starts over at 0). */
  boardCounts: {job: JobRef; board: string; criteria: string; misses: number}[]
  /** The URL keys of tracked applications whose posting is open again, then of those whose posting closed. */
  postings: {reopened: string[]; closed: string[]}
  /** The places, among the found jobs, of the new ones (not applied for, not dismissed). */
  newJobs: number[]
  /** What the run changed in the jobs' lives, for the log and the summary (the postings the store counts). */
  changes: Omit<LifecycleChanges, 'postings_closed'>
}

/** What the store wrote for a change set: the ids of the found jobs, in order, and how many postings it closed. */
export interface WrittenRun {
  run: RunRecord
  ids: number[]
  postingsClosed: number
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
   * In one transaction: `decide` works out the run's change set from what is stored (run-changes.ts), and the store
   * writes it as it is, the applications' side included, and then what belongs with each run (its descriptions).
   */
  saveRun(decide: (stored: StoredRunView) => RunChangeSet): Promise<WrittenRun>
  /** `decide` given what is stored, in one read transaction, writing nothing (for --dry-run). */
  previewRun<T>(decide: (stored: StoredRunView) => T): Promise<T>
  /** Records a run that failed; the jobs table is left as it was. */
  saveFailedRun(run: NewRunRecord): Promise<RunRecord>
  /** Sets the final status of a run saved by saveRun. */
  completeRun(id: number, outcome: RunOutcome): Promise<void>
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

/**
 * The details of a job (jobDetailsSchema) but its description, kept in the job's own row: the store's columns, and
 * the fields a job's fingerprint reads, in the schema's order.
 */
export const JOB_DETAILS = Object.keys(jobDetailsSchema.shape).filter(
  (field): field is Exclude<keyof JobDetails, 'description'> => field !== 'description',
)

/** A stored job with the canonical URL it was stored under (`canonicalJobUrl`), so readers need not parse again. */
export type Keyed<J> = J & {url_key: string}

export type KeyedStoredJob = Keyed<StoredJob>

/**
 * What a table of jobs shows of a stored job, what the tracker judges it by and what a list filters it by (tags,
 * first_seen). A listing for people reads only these; one for programs (JSON) or for scoring reads every field.
 */
export const JOB_SUMMARY_FIELDS = [
  'id',
  'title',
  'company',
  'location',
  'url',
  'source',
  'posted_date',
  'salary',
  'closed_at',
  'reposted',
  'also_on',
  'tags',
  'first_seen',
] as const satisfies readonly (keyof StoredJob)[]

export type JobSummary = Pick<StoredJob, (typeof JOB_SUMMARY_FIELDS)[number]>

/**
 * A stored job as a listing scores it: every field but its description's text, which stays in the store under
 * `description_hash` (null for a job without one). The terms kept of the text for the profile stand for it, so a
 * listing of thousands of jobs need not load megabytes of text.
 */
export type ScoringJob = Omit<StoredJob, 'description'> & {description: null; description_hash: string | null}

/** Which fields the jobs of a listing hold: every one, the summary's, or every one but the description's text. */
export type JobFields = 'all' | 'summary' | 'scoring'
