import {type ApplicationStatus, trackedRecord} from '../../core/applications/application.js'
import {interviewWho} from '../../core/applications/interview-fields.js'
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

// The interviewers are the contacts of the application the interview names, in the order it names them; a removed
// contact is no longer named (the contact store keeps them in `with`).
const COLUMNS = `i.id, i.application_id, i.starts_at, i.time_zone, i.utc_offset, i.duration_minutes, i.kind,
  i.with_whom AS "with", i.interviewer_ids, i.place, i.link, i.notes, i.created_at,
  (SELECT json_group_array(json_object('id', c.id, 'name', c.name, 'role', c.role, 'reach', c.reach))
   FROM (SELECT c.id, c.name, c.role, c.reach FROM json_each(i.interviewer_ids) e
         JOIN contacts c ON c.id = e.value AND c.application_id = i.application_id ORDER BY e.key) c) AS interviewers`

type InterviewRow = Omit<Interview, 'interviewer_ids' | 'interviewers'> & {
  interviewer_ids: string
  interviewers: string
}

/** An interview row with its lists read from their JSON text. */
function interviewOf({interviewer_ids, interviewers, ...row}: InterviewRow): Interview {
  return {...row, interviewer_ids: JSON.parse(interviewer_ids), interviewers: JSON.parse(interviewers)}
}

type ScheduledRow = InterviewRow & {
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
           interviewer_ids, place, link, notes, created_at)
         VALUES (@applicationId, @starts_at, @time_zone, @utc_offset, @duration_minutes, @kind, @with, @interviewerIds,
           @place, @link, @notes, @at) RETURNING id`,
      ),
      byId: db.prepare(`SELECT ${COLUMNS} FROM interviews i WHERE i.id = ?`),
      // An added interview is a change of its application (the follow-up wait starts again); the notes stay.
      touch: db.prepare('UPDATE applications SET status = ?, updated_at = ? WHERE id = ? RETURNING *'),
      remove: db.prepare('DELETE FROM interviews WHERE application_id = ? AND id = ?'),
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
      const {id} = this.statements.insert.get({
        ...interview,
        interviewerIds: JSON.stringify(interview.interviewer_ids),
        applicationId,
        at: wallClockOf(at),
      }) as {id: number}
      const added = interviewOf(this.statements.byId.get(id) as InterviewRow)
      const who = interviewWho(added)
      const details = {
        at: `${interview.starts_at.replace('T', ' ')} ${interview.time_zone}`,
        ...(interview.kind ? {kind: interview.kind} : {}),
        ...(who ? {with: who} : {}),
      }
      this.applications.addHistory(previous, at, {change: 'interview', details})
      const moves = options.moveFrom.includes(previous.status)
      if (moves) this.applications.addHistory(previous, at, {change: 'status', newStatus: 'interviewing'})
      const status = moves ? 'interviewing' : previous.status
      const current = applicationOf(this.statements.touch.get(status, wallClockOf(at), applicationId))
      return {
        interview: added,
        previous: trackedRecord(previous),
        current: trackedRecord(current),
      }
    })
  }

  remove(applicationId: number, interviewId: number, at: string): Promise<Interview | null> {
    return writeTransaction(this.db, this.file, () => {
      const row = this.statements.application.get(applicationId)
      const held = this.statements.byId.get(interviewId) as InterviewRow | undefined
      if (!row || !held || held.application_id !== applicationId) return null
      const interview = interviewOf(held)
      this.statements.remove.run(applicationId, interviewId)
      const words = [
        `${interview.starts_at.replace('T', ' ')} ${interview.time_zone}`,
        interview.kind ?? '',
        interviewWho(interview),
      ]
      this.applications.addHistory(applicationOf(row), at, {
        change: 'interview',
        details: {removed: words.filter(Boolean).join(', ')},
      })
      return interview
    })
  }

  async ofApplication(applicationId: number): Promise<Interview[]> {
    const rows = read(this.db, this.file, () => this.statements.ofApplication.all(applicationId)) as InterviewRow[]
    return rows.map(interviewOf)
  }

  async scheduled(): Promise<ScheduledInterview[]> {
    const rows = read(this.db, this.file, () => this.statements.scheduled.all()) as ScheduledRow[]
    return rows.map(({title, company, url, status, updated_at, ...interview}) => ({
      ...interviewOf(interview),
      application: {id: interview.application_id, title, company, url, status, updated_at},
    }))
  }
}
