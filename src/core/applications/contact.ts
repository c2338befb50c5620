import * as z from '../zod-mini.js'

/** A contact of one application, as kept: its id (never given to another contact) and when it was added. */
export const contactSchema = z.object({
  id: z.int(),
  application_id: z.int(),
  name: z.string(),
  // Recruiter, hiring manager, referrer: as the person writes it; empty when unknown.
  role: z.string(),
  // An email address or an http(s) link (a profile, a calendar page); empty when none.
  reach: z.string(),
  notes: z.string(),
  created_at: z.string(),
})

export type Contact = z.output<typeof contactSchema>

/** What a person gives about a contact: a name, and optionally their role, how to reach them and notes. */
export type ContactFields = Pick<Contact, 'name' | 'role' | 'reach' | 'notes'>

/** A contact as the interchange format carries it: what the person gave, nothing the tracker numbers. */
export function contactFields({name, role, reach, notes}: ContactFields): ContactFields {
  return {name, role, reach, notes}
}

/** Contacts that name the same person: names compared trimmed and in any case, as an import merges them. */
export function sameContactName(a: Pick<ContactFields, 'name'>, b: Pick<ContactFields, 'name'>): boolean {
  return a.name.trim().toLowerCase() === b.name.trim().toLowerCase()
}

/** A contact in a line of text: `Ann Lee (recruiter) <ann@example.org>`, as the history and `status <id>` say it. */
export function describeContact(contact: Pick<ContactFields, 'name' | 'role' | 'reach'>): string {
  return [contact.name, contact.role ? `(${contact.role})` : '', contact.reach ? `<${contact.reach}>` : '']
    .filter(Boolean)
    .join(' ')
}

/**
 * The storage port of contacts. Adding and removing one writes a `contact` entry in its application's history in
 * the same transaction.
 */
export interface ContactStore {
  /** Null when no application has the id. */
  add(applicationId: number, contact: ContactFields, at: string): Promise<Contact | null>
  /** Oldest first. */
  list(applicationId: number): Promise<Contact[]>
  /** The contacts of these applications, each list oldest first; an application without any is left out. */
  ofApplications(applicationIds: readonly number[]): Promise<Map<number, Contact[]>>
  /** Null when the application has no contact with the id. */
  remove(applicationId: number, contactId: number, at: string): Promise<Contact | null>
}
