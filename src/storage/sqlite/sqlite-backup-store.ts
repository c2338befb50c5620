import {statusChangeSchema, TRACKED_FIELDS, trackedApplicationSchema} from '../../core/applications/application.js'
import {urlKeys} from '../../core/applications/application-service.js'
import {
  type BackedUpApplication,
  type BackedUpVerdict,
  type BackupStore,
  followUpStateSchema,
  mergeDecision,
  type RestoreMode,
  type RestoreOutcome,
  type TrackerContents,
} from '../../core/applications/backup.js'
import {contactSchema} from '../../core/applications/contact.js'
import {interviewSchema} from '../../core/applications/interviews.js'
import {jobIdentityKey} from '../../core/jobs/dedupe.js'
import {jobVerdictSchema} from '../../core/jobs/job-verdicts.js'
import {canonicalJobUrl} from '../../core/url-identity.js'
import {read, type SqliteDatabase, writeTransaction} from './database.js'
import {recordColumns} from './record-columns.js'
import {HISTORY_COLUMNS, type SqliteApplicationStore} from './sqlite-application-store.js'

type Shape = Parameters<typeof recordColumns>[0]
type Row = Record<string, unknown>

/**
 * A core record's table as a backup reads and writes it: every field of the record's schema is the column of its
 * name (or of `renamed`'s), so a field added to the schema and its column is backed up with no line here.
 */
function recordTable(table: string, shape: Shape, renamed: Record<string, string> = {}) {
  const fields = Object.keys(shape)
  const columns = recordColumns(shape)
  const column = (field: string) => renamed[field] ?? field
  const selected = fields.map((field) => (renamed[field] ? `${renamed[field]} AS "${field}"` : field)).join(', ')
  return {
    select: `SELECT ${selected} FROM ${table}`,
    insert: `INSERT INTO ${table} (${fields.map(column).join(', ')}) VALUES (${fields.map((f) => `@${f}`).join(', ')})`,
    /** The record in its schema's field order. */
    fromRow: (row: Row): Row => {
      const record = columns.fromRow(row) as Row
      return Object.fromEntries(fields.map((field) => [field, record[field]]))
    },
    toRow: (record: Row): Row => columns.toRow(Object.fromEntries(fields.map((field) => [field, record[field]]))),
  }
}

/** An application's row as a backup holds it: the tracked record and where its follow-up stands. */
const BACKED_UP_FIELDS = [
  ...TRACKED_FIELDS,
  ...(Object.keys(followUpStateSchema.shape) as ('snoozed_until' | 'reminded_at')[]),
]
const APPLICATIONS = recordTable('applications', {...trackedApplicationSchema.shape, ...followUpStateSchema.shape})
const INTERVIEWS = recordTable('interviews', interviewSchema.shape, {with: 'with_whom'})
const CONTACTS = recordTable('contacts', contactSchema.shape)
const VERDICTS = recordTable('job_verdicts', jobVerdictSchema.shape)
const HISTORY = recordColumns(statusChangeSchema.shape)

/**
 * The whole tracker of jobagent.db as a backup holds it, and its restore in one write transaction. The jobs table
 * is not the tracker's: a verdict on a job the home does not hold brings the job's few backed-up fields as a job
 * row of no run (no list of a run's jobs shows it), so the verdict keeps teaching.
 */
export class SqliteBackupStore implements BackupStore {
  private readonly statements

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
    private readonly applications: Pick<SqliteApplicationStore, 'byUrlNow'>,
  ) {
    this.statements = {
      applications: db.prepare(`${APPLICATIONS.select} ORDER BY id`),
      history: db.prepare(`SELECT h.application_id, ${HISTORY_COLUMNS} FROM status_history h ORDER BY h.id`),
      interviews: db.prepare(`${INTERVIEWS.select} ORDER BY id`),
      contacts: db.prepare(`${CONTACTS.select} ORDER BY id`),
      verdicts: db.prepare(
        `SELECT j.url AS job_url, j.location AS job_location, j.source AS job_source, v.*
         FROM job_verdicts v JOIN jobs j ON j.id = v.job_id ORDER BY v.job_id`,
      ),
      counts: db.prepare(
        'SELECT (SELECT count(*) FROM applications) AS applications, (SELECT count(*) FROM job_verdicts) AS verdicts',
      ),
      emptyApplications: db.prepare('DELETE FROM applications'),
      emptyVerdicts: db.prepare('DELETE FROM job_verdicts'),
      idTaken: db.prepare('SELECT 1 FROM applications WHERE id = ?').pluck(),
      insertApplication: db.prepare(
        `${APPLICATIONS.insert.replace(') VALUES (', ', url_key, canonical_key) VALUES (').replace(/\)$/, ', @urlKey, @canonicalKey)')} RETURNING id`,
      ),
      insertHistory: db.prepare(
        `INSERT INTO status_history (application_id, changed_at, old_status, new_status, old_notes, change, details)
         VALUES (@application_id, @changed_at, @old_status, @new_status, @old_notes, @change, @details)`,
      ),
      // A null id is a new one: an interview or a contact keeps its id where no other has it.
      insertInterview: db.prepare(INTERVIEWS.insert),
      interviewIdTaken: db.prepare('SELECT 1 FROM interviews WHERE id = ?').pluck(),
      insertContact: db.prepare(`${CONTACTS.insert} RETURNING id`),
      contactIdTaken: db.prepare('SELECT 1 FROM contacts WHERE id = ?').pluck(),
      jobByUrlKey: db.prepare('SELECT job_id FROM job_urls WHERE url_key = ?').pluck(),
      jobIdTaken: db.prepare('SELECT 1 FROM jobs WHERE id = ?').pluck(),
      insertJob: db.prepare(
        `INSERT INTO jobs (id, url_key, identity_key, title, company, location, url, source, first_seen, last_seen)
         VALUES (@id, @urlKey, @identityKey, @title, @company, @job_location, @job_url, @job_source, @given_at,
         @given_at) RETURNING id`,
      ),
      keepJobUrl: db.prepare('INSERT OR IGNORE INTO job_urls (url_key, job_id) VALUES (?, ?)'),
      verdictOf: db.prepare('SELECT 1 FROM job_verdicts WHERE job_id = ?').pluck(),
      insertVerdict: db.prepare(VERDICTS.insert),
    }
  }

  async contents(): Promise<TrackerContents> {
    return read(this.db, this.file, () => {
      const byApplication = new Map<number, BackedUpApplication>()
      const applications = (this.statements.applications.all() as Row[]).map((row) => {
        const application = {...APPLICATIONS.fromRow(row), history: [], interviews: [], contacts: []}
        byApplication.set(row.id as number, application as unknown as BackedUpApplication)
        return application as unknown as BackedUpApplication
      })
      for (const {application_id, ...row} of this.statements.history.all() as Row[]) {
        byApplication.get(application_id as number)?.history.push(HISTORY.fromRow(row) as never)
      }
      for (const [list, table] of [
        ['interviews', INTERVIEWS],
        ['contacts', CONTACTS],
      ] as const) {
        const statement = list === 'interviews' ? this.statements.interviews : this.statements.contacts
        for (const row of statement.all() as Row[]) {
          byApplication.get(row.application_id as number)?.[list].push(table.fromRow(row) as never)
        }
      }
      const verdicts = (this.statements.verdicts.all() as Row[]).map(
        (row) =>
          ({
            ...VERDICTS.fromRow(row),
            job_url: row.job_url,
            job_location: row.job_location,
            job_source: row.job_source,
          }) as BackedUpVerdict,
      )
      return {applications, verdicts}
    })
  }

  async holds(): Promise<{applications: number; verdicts: number}> {
    return read(this.db, this.file, () => this.statements.counts.get()) as {applications: number; verdicts: number}
  }

  restore(contents: TrackerContents, mode: RestoreMode): Promise<RestoreOutcome> {
    return writeTransaction(this.db, this.file, () => {
      const outcome: RestoreOutcome = {applications: 0, renumbered: [], skipped: [], verdicts: 0, verdicts_skipped: 0}
      if (mode === 'replace') {
        this.statements.emptyApplications.run()
        this.statements.emptyVerdicts.run()
      }
      for (const application of contents.applications) {
        // An emptied tracker takes every application as it was (parseBackup refused a URL given twice).
        const decision =
          mode === 'replace'
            ? ({add: 'same id'} as const)
            : mergeDecision(
                this.applications.byUrlNow(urlKeys(application.url))?.id ?? null,
                this.statements.idTaken.get(application.id) !== undefined,
              )
        if ('skip' in decision) {
          outcome.skipped.push({id: application.id, url: application.url, tracked_as: decision.skip})
          continue
        }
        this.insertApplication(application, decision.add === 'same id', outcome)
      }
      for (const verdict of contents.verdicts) {
        const jobId = this.jobOf(verdict)
        if (this.statements.verdictOf.get(jobId) !== undefined) {
          outcome.verdicts_skipped++
          continue
        }
        this.statements.insertVerdict.run(VERDICTS.toRow({...verdict, job_id: jobId}))
        outcome.verdicts++
      }
      return outcome
    })
  }

  private insertApplication(application: BackedUpApplication, sameId: boolean, outcome: RestoreOutcome): void {
    const record = Object.fromEntries(BACKED_UP_FIELDS.map((field) => [field, application[field]]))
    const {id} = this.statements.insertApplication.get({
      ...APPLICATIONS.toRow({...record, id: sameId ? application.id : null}),
      ...urlKeys(application.url),
    }) as {id: number}
    if (id !== application.id) outcome.renumbered.push({from: application.id, to: id})
    outcome.applications++
    for (const change of application.history) {
      this.statements.insertHistory.run({...HISTORY.toRow(change), application_id: id})
    }
    const {interviewIdTaken, contactIdTaken} = this.statements
    // Contacts first: an interview names the contacts it was with by their ids here, which a merge may renumber.
    const contactIds = new Map<number, number>()
    for (const contact of application.contacts) {
      const kept = contactIdTaken.get(contact.id) === undefined ? contact.id : null
      const row = this.statements.insertContact.get(CONTACTS.toRow({...contact, id: kept, application_id: id}))
      contactIds.set(contact.id, (row as {id: number}).id)
    }
    for (const interview of application.interviews) {
      const kept = interviewIdTaken.get(interview.id) === undefined ? interview.id : null
      const interviewer_ids = interview.interviewer_ids.map((contactId) => contactIds.get(contactId) ?? contactId)
      this.statements.insertInterview.run(
        INTERVIEWS.toRow({...interview, interviewer_ids, id: kept, application_id: id}),
      )
    }
  }

  /** The job the verdict is about in this home: found by its URL, else added under its id (or a new one). */
  private jobOf(verdict: BackedUpVerdict): number {
    const urlKey = canonicalJobUrl(verdict.job_url)
    const found = this.statements.jobByUrlKey.get(urlKey) as number | undefined
    if (found !== undefined) return found
    const free = this.statements.jobIdTaken.get(verdict.job_id) === undefined
    const {id} = this.statements.insertJob.get({
      ...verdict,
      id: free ? verdict.job_id : null,
      urlKey,
      identityKey: jobIdentityKey(verdict),
    }) as {id: number}
    this.statements.keepJobUrl.run(urlKey, id)
    return id
  }
}
