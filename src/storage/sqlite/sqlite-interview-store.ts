import {type ApplicationStatus, trackedRecord} from '../../core/applications/application.js'
import type {
  AddedInterview,
  Interview,
  InterviewStore,
  NewInterview,
  ScheduledInterview,
} from '../../core/applications/interviews.js'
import {wallClockOf} from '../../core/time.js'
import {read, type SqliteDatabase, writeTransaction} from './database.js'
import {applicationOf, type SqliteApplicationStore} from './sqlite-application-store.js'

const COLUMNS = `i.id, i.application_id, i.starts_at, i.time_zone, i.utc_offset, i.duration_minutes, i.kind,
  i.with_whom AS "with", i.place, i.link, i.notes, i.created_at`

type ScheduledRow = Interview & {
  title: string
  company: string
  url: string
  status: ApplicationStatus
  updated_at: string
}

/** The interviews of tracked applications, in jobagent.db beside them; an interview goes with its application. */
export class SqliteInterviewStore implements InterviewStore {
  private readonly statements

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
    /** Writes the history entries, inside this store's write transactions. */
    private readonly applications: Pick<SqliteApplicationStore, 'addHistory'>,
  ) {
    this.statements = {
      application: db.prepare('SELECT * FROM applications WHERE id = ?'),
      insert: db.prepare(
        `INSERT INTO interviews (application_id, starts_at, time_zone, utc_offset, duration_minutes, kind, with_whom,
           place, link, notes, created_at)
         VALUES (@applicationId, @starts_at, @time_zone, @utc_offset, @duration_minutes, @kind, @with, @place, @link,
           @notes, @at) RETURNING id`,
      ),
      byId: db.prepare(`SELECT ${COLUMNS} FROM interviews i WHERE i.id = ?`),
      // An added interview is a change of its application (the follow-up wait starts again); the notes stay.
      touch: db.prepare('UPDATE applications SET status = ?, updated_at = ? WHERE id = ? RETURNING *'),
      ofApplication: db.prepare(`SELECT ${COLUMNS} FROM interviews i WHERE i.application_id = ? ORDER BY i.id`),
      scheduled: db.prepare(
        `SELECT ${COLUMNS}, a.title, a.company, a.url, a.status, a.updated_at
         FROM interviews i JOIN applications a ON a.id = i.application_id WHERE a.removed_at IS NULL
         ORDER BY i.starts_at, i.id`,
      ),
    }
  }

  add(
    applicationId: number,
    interview: NewInterview,
    options: {at: string; moveFrom: readonly ApplicationStatus[]},
  ): Promise<AddedInterview | null> {
    return writeTransaction(this.db, this.file, () => {
      const row = this.statements.application.get(applicationId)
      if (!row) return null
      const previous = applicationOf(row)
      const {at} = options
      const {id} = this.statements.insert.get({...interview, applicationId, at: wallClockOf(at)}) as {id: number}
      const details = {
        at: `${interview.starts_at.replace('T', ' ')} ${interview.time_zone}`,
        ...(interview.kind ? {kind: interview.kind} : {}),
        ...(interview.with ? {with: interview.with} : {}),
      }
      this.applications.addHistory(previous, at, {change: 'interview', details})
      const moves = options.moveFrom.includes(previous.status)
      if (moves) this.applications.addHistory(previous, at, {change: 'status', newStatus: 'interviewing'})
      const status = moves ? 'interviewing' : previous.status
      const current = applicationOf(this.statements.touch.get(status, wallClockOf(at), applicationId))
      return {
        interview: this.statements.byId.get(id) as Interview,
        previous: trackedRecord(previous),
        current: trackedRecord(current),
      }
    })
  }

  async ofApplication(applicationId: number): Promise<Interview[]> {
    return read(this.db, this.file, () => this.statements.ofApplication.all(applicationId)) as Interview[]
  }

  async scheduled(): Promise<ScheduledInterview[]> {
    const rows = read(this.db, this.file, () => this.statements.scheduled.all()) as ScheduledRow[]
    return rows.map(({title, company, url, status, updated_at, ...interview}) => ({
      ...interview,
      application: {id: interview.application_id, title, company, url, status, updated_at},
    }))
  }
}
