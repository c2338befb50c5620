import {deflateRawSync, inflateRawSync} from 'node:zlib'
import type {JobResponse} from '../../core/jobs/job.js'
import type {RunBoardState, RunBoardStore, RunBoardUpdate} from '../../core/jobs/run-board-store.js'
import type {Logger} from '../../core/logger.js'
import type {DeadBoard} from '../../core/sweep/sweep-store.js'
import {read, type SqliteDatabase} from './database.js'

/**
 * `run_boards` of jobagent.db: per watched board its state and the jobs of its last answer, deflated (a board's
 * jobs with their descriptions are mostly text). Updates are written by `writePending`, inside the transaction
 * that stores a run's jobs.
 */
export class SqliteRunBoardStore implements RunBoardStore {
  private readonly statements
  private pending = new Map<string, RunBoardUpdate>()

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
    private readonly logger: Logger,
  ) {
    this.statements = {
      state: db.prepare(
        `SELECT board AS key, request_key, etag, last_modified, answer_hash, dead_since, dead_until, dead_count
         FROM run_boards WHERE board = ?`,
      ),
      jobs: db.prepare('SELECT jobs FROM run_boards WHERE board = ?').pluck(),
      dead: db.prepare(
        `SELECT board AS key, substr(board, instr(board, ':') + 1) AS company, dead_since, dead_until, dead_count
         FROM run_boards WHERE dead_until IS NOT NULL AND dead_until > ? ORDER BY board`,
      ),
      put: db.prepare(
        `INSERT INTO run_boards
         (board, request_key, etag, last_modified, answer_hash, jobs, dead_since, dead_until, dead_count)
         VALUES (@key, @request_key, @etag, @last_modified, @answer_hash, @jobs, @dead_since, @dead_until, @dead_count)
         ON CONFLICT (board) DO UPDATE SET request_key = excluded.request_key, etag = excluded.etag,
         last_modified = excluded.last_modified, answer_hash = excluded.answer_hash,
         jobs = CASE WHEN @keep THEN run_boards.jobs ELSE excluded.jobs END,
         dead_since = excluded.dead_since, dead_until = excluded.dead_until, dead_count = excluded.dead_count`,
      ),
    }
  }

  async state(key: string): Promise<RunBoardState | undefined> {
    return read(this.db, this.file, () => this.statements.state.get(key)) as RunBoardState | undefined
  }

  async lastJobs(key: string): Promise<JobResponse[]> {
    const blob = read(this.db, this.file, () => this.statements.jobs.get(key)) as Buffer | null | undefined
    if (!blob) return []
    try {
      return JSON.parse(inflateRawSync(blob).toString('utf8')) as JobResponse[]
    } catch (error) {
      // The stored answer is a copy only: a damaged one is read again from the board next time.
      this.logger.debug(`${key}: the stored answer could not be read (${(error as Error).message})`)
      return []
    }
  }

  /** The boards of `boards_file` entries that answered 404 and rest until due again (named by their slug). */
  async deadBoards(now: string): Promise<DeadBoard[]> {
    return read(this.db, this.file, () => this.statements.dead.all(now)) as DeadBoard[]
  }

  update(state: RunBoardUpdate): void {
    this.pending.set(state.key, state)
  }

  /** Writes the updates since the last call; runs inside the caller's write transaction (a run storing its jobs). */
  readonly writePending = (): void => {
    const updates = this.pending
    this.pending = new Map()
    for (const {jobs, ...state} of updates.values()) {
      const blob = jobs ? deflateRawSync(JSON.stringify(jobs)) : null
      this.statements.put.run({...state, jobs: blob, keep: jobs === undefined ? 1 : 0})
    }
  }
}
