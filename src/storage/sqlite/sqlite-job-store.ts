import type {ApplicationStore} from '../../core/applications/application-store.js'
import type {FoundJob, OtherListing} from '../../core/jobs/dedupe.js'
import type {StoredDescription} from '../../core/jobs/description-store.js'
import type {JobResponse} from '../../core/jobs/job.js'
import type {
  BoardCount,
  FoundJobChange,
  JobFields,
  JobStore,
  JobSummary,
  Keyed,
  KeyedStoredJob,
  KnownRow,
  LifeOfJob,
  NewRunRecord,
  RunChangeSet,
  RunRecord,
  ScoringJob,
  StoredJob,
  StoredRunView,
  WrittenRun,
} from '../../core/jobs/job-store.js'
import {JOB_DETAILS} from '../../core/jobs/job-store.js'
import type {Salary} from '../../core/jobs/salary.js'
import {textHash} from '../../core/text-hash.js'
import {read, type SqliteDatabase, writeTransaction} from './database.js'
import {SqliteApplicationStore} from './sqlite-application-store.js'

/** Every column of a job but its description, which JOB_COLUMNS and SCORING_COLUMNS take each their way. */
const OTHER_COLUMNS = `jobs.id, title, company, location, url, source, posted_date, first_seen, last_seen, notified_at,
  salary, employment_type, remote, regions, timezones, seniority, tags, board_id, company_url, closed_at, reopened,
  reposted, also_on`
const JOB_COLUMNS = `${OTHER_COLUMNS}, descriptions.description`
const JOBS_WITH_DESCRIPTIONS = 'jobs LEFT JOIN descriptions ON descriptions.hash = jobs.description_hash'
/** A listing's SELECT: every field of a job, or only a JobSummary's (no description to join, fewer JSON columns). */
const LISTING: Record<JobFields, string> = {
  all: `SELECT ${JOB_COLUMNS}, url_key FROM ${JOBS_WITH_DESCRIPTIONS}`,
  summary: `SELECT id, title, company, location, url, source, posted_date, salary, closed_at, reposted, also_on, tags,
     first_seen, url_key FROM jobs`,
  scoring: `SELECT ${OTHER_COLUMNS}, NULL AS description, description_hash, url_key FROM jobs`,
}
const RUN_ORDER = 'ORDER BY posted_date IS NULL, posted_date DESC, jobs.id'
const CLOSED_ORDER = 'ORDER BY closed_at DESC, jobs.id'

/** A jobs row as SQLite returns it: lists and the salary as JSON text, `remote` as 0, 1 or null. */
type JobRow = Omit<StoredJob, 'salary' | 'remote' | 'regions' | 'timezones' | 'tags' | 'also_on'> & {
  salary: string | null
  remote: number | null
  regions: string
  timezones: string
  tags: string
  also_on: string
}

/** A summary row (LISTING.summary) as SQLite returns it: the salary and the other listings as JSON text. */
type SummaryRow = Omit<JobSummary, 'salary' | 'also_on' | 'tags'> & {
  salary: string | null
  also_on: string
  tags: string
}

const salaryOf = (json: string | null) => (json === null ? null : (JSON.parse(json) as Salary))

function fromRow<Row extends JobRow>(row: Row): Omit<Row, keyof JobRow> & StoredJob {
  return {
    ...row,
    salary: salaryOf(row.salary),
    remote: row.remote === null ? null : row.remote === 1,
    regions: JSON.parse(row.regions) as string[],
    timezones: JSON.parse(row.timezones) as string[],
    tags: JSON.parse(row.tags) as string[],
    also_on: JSON.parse(row.also_on) as OtherListing[],
  }
}

function fromSummaryRow<Row extends SummaryRow>(row: Row): Omit<Row, keyof SummaryRow> & JobSummary {
  return {
    ...row,
    salary: salaryOf(row.salary),
    also_on: JSON.parse(row.also_on) as OtherListing[],
    tags: JSON.parse(row.tags) as string[],
  }
}

/** A listing's rows as jobs, of the fields it read. */
function listed(rows: unknown[], fields: JobFields): Keyed<JobSummary>[] {
  return fields === 'summary'
    ? (rows as (SummaryRow & {url_key: string})[]).map(fromSummaryRow)
    : (rows as (JobRow & {url_key: string; description_hash?: string | null})[]).map(fromRow)
}

/** The job's fields as statement parameters: JSON for lists and the salary, 0/1 for `remote`. */
function jobParameters(job: JobResponse) {
  return {
    ...job,
    salary: job.salary === null ? null : JSON.stringify(job.salary),
    remote: job.remote === null ? null : job.remote ? 1 : 0,
    regions: JSON.stringify(job.regions),
    timezones: JSON.stringify(job.timezones),
    tags: JSON.stringify(job.tags),
  }
}

interface RunRow extends Omit<RunRecord, 'sources'> {
  sources: string
}

/** A job row as the store looks it up for a run: its other listings as JSON text. */
type KnownJobRow = Omit<KnownRow, 'also_on'> & {also_on: string}

const knownJob = (row: KnownJobRow | undefined): KnownRow | undefined =>
  row && {...row, also_on: JSON.parse(row.also_on) as OtherListing[]}

function toRun(row: RunRow): RunRecord {
  // Runs recorded before anomalies were judged have none.
  const sources = (JSON.parse(row.sources) as RunRecord['sources']).map((source) => ({
    ...source,
    anomaly: source.anomaly ?? null,
  }))
  return {...row, sources}
}

const KNOWN_COLUMNS =
  'id, first_seen, last_seen, notified_at, posted_date, closed_at, reopened, reposted, also_on, url, source, row_hash AS fingerprint'

/** A job row a run reopens, closes or marks the applications of: its other listings as JSON text. */
type LifeRow = Omit<LifeOfJob, 'also_on'> & {also_on: string}

const withListings = (row: LifeRow): LifeOfJob => ({...row, also_on: JSON.parse(row.also_on) as OtherListing[]})

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
    this.statements = {
      insertRun: db.prepare(
        `INSERT INTO runs (started_at, finished_at, status, mode, jobs_found, new_jobs, notified, sources, error)
         VALUES (@started_at, @finished_at, @status, @mode, @jobs_found, @new_jobs, @notified, @sources, @error)
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
        `INSERT INTO jobs (url_key, identity_key, title, company, location, url, source, posted_date, first_seen,
         last_seen, last_run_id, description_hash, also_on, row_hash, ${JOB_DETAILS.join(', ')}) VALUES (@urlKey,
         @identityKey, @title, @company, @location, @url, @source, @posted_date, @seen, @seen, @runId,
         @description_hash, @also_on, @row_hash, ${JOB_DETAILS.map((c) => `@${c}`).join(', ')})`,
      ),
      updateJob: db.prepare(
        `UPDATE jobs SET url_key = @urlKey, identity_key = @identityKey, title = @title, company = @company,
         location = @location, url = @url, source = @source, posted_date = coalesce(@posted_date, posted_date),
         last_seen = @seen, last_run_id = @runId, description_hash = @description_hash, ${lifecycleColumns},
         row_hash = @row_hash, ${JOB_DETAILS.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`,
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
        `SELECT id, title, company, url, url_key, also_on, closed_at, reopened, reposted FROM jobs
         WHERE id IN (SELECT value FROM json_each(?))`,
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
        `UPDATE runs SET finished_at = @finished_at, status = @status, new_jobs = @new_jobs, notified = @notified,
         error = @error WHERE id = @id`,
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
      byUrlKey: (key) => knownJob(statements.byUrlKey.get(key) as KnownJobRow | undefined),
      latestByRole: (identityKey) => knownJob(statements.latestByRole.get(identityKey) as KnownJobRow | undefined),
      jobIdsOf: (urlKeys) => statements.idsOfUrls.all(JSON.stringify(urlKeys)) as number[],
      boardCounts: () => (statements.boardCounts.all() as CountRow[]).map((row) => ({...row, open: row.open === 1})),
      lives: (ids) => (statements.lives.all(JSON.stringify(ids)) as LifeRow[]).map(withListings),
    }
  }

  /** Writes a run's change set as it is: the run, its jobs, their board counts and lives, their applications' postings. */
  private write(changeSet: RunChangeSet): WrittenRun {
    const {statements} = this
    const record = changeSet.run
    const run = toRun(statements.insertRun.get({...record, sources: JSON.stringify(record.sources)}) as RunRow)
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
      ...jobParameters(found.job),
      description_hash: one.descriptionHash,
      posted_date: job.posted_date,
      reopened: job.reopened,
      reposted: job.reposted,
      also_on: JSON.stringify(job.also_on),
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
      toRun(this.statements.insertRun.get({...run, sources: JSON.stringify(run.sources)}) as RunRow),
    )
  }

  async completeRun(
    id: number,
    outcome: Pick<RunRecord, 'finished_at' | 'status' | 'new_jobs' | 'notified' | 'error'>,
  ): Promise<void> {
    await writeTransaction(this.db, this.file, () => this.statements.completeRun.run({...outcome, id}))
  }

  async markNotified(ids: readonly number[], at: string): Promise<void> {
    await writeTransaction(this.db, this.file, () => {
      for (const id of ids) this.statements.markNotified.run(at, id)
    })
  }

  async lastRun(): Promise<RunRecord | null> {
    const row = read(this.db, this.file, () => this.statements.lastRun.get()) as RunRow | undefined
    return row ? toRun(row) : null
  }

  async listRuns(page: {limit: number; offset: number}): Promise<{runs: RunRecord[]; total: number}> {
    // The page and the total from one snapshot: every read runs in a transaction (`read`).
    return read(this.db, this.file, () => ({
      runs: (this.statements.listRuns.all(page.limit, page.offset) as RunRow[]).map(toRun),
      total: this.statements.countRuns.get() as number,
    }))
  }

  async lastRunJobs(): Promise<{run: RunRecord | null; jobs: KeyedStoredJob[]}>
  async lastRunJobs(fields: 'scoring'): Promise<{run: RunRecord | null; jobs: Keyed<ScoringJob>[]}>
  async lastRunJobs(fields: JobFields): Promise<{run: RunRecord | null; jobs: Keyed<JobSummary>[]}>
  async lastRunJobs(fields: JobFields = 'all'): Promise<{run: RunRecord | null; jobs: Keyed<JobSummary>[]}> {
    // The run and its jobs as one consistent view while a run may be writing: `read` runs in one transaction.
    return read(this.db, this.file, () => {
      const row = this.statements.lastRunWithJobs.get() as RunRow | undefined
      return row
        ? {run: toRun(row), jobs: listed(this.statements.runJobs[fields].all(row.id), fields)}
        : {run: null, jobs: []}
    })
  }

  async closedJobs(limit: number): Promise<KeyedStoredJob[]>
  async closedJobs(limit: number, fields: 'scoring'): Promise<Keyed<ScoringJob>[]>
  async closedJobs(limit: number, fields: JobFields): Promise<Keyed<JobSummary>[]>
  async closedJobs(limit: number, fields: JobFields = 'all'): Promise<Keyed<JobSummary>[]> {
    return listed(
      read(this.db, this.file, () => this.statements.closedJobs[fields].all(limit)),
      fields,
    )
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
    const row = read(this.db, this.file, () => this.statements.findJob.get(id)) as JobRow | undefined
    return row ? fromRow(row) : null
  }

  async jobIdOf(urlKey: string): Promise<number | null> {
    return (read(this.db, this.file, () => this.statements.jobIdByUrlKey.get(urlKey)) as number | undefined) ?? null
  }
}
