import type {JobResponse} from '../jobs/job.js'
import type {BoardOutcome, BoardState, SweepCounts} from './sweep-rules.js'

/** A sweep as its store keeps it: started, perhaps finished (its run stored), and on what it was started. */
export interface SweepRecord {
  id: number
  started_at: string
  finished_at: string | null
  /** `running` until its matches are stored as a run; `done` then; `abandoned` when `--restart` started another. */
  status: 'running' | 'done' | 'abandoned'
  /** The directory and the selection, as text: a sweep resumes only the one started on the same boards. */
  selection: string
  run_id: number | null
  counts: SweepCounts | null
}

/** What one board of a sweep ended with, written in one transaction: its state for next time and its result. */
export interface BoardResult {
  key: string
  company: string
  /** `eu` for a Lever site on Lever's EU instance, as the directory says. */
  region?: 'eu' | undefined
  outcome: BoardOutcome
  reason: string | null
  jobs: number
  /** The candidates found, with their details; undefined keeps the ones stored (an unchanged or resting board). */
  candidates?: readonly JobResponse[]
  /** The board's state from now on; undefined keeps it (a board that failed). */
  state?: Omit<BoardState, 'key'>
}

/** A board found dead by sweeps and resting, as `boards list --dead` shows it. */
export interface DeadBoard {
  key: string
  company: string
  dead_since: string
  dead_until: string
  dead_count: number
}

/** jobagent.db's memory of sweeps: the state of each board, and each sweep's progress so a stopped one resumes. */
export interface SweepStore {
  /** When the last sweep that stored its matches finished; null before any did. */
  lastFinished(): Promise<string | null>
  /** The sweep still running on this selection (stopped before it finished), if any. */
  unfinished(selection: string): Promise<SweepRecord | null>
  /** A new sweep; a running one on the same selection is marked abandoned first. */
  start(selection: string, startedAt: string): Promise<SweepRecord>
  /** The boards this sweep has a result for already. */
  doneBoards(sweepId: number): Promise<Set<string>>
  boardState(key: string): Promise<BoardState | undefined>
  /**
   * One board's result and state, in one transaction: a kill between two boards loses neither. Returns how many
   * candidates the board has in this sweep (an unchanged board's are the ones kept from before).
   */
  saveBoard(sweepId: number, result: BoardResult): Promise<number>
  /** The counts of every board this sweep has a result for. */
  counts(sweepId: number): Promise<SweepCounts>
  /** The same counts per ATS (the part of a board's key before its colon). */
  countsByAts(sweepId: number): Promise<Map<string, SweepCounts>>
  /** The candidates of the boards of this sweep that answered or were unchanged, one board at a time. */
  candidates(sweepId: number): AsyncIterable<{board: string; region: 'eu' | null; job: JobResponse}>
  finish(sweepId: number, runId: number, finishedAt: string, counts: SweepCounts): Promise<void>
  deadBoards(now: string): Promise<DeadBoard[]>
}
