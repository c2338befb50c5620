import type {BoardState} from '../sweep/sweep-rules.js'
import type {JobResponse} from './job.js'

/**
 * What the daily run keeps of one board of an entry with `boards_file`: a swept board's state (validators or hash,
 * its rest after a 404), with the request it was asked with (its base URL and search words, as a key) in place of
 * the sweep's profile.
 */
export interface RunBoardState extends Omit<BoardState, 'profile_key'> {
  request_key: string
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
