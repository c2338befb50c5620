import type {TrackedApplication} from '../../core/applications/application.js'
import {type FollowUpStore, WAITING_STATUSES} from '../../core/applications/follow-ups.js'
import {read, type SqliteDatabase, writeTransaction} from './database.js'

const COLUMNS = 'title, company, location, url, source, applied_date, status, notes, updated_at'

/** Follow-ups in jobagent.db: the applications table's snooze and reminder times. */
export class SqliteFollowUpStore implements FollowUpStore {
  private readonly statements

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
  ) {
    const waiting = WAITING_STATUSES.map(() => '?').join(', ')
    this.statements = {
      waiting: db.prepare(
        `SELECT ${COLUMNS} FROM applications WHERE status IN (${waiting}) AND updated_at <= ?
         AND (snoozed_until IS NULL OR snoozed_until <= ?) ORDER BY updated_at, id`,
      ),
      reminded: db.prepare('SELECT 1 FROM applications WHERE url_key = ? AND reminded_at > ?').pluck(),
      remind: db.prepare('UPDATE applications SET reminded_at = ? WHERE url_key = ?'),
      snooze: db.prepare('UPDATE applications SET snoozed_until = ? WHERE url_key = ?'),
    }
  }

  async waiting(changedBefore: string, now: string): Promise<TrackedApplication[]> {
    return read(
      this.db,
      this.file,
      () => this.statements.waiting.all(...WAITING_STATUSES, changedBefore, now) as TrackedApplication[],
    )
  }

  async remindedSince(urlKeys: readonly string[], since: string): Promise<Set<string>> {
    return read(
      this.db,
      this.file,
      () => new Set(urlKeys.filter((key) => this.statements.reminded.get(key, since) === 1)),
    )
  }

  async markReminded(urlKeys: readonly string[], at: string): Promise<void> {
    await writeTransaction(this.db, this.file, () => {
      for (const key of urlKeys) this.statements.remind.run(at, key)
    })
  }

  async snooze(urlKey: string, until: string): Promise<boolean> {
    return writeTransaction(this.db, this.file, () => this.statements.snooze.run(until, urlKey).changes > 0)
  }
}
