import {
  type ApplicationCounts,
  type ApplicationRecord,
  type ApplicationStatus,
  type ApplicationWithHistory,
  isAppliedStatus,
  type StatusChange,
  sameRecord,
  type TrackedApplication,
} from '../../core/applications/application.js'
import type {
  ApplicationStore,
  ImportOutcome,
  StatusEdit,
  StatusUpdate,
} from '../../core/applications/application-store.js'
import {type FollowUpStore, WAITING_STATUSES, type WaitingQuery} from '../../core/applications/follow-ups.js'
import type {Page} from '../../core/paging.js'
import {applicationCanonicalKey} from '../../core/url-identity.js'
import {read, type SqliteDatabase, writeTransaction} from './database.js'

interface ApplicationRow extends TrackedApplication {
  id: number
}

const COLUMNS = 'id, title, company, location, url, source, applied_date, status, notes, updated_at, posting_closed_at'
/** The applications due for a follow-up (FollowUpStore.waiting); the statuses are bound first. */
const WAITING = `status IN (${WAITING_STATUSES.map(() => '?').join(', ')})
  AND updated_at <= @changedBefore AND (snoozed_until IS NULL OR snoozed_until <= @now)
  AND (@remindedBefore IS NULL OR reminded_at IS NULL OR reminded_at <= @remindedBefore)`

function toTracked(row: ApplicationRow): TrackedApplication {
  const {id: _id, ...tracked} = row
  return tracked
}

/** The tracker's storage in jobagent.db. Statements are prepared once; writes take the write lock up front. */
export class SqliteApplicationStore implements ApplicationStore, FollowUpStore {
  private readonly statements

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
  ) {
    this.statements = {
      insert: db.prepare(
        `INSERT INTO applications (url_key, canonical_key, url, title, company, location, source, applied_date, status,
           notes, updated_at)
         VALUES (@urlKey, @canonicalKey, @url, @title, @company, @location, @source, @applied_date, @status, @notes, @at)
         ON CONFLICT (url_key) DO NOTHING RETURNING ${COLUMNS}`,
      ),
      get: db.prepare(`SELECT ${COLUMNS} FROM applications WHERE url_key = ?`),
      // LIMIT -1 is SQLite's "no limit": one statement serves the whole list and a page of it.
      list: db.prepare(`SELECT ${COLUMNS} FROM applications ORDER BY applied_date DESC, id DESC LIMIT ? OFFSET ?`),
      listByStatus: db.prepare(
        `SELECT ${COLUMNS} FROM applications WHERE status = ? ORDER BY applied_date DESC, id DESC LIMIT ? OFFSET ?`,
      ),
      countAll: db.prepare('SELECT count(*) FROM applications').pluck(),
      countByStatus: db.prepare('SELECT count(*) FROM applications WHERE status = ?').pluck(),
      history: db.prepare(
        `SELECT h.changed_at, h.old_status, h.new_status, h.old_notes FROM status_history h
         JOIN applications a ON a.id = h.application_id WHERE a.url_key = ? ORDER BY h.id`,
      ),
      // One pass over both tables: a record without changes comes once with null history columns.
      allWithHistory: db.prepare(
        `SELECT a.id, a.title, a.company, a.location, a.url, a.source, a.applied_date, a.status, a.notes,
         a.updated_at, a.posting_closed_at, h.changed_at, h.old_status, h.new_status, h.old_notes
         FROM applications a LEFT JOIN status_history h ON h.application_id = a.id ORDER BY a.id, h.id`,
      ),
      addHistory: db.prepare(
        `INSERT INTO status_history (application_id, changed_at, old_status, new_status, old_notes)
         VALUES (?, ?, ?, ?, ?)`,
      ),
      setStatus: db.prepare(
        `UPDATE applications SET status = ?, notes = ?, updated_at = ? WHERE id = ? RETURNING ${COLUMNS}`,
      ),
      overwrite: db.prepare(
        `UPDATE applications SET url = @url, canonical_key = @canonicalKey, title = @title, company = @company,
         location = @location, source = @source, applied_date = CASE WHEN @keepAppliedDate THEN applied_date ELSE @applied_date END,
         status = @status, notes = @notes, updated_at = @at
         WHERE id = @id`,
      ),
      counts: db.prepare(
        `SELECT count(*) AS total, coalesce(sum(status <> 'saved'), 0) AS applied,
         coalesce(sum(status = 'saved'), 0) AS pending FROM applications`,
      ),
      // One statement for a whole list of keys (a JSON array): the applications tracked under one of them, as posted
      // or without tracking parameters; each is an index lookup.
      trackedOf: db.prepare(
        `SELECT url_key, canonical_key, url, status FROM applications WHERE url_key IN (SELECT value FROM json_each(@keys))
         UNION ALL SELECT url_key, canonical_key, url, status FROM applications
         WHERE canonical_key IN (SELECT value FROM json_each(@keys))`,
      ),
      appliedKeys: db.prepare(`SELECT url_key, canonical_key FROM applications WHERE status <> 'saved'`),
      // LIMIT -1: all of them.
      waiting: db.prepare(`SELECT ${COLUMNS} FROM applications WHERE ${WAITING} ORDER BY updated_at, id LIMIT @limit`),
      countWaiting: db.prepare(`SELECT count(*) FROM applications WHERE ${WAITING}`).pluck(),
      remind: db.prepare('UPDATE applications SET reminded_at = ? WHERE url_key = ?'),
      snooze: db.prepare('UPDATE applications SET snoozed_until = ? WHERE url_key = ?'),
      postingClosed: db.prepare(
        `UPDATE applications SET posting_closed_at = @at WHERE posting_closed_at IS NULL
         AND url_key IN (SELECT value FROM json_each(@keys))`,
      ),
      postingOpen: db.prepare(
        `UPDATE applications SET posting_closed_at = NULL WHERE posting_closed_at IS NOT NULL
         AND url_key IN (SELECT value FROM json_each(?))`,
      ),
    }
  }

  async insert(record: ApplicationRecord, urlKey: string, at: string): Promise<TrackedApplication | null> {
    const row = (await writeTransaction(this.db, this.file, () => {
      return this.statements.insert.get({...record, urlKey, canonicalKey: applicationCanonicalKey(record.url), at})
    })) as ApplicationRow | undefined
    return row ? toTracked(row) : null
  }

  async get(urlKey: string): Promise<TrackedApplication | null> {
    const row = read(this.db, this.file, () => this.statements.get.get(urlKey)) as ApplicationRow | undefined
    return row ? toTracked(row) : null
  }

  async list(filter: {status?: ApplicationStatus; page?: Page} = {}): Promise<TrackedApplication[]> {
    const limit = filter.page?.limit ?? -1
    const offset = filter.page?.offset ?? 0
    const rows = read(this.db, this.file, () =>
      filter.status
        ? this.statements.listByStatus.all(filter.status, limit, offset)
        : this.statements.list.all(limit, offset),
    ) as ApplicationRow[]
    return rows.map(toTracked)
  }

  async countOf(filter: {status?: ApplicationStatus} = {}): Promise<number> {
    return read(this.db, this.file, () =>
      filter.status ? this.statements.countByStatus.get(filter.status) : this.statements.countAll.get(),
    ) as number
  }

  async history(urlKey: string): Promise<StatusChange[]> {
    return read(this.db, this.file, () => this.statements.history.all(urlKey)) as StatusChange[]
  }

  async allWithHistory(): Promise<ApplicationWithHistory[]> {
    const rows = read(this.db, this.file, () => this.statements.allWithHistory.all()) as (ApplicationRow &
      Partial<Record<keyof StatusChange, string | null>>)[]
    const byId = new Map<number, ApplicationWithHistory>()
    for (const {changed_at, old_status, new_status, old_notes, ...row} of rows) {
      let entry = byId.get(row.id)
      if (!entry) {
        entry = {application: toTracked(row), history: []}
        byId.set(row.id, entry)
      }
      if (changed_at != null) {
        entry.history.push({
          changed_at,
          old_status: old_status as ApplicationStatus,
          new_status: new_status as ApplicationStatus,
          old_notes: old_notes ?? '',
        })
      }
    }
    return [...byId.values()]
  }

  async changeStatus(urlKey: string, change: StatusEdit, at: string): Promise<StatusUpdate | null> {
    return writeTransaction(this.db, this.file, () => {
      const previous = this.statements.get.get(urlKey) as ApplicationRow | undefined
      if (!previous) return null
      const status = change.status ?? previous.status
      const notes = change.notes ?? previous.notes
      this.statements.addHistory.run(previous.id, at, previous.status, status, previous.notes)
      const current = this.statements.setStatus.get(status, notes, at, previous.id) as ApplicationRow
      return {previous: toTracked(previous), current: toTracked(current)}
    })
  }

  async counts(): Promise<ApplicationCounts> {
    return read(this.db, this.file, () => this.statements.counts.get()) as ApplicationCounts
  }

  async appliedUrlKeys(): Promise<Set<string>> {
    const rows = read(this.db, this.file, () => this.statements.appliedKeys.raw().all()) as [string, string | null][]
    const keys = new Set<string>()
    for (const [urlKey, canonicalKey] of rows) {
      keys.add(urlKey)
      if (canonicalKey !== null) keys.add(canonicalKey)
    }
    return keys
  }

  async trackedOf(urlKeys: readonly string[]): Promise<Map<string, {url: string; status: ApplicationStatus}>> {
    const rows = read(this.db, this.file, () =>
      this.statements.trackedOf.raw().all({keys: JSON.stringify(urlKeys)}),
    ) as [string, string | null, string, ApplicationStatus][]
    const tracked = new Map<string, {url: string; status: ApplicationStatus}>()
    for (const [urlKey, , url, status] of rows) tracked.set(urlKey, {url, status})
    // A key no application is tracked under exactly answers with one tracked from a link to the same page with
    // tracking parameters, one applied for first.
    const exact = new Set(tracked.keys())
    for (const [, canonicalKey, url, status] of rows) {
      if (canonicalKey === null || exact.has(canonicalKey)) continue
      const held = tracked.get(canonicalKey)
      if (!held || (!isAppliedStatus(held.status) && isAppliedStatus(status))) tracked.set(canonicalKey, {url, status})
    }
    return tracked
  }

  async importRecords(
    records: readonly {record: ApplicationRecord; urlKey: string; appliedDateGiven: boolean; since: string}[],
    options: {update: boolean; at: string},
  ): Promise<ImportOutcome> {
    return writeTransaction(this.db, this.file, () => {
      const outcome: ImportOutcome = {inserted: 0, updated: 0, unchanged: [], identical: 0}
      for (const {record, urlKey, appliedDateGiven, since} of records) {
        const canonicalKey = applicationCanonicalKey(record.url)
        if (this.statements.insert.get({...record, urlKey, canonicalKey, at: since})) {
          outcome.inserted++
          continue
        }
        const existing = this.statements.get.get(urlKey) as ApplicationRow
        if (sameRecord(existing, record, {dateGiven: appliedDateGiven})) {
          outcome.identical++
          continue
        }
        if (!options.update) {
          outcome.unchanged.push(record.url)
          continue
        }
        if (existing.status !== record.status || existing.notes !== record.notes) {
          this.statements.addHistory.run(existing.id, options.at, existing.status, record.status, existing.notes)
        }
        this.statements.overwrite.run({
          ...record,
          canonicalKey,
          id: existing.id,
          at: options.at,
          keepAppliedDate: appliedDateGiven ? 0 : 1,
        })
        outcome.updated++
      }
      return outcome
    })
  }

  async waiting(query: WaitingQuery, limit?: number): Promise<{applications: TrackedApplication[]; total: number}> {
    const parameters = {remindedBefore: null, ...query}
    const {rows, total} = read(this.db, this.file, () => {
      // SQLite sorts every due row before it applies even LIMIT 0: a run without a channel only counts them.
      const rows =
        limit === 0 ? [] : this.statements.waiting.all(...WAITING_STATUSES, {...parameters, limit: limit ?? -1})
      // Counted only when the list may have been cut.
      const total =
        limit === undefined || rows.length < limit
          ? rows.length
          : (this.statements.countWaiting.get(...WAITING_STATUSES, parameters) as number)
      return {rows, total}
    })
    return {applications: (rows as ApplicationRow[]).map(toTracked), total}
  }

  async markReminded(urlKeys: readonly string[], at: string): Promise<void> {
    await writeTransaction(this.db, this.file, () => {
      for (const key of urlKeys) this.statements.remind.run(at, key)
    })
  }

  async snooze(urlKey: string, until: string): Promise<boolean> {
    return writeTransaction(this.db, this.file, () => this.statements.snooze.run(until, urlKey).changes > 0)
  }

  markPostingsClosed(urlKeys: readonly string[], at: string): number {
    if (urlKeys.length === 0) return 0
    return this.statements.postingClosed.run({at, keys: JSON.stringify(urlKeys)}).changes
  }

  markPostingsOpen(urlKeys: readonly string[]): void {
    if (urlKeys.length > 0) this.statements.postingOpen.run(JSON.stringify(urlKeys))
  }
}
