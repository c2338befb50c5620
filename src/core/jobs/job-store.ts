import type {JobResponse} from './job.js'
import type {RunSourceOutcome} from './search-result.js'

/** A job as remembered between runs. */
export interface StoredJob extends JobResponse {
  /** Short id shown by `jobagent jobs` and accepted by `jobagent apply <id>`. */
  id: number
  first_seen: string
  last_seen: string
  notified_at: string | null
}

type RunStatus = 'ok' | 'failed'

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

export interface KeyedJob {
  job: JobResponse
  urlKey: string
  identityKey: string
}

export type NewRunRecord = Omit<RunRecord, 'id'>

/** A job as a run would store it; `id` is null for a job never stored before (a dry run stores nothing). */
export type PreviewedJob = Omit<StoredJob, 'id'> & {id: number | null}

/** Memory between runs: the jobs seen, when, and whether the user was told about them. */
export interface JobStore {
  /**
   * In one transaction: records the run and upserts its jobs. A job is the same as a stored one when its
   * canonical URL or, failing that, its identity key (company + title + location) matches; first_seen and
   * notified_at are kept, the other fields and last_seen take the new values.
   */
  saveRun(run: NewRunRecord, jobs: readonly KeyedJob[]): Promise<{run: RunRecord; jobs: StoredJob[]}>
  /** What saveRun would return for these jobs, without writing anything (for --dry-run). */
  previewRun(jobs: readonly KeyedJob[], seenAt: string): Promise<PreviewedJob[]>
  /** Records a run that failed; the jobs table is left as it was. */
  saveFailedRun(run: NewRunRecord): Promise<RunRecord>
  /** Sets the final status of a run saved by saveRun. */
  completeRun(id: number, outcome: Pick<RunRecord, 'finished_at' | 'status' | 'notified' | 'error'>): Promise<void>
  markNotified(ids: readonly number[], at: string): Promise<void>
  lastRun(): Promise<RunRecord | null>
  /** The run ledger, newest first, with the number of runs recorded. */
  listRuns(page: {limit: number; offset: number}): Promise<{runs: RunRecord[]; total: number}>
  /**
   * The last run that stored jobs, whatever its final status (a run whose every notification channel failed
   * still found its jobs), with those jobs, newest first; run is null before any run stored jobs.
   */
  lastRunJobs(): Promise<{run: RunRecord | null; jobs: KeyedStoredJob[]}>
  findJob(id: number): Promise<StoredJob | null>
}

/** A stored job with the canonical URL it was stored under (`canonicalJobUrl`), so readers need not parse again. */
export interface KeyedStoredJob extends StoredJob {
  url_key: string
}
