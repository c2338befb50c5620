import type {JobResponse} from './job.js'

/**
 * What the daily run keeps of one board of an entry with `boards_file`: the request it was asked with (its base URL
 * and search words, as a key), the last answer's validators or hash, and when a board that answered 404 is due again.
 */
export interface RunBoardState {
  key: string
  request_key: string
  etag: string | null
  last_modified: string | null
  answer_hash: string | null
  dead_since: string | null
  dead_until: string | null
  dead_count: number
}

/** A board's state from this run on; `jobs` its answer's jobs, or undefined to keep those stored (an unchanged board). */
export interface RunBoardUpdate extends RunBoardState {
  jobs: readonly JobResponse[] | null | undefined
}

/**
 * The run's memory of the boards it watches. Updates wait in memory and are written in the transaction that stores
 * the run's jobs, so a dry run or GET /jobs leaves nothing behind, and a stored state always goes with stored jobs.
 */
export interface RunBoardStore {
  state(key: string): Promise<RunBoardState | undefined>
  /** The jobs of the board's last answer as stored; empty when none is. */
  lastJobs(key: string): Promise<JobResponse[]>
  update(state: RunBoardUpdate): void
}
