import {ValidationError} from '../errors.js'

export const APPLICATION_STATUSES = [
  'saved',
  'applied',
  'interviewing',
  'offer',
  'accepted',
  'rejected',
  'withdrawn',
  'ghosted',
] as const

export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number]

/** The interchange record: also the JSON export/import format and the CSV columns, in this order. */
export interface ApplicationRecord {
  title: string
  company: string
  location: string
  url: string
  source: string
  applied_date: string
  status: ApplicationStatus
  notes: string
}

/** The longest notes an application keeps, in characters. */
export const NOTES_MAX_LENGTH = 10_000

/**
 * The notes with a line added at their end (the line alone when there were none), as add_note adds one. Written
 * inside the transaction that stores them, from the notes the record holds then, so no line another writer added
 * meanwhile is lost. Notes that would grow past NOTES_MAX_LENGTH are refused, naming the field.
 */
export function withNoteAdded(notes: string, line: string): string {
  const added = notes.trim() === '' ? line : `${notes}\n${line}`
  if (added.length > NOTES_MAX_LENGTH) {
    throw new ValidationError(
      `notes would be longer than ${NOTES_MAX_LENGTH} characters with this line; nothing was added`,
      {
        details: [{field: 'notes', message: `notes are longer than ${NOTES_MAX_LENGTH} characters`}],
        hint: 'shorten the notes first: jobagent status <id> <status> --notes "..." replaces them',
      },
    )
  }
  return added
}

/**
 * Since when a record brought in from elsewhere (an import) has been in its status, as far as it tells: one in
 * `applied` since its applied date when that is earlier, so its follow-up is due `after_days` after the
 * application went out, not after the import; any other status since `now`, the record giving no date for it.
 */
export function statusSince(record: Pick<ApplicationRecord, 'status' | 'applied_date'>, now: string): string {
  return record.status === 'applied' && record.applied_date < now ? record.applied_date : now
}

export const APPLICATION_FIELDS = [
  'title',
  'company',
  'location',
  'url',
  'source',
  'applied_date',
  'status',
  'notes',
] as const satisfies readonly (keyof ApplicationRecord)[]

/**
 * The interchange record of an application: the documented fields in order, whatever else is tracked about it
 * (the API's application objects, `--json` of apply and status, the import and export files).
 */
export function applicationRecord(application: ApplicationRecord): ApplicationRecord {
  const {title, company, location, url, source, applied_date, status, notes} = application
  return {title, company, location, url, source, applied_date, status, notes}
}

/** The fields `jobagent edit` and PATCH /applications/{id} change; each change is kept in the history. */
export const EDITABLE_FIELDS = [
  'title',
  'company',
  'location',
  'source',
  'url',
  'salary_expected',
  'salary_offered',
] as const

export type EditableField = (typeof EDITABLE_FIELDS)[number]

/**
 * A tracked application as stored: its short id (stable for the life of the record, never given to another), the
 * record, when it last changed, when its posting closed, the salary lines and when it was removed.
 */
export interface TrackedApplication extends ApplicationRecord {
  id: number
  updated_at: string
  /** When the job the application is for was found closed (docs/LIFECYCLE.md); null while it is open or unknown. */
  posting_closed_at: string | null
  /** What the person asks for and what was offered, as they write it (`€70k`, `65-70k + bonus`); empty when unset. */
  salary_expected: string
  salary_offered: string
  /** When `jobagent remove` took it out of lists and stats; null for a listed one. */
  removed_at: string | null
}

/** What a history entry records. `status` and `notes` come from status changes; the others from the tracker's edits. */
export const CHANGE_KINDS = ['status', 'notes', 'edit', 'removed', 'restored', 'interview', 'contact'] as const
type ChangeKind = (typeof CHANGE_KINDS)[number]

/** An edited field's value before and after. */
interface FieldChange {
  from: string
  to: string
}

/**
 * One entry of an application's history. Every entry keeps the status and notes before it (`old_status`,
 * `old_notes`) and the status after it (`new_status`); an edit adds the fields it changed (`details`), an interview
 * or a contact what was added.
 */
export interface StatusChange {
  changed_at: string
  old_status: ApplicationStatus
  new_status: ApplicationStatus
  old_notes: string
  change: ChangeKind
  details: Record<string, FieldChange | string> | null
}

/**
 * A history entry in words, as `status <id>` and the dashboard show it: the status change with the notes it
 * replaced, a notes change, or the tracker's edit. `notes` makes the old notes fit the screen.
 */
export function describeChange(change: StatusChange, style: {arrow: string; notes: (notes: string) => string}): string {
  const were = change.old_notes ? `notes were: ${style.notes(change.old_notes)}` : ''
  const details = Object.entries(change.details ?? {})
  const said = (value: FieldChange | string) => (typeof value === 'string' ? value : value.to)
  switch (change.change) {
    case 'notes':
      return `notes changed (${were || 'there were none'})`
    case 'edit':
      return `edited ${details
        .map(([field, value]) =>
          typeof value === 'string'
            ? `${field}: ${value}`
            : `${field} ${JSON.stringify(value.from)} ${style.arrow} ${JSON.stringify(value.to)}`,
        )
        .join(', ')}`
    case 'removed':
      return 'removed from lists and stats'
    case 'restored':
      return 'restored to lists and stats'
    case 'contact':
      return details.map(([what, value]) => `contact ${what}: ${said(value)}`).join(', ')
    case 'interview':
      return `${change.change} added: ${details
        .map(([, value]) => said(value))
        .filter(Boolean)
        .join(', ')}`
    default:
      return `${change.old_status} ${style.arrow} ${change.new_status}${were ? ` (${were})` : ''}`
  }
}

/** A tracked application with its status changes, oldest first. */
export interface ApplicationWithHistory {
  application: TrackedApplication
  history: StatusChange[]
}

/**
 * Whether a record (an import row) says nothing the tracked one does not hold already; its applied date counts only
 * when the row gave one (a missing date is filled in with the import time).
 */
export function sameRecord(
  tracked: ApplicationRecord,
  record: ApplicationRecord,
  options: {dateGiven: boolean},
): boolean {
  return APPLICATION_FIELDS.every(
    (field) => tracked[field] === record[field] || (field === 'applied_date' && !options.dateGiven),
  )
}

/**
 * A tracked application as every listing prints it, one or many (`status --json`, `followups --json`, the API's
 * lists and its one application): the record's eight fields first, then its id and what else the tracker keeps.
 */
export function trackedRecord(application: TrackedApplication): TrackedApplication {
  const {id, updated_at, posting_closed_at, salary_expected, salary_offered, removed_at} = application
  return {
    ...applicationRecord(application),
    id,
    updated_at,
    posting_closed_at,
    salary_expected,
    salary_offered,
    removed_at,
  }
}

/** One application in full: the tracked record and its history, each entry saying what it changed. */
export function applicationDetail({application, history}: ApplicationWithHistory) {
  return {
    ...trackedRecord(application),
    history: history.map((change) => ({...change, summary: describeChange(change, PLAIN_WORDS)})),
  }
}

/** History entries in words for JSON readers (the web page): `->` between statuses, old notes as written. */
const PLAIN_WORDS = {arrow: '->', notes: (notes: string) => notes}

export interface ApplicationCounts {
  total: number
  applied: number
  pending: number
}

/** `pending` means tracked but not yet applied for; every other status counts as applied. */
export function isAppliedStatus(status: ApplicationStatus): boolean {
  return status !== 'saved'
}
