import type {JobResponse} from '../../core/jobs/job.js'
import type {BoardState, SweepCounts} from '../../core/sweep/sweep-rules.js'
import {countBoard, emptyCounts} from '../../core/sweep/sweep-rules.js'
import type {BoardResult, DeadBoard, SweepRecord, SweepStore} from '../../core/sweep/sweep-store.js'
import {read, type SqliteDatabase, writeTransaction} from './database.js'

type SweepRow = Omit<SweepRecord, 'counts'> & {counts: string | null}
type ProgressRow = {
  board: string
  outcome: BoardResult['outcome']
  reason: string | null
  jobs: number
  candidates: number
}

const toSweep = (row: SweepRow): SweepRecord => ({
  ...row,
  counts: row.counts === null ? null : (JSON.parse(row.counts) as SweepCounts),
})

/** How many boards' candidates are read at a time while a sweep's matches are ranked. */
const CANDIDATE_PAGE = 200

/** Sweeps and the boards they asked, in jobagent.db beside the runs their matches are stored as. */
export class SqliteSweepStore implements SweepStore {
  private readonly statements

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
  ) {
    this.statements = {
      lastFinished: db.prepare("SELECT max(finished_at) FROM sweeps WHERE status = 'done'").pluck(),
      unfinished: db.prepare(
        "SELECT * FROM sweeps WHERE status = 'running' AND selection = ? ORDER BY id DESC LIMIT 1",
      ),
      abandon: db.prepare("UPDATE sweeps SET status = 'abandoned' WHERE status = 'running' AND selection = ?"),
      start: db.prepare("INSERT INTO sweeps (started_at, status, selection) VALUES (?, 'running', ?) RETURNING *"),
      doneBoards: db.prepare('SELECT board FROM sweep_progress WHERE sweep_id = ?').pluck(),
      boardState: db.prepare(
        `SELECT board AS key, etag, last_modified, answer_hash, dead_since, dead_until, dead_count, profile_key
         FROM sweep_boards WHERE board = ?`,
      ),
      putState: db.prepare(
        `INSERT INTO sweep_boards
         (board, company, region, etag, last_modified, answer_hash, dead_since, dead_until, dead_count, profile_key)
         VALUES (@key, @company, @region, @etag, @last_modified, @answer_hash, @dead_since, @dead_until, @dead_count,
         @profile_key)
         ON CONFLICT (board) DO UPDATE SET company = excluded.company, region = excluded.region, etag = excluded.etag,
         last_modified = excluded.last_modified, answer_hash = excluded.answer_hash, dead_since = excluded.dead_since,
         dead_until = excluded.dead_until, dead_count = excluded.dead_count, profile_key = excluded.profile_key`,
      ),
      putCandidates: db.prepare(
        `INSERT INTO sweep_boards (board, company, region, candidates) VALUES (?, ?, ?, ?)
         ON CONFLICT (board) DO UPDATE SET candidates = excluded.candidates`,
      ),
      putProgress: db.prepare(
        `INSERT OR REPLACE INTO sweep_progress (sweep_id, board, outcome, reason, jobs, candidates)
         VALUES (@sweepId, @key, @outcome, @reason, @jobs,
         coalesce(@candidates, (SELECT json_array_length(candidates) FROM sweep_boards WHERE board = @key), 0))`,
      ),
      progressCandidates: db.prepare('SELECT candidates FROM sweep_progress WHERE sweep_id = ? AND board = ?').pluck(),
      progress: db.prepare('SELECT board, outcome, reason, jobs, candidates FROM sweep_progress WHERE sweep_id = ?'),
      candidatePage: db
        .prepare(
          `SELECT sweep_boards.board, sweep_boards.region, sweep_boards.candidates FROM sweep_progress
           JOIN sweep_boards ON sweep_boards.board = sweep_progress.board
           WHERE sweep_id = ? AND outcome IN ('answered', 'unchanged') AND sweep_progress.candidates > 0
           AND sweep_progress.board > ? ORDER BY sweep_progress.board LIMIT ?`,
        )
        .raw(),
      finish: db.prepare(
        "UPDATE sweeps SET status = 'done', finished_at = @finishedAt, run_id = @runId, counts = @counts WHERE id = @id",
      ),
      dead: db.prepare(
        `SELECT board AS key, company, dead_since, dead_until, dead_count FROM sweep_boards
         WHERE dead_until IS NOT NULL AND dead_until > ? ORDER BY board`,
      ),
    }
  }

  async lastFinished(): Promise<string | null> {
    return (read(this.db, this.file, () => this.statements.lastFinished.get()) as string | null) ?? null
  }

  async unfinished(selection: string): Promise<SweepRecord | null> {
    const row = read(this.db, this.file, () => this.statements.unfinished.get(selection)) as SweepRow | undefined
    return row ? toSweep(row) : null
  }

  start(selection: string, startedAt: string): Promise<SweepRecord> {
    return writeTransaction(this.db, this.file, () => {
      this.statements.abandon.run(selection)
      return toSweep(this.statements.start.get(startedAt, selection) as SweepRow)
    })
  }

  async doneBoards(sweepId: number): Promise<Set<string>> {
    return new Set(read(this.db, this.file, () => this.statements.doneBoards.all(sweepId)) as string[])
  }

  async boardState(key: string): Promise<BoardState | undefined> {
    return read(this.db, this.file, () => this.statements.boardState.get(key)) as BoardState | undefined
  }

  saveBoard(sweepId: number, result: BoardResult): Promise<number> {
    const {statements} = this
    return writeTransaction(this.db, this.file, () => {
      const region = result.region ?? null
      if (result.state) statements.putState.run({key: result.key, company: result.company, region, ...result.state})
      if (result.candidates) {
        statements.putCandidates.run(result.key, result.company, region, JSON.stringify(result.candidates))
      }
      statements.putProgress.run({
        sweepId,
        key: result.key,
        outcome: result.outcome,
        reason: result.reason,
        jobs: result.jobs,
        // An unchanged board's candidates are the ones stored for it.
        candidates: result.candidates?.length ?? (result.outcome === 'unchanged' ? null : 0),
      })
      return statements.progressCandidates.get(sweepId, result.key) as number
    })
  }

  async counts(sweepId: number): Promise<SweepCounts> {
    const rows = read(this.db, this.file, () => this.statements.progress.all(sweepId)) as ProgressRow[]
    const counts = emptyCounts()
    for (const row of rows) countBoard(counts, row)
    return counts
  }

  async countsByAts(sweepId: number): Promise<Map<string, SweepCounts>> {
    const rows = read(this.db, this.file, () => this.statements.progress.all(sweepId)) as ProgressRow[]
    const byAts = new Map<string, SweepCounts>()
    for (const row of rows) {
      const ats = row.board.slice(0, row.board.indexOf(':'))
      let counts = byAts.get(ats)
      if (!counts) {
        counts = emptyCounts()
        byAts.set(ats, counts)
      }
      countBoard(counts, row)
    }
    return byAts
  }

  async *candidates(sweepId: number): AsyncIterable<{board: string; region: 'eu' | null; job: JobResponse}> {
    let after = ''
    for (;;) {
      const rows = read(this.db, this.file, () =>
        this.statements.candidatePage.all(sweepId, after, CANDIDATE_PAGE),
      ) as [string, 'eu' | null, string][]
      for (const [board, region, page] of rows) {
        for (const job of JSON.parse(page) as JobResponse[]) yield {board, region, job}
      }
      if (rows.length < CANDIDATE_PAGE) return
      after = rows[rows.length - 1]?.[0] as string
    }
  }

  finish(sweepId: number, runId: number, finishedAt: string, counts: SweepCounts): Promise<void> {
    return writeTransaction(this.db, this.file, () => {
      this.statements.finish.run({id: sweepId, runId, finishedAt, counts: JSON.stringify(counts)})
    })
  }

  async deadBoards(now: string): Promise<DeadBoard[]> {
    return read(this.db, this.file, () => this.statements.dead.all(now)) as DeadBoard[]
  }
}
