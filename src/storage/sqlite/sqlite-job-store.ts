import type {ApplicationStore} from '../../core/applications/application-store.js'
import type {FoundJob} from '../../core/jobs/dedupe.js'
import type {StoredDescription} from '../../core/jobs/description-store.js'
import {JOB_RESPONSE_FIELDS} from '../../core/jobs/job.js'
import {
  type BoardCount,
  type FoundJobChange,
  JOB_SUMMARY_FIELDS,
  type JobFields,
  type JobStore,
  type JobSummary,
  type Keyed,
  type KeyedStoredJob,
  KNOWN_JOB_FIELDS,
  type KnownRow,
  LIFE_OF_JOB_FIELDS,
  type LifeOfJob,
  type NewRunRecord,
  RUN_OUTCOME_FIELDS,
  type RunChangeSet,
  type RunOutcome,
  type RunRecord,
  runRecordSchema,
  type ScoringJob,
  type StoredJob,
  type StoredRunView,
  storedJobSchema,
  type WrittenRun,
} from '../../core/jobs/job-store.js'
import {textHash} from '../../core/text-hash.js'
import {read, type SqliteDatabase, writeTransaction} from './database.js'
import {type Row, recordColumns} from './record-columns.js'
import {SqliteApplicationStore} from './sqlite-application-store.js'

/**
 * Every field of a stored job (storedJobSchema) is the jobs table's column of its name, but `description`: the
 * descriptions table keeps each text once, under the hash the job's `description_hash` column holds, so a text
 * several jobs or runs share is stored once. Beside the fields' columns are the store's own: url_key and identity_key
 * (the keys a run finds the job by), last_run_id, description_hash and row_hash (the row's fingerprint).
 */
const JOBS = recordColumns(storedJobSchema.shape)
const RUNS = recordColumns(runRecordSchema.shape)

/** Every column of a job but its description, which JOB_COLUMNS and SCORING_COLUMNS take each their way. */
const OTHER_COLUMNS = Object.keys(storedJobSchema.shape)
  .filter((field) => field !== 'description')
  .map((field) => (field === 'id' ? 'jobs.id' : field))
  .join(', ')
const JOB_COLUMNS = `${OTHER_COLUMNS}, descriptions.description`
const JOBS_WITH_DESCRIPTIONS = 'jobs LEFT JOIN descriptions ON descriptions.hash = jobs.description_hash'
/** A listing's SELECT: every field of a job, or only a JobSummary's (no description to join, fewer JSON columns). */
const LISTING: Record<JobFields, string> = {
  all: `SELECT ${JOB_COLUMNS}, url_key FROM ${JOBS_WITH_DESCRIPTIONS}`,
  summary: `SELECT ${JOB_SUMMARY_FIELDS.join(', ')}, url_key FROM jobs`,
  scoring: `SELECT ${OTHER_COLUMNS}, NULL AS description, description_hash, url_key FROM jobs`,
}
const RUN_ORDER = 'ORDER BY posted_date IS NULL, posted_date DESC, jobs.id'
const CLOSED_ORDER = 'ORDER BY closed_at DESC, jobs.id'
/** The columns a run writes of each job it found, as the board gave them (its description aside). */
const FOUND_COLUMNS = JOB_RESPONSE_FIELDS.filter((field) => field !== 'description')
/** The columns of a new run; its id is the table's. */
const RUN_COLUMNS = Object.keys(runRecordSchema.shape).filter((field) => field !== 'id')

/** A listing's rows as jobs, of the fields it read. */
function listed(rows: unknown[]): Keyed<JobSummary>[] {
  return (rows as Row<Keyed<JobSummary>>[]).map((row) => JOBS.fromRow(row))
}

function toRun(row: Row<RunRecord>): RunRecord {
  const run = RUNS.fromRow(row)
  // Runs recorded before anomalies were judged have none.
  return {...run, sources: run.sources.map((source) => ({...source, anomaly: source.anomaly ?? null}))}
}

const KNOWN_COLUMNS = `${KNOWN_JOB_FIELDS.join(', ')}, row_hash AS fingerprint`

const knownJob = (row: Row<KnownRow> | undefined): KnownRow | undefined => row && JOBS.fromRow(row)

/** A board count as SQLite returns it: whether the job is open as 0 or 1. */
type CountRow = BoardCount & {board: string; open: number}

/**
 * Jobs and runs in jobagent.db, beside the tracker so one transaction covers a run's writes, the applications'
 * included. It writes a run's change set as core/jobs/run-changes.ts works it out, and decides nothing. It is also the run's
 * DescriptionStore: the `descriptions` table, where texts go in by content, each once, and the jobs a run stores
 * find theirs; the ones no job points at after a run are removed as that run is stored, so a run that fails before
 * storing leaves its texts only until the next one.
 */
export class SqliteJobStore implements JobStore {
  private readonly statements
  /** Writes that belong with a run's jobs (what their descriptions were read from), made in the same transaction. */
  private readonly withEachRun: (() => void)[] = []

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
    /** The tracker's store on the same database: a run marks the postings of applications in its transaction. */
    private readonly applications: Pick<
      ApplicationStore,
      'markPostingsClosed' | 'markPostingsOpen'
    > = new SqliteApplicationStore(db, file),
  ) {
    const lifecycleColumns = 'closed_at = NULL, reopened = @reopened, reposted = @reposted, also_on = @also_on'
    const found = FOUND_COLUMNS.map((c) => `@${c}`).join(', ')
    // A posting date a board stops giving is kept.
    const setFound = FOUND_COLUMNS.map((c) => (c === 'posted_date' ? `${c} = coalesce(@${c}, ${c})` : `${c} = @${c}`))
    this.statements = {
      insertRun: db.prepare(
        `INSERT INTO runs (${RUN_COLUMNS.join(', ')}) VALUES (${RUN_COLUMNS.map((c) => `@${c}`).join(', ')})
         RETURNING *`,
      ),
      byUrlKey: db.prepare(
        `SELECT ${KNOWN_COLUMNS} FROM jobs WHERE id = (SELECT job_id FROM job_urls WHERE url_key = ?)`,
      ),
      keepUrl: db.prepare(
        `INSERT INTO job_urls (url_key, job_id) VALUES (?, ?)
         ON CONFLICT (url_key) DO UPDATE SET job_id = excluded.job_id WHERE job_id <> excluded.job_id`,
      ),
      latestByRole: db.prepare(
        `SELECT ${KNOWN_COLUMNS} FROM jobs WHERE identity_key = ? ORDER BY last_seen DESC LIMIT 1`,
      ),
      insertJob: db.prepare(
        `INSERT INTO jobs (url_key, identity_key, ${FOUND_COLUMNS.join(', ')}, first_seen, last_seen, last_run_id,
         description_hash, also_on, row_hash) VALUES (@urlKey, @identityKey, ${found}, @seen, @seen, @runId,
         @description_hash, @also_on, @row_hash)`,
      ),
      updateJob: db.prepare(
        `UPDATE jobs SET url_key = @urlKey, identity_key = @identityKey, ${setFound.join(', ')}, last_seen = @seen,
         last_run_id = @runId, description_hash = @description_hash, ${lifecycleColumns}, row_hash = @row_hash
         WHERE id = @id`,
      ),
      // A job seen again with the row it has (its change is `touch`): SQLite rewrites every index of a column an
      // UPDATE sets, changed or not, which a run over thousands of unchanged jobs shows in its duration.
      touchJob: db.prepare('UPDATE jobs SET last_seen = ?, last_run_id = ? WHERE id = ?'),
      hasDescription: db.prepare('SELECT 1 FROM descriptions WHERE hash = ?').pluck(),
      putDescription: db.prepare('INSERT OR IGNORE INTO descriptions (hash, description) VALUES (?, ?)'),
      // Texts no job points at: replaced ones, and ones stored early for jobs a run then left out (duplicates, the floor).
      dropUnused: db.prepare(
        `DELETE FROM descriptions WHERE hash IN
           (SELECT hash FROM descriptions EXCEPT SELECT description_hash FROM jobs WHERE description_hash IS NOT NULL)`,
      ),
      // The kept terms of texts that are gone go with them.
      dropUnusedTerms: db.prepare(
        'DELETE FROM description_terms WHERE description_hash NOT IN (SELECT hash FROM descriptions)',
      ),
      // What a run's change set is worked out from for its boards (StoredRunView), and how it is written.
      idsOfUrls: db
        .prepare('SELECT DISTINCT job_id FROM job_urls WHERE url_key IN (SELECT value FROM json_each(?))')
        .pluck(),
      boardCounts: db.prepare(
        `SELECT job_boards.job_id AS jobId, board, criteria, misses, jobs.closed_at IS NULL AS open
         FROM job_boards JOIN jobs ON jobs.id = job_boards.job_id`,
      ),
      lives: db.prepare(
        `SELECT ${LIFE_OF_JOB_FIELDS.join(', ')}, url_key FROM jobs WHERE id IN (SELECT value FROM json_each(?))`,
      ),
      setBoardCount: db.prepare(
        `INSERT INTO job_boards (job_id, board, criteria, misses) VALUES (@jobId, @board, @criteria, @misses)
         ON CONFLICT (job_id, board) DO UPDATE SET misses = excluded.misses, criteria = excluded.criteria`,
      ),
      setReopened: db.prepare(
        'UPDATE jobs SET closed_at = NULL, reopened = @reopened, reposted = @reposted WHERE id = @id',
      ),
      close: db.prepare('UPDATE jobs SET closed_at = ? WHERE id = ?'),
      forgetBoards: db.prepare('DELETE FROM job_boards WHERE job_id IN (SELECT value FROM json_each(?))'),
      completeRun: db.prepare(
        `UPDATE runs SET ${RUN_OUTCOME_FIELDS.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`,
      ),
      markNotified: db.prepare('UPDATE jobs SET notified_at = ? WHERE id = ?'),
      lastRun: db.prepare('SELECT * FROM runs ORDER BY id DESC LIMIT 1'),
      listRuns: db.prepare('SELECT * FROM runs ORDER BY id DESC LIMIT ? OFFSET ?'),
      countRuns: db.prepare('SELECT count(*) FROM runs').pluck(),
      lastRunWithJobs: db.prepare('SELECT * FROM runs WHERE id = (SELECT max(last_run_id) FROM jobs)'),
      descriptionTexts: db.prepare(
        'SELECT hash, description FROM descriptions WHERE hash IN (SELECT value FROM json_each(?))',
      ),
      runJobs: {
        all: db.prepare(`${LISTING.all} WHERE last_run_id = ? ${RUN_ORDER}`),
        summary: db.prepare(`${LISTING.summary} WHERE last_run_id = ? ${RUN_ORDER}`),
        scoring: db.prepare(`${LISTING.scoring} WHERE last_run_id = ? ${RUN_ORDER}`),
      },
      closedJobs: {
        all: db.prepare(`${LISTING.all} WHERE closed_at IS NOT NULL ${CLOSED_ORDER} LIMIT ?`),
        summary: db.prepare(`${LISTING.summary} WHERE closed_at IS NOT NULL ${CLOSED_ORDER} LIMIT ?`),
        scoring: db.prepare(`${LISTING.scoring} WHERE closed_at IS NOT NULL ${CLOSED_ORDER} LIMIT ?`),
      },
      findJob: db.prepare(`SELECT ${JOB_COLUMNS} FROM ${JOBS_WITH_DESCRIPTIONS} WHERE jobs.id = ?`),
      jobIdByUrlKey: db.prepare('SELECT job_id FROM job_urls WHERE url_key = ?').pluck(),
    }
  }

  async saveRun(decide: (stored: StoredRunView) => RunChangeSet): Promise<WrittenRun> {
    return writeTransaction(this.db, this.file, () => this.write(decide(this.view())))
  }

  async previewRun<T>(decide: (stored: StoredRunView) => T): Promise<T> {
    return read(this.db, this.file, () => decide(this.view()))
  }

  /** What is stored, as a run's change set is worked out from it. */
  private view(): StoredRunView {
    const {statements} = this
    return {
      byUrlKey: (key) => knownJob(statements.byUrlKey.get(key) as Row<KnownRow> | undefined),
      latestByRole: (identityKey) => knownJob(statements.latestByRole.get(identityKey) as Row<KnownRow> | undefined),
      jobIdsOf: (urlKeys) => statements.idsOfUrls.all(JSON.stringify(urlKeys)) as number[],
      boardCounts: () => (statements.boardCounts.all() as CountRow[]).map((row) => ({...row, open: row.open === 1})),
      lives: (ids) => (statements.lives.all(JSON.stringify(ids)) as Row<LifeOfJob>[]).map((row) => JOBS.fromRow(row)),
    }
  }

  /** Writes a run's change set as it is: the run, its jobs, their board counts and lives, their applications' postings. */
  private write(changeSet: RunChangeSet): WrittenRun {
    const {statements} = this
    const record = changeSet.run
    const run = toRun(statements.insertRun.get(RUNS.toRow(record)) as Row<RunRecord>)
    const ids = changeSet.jobs.map((one) => this.writeJob(one, run.id, record.started_at))
    for (const {job, ...count} of changeSet.boardCounts) {
      statements.setBoardCount.run({...count, jobId: 'id' in job ? job.id : ids[job.found]})
    }
    for (const one of changeSet.reopen) statements.setReopened.run(one)
    for (const id of changeSet.close) statements.close.run(changeSet.closedAt, id)
    if (changeSet.close.length > 0) statements.forgetBoards.run(JSON.stringify(changeSet.close))
    this.applications.markPostingsOpen(changeSet.postings.reopened)
    const postingsClosed = this.applications.markPostingsClosed(changeSet.postings.closed, changeSet.closedAt)
    if (statements.dropUnused.run().changes > 0) statements.dropUnusedTerms.run()
    for (const write of this.withEachRun) write()
    return {run, ids, postingsClosed}
  }

  /**
   * Writes one found job of a run as its change says: a new row, the row rewritten, or only when it was last seen.
   * Rows are not read back (RETURNING): a run writes thousands of jobs.
   */
  private writeJob(one: FoundJobChange, runId: number, seen: string): number {
    const {found, job} = one
    // The statement's parameters, built only for a row that is written.
    const row = () => ({
      ...JOBS.toRow({
        ...found.job,
        posted_date: job.posted_date,
        reopened: job.reopened,
        reposted: job.reposted,
        also_on: job.also_on,
      }),
      description_hash: one.descriptionHash,
      urlKey: found.urlKey,
      identityKey: found.identityKey,
      runId,
      seen,
      row_hash: one.fingerprint,
    })
    let id: number
    if (one.change === 'insert') {
      id = Number(this.statements.insertJob.run(row()).lastInsertRowid)
    } else {
      id = one.job.id
      if (one.change === 'touch') this.statements.touchJob.run(seen, runId, id)
      else this.statements.updateJob.run({...row(), id})
    }
    // A text stored early is there already; INSERT OR IGNORE leaves one the store has as it is.
    if (one.descriptionHash !== null && found.job.description !== null) {
      this.statements.putDescription.run(one.descriptionHash, found.job.description)
    }
    this.keepUrls(id, found)
    return id
  }

  async storeDescriptions(texts: readonly string[]): Promise<StoredDescription[]> {
    const stored = texts.map((text) => ({hash: textHash(text), length: text.length}))
    // A board seen before mostly brings texts the table has: those are only looked up, and a board whose texts
    // are all there costs no write.
    const missing = read(this.db, this.file, () =>
      stored.flatMap((one, index) => (this.statements.hasDescription.get(one.hash) ? [] : [index])),
    )
    if (missing.length > 0) {
      await writeTransaction(this.db, this.file, () => {
        for (const index of missing) this.statements.putDescription.run(stored[index]?.hash, texts[index])
      })
    }
    return stored
  }

  /** `write` runs inside the transaction of every run saved from now on, after the run's jobs are stored. */
  writeWithEachRun(write: () => void): void {
    this.withEachRun.push(write)
  }

  /** Every URL the job is listed under now finds it in later runs (job_urls), its own included. */
  private keepUrls(id: number, found: FoundJob): void {
    for (const key of new Set([found.urlKey, ...found.urlKeys])) this.statements.keepUrl.run(key, id)
  }

  async saveFailedRun(run: NewRunRecord): Promise<RunRecord> {
    return writeTransaction(this.db, this.file, () =>
      toRun(this.statements.insertRun.get(RUNS.toRow(run)) as Row<RunRecord>),
    )
  }

  async completeRun(id: number, outcome: RunOutcome): Promise<void> {
    await writeTransaction(this.db, this.file, () => this.statements.completeRun.run({...outcome, id}))
  }

  async markNotified(ids: readonly number[], at: string): Promise<void> {
    await writeTransaction(this.db, this.file, () => {
      for (const id of ids) this.statements.markNotified.run(at, id)
    })
  }

  async lastRun(): Promise<RunRecord | null> {
    const row = read(this.db, this.file, () => this.statements.lastRun.get()) as Row<RunRecord> | undefined
    return row ? toRun(row) : null
  }

  async listRuns(page: {limit: number; offset: number}): Promise<{runs: RunRecord[]; total: number}> {
    // The page and the total from one snapshot: every read runs in a transaction (`read`).
    return read(this.db, this.file, () => ({
      runs: (this.statements.listRuns.all(page.limit, page.offset) as Row<RunRecord>[]).map(toRun),
      total: this.statements.countRuns.get() as number,
    }))
  }

  async lastRunJobs(): Promise<{run: RunRecord | null; jobs: KeyedStoredJob[]}>
  async lastRunJobs(fields: 'scoring'): Promise<{run: RunRecord | null; jobs: Keyed<ScoringJob>[]}>
  async lastRunJobs(fields: JobFields): Promise<{run: RunRecord | null; jobs: Keyed<JobSummary>[]}>
  async lastRunJobs(fields: JobFields = 'all'): Promise<{run: RunRecord | null; jobs: Keyed<JobSummary>[]}> {
    // The run and its jobs as one consistent view while a run may be writing: `read` runs in one transaction.
    return read(this.db, this.file, () => {
      const row = this.statements.lastRunWithJobs.get() as Row<RunRecord> | undefined
      return row ? {run: toRun(row), jobs: listed(this.statements.runJobs[fields].all(row.id))} : {run: null, jobs: []}
    })
  }

  async closedJobs(limit: number): Promise<KeyedStoredJob[]>
  async closedJobs(limit: number, fields: 'scoring'): Promise<Keyed<ScoringJob>[]>
  async closedJobs(limit: number, fields: JobFields): Promise<Keyed<JobSummary>[]>
  async closedJobs(limit: number, fields: JobFields = 'all'): Promise<Keyed<JobSummary>[]> {
    return listed(read(this.db, this.file, () => this.statements.closedJobs[fields].all(limit)))
  }

  async descriptionTexts(hashes: readonly string[]): Promise<Map<string, string>> {
    if (hashes.length === 0) return new Map()
    const rows = read(this.db, this.file, () => this.statements.descriptionTexts.raw().all(JSON.stringify(hashes))) as [
      string,
      string,
    ][]
    return new Map(rows)
  }

  async findJob(id: number): Promise<StoredJob | null> {
    const row = read(this.db, this.file, () => this.statements.findJob.get(id)) as Row<StoredJob> | undefined
    return row ? JOBS.fromRow(row) : null
  }

  async jobIdOf(urlKey: string): Promise<number | null> {
    return (read(this.db, this.file, () => this.statements.jobIdByUrlKey.get(urlKey)) as number | undefined) ?? null
  }
}
