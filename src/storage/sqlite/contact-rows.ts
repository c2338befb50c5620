import {type Contact, type ContactFields, describeContact, sameContactName} from '../../core/applications/contact.js'
import {interviewWho} from '../../core/applications/interview-fields.js'
import type {SqliteDatabase} from './database.js'

const COLUMNS = 'id, application_id, name, role, reach, notes, created_at'

/**
 * The contacts table's statements, prepared once, for the stores that write contacts inside their own
 * transactions: the contact store (add, remove) and the application store's import (merge). Synchronous: the caller
 * holds the transaction.
 */
export class ContactRows {
  private readonly statements

  constructor(db: SqliteDatabase) {
    this.statements = {
      insert: db.prepare(
        `INSERT INTO contacts (application_id, name, role, reach, notes, created_at)
         VALUES (@applicationId, @name, @role, @reach, @notes, @at) RETURNING ${COLUMNS}`,
      ),
      update: db.prepare(
        'UPDATE contacts SET name = @name, role = @role, reach = @reach, notes = @notes WHERE id = @id',
      ),
      list: db.prepare(`SELECT ${COLUMNS} FROM contacts WHERE application_id = ? ORDER BY id`),
      ofApplications: db.prepare(
        `SELECT ${COLUMNS} FROM contacts WHERE application_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
      ),
      remove: db.prepare(`DELETE FROM contacts WHERE application_id = ? AND id = ? RETURNING ${COLUMNS}`),
      // A removed contact stays on the interviews that named them, as text: who the person met does not change.
      keepOnInterviews: db.prepare(
        `UPDATE interviews SET
           interviewer_ids = (SELECT json_group_array(e.value) FROM json_each(interviews.interviewer_ids) e
                              WHERE e.value <> @id),
           with_whom = CASE WHEN with_whom = '' THEN @who ELSE @who || '; ' || with_whom END
         WHERE application_id = @applicationId
           AND EXISTS (SELECT 1 FROM json_each(interviews.interviewer_ids) e WHERE e.value = @id)`,
      ),
    }
  }

  insert(applicationId: number, contact: ContactFields, at: string): Contact {
    return this.statements.insert.get({...contact, applicationId, at}) as Contact
  }

  list(applicationId: number): Contact[] {
    return this.statements.list.all(applicationId) as Contact[]
  }

  ofApplications(applicationIds: readonly number[]): Contact[] {
    return this.statements.ofApplications.all(JSON.stringify(applicationIds)) as Contact[]
  }

  remove(applicationId: number, contactId: number): Contact | undefined {
    const removed = this.statements.remove.get(applicationId, contactId) as Contact | undefined
    if (removed) {
      const who = interviewWho({with: '', interviewers: [removed]})
      this.statements.keepOnInterviews.run({applicationId, id: contactId, who})
    }
    return removed
  }

  /**
   * Merges contacts into an application's by name (sameContactName): one of the same name takes the given fields,
   * another is added. Returns what changed, `added` or `changed` with the contact, for the history.
   */
  merge(applicationId: number, contacts: readonly ContactFields[], at: string): Record<string, string>[] {
    const held = this.list(applicationId)
    const changes: Record<string, string>[] = []
    for (const contact of contacts) {
      const same = held.find((one) => sameContactName(one, contact))
      if (!same) {
        held.push(this.insert(applicationId, contact, at))
        changes.push({added: describeContact(contact)})
      } else if (same.role !== contact.role || same.reach !== contact.reach || same.notes !== contact.notes) {
        this.statements.update.run({...contact, id: same.id})
        changes.push({changed: describeContact(contact)})
      }
    }
    return changes
  }
}
