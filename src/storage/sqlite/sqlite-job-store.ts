import {createHash} from 'node:crypto'
import type {JobResponse} from '../../core/jobs/job.js'
import type {
  JobStore,
  KeyedJob,
  KeyedStoredJob,
  NewRunRecord,
  PreviewedJob,
  RunRecord,
  StoredJob,
} from '../../core/jobs/job-store.js'
import type {Salary} from '../../core/jobs/salary.js'
import {read, type SqliteDatabase, writeTransaction} from './database.js'

const JOB_COLUMNS = `jobs.id, title, company, location, url, source, posted_date, first_seen, last_seen, notified_at,
  job_descriptions.description, salary, employment_type, remote, regions, timezones, seniority, tags, board_id,
  company_url`
const JOBS_WITH_DESCRIPTIONS = 'jobs LEFT JOIN job_descriptions ON job_descriptions.job_id = jobs.id'
/** The details kept in the jobs row; the description has its own table. */
const DETAIL_COLUMNS = [
  'salary',
  'employment_type',
  'remote',
  'regions',
  'timezones',
  'seniority',
  'tags',
  'board_id',
  'company_url',
] as const

/** A jobs row as SQLite returns it: lists and the salary as JSON text, `remote` as 0, 1 or null. */
type JobRow = Omit<StoredJob, 'salary' | 'remote' | 'regions' | 'timezones' | 'tags'> & {
  salary: string | null
  remote: number | null
  regions: string
  timezones: string
  tags: string
}

function fromRow<Row extends JobRow>(row: Row): Omit<Row, keyof JobRow> & StoredJob {
  return {
    ...row,
    salary: row.salary === null ? null : (JSON.parse(row.salary) as Salary),
    remote: row.remote === null ? null : row.remote === 1,
    regions: JSON.parse(row.regions) as string[],
    timezones: JSON.parse(row.timezones) as string[],
    tags: JSON.parse(row.tags) as string[],
  }
}

/** The job's fields as statement parameters: JSON for lists and the salary, 0/1 for `remote`. */
function jobParameters(job: JobResponse) {
  return {
    ...job,
    description_hash: job.description === null ? null : descriptionHash(job.description),
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

type ExistingJob = Pick<StoredJob, 'id' | 'first_seen' | 'notified_at' | 'posted_date'> & {
  description_hash: string | null
}

/** Tells a changed description from the one stored without reading it back. */
function descriptionHash(description: string): string {
  return createHash('sha1').update(description).digest('base64')
}

/** A found job seen again: it keeps its id, first sighting, notification and a posted date the board dropped. */
function remembered(job: KeyedJob['job'], existing: ExistingJob, seenAt: string): StoredJob {
  return {
    ...job,
    posted_date: job.posted_date ?? existing.posted_date,
    id: existing.id,
    first_seen: existing.first_seen,
    last_seen: seenAt,
    notified_at: existing.notified_at,
  }
}

function toRun(row: RunRow): RunRecord {
  // Runs recorded before anomalies were judged have none.
  const sources = (JSON.parse(row.sources) as RunRecord['sources']).map((source) => ({
    ...source,
    anomaly: source.anomaly ?? null,
  }))
  return {...row, sources}
}

/** Jobs and runs in jobagent.db, beside the tracker so one transaction can cover a run's writes. */
export class SqliteJobStore implements JobStore {
  private readonly statements

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
  ) {
    this.statements = {
      insertRun: db.prepare(
        `INSERT INTO runs (started_at, finished_at, status, mode, jobs_found, new_jobs, notified, sources, error)
         VALUES (@started_at, @finished_at, @status, @mode, @jobs_found, @new_jobs, @notified, @sources, @error)
         RETURNING *`,
      ),
      byUrlKey: db.prepare(
        'SELECT id, first_seen, notified_at, posted_date, description_hash FROM jobs WHERE url_key = ?',
      ),
      byIdentity: db.prepare(
        `SELECT id, first_seen, notified_at, posted_date, description_hash FROM jobs WHERE identity_key = ?
         ORDER BY last_seen DESC LIMIT 1`,
      ),
      insertJob: db.prepare(
        `INSERT INTO jobs (url_key, identity_key, title, company, location, url, source, posted_date, first_seen,
         last_seen, last_run_id, description_hash, ${DETAIL_COLUMNS.join(', ')}) VALUES (@urlKey, @identityKey,
         @title, @company, @location, @url, @source, @posted_date, @seen, @seen, @runId, @description_hash,
         ${DETAIL_COLUMNS.map((c) => `@${c}`).join(', ')})`,
      ),
      updateJob: db.prepare(
        `UPDATE jobs SET url_key = @urlKey, identity_key = @identityKey, title = @title, company = @company,
         location = @location, url = @url, source = @source, posted_date = coalesce(@posted_date, posted_date),
         last_seen = @seen, last_run_id = @runId, description_hash = @description_hash,
         ${DETAIL_COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`,
      ),
      putDescription: db.prepare(
        'INSERT INTO job_descriptions (job_id, description) VALUES (?, ?) ON CONFLICT (job_id) DO UPDATE SET description = excluded.description',
      ),
      dropDescription: db.prepare('DELETE FROM job_descriptions WHERE job_id = ?'),
      completeRun: db.prepare(
        'UPDATE runs SET finished_at = @finished_at, status = @status, notified = @notified, error = @error WHERE id = @id',
      ),
      markNotified: db.prepare('UPDATE jobs SET notified_at = ? WHERE id = ?'),
      lastRun: db.prepare('SELECT * FROM runs ORDER BY id DESC LIMIT 1'),
      listRuns: db.prepare('SELECT * FROM runs ORDER BY id DESC LIMIT ? OFFSET ?'),
      countRuns: db.prepare('SELECT count(*) FROM runs').pluck(),
      lastRunWithJobs: db.prepare('SELECT * FROM runs WHERE id = (SELECT max(last_run_id) FROM jobs)'),
      runJobs: db.prepare(
        `SELECT ${JOB_COLUMNS}, url_key FROM ${JOBS_WITH_DESCRIPTIONS} WHERE last_run_id = ?
         ORDER BY posted_date IS NULL, posted_date DESC, jobs.id`,
      ),
      findJob: db.prepare(`SELECT ${JOB_COLUMNS} FROM ${JOBS_WITH_DESCRIPTIONS} WHERE jobs.id = ?`),
    }
  }

  async saveRun(run: NewRunRecord, jobs: readonly KeyedJob[]): Promise<{run: RunRecord; jobs: StoredJob[]}> {
    return writeTransaction(this.db, this.file, () => {
      const saved = toRun(this.statements.insertRun.get({...run, sources: JSON.stringify(run.sources)}) as RunRow)
      // Rows are built here rather than read back (RETURNING): a run upserts thousands of jobs.
      const stored = jobs.map((keyed) => {
        const existing = this.existing(keyed)
        const values = {
          ...jobParameters(keyed.job),
          urlKey: keyed.urlKey,
          identityKey: keyed.identityKey,
          runId: saved.id,
        }
        const seen = run.started_at
        if (existing) {
          this.statements.updateJob.run({...values, seen, id: existing.id})
          this.keepDescription(existing.id, keyed.job.description, values.description_hash, existing.description_hash)
          return remembered(keyed.job, existing, seen)
        }
        const id = Number(this.statements.insertJob.run({...values, seen}).lastInsertRowid)
        this.keepDescription(id, keyed.job.description, values.description_hash, null)
        return {...keyed.job, id, first_seen: seen, last_seen: seen, notified_at: null}
      })
      return {run: saved, jobs: stored}
    })
  }

  async previewRun(jobs: readonly KeyedJob[], seenAt: string): Promise<PreviewedJob[]> {
    return read(this.db, this.file, () =>
      jobs.map((keyed) => {
        const existing = this.existing(keyed)
        if (existing) return remembered(keyed.job, existing, seenAt)
        return {...keyed.job, id: null, first_seen: seenAt, last_seen: seenAt, notified_at: null}
      }),
    )
  }

  /** Writes a job's description only when it differs from the stored one (by hash). */
  private keepDescription(id: number, description: string | null, hash: string | null, stored: string | null): void {
    if (hash === stored) return
    if (description === null) this.statements.dropDescription.run(id)
    else this.statements.putDescription.run(id, description)
  }

  /** The stored job a found one is: same canonical URL or, failing that, same identity key. */
  private existing({urlKey, identityKey}: KeyedJob): ExistingJob | undefined {
    return (this.statements.byUrlKey.get(urlKey) ?? this.statements.byIdentity.get(identityKey)) as
      | ExistingJob
      | undefined
  }

  async saveFailedRun(run: NewRunRecord): Promise<RunRecord> {
    return writeTransaction(this.db, this.file, () =>
      toRun(this.statements.insertRun.get({...run, sources: JSON.stringify(run.sources)}) as RunRow),
    )
  }

  async completeRun(
    id: number,
    outcome: Pick<RunRecord, 'finished_at' | 'status' | 'notified' | 'error'>,
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

  async lastRunJobs(): Promise<{run: RunRecord | null; jobs: KeyedStoredJob[]}> {
    // The run and its jobs as one consistent view while a run may be writing: `read` runs in one transaction.
    return read(this.db, this.file, () => {
      const row = this.statements.lastRunWithJobs.get() as RunRow | undefined
      return row
        ? {run: toRun(row), jobs: (this.statements.runJobs.all(row.id) as (JobRow & {url_key: string})[]).map(fromRow)}
        : {run: null, jobs: []}
    })
  }

  async findJob(id: number): Promise<StoredJob | null> {
    const row = read(this.db, this.file, () => this.statements.findJob.get(id)) as JobRow | undefined
    return row ? fromRow(row) : null
  }
}
