import type {FoundJob, Sighting} from '../../core/jobs/dedupe.js'
import type {DescriptionShelf, ParkedDescription} from '../../core/jobs/description-shelf.js'
import type {JobResponse} from '../../core/jobs/job.js'
import type {
  JobFields,
  JobStore,
  JobSummary,
  Keyed,
  KeyedStoredJob,
  LifecycleChanges,
  LifecycleInput,
  NewRunRecord,
  PreviewedJob,
  RunRecord,
  StoredJob,
} from '../../core/jobs/job-store.js'
import {jobTrackingKeys} from '../../core/jobs/job-tracking.js'
import type {Salary} from '../../core/jobs/salary.js'
import {localTimestamp} from '../../core/time.js'
import {canonicalJobUrl} from '../../core/url-identity.js'
import {read, type SqliteDatabase, writeTransaction} from './database.js'
import {textHash} from './text-hash.js'

const JOB_COLUMNS = `jobs.id, title, company, location, url, source, posted_date, first_seen, last_seen, notified_at,
  descriptions.description, salary, employment_type, remote, regions, timezones, seniority, tags, board_id,
  company_url, closed_at, reopened, reposted, also_on`
const JOBS_WITH_DESCRIPTIONS = 'jobs LEFT JOIN descriptions ON descriptions.hash = jobs.description_hash'
/** A listing's SELECT: every field of a job, or only a JobSummary's (no description to join, fewer JSON columns). */
const LISTING: Record<JobFields, string> = {
  all: `SELECT ${JOB_COLUMNS}, url_key FROM ${JOBS_WITH_DESCRIPTIONS}`,
  summary:
    'SELECT id, title, company, location, url, source, posted_date, salary, closed_at, reposted, also_on, url_key FROM jobs',
}
const RUN_ORDER = 'ORDER BY posted_date IS NULL, posted_date DESC, jobs.id'
const CLOSED_ORDER = 'ORDER BY closed_at DESC, jobs.id'
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
type JobRow = Omit<StoredJob, 'salary' | 'remote' | 'regions' | 'timezones' | 'tags' | 'also_on'> & {
  salary: string | null
  remote: number | null
  regions: string
  timezones: string
  tags: string
  also_on: string
}

/** A summary row (LISTING.summary) as SQLite returns it: the salary and the other listings as JSON text. */
type SummaryRow = Omit<JobSummary, 'salary' | 'also_on'> & {salary: string | null; also_on: string}

const salaryOf = (json: string | null) => (json === null ? null : (JSON.parse(json) as Salary))

function fromRow<Row extends JobRow>(row: Row): Omit<Row, keyof JobRow> & StoredJob {
  return {
    ...row,
    salary: salaryOf(row.salary),
    remote: row.remote === null ? null : row.remote === 1,
    regions: JSON.parse(row.regions) as string[],
    timezones: JSON.parse(row.timezones) as string[],
    tags: JSON.parse(row.tags) as string[],
    also_on: JSON.parse(row.also_on) as Sighting[],
  }
}

function fromSummaryRow<Row extends SummaryRow>(row: Row): Omit<Row, keyof SummaryRow> & JobSummary {
  return {...row, salary: salaryOf(row.salary), also_on: JSON.parse(row.also_on) as Sighting[]}
}

/** A listing's rows as jobs, of the fields it read. */
function listed(rows: unknown[], fields: JobFields): Keyed<JobSummary>[] {
  return fields === 'all'
    ? (rows as (JobRow & {url_key: string})[]).map(fromRow)
    : (rows as (SummaryRow & {url_key: string})[]).map(fromSummaryRow)
}

/** The hash of a found job's description: where it is parked, or of its text. */
function descriptionHash({job, parked}: FoundJob): string | null {
  return parked?.hash ?? (job.description === null ? null : textHash(job.description))
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

type ExistingJob = Pick<
  StoredJob,
  'id' | 'first_seen' | 'notified_at' | 'posted_date' | 'closed_at' | 'reopened' | 'reposted' | 'url' | 'source'
> & {
  description_hash: string | null
  also_on: string
  row_hash: string | null
}

/** A stored job a found one is, and whether only its role matched (a new URL: a repost). */
interface Match {
  existing: ExistingJob
  byRole: boolean
}

const EXISTING_COLUMNS =
  'id, first_seen, notified_at, posted_date, description_hash, closed_at, reopened, reposted, also_on, url, source, row_hash'
/** A role seen again under a new URL within this many days is the same job reposted; later, it is a new job. */
const REPOST_WINDOW_DAYS = 90
/** The most other listings a job remembers. */
const ALSO_ON_LIMIT = 20
const DAY_MS = 86_400_000

/**
 * A found job seen again: it keeps its id, first sighting, notification and a posted date the board dropped; it
 * is open again, counts a return after closing as reopened and reposted, a new URL of the role as reposted, and
 * remembers its other listings: this run's, the URL it had before a repost, and the earlier ones.
 */
function remembered(found: FoundJob, {existing, byRole}: Match, seenAt: string): StoredJob {
  const reappeared = existing.closed_at !== null
  const earlier = JSON.parse(existing.also_on) as Sighting[]
  const previous = byRole ? [{source: existing.source, url: existing.url}] : []
  return {
    ...found.job,
    posted_date: found.job.posted_date ?? existing.posted_date,
    id: existing.id,
    first_seen: existing.first_seen,
    last_seen: seenAt,
    notified_at: existing.notified_at,
    closed_at: null,
    reopened: existing.reopened + (reappeared ? 1 : 0),
    reposted: existing.reposted + (reappeared || byRole ? 1 : 0),
    also_on: otherListings(found, [...found.also_on, ...previous, ...earlier]),
  }
}

/** Listings other than the job's own URLs, each once, newest first, at most ALSO_ON_LIMIT. */
function otherListings(found: FoundJob, listings: readonly Sighting[]): Sighting[] {
  if (listings.length === found.also_on.length) return found.also_on
  const seen = new Set([found.urlKey])
  const kept: Sighting[] = []
  for (const listing of listings) {
    const key = canonicalJobUrl(listing.url)
    if (seen.has(key)) continue
    seen.add(key)
    kept.push(listing)
    if (kept.length === ALSO_ON_LIMIT) break
  }
  return kept
}

/** The keys a stored row can be tracked under (jobTrackingKeys), its other listings read from their JSON. */
function trackingKeys(row: {url: string; url_key: string; also_on: string}): string[] {
  return jobTrackingKeys({url: row.url, also_on: JSON.parse(row.also_on) as Sighting[]}, row.url_key)
}

function fresh(found: FoundJob, seenAt: string): Omit<StoredJob, 'id'> {
  return {
    ...found.job,
    first_seen: seenAt,
    last_seen: seenAt,
    notified_at: null,
    closed_at: null,
    reopened: 0,
    reposted: 0,
    also_on: found.also_on,
  }
}

function daysBefore(localTime: string, days: number): string {
  return localTimestamp(new Date(new Date(localTime).getTime() - days * DAY_MS))
}

function toRun(row: RunRow): RunRecord {
  // Runs recorded before anomalies were judged have none.
  const sources = (JSON.parse(row.sources) as RunRecord['sources']).map((source) => ({
    ...source,
    anomaly: source.anomaly ?? null,
  }))
  return {...row, sources}
}

/**
 * Jobs and runs in jobagent.db, beside the tracker so one transaction can cover a run's writes. It is also the
 * run's DescriptionShelf: the `descriptions` table, where texts go in by content, each once, and the jobs a run
 * stores find theirs; the ones no job points at after a run are removed as that run is stored, so a run that fails
 * before storing leaves its texts only until the next one.
 */
export class SqliteJobStore implements JobStore, DescriptionShelf {
  private readonly statements
  /** Writes that belong with a run's jobs (what their descriptions were read from), made in the same transaction. */
  private readonly withEachRun: (() => void)[] = []

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
  ) {
    const lifecycleColumns = 'closed_at = NULL, reopened = @reopened, reposted = @reposted, also_on = @also_on'
    this.statements = {
      insertRun: db.prepare(
        `INSERT INTO runs (started_at, finished_at, status, mode, jobs_found, new_jobs, notified, sources, error)
         VALUES (@started_at, @finished_at, @status, @mode, @jobs_found, @new_jobs, @notified, @sources, @error)
         RETURNING *`,
      ),
      byUrlKey: db.prepare(
        `SELECT ${EXISTING_COLUMNS} FROM jobs WHERE id = (SELECT job_id FROM job_urls WHERE url_key = ?)`,
      ),
      keepUrl: db.prepare(
        `INSERT INTO job_urls (url_key, job_id) VALUES (?, ?)
         ON CONFLICT (url_key) DO UPDATE SET job_id = excluded.job_id WHERE job_id <> excluded.job_id`,
      ),
      byIdentity: db.prepare(
        `SELECT ${EXISTING_COLUMNS} FROM jobs WHERE identity_key = ? AND last_seen >= ?
         ORDER BY last_seen DESC LIMIT 1`,
      ),
      insertJob: db.prepare(
        `INSERT INTO jobs (url_key, identity_key, title, company, location, url, source, posted_date, first_seen,
         last_seen, last_run_id, description_hash, also_on, row_hash, ${DETAIL_COLUMNS.join(', ')}) VALUES (@urlKey,
         @identityKey, @title, @company, @location, @url, @source, @posted_date, @seen, @seen, @runId,
         @description_hash, @also_on, @row_hash, ${DETAIL_COLUMNS.map((c) => `@${c}`).join(', ')})`,
      ),
      updateJob: db.prepare(
        `UPDATE jobs SET url_key = @urlKey, identity_key = @identityKey, title = @title, company = @company,
         location = @location, url = @url, source = @source, posted_date = coalesce(@posted_date, posted_date),
         last_seen = @seen, last_run_id = @runId, description_hash = @description_hash, ${lifecycleColumns},
         row_hash = @row_hash, ${DETAIL_COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`,
      ),
      // A job seen again with the row it has: SQLite rewrites every index of a column an UPDATE sets, changed or not.
      touchJob: db.prepare('UPDATE jobs SET last_seen = ?, last_run_id = ? WHERE id = ?'),
      hasDescription: db.prepare('SELECT 1 FROM descriptions WHERE hash = ?').pluck(),
      putDescription: db.prepare('INSERT OR IGNORE INTO descriptions (hash, description) VALUES (?, ?)'),
      // Texts no job points at: replaced ones, and ones parked for jobs a run then left out (duplicates, the floor).
      dropUnused: db.prepare(
        `DELETE FROM descriptions WHERE hash IN
           (SELECT hash FROM descriptions EXCEPT SELECT description_hash FROM jobs WHERE description_hash IS NOT NULL)`,
      ),
      // The readings of texts that are gone go with them.
      dropUnusedReadings: db.prepare(
        'DELETE FROM description_readings WHERE description_hash NOT IN (SELECT hash FROM descriptions)',
      ),
      // The lifecycle rules, one statement each for a whole board (docs/LIFECYCLE.md).
      idsOfUrls: db
        .prepare('SELECT DISTINCT job_id FROM job_urls WHERE url_key IN (SELECT value FROM json_each(?))')
        .pluck(),
      countMisses: db.prepare(
        `UPDATE job_boards SET misses = misses + 1 WHERE board = @board AND criteria = @criteria
         AND job_id NOT IN (SELECT value FROM json_each(@present))`,
      ),
      markListed: db.prepare(
        `INSERT INTO job_boards (job_id, board, criteria, misses)
         SELECT value, @board, @criteria, 0 FROM json_each(@present) WHERE true
         ON CONFLICT (job_id, board) DO UPDATE SET misses = 0, criteria = excluded.criteria
         WHERE misses <> 0 OR criteria <> excluded.criteria`,
      ),
      reopenListed: db.prepare(
        `UPDATE jobs SET closed_at = NULL, reopened = reopened + 1, reposted = reposted + 1
         WHERE closed_at IS NOT NULL AND id IN (SELECT value FROM json_each(?)) RETURNING url, url_key, also_on`,
      ),
      closeMissing: db.prepare(
        `UPDATE jobs SET closed_at = @now WHERE closed_at IS NULL AND id IN
         (SELECT job_id FROM job_boards GROUP BY job_id HAVING min(misses) >= @after)
         RETURNING id, title, company, url, url_key, also_on`,
      ),
      forgetBoards: db.prepare('DELETE FROM job_boards WHERE job_id IN (SELECT value FROM json_each(?))'),
      postingClosed: db.prepare(
        `UPDATE applications SET posting_closed_at = @at WHERE posting_closed_at IS NULL
         AND url_key IN (SELECT value FROM json_each(@keys))`,
      ),
      postingOpen: db.prepare(
        `UPDATE applications SET posting_closed_at = NULL WHERE posting_closed_at IS NOT NULL
         AND url_key IN (SELECT value FROM json_each(?))`,
      ),
      completeRun: db.prepare(
        `UPDATE runs SET finished_at = @finished_at, status = @status, new_jobs = @new_jobs, notified = @notified,
         error = @error WHERE id = @id`,
      ),
      setNewJobs: db.prepare('UPDATE runs SET new_jobs = ? WHERE id = ?'),
      markNotified: db.prepare('UPDATE jobs SET notified_at = ? WHERE id = ?'),
      lastRun: db.prepare('SELECT * FROM runs ORDER BY id DESC LIMIT 1'),
      listRuns: db.prepare('SELECT * FROM runs ORDER BY id DESC LIMIT ? OFFSET ?'),
      countRuns: db.prepare('SELECT count(*) FROM runs').pluck(),
      lastRunWithJobs: db.prepare('SELECT * FROM runs WHERE id = (SELECT max(last_run_id) FROM jobs)'),
      runJobs: {
        all: db.prepare(`${LISTING.all} WHERE last_run_id = ? ${RUN_ORDER}`),
        summary: db.prepare(`${LISTING.summary} WHERE last_run_id = ? ${RUN_ORDER}`),
      },
      closedJobs: {
        all: db.prepare(`${LISTING.all} WHERE closed_at IS NOT NULL ${CLOSED_ORDER} LIMIT ?`),
        summary: db.prepare(`${LISTING.summary} WHERE closed_at IS NOT NULL ${CLOSED_ORDER} LIMIT ?`),
      },
      findJob: db.prepare(`SELECT ${JOB_COLUMNS} FROM ${JOBS_WITH_DESCRIPTIONS} WHERE jobs.id = ?`),
      jobIdByUrlKey: db.prepare('SELECT job_id FROM job_urls WHERE url_key = ?').pluck(),
    }
  }

  async saveRun(
    run: NewRunRecord,
    jobs: readonly FoundJob[],
    lifecycle: LifecycleInput,
    isNew?: (job: StoredJob) => boolean,
  ): Promise<{run: RunRecord; jobs: StoredJob[]; newJobs: StoredJob[]; changes: LifecycleChanges}> {
    return writeTransaction(this.db, this.file, () => {
      const saved = toRun(this.statements.insertRun.get({...run, sources: JSON.stringify(run.sources)}) as RunRow)
      const seen = run.started_at
      const matches = this.matchAll(jobs, seen)
      // Rows are built here rather than read back (RETURNING): a run upserts thousands of jobs.
      const stored = jobs.map((found, index) => {
        const match = matches[index]
        const description = descriptionHash(found)
        // The statement's parameters, built only for a row that is written.
        const row = (life: Pick<StoredJob, 'posted_date' | 'reopened' | 'reposted' | 'also_on'>, hash: string) => ({
          ...jobParameters(found.job),
          description_hash: description,
          posted_date: life.posted_date,
          reopened: life.reopened,
          reposted: life.reposted,
          also_on: JSON.stringify(life.also_on),
          urlKey: found.urlKey,
          identityKey: found.identityKey,
          runId: saved.id,
          seen,
          row_hash: hash,
        })
        if (match) {
          const job = remembered(found, match, seen)
          const hash = rowHash(found, description, job)
          // A closed job's row says so outside what the hash covers (the lifecycle rules close it): it is rewritten.
          if (hash === match.existing.row_hash && match.existing.closed_at === null) {
            this.statements.touchJob.run(seen, saved.id, job.id)
          } else {
            this.statements.updateJob.run({...row(job, hash), id: job.id})
          }
          this.keepDescription(found, description, match.existing.description_hash)
          this.keepUrls(job.id, found)
          return job
        }
        const job = fresh(found, seen)
        const id = Number(this.statements.insertJob.run(row(job, rowHash(found, description, job))).lastInsertRowid)
        this.keepDescription(found, description, null)
        this.keepUrls(id, found)
        return {...job, id}
      })
      const reopenedHere = stored.filter((_, index) => matches[index]?.existing.closed_at != null)
      const changes = this.applyLifecycle(jobs, stored, lifecycle, seen)
      if (reopenedHere.length > 0) {
        const keys = reopenedHere.flatMap((job) => jobTrackingKeys(job, canonicalJobUrl(job.url)))
        this.statements.postingOpen.run(JSON.stringify(keys))
      }
      changes.reopened += reopenedHere.length
      changes.reposted += stored.filter((job, index) => {
        const match = matches[index]
        return match !== null && match !== undefined && job.reposted > match.existing.reposted
      }).length
      if (this.statements.dropUnused.run().changes > 0) this.statements.dropUnusedReadings.run()
      for (const write of this.withEachRun) write()
      if (!isNew) return {run: saved, jobs: stored, newJobs: stored, changes}
      const newJobs = stored.filter(isNew)
      this.statements.setNewJobs.run(newJobs.length, saved.id)
      return {run: {...saved, new_jobs: newJobs.length}, jobs: stored, newJobs, changes}
    })
  }

  async park(texts: readonly string[]): Promise<ParkedDescription[]> {
    const parked = texts.map((text) => ({hash: textHash(text), length: text.length}))
    // A board seen before mostly brings texts the table has: those are only looked up, and a board whose texts
    // are all there costs no write.
    const missing = read(this.db, this.file, () =>
      parked.flatMap((spot, index) => (this.statements.hasDescription.get(spot.hash) ? [] : [index])),
    )
    if (missing.length > 0) {
      await writeTransaction(this.db, this.file, () => {
        for (const index of missing) this.statements.putDescription.run(parked[index]?.hash, texts[index])
      })
    }
    return parked
  }

  /** `write` runs inside the transaction of every run saved from now on, after the run's jobs are stored. */
  writeWithEachRun(write: () => void): void {
    this.withEachRun.push(write)
  }

  async previewRun(jobs: readonly FoundJob[], seenAt: string): Promise<PreviewedJob[]> {
    return read(this.db, this.file, () => {
      const matches = this.matchAll(jobs, seenAt)
      return jobs.map((found, index) => {
        const match = matches[index]
        return match ? remembered(found, match, seenAt) : {...fresh(found, seenAt), id: null}
      })
    })
  }

  /**
   * The stored job each found one is (null: a new job): one of its canonical URLs, the record's own first, else
   * its role seen within REPOST_WINDOW_DAYS. A stored job is matched once per run.
   */
  private matchAll(jobs: readonly FoundJob[], seenAt: string): (Match | null)[] {
    const since = daysBefore(seenAt, REPOST_WINDOW_DAYS)
    const taken = new Set<number>()
    return jobs.map((found) => {
      let match: Match | null = null
      for (const key of found.urlKeys) {
        const existing = this.statements.byUrlKey.get(key) as ExistingJob | undefined
        if (existing && !taken.has(existing.id)) {
          match = {existing, byRole: false}
          break
        }
      }
      if (!match) {
        const existing = this.statements.byIdentity.get(found.identityKey, since) as ExistingJob | undefined
        if (existing && !taken.has(existing.id)) match = {existing, byRole: true}
      }
      if (match) taken.add(match.existing.id)
      return match
    })
  }

  /**
   * Per board that can close jobs: the jobs it listed (stored now, or left out by jobagent's own filters) start
   * counting again and come back if closed; the ones it did not list count one more miss. A job every board of
   * which has missed it `closeAfterRuns` times is closed, and the applications tracked under it learn so.
   */
  private applyLifecycle(
    jobs: readonly FoundJob[],
    stored: readonly StoredJob[],
    {listings, closeAfterRuns}: LifecycleInput,
    now: string,
  ): LifecycleChanges {
    const changes: LifecycleChanges = {closed: [], reopened: 0, reposted: 0, postings_closed: 0}
    if (listings.length === 0) return changes
    const storedKeys = new Set(jobs.flatMap((found) => found.urlKeys))
    for (const {board, criteria, urlKeys} of listings) {
      const present = new Set<number>()
      jobs.forEach((found, index) => {
        if (found.boards.includes(board)) present.add(stored[index]!.id)
      })
      const leftOut = urlKeys.filter((key) => !storedKeys.has(key))
      if (leftOut.length > 0) {
        for (const id of this.statements.idsOfUrls.all(JSON.stringify(leftOut)) as number[]) present.add(id)
      }
      const parameters = {board, criteria: textHash(criteria), present: JSON.stringify([...present])}
      this.statements.countMisses.run(parameters)
      this.statements.markListed.run(parameters)
      const reopened = this.statements.reopenListed.all(parameters.present) as {
        url: string
        url_key: string
        also_on: string
      }[]
      if (reopened.length > 0) this.statements.postingOpen.run(JSON.stringify(reopened.flatMap(trackingKeys)))
      changes.reopened += reopened.length
      changes.reposted += reopened.length
    }
    const closed = this.statements.closeMissing.all({now, after: closeAfterRuns}) as {
      id: number
      title: string
      company: string
      url: string
      url_key: string
      also_on: string
    }[]
    if (closed.length > 0) {
      this.statements.forgetBoards.run(JSON.stringify(closed.map((job) => job.id)))
      const keys = JSON.stringify(closed.flatMap(trackingKeys))
      changes.postings_closed = this.statements.postingClosed.run({at: now, keys}).changes
    }
    changes.closed = closed.map(({id, title, company}) => ({id, title, company}))
    return changes
  }

  /** Every URL the job is listed under now finds it in later runs (job_urls), its own included. */
  private keepUrls(id: number, found: FoundJob): void {
    for (const key of new Set([found.urlKey, ...found.urlKeys])) this.statements.keepUrl.run(key, id)
  }

  /** Writes a job's description text when it has one the store lacks (a parked one is there already). */
  private keepDescription({job}: FoundJob, hash: string | null, stored: string | null): void {
    if (hash === stored || hash === null || job.description === null) return
    this.statements.putDescription.run(hash, job.description)
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
  async closedJobs(limit: number, fields: JobFields): Promise<Keyed<JobSummary>[]>
  async closedJobs(limit: number, fields: JobFields = 'all'): Promise<Keyed<JobSummary>[]> {
    return listed(
      read(this.db, this.file, () => this.statements.closedJobs[fields].all(limit)),
      fields,
    )
  }

  async findJob(id: number): Promise<StoredJob | null> {
    const row = read(this.db, this.file, () => this.statements.findJob.get(id)) as JobRow | undefined
    return row ? fromRow(row) : null
  }

  async jobIdOf(urlKey: string): Promise<number | null> {
    return (read(this.db, this.file, () => this.statements.jobIdByUrlKey.get(urlKey)) as number | undefined) ?? null
  }
}

/**
 * The hash of what a run writes into a job's row besides when it was seen and by which run: the found job's fields
 * and keys, its description's hash, and its life (`posted_date` after a board dropped it, reopened, reposted, the
 * other listings). Equal hashes, equal rows. Worked out from the values themselves, so a job seen again unchanged
 * costs no statement parameters.
 */
function rowHash(
  {job, urlKey, identityKey}: FoundJob,
  descriptionHash: string | null,
  life: Pick<StoredJob, 'posted_date' | 'reopened' | 'reposted' | 'also_on'>,
): string {
  return textHash(
    JSON.stringify([
      urlKey,
      identityKey,
      job.title,
      job.company,
      job.location,
      job.url,
      job.source,
      life.posted_date,
      descriptionHash,
      life.reopened,
      life.reposted,
      life.also_on,
      ...DETAIL_COLUMNS.map((column) => job[column]),
    ]),
  )
}
