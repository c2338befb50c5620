import {NotFoundError} from '../errors.js'
import {type Clock, offsetTimestamp, systemClock} from '../time.js'
import {type TrackedApplication, trackedRecord} from './application.js'
import type {ApplicationService} from './application-service.js'
import {loadSchemas, validate} from './application-service.js'
import {type Contact, type ContactStore, contactFields} from './contact.js'
import type {ExportedApplication} from './csv.js'

/** The contacts of tracked applications: `jobagent contact`, the API's contacts routes and `status <id>`. */
export class ContactService {
  constructor(
    private readonly applications: ApplicationService,
    private readonly store: ContactStore,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * Adds a contact to the application a reference names (`12`, `#12` or its URL). `input` is validated here: a
   * name, and `email`, `link` or `reach` (one of them) that is an address or a web link.
   */
  async add(ref: string, input: Record<string, unknown>): Promise<Contact> {
    const loaded = await loadSchemas()
    const fields = validate(loaded, loaded.contactInputSchema, input, 'contact')
    const application = await this.applications.find(ref)
    const contact = await this.store.add(application.id, fields, offsetTimestamp(this.clock.now()))
    if (!contact) throw new NotFoundError(`no application #${application.id}`)
    return contact
  }

  async list(ref: string): Promise<Contact[]> {
    return this.store.list((await this.applications.find(ref)).id)
  }

  /**
   * Applications as the exports write them (`export-csv`, GET /applications/export.csv, `status --json`): each
   * tracked record with its contacts as the interchange format carries them (contactFields), read in one query.
   */
  async withContacts(
    applications: readonly TrackedApplication[],
  ): Promise<(TrackedApplication & ExportedApplication)[]> {
    const contacts = await this.store.ofApplications(applications.map((application) => application.id))
    return applications.map((application) => ({
      ...trackedRecord(application),
      contacts: (contacts.get(application.id) ?? []).map(contactFields),
    }))
  }

  /** Removes one contact of the application; the history keeps who it was. */
  async remove(ref: string, contactId: number): Promise<Contact> {
    const application = await this.applications.find(ref)
    const removed = await this.store.remove(application.id, contactId, offsetTimestamp(this.clock.now()))
    if (!removed) {
      throw new NotFoundError(`#${application.id} has no contact ${contactId}`, {
        hint: `see its contacts with: jobagent status ${application.id}`,
      })
    }
    return removed
  }
}
