import type {TrackedApplication} from '../../core/applications/application.js'
import {type Contact, type ContactFields, type ContactStore, describeContact} from '../../core/applications/contact.js'
import {wallClockOf} from '../../core/time.js'
import {read, type SqliteDatabase, writeTransaction} from './database.js'
import type {SqliteApplicationStore} from './sqlite-application-store.js'

/**
 * Contacts in jobagent.db, each with its application (deleted with it). Adding and removing one writes its
 * `contact` history entry through the application store, in the same transaction.
 */
export class SqliteContactStore implements ContactStore {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
    private readonly applications: SqliteApplicationStore,
  ) {}

  async add(applicationId: number, contact: ContactFields, at: string): Promise<Contact | null> {
    return writeTransaction(this.db, this.file, () => {
      const application = this.applications.byIdNow(applicationId)
      if (!application) return null
      this.applications.addHistory(application, at, {change: 'contact', details: {added: describeContact(contact)}})
      return this.applications.contactRows.insert(applicationId, contact, wallClockOf(at))
    })
  }

  async list(applicationId: number): Promise<Contact[]> {
    return read(this.db, this.file, () => this.applications.contactRows.list(applicationId))
  }

  async ofApplications(applicationIds: readonly number[]): Promise<Map<number, Contact[]>> {
    const rows = read(this.db, this.file, () => this.applications.contactRows.ofApplications(applicationIds))
    const byApplication = new Map<number, Contact[]>()
    for (const contact of rows) {
      const list = byApplication.get(contact.application_id)
      if (list) list.push(contact)
      else byApplication.set(contact.application_id, [contact])
    }
    return byApplication
  }

  async remove(applicationId: number, contactId: number, at: string): Promise<Contact | null> {
    return writeTransaction(this.db, this.file, () => {
      const application: TrackedApplication | null = this.applications.byIdNow(applicationId)
      const removed = application ? this.applications.contactRows.remove(applicationId, contactId) : undefined
      if (!application || !removed) return null
      this.applications.addHistory(application, at, {change: 'contact', details: {removed: describeContact(removed)}})
      return removed
    })
  }
}
