import {
  APPLICATION_FIELDS,
  type ApplicationCounts,
  type ApplicationDocument,
  type ApplicationRecord,
  type ApplicationStatus,
  type ApplicationWithHistory,
  EDITABLE_FIELDS,
  EXTRA_FIELDS,
  isAppliedStatus,
  nextActionDetails,
  type StatusChange,
  sameRecord,
  TRACKED_FIELDS,
  type TrackedApplication,
  trackedApplicationSchema,
  withDocuments,
  withNoteAdded,
} from '../../core/applications/application.js'
import type {
  ApplicationFilter,
  ApplicationStore,
  Extras,
  FieldEdit,
  ImportedApplication,
  ImportOutcome,
  NextAction,
  StatusEdit,
  StatusUpdate,
  Taken,
  UrlKeys,
} from '../../core/applications/application-store.js'
import {type ContactFields, sameContactName} from '../../core/applications/contact.js'
import {type FollowUpStore, WAITING_STATUSES, type WaitingQuery} from '../../core/applications/follow-ups.js'
import type {Page} from '../../core/paging.js'
import {wallClockOf} from '../../core/time.js'
import {applicationCanonicalKey, applicationUrlKey, canonicalJobUrl} from '../../core/url-identity.js'
import {ContactRows} from './contact-rows.js'
import {read, type SqliteDatabase, writeTransaction} from './database.js'
import {type Row, recordColumns} from './record-columns.js'

const APPLICATION_COLUMNS = recordColumns(trackedApplicationSchema.shape)

/** A row of the applications table as the tracked application it holds (the documents column is JSON). */
export function applicationOf(row: unknown): TrackedApplication {
  return APPLICATION_COLUMNS.fromRow(row as Row<TrackedApplication>)
}

/** As applicationOf, for a lookup that may have found no row. */
function foundApplication(row: unknown): TrackedApplication | undefined {
  return row === undefined ? undefined : applicationOf(row)
}

/** Every field of a tracked application is the column of its name (trackedApplicationSchema). */
const COLUMNS = TRACKED_FIELDS.join(', ')
/** Each of the columns as `<column> = <value of it>`, joined for a SET or a VALUES list. */
const each = (columns: readonly string[], value: (column: string) => string) => columns.map(value).join(', ')
/** The record's columns an import overwrites as the file has them; url and applied_date have rules of their own. */
const OVERWRITTEN = APPLICATION_FIELDS.filter((field) => field !== 'url' && field !== 'applied_date')
/**
 * The applications due for a follow-up (FollowUpStore.waiting); the statuses are bound first. An interview's start
 * in UTC is its wall clock less the offset it was read with (one recorded before offsets were kept is read as UTC,
 * at most a day off a rule counted in days).
 */
const WAITING = `status IN (${WAITING_STATUSES.map(() => '?').join(', ')}) AND removed_at IS NULL
  AND updated_at <= @changedBefore AND (snoozed_until IS NULL OR snoozed_until <= @now)
  AND (@remindedBefore IS NULL OR reminded_at IS NULL OR reminded_at <= @remindedBefore)
  AND NOT EXISTS (SELECT 1 FROM interviews i WHERE i.application_id = applications.id
    AND strftime('%Y-%m-%dT%H:%M', i.starts_at, printf('%+d minutes', -coalesce(i.utc_offset, 0))) > @interviewsAfter)`
/**
 * The listed applications a filter matches; every parameter is bound, null for "any". `instr(lower(...))` finds the
 * text anywhere without LIKE's wildcards, so a search for `100%` means what it says.
 */
const LISTED = `removed_at IS NULL AND (@status IS NULL OR status = @status)
  AND (@source IS NULL OR lower(source) = lower(@source)) AND (@since IS NULL OR applied_date >= @since)
  AND (@search IS NULL OR instr(lower(title), @search) > 0 OR instr(lower(company), @search) > 0
    OR instr(lower(notes), @search) > 0)`
/** The history columns, with the kind of entries written before kinds were recorded. */
export const HISTORY_COLUMNS = `h.changed_at, h.old_status, h.new_status, h.old_notes,
  coalesce(h.change, CASE WHEN h.old_status = h.new_status THEN 'notes' ELSE 'status' END) AS change, h.details`

interface HistoryRow extends Omit<StatusChange, 'details'> {
  details: string | null
}

function toChange(row: HistoryRow): StatusChange {
  return {...row, details: row.details === null ? null : (JSON.parse(row.details) as StatusChange['details'])}
}

function filterParameters(filter: ApplicationFilter) {
  return {
    status: filter.status ?? null,
    source: filter.source ?? null,
    since: filter.since ?? null,
    search: filter.search ? filter.search.toLowerCase() : null,
  }
}

/** A tracked contact that says what an imported one says: a re-import of an export changes nothing. */
function sameContact(held: ContactFields, contact: ContactFields): boolean {
  return (
    sameContactName(held, contact) &&
    held.role === contact.role &&
    held.reach === contact.reach &&
    held.notes === contact.notes
  )
}

/** The history entry an edit writes: each field that changed, from and to; null when nothing did. */
function editDetails(
  previous: TrackedApplication,
  fields: FieldEdit,
): Record<string, {from: string; to: string}> | null {
  const details: Record<string, {from: string; to: string}> = {}
  for (const [field, value] of Object.entries(fields) as [keyof FieldEdit, string | undefined][]) {
    if (value !== undefined && value !== previous[field]) details[field] = {from: previous[field], to: value}
  }
  return Object.keys(details).length > 0 ? details : null
}

/** Extra fields not given: an insert sets them empty, an import's overwrite keeps the tracked ones. */
const NO_EXTRAS = Object.fromEntries(EXTRA_FIELDS.map((field) => [field, null]))

/** The tracker's storage in jobagent.db. Statements are prepared once; writes take the write lock up front. */
export class SqliteApplicationStore implements ApplicationStore, FollowUpStore {
  private readonly statements
  /** The contacts table, for the contact store and this store's import, which write contacts in their transactions. */
  readonly contactRows: ContactRows

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
  ) {
    this.contactRows = new ContactRows(db)
    this.statements = {
      insert: db.prepare(
        `INSERT INTO applications (url_key, canonical_key, ${APPLICATION_FIELDS.join(', ')}, updated_at,
           ${EXTRA_FIELDS.join(', ')})
         VALUES (@urlKey, @canonicalKey, ${each(APPLICATION_FIELDS, (field) => `@${field}`)}, @at,
           ${each(EXTRA_FIELDS, (field) => `coalesce(@${field}, '')`)})
         ON CONFLICT (url_key) DO NOTHING RETURNING ${COLUMNS}`,
      ),
      byId: db.prepare(`SELECT ${COLUMNS} FROM applications WHERE id = ?`),
      // The URL as given first; else the one tracked under the clean link itself; else the first tracked under
      // another link to the same page (a database of an earlier release may hold more than one).
      byUrl: db.prepare(
        `SELECT ${COLUMNS} FROM (SELECT ${COLUMNS}, 0 AS rank FROM applications WHERE url_key = @urlKey
           UNION ALL SELECT ${COLUMNS}, 1 FROM applications WHERE url_key = @canonicalKey
           UNION ALL SELECT ${COLUMNS}, 2 FROM applications WHERE canonical_key = @canonicalKey)
         ORDER BY rank, id LIMIT 1`,
      ),
      // LIMIT -1 is SQLite's "no limit": one statement serves the whole list and a page of it.
      list: db.prepare(
        `SELECT ${COLUMNS} FROM applications WHERE ${LISTED} ORDER BY applied_date DESC, id DESC LIMIT @limit OFFSET @offset`,
      ),
      count: db.prepare(`SELECT count(*) FROM applications WHERE ${LISTED}`).pluck(),
      history: db.prepare(`SELECT ${HISTORY_COLUMNS} FROM status_history h WHERE h.application_id = ? ORDER BY h.id`),
      // One pass over both tables: a record without changes comes once with null history columns.
      allWithHistory: db.prepare(
        `SELECT ${each(TRACKED_FIELDS, (field) => `a.${field}`)}, ${HISTORY_COLUMNS}
         FROM applications a LEFT JOIN status_history h ON h.application_id = a.id WHERE a.removed_at IS NULL
         ORDER BY a.id, h.id`,
      ),
      addHistory: db.prepare(
        `INSERT INTO status_history (application_id, changed_at, old_status, new_status, old_notes, change, details)
         VALUES (@id, @at, @oldStatus, @newStatus, @oldNotes, @change, @details)`,
      ),
      setStatus: db.prepare(
        `UPDATE applications SET status = ?, notes = ?, updated_at = ? WHERE id = ? RETURNING ${COLUMNS}`,
      ),
      edit: db.prepare(
        `UPDATE applications SET ${each(EDITABLE_FIELDS, (field) => `${field} = @${field}`)}, url_key = @urlKey,
         canonical_key = @canonicalKey, updated_at = @at WHERE id = @id RETURNING ${COLUMNS}`,
      ),
      setRemoved: db.prepare(`UPDATE applications SET removed_at = ? WHERE id = ? RETURNING ${COLUMNS}`),
      // Neither a next action nor a document is a change of status: the follow-up wait (updated_at) goes on.
      setNext: db.prepare(
        `UPDATE applications SET next_action = ?, next_action_due = ? WHERE id = ? RETURNING ${COLUMNS}`,
      ),
      nextActions: db.prepare(
        `SELECT ${COLUMNS} FROM applications WHERE next_action <> '' AND removed_at IS NULL
         ORDER BY next_action_due IS NULL, next_action_due, id DESC LIMIT ?`,
      ),
      setDocuments: db.prepare(`UPDATE applications SET documents = ? WHERE id = ? RETURNING ${COLUMNS}`),
      purge: db.prepare('DELETE FROM applications WHERE id = ?'),
      // The like that tracking gave the job (JobCatalog.trackFound), found as it was given: by the job's URL key.
      trackedLike: db.prepare(
        `DELETE FROM job_verdicts WHERE given_by = 'tracked'
         AND job_id IN (SELECT job_id FROM job_urls WHERE url_key = ?)`,
      ),
      overwrite: db.prepare(
        `UPDATE applications SET url = @url, canonical_key = @canonicalKey,
         ${each(OVERWRITTEN, (field) => `${field} = @${field}`)},
         applied_date = CASE WHEN @keepAppliedDate THEN applied_date ELSE @applied_date END,
         ${each(EXTRA_FIELDS, (field) => `${field} = coalesce(@${field}, ${field})`)}, updated_at = @at
         WHERE id = @id`,
      ),
      counts: db.prepare(
        `SELECT count(*) AS total, coalesce(sum(status <> 'saved'), 0) AS applied,
         coalesce(sum(status = 'saved'), 0) AS pending FROM applications WHERE removed_at IS NULL`,
      ),
      // One statement for a whole list of keys (a JSON array): the applications tracked under one of them, as posted
      // or without tracking parameters; each is an index lookup.
      trackedOf: db.prepare(
        `SELECT url_key, canonical_key, url, status FROM applications
         WHERE url_key IN (SELECT value FROM json_each(@keys)) AND removed_at IS NULL
         UNION ALL SELECT url_key, canonical_key, url, status FROM applications
         WHERE canonical_key IN (SELECT value FROM json_each(@keys)) AND removed_at IS NULL`,
      ),
      appliedKeys: db.prepare(
        `SELECT url_key, canonical_key FROM applications WHERE status <> 'saved' AND removed_at IS NULL`,
      ),
      // LIMIT -1: all of them.
      waiting: db.prepare(`SELECT ${COLUMNS} FROM applications WHERE ${WAITING} ORDER BY updated_at, id LIMIT @limit`),
      countWaiting: db.prepare(`SELECT count(*) FROM applications WHERE ${WAITING}`).pluck(),
      remind: db.prepare('UPDATE applications SET reminded_at = ? WHERE id = ?'),
      snooze: db.prepare('UPDATE applications SET snoozed_until = ? WHERE id = ?'),
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

  async insert(record: ApplicationRecord & Extras, keys: UrlKeys, at: string): Promise<TrackedApplication | Taken> {
    return writeTransaction(this.db, this.file, () => {
      const taken = foundApplication(this.statements.byUrl.get(keys))
      if (taken) return {taken}
      return applicationOf(this.statements.insert.get({...NO_EXTRAS, ...record, ...keys, at}))
    })
  }

  async byId(id: number): Promise<TrackedApplication | null> {
    return foundApplication(read(this.db, this.file, () => this.statements.byId.get(id))) ?? null
  }

  /** The application with the id, read inside the caller's transaction (the stores of what belongs to one). */
  byIdNow(id: number): TrackedApplication | null {
    return foundApplication(this.statements.byId.get(id)) ?? null
  }

  /** The application tracked under the URL, read inside the caller's transaction (a restore's merge). */
  byUrlNow(keys: UrlKeys): TrackedApplication | null {
    return foundApplication(this.statements.byUrl.get(keys)) ?? null
  }

  async byUrl(keys: UrlKeys): Promise<TrackedApplication | null> {
    return foundApplication(read(this.db, this.file, () => this.statements.byUrl.get(keys))) ?? null
  }

  async list(filter: ApplicationFilter & {page?: Page} = {}): Promise<TrackedApplication[]> {
    const limit = filter.page?.limit ?? -1
    const offset = filter.page?.offset ?? 0
    const rows = read(this.db, this.file, () => this.statements.list.all({...filterParameters(filter), limit, offset}))
    return rows.map(applicationOf)
  }

  async countOf(filter: ApplicationFilter = {}): Promise<number> {
    return read(this.db, this.file, () => this.statements.count.get(filterParameters(filter))) as number
  }

  async history(id: number): Promise<StatusChange[]> {
    return (read(this.db, this.file, () => this.statements.history.all(id)) as HistoryRow[]).map(toChange)
  }

  async allWithHistory(): Promise<ApplicationWithHistory[]> {
    const rows = read(this.db, this.file, () => this.statements.allWithHistory.all()) as (Row<TrackedApplication> &
      Partial<Record<keyof HistoryRow, string | null>>)[]
    const byId = new Map<number, ApplicationWithHistory>()
    for (const {changed_at, old_status, new_status, old_notes, change, details, ...row} of rows) {
      let entry = byId.get(row.id)
      if (!entry) {
        entry = {application: applicationOf(row), history: []}
        byId.set(row.id, entry)
      }
      if (changed_at != null) {
        entry.history.push(
          toChange({
            changed_at,
            old_status: old_status as ApplicationStatus,
            new_status: new_status as ApplicationStatus,
            old_notes: old_notes ?? '',
            change: change as StatusChange['change'],
            details: details ?? null,
          }),
        )
      }
    }
    return [...byId.values()]
  }

  async changeStatus(id: number, change: StatusEdit, at: string): Promise<StatusUpdate | null> {
    return writeTransaction(this.db, this.file, () => {
      const previous = foundApplication(this.statements.byId.get(id))
      if (!previous) return null
      const status = change.status ?? previous.status
      const notes =
        change.addedNote === undefined
          ? (change.notes ?? previous.notes)
          : withNoteAdded(previous.notes, change.addedNote)
      this.addHistory(previous, at, {newStatus: status, change: previous.status === status ? 'notes' : 'status'})
      const current = applicationOf(this.statements.setStatus.get(status, notes, wallClockOf(at), previous.id))
      return {previous, current}
    })
  }

  async edit(id: number, fields: FieldEdit, at: string): Promise<StatusUpdate | Taken | null> {
    return writeTransaction(this.db, this.file, () => {
      const previous = foundApplication(this.statements.byId.get(id))
      if (!previous) return null
      const details = editDetails(previous, fields)
      if (!details) return {previous, current: previous}
      const url = fields.url ?? previous.url
      const keys = {urlKey: applicationUrlKey(url), canonicalKey: applicationCanonicalKey(url)}
      if (details.url) {
        const taken = foundApplication(this.statements.byUrl.get(keys))
        if (taken && taken.id !== id) return {taken}
      }
      this.addHistory(previous, at, {change: 'edit', details})
      const current = applicationOf(
        this.statements.edit.get({
          ...previous,
          ...fields,
          ...keys,
          at: wallClockOf(at),
          id,
        }),
      )
      return {previous, current}
    })
  }

  async setNextAction(id: number, next: NextAction, at: string): Promise<StatusUpdate | null> {
    return writeTransaction(this.db, this.file, () => {
      const previous = foundApplication(this.statements.byId.get(id))
      if (!previous) return null
      const details = nextActionDetails(previous, next)
      if (!details) return {previous, current: previous}
      this.addHistory(previous, at, {change: 'edit', details})
      const current = applicationOf(this.statements.setNext.get(next.action, next.due, id))
      return {previous, current}
    })
  }

  async setDocuments(id: number, documents: readonly ApplicationDocument[], at: string): Promise<StatusUpdate | null> {
    return writeTransaction(this.db, this.file, () => {
      const previous = foundApplication(this.statements.byId.get(id))
      if (!previous) return null
      const {documents: all, details} = withDocuments(previous.documents, documents)
      if (!details) return {previous, current: previous}
      this.addHistory(previous, at, {change: 'edit', details})
      const current = applicationOf(this.statements.setDocuments.get(JSON.stringify(all), id))
      return {previous, current}
    })
  }

  async setRemoved(id: number, removed: boolean, at: string): Promise<StatusUpdate | null> {
    return writeTransaction(this.db, this.file, () => {
      const previous = foundApplication(this.statements.byId.get(id))
      if (!previous) return null
      if ((previous.removed_at !== null) === removed) return {previous, current: previous}
      this.addHistory(previous, at, {change: removed ? 'removed' : 'restored'})
      const current = applicationOf(this.statements.setRemoved.get(removed ? wallClockOf(at) : null, id))
      return {previous, current}
    })
  }

  async purge(id: number): Promise<boolean> {
    return writeTransaction(this.db, this.file, () => {
      const application = foundApplication(this.statements.byId.get(id))
      if (!application) return false
      this.statements.trackedLike.run(canonicalJobUrl(application.url))
      return this.statements.purge.run(id).changes > 0
    })
  }

  /**
   * An entry of `previous`'s history: its status and notes before, the status after (the same unless given). Called
   * inside a write transaction, also by the stores of what belongs to an application (its interviews, contacts), so
   * an addition and its history entry are written together.
   */
  addHistory(
    previous: TrackedApplication,
    at: string,
    entry: {change: StatusChange['change']; newStatus?: ApplicationStatus; details?: StatusChange['details']},
  ): void {
    this.statements.addHistory.run({
      id: previous.id,
      at,
      oldStatus: previous.status,
      newStatus: entry.newStatus ?? previous.status,
      oldNotes: previous.notes,
      change: entry.change,
      details: entry.details ? JSON.stringify(entry.details) : null,
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
    records: Iterable<ImportedApplication>,
    options: {update: boolean; at: string},
  ): Promise<ImportOutcome> {
    return writeTransaction(this.db, this.file, () => {
      const outcome: ImportOutcome = {inserted: 0, updated: 0, unchanged: [], identical: 0}
      for (const {record, extras, keys, appliedDateGiven, since} of records) {
        const {contacts = [], ...given} = extras
        const existing = foundApplication(this.statements.byUrl.get(keys))
        if (!existing) {
          const inserted = applicationOf(
            this.statements.insert.get({
              ...NO_EXTRAS,
              ...given,
              ...record,
              ...keys,
              at: since,
            }),
          )
          this.contactRows.merge(inserted.id, contacts, since)
          outcome.inserted++
          continue
        }
        const extraChanges = editDetails(existing, given)
        const held = this.contactRows.list(existing.id)
        if (
          sameRecord(existing, record, {dateGiven: appliedDateGiven}) &&
          !extraChanges &&
          contacts.every((contact) => held.some((one) => sameContact(one, contact)))
        ) {
          outcome.identical++
          continue
        }
        if (!options.update) {
          outcome.unchanged.push(record.url)
          continue
        }
        if (existing.status !== record.status || existing.notes !== record.notes) {
          this.addHistory(existing, options.at, {
            newStatus: record.status,
            change: existing.status === record.status ? 'notes' : 'status',
          })
        }
        if (extraChanges) this.addHistory(existing, options.at, {change: 'edit', details: extraChanges})
        for (const details of this.contactRows.merge(existing.id, contacts, wallClockOf(options.at))) {
          this.addHistory(existing, options.at, {change: 'contact', details})
        }
        // The URL stays the tracked one when the file has it under another link to the same page.
        const url = keys.urlKey === applicationUrlKey(existing.url) ? record.url : existing.url
        this.statements.overwrite.run({
          ...NO_EXTRAS,
          ...given,
          ...record,
          url,
          canonicalKey: applicationCanonicalKey(url),
          id: existing.id,
          at: wallClockOf(options.at),
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
    return {applications: rows.map(applicationOf), total}
  }

  async nextActions(limit: number): Promise<TrackedApplication[]> {
    return read(this.db, this.file, () => this.statements.nextActions.all(limit)).map(applicationOf)
  }

  async markReminded(ids: readonly number[], at: string): Promise<void> {
    await writeTransaction(this.db, this.file, () => {
      for (const id of ids) this.statements.remind.run(at, id)
    })
  }

  async snooze(id: number, until: string): Promise<boolean> {
    return writeTransaction(this.db, this.file, () => this.statements.snooze.run(until, id).changes > 0)
  }

  markPostingsClosed(urlKeys: readonly string[], at: string): number {
    if (urlKeys.length === 0) return 0
    return this.statements.postingClosed.run({at, keys: JSON.stringify(urlKeys)}).changes
  }

  markPostingsOpen(urlKeys: readonly string[]): void {
    if (urlKeys.length > 0) this.statements.postingOpen.run(JSON.stringify(urlKeys))
  }
}
