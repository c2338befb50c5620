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

/** A tracked application as stored: the record plus when it last changed and when its posting closed. */
export interface TrackedApplication extends ApplicationRecord {
  updated_at: string
  /** When the job the application is for was found closed (docs/LIFECYCLE.md); null while it is open or unknown. */
  posting_closed_at: string | null
}

export interface StatusChange {
  changed_at: string
  old_status: ApplicationStatus
  new_status: ApplicationStatus
  old_notes: string
}

/**
 * What a history entry records: a change of status, or an edit of the notes alone (the status the same before and
 * after, as the dashboard's n or a status set again with new notes writes it). The old notes are kept either way.
 */
function changeKind(change: StatusChange): 'status' | 'notes' {
  return change.old_status === change.new_status ? 'notes' : 'status'
}

/**
 * A history entry in words, as `status <url>` and the dashboard show it: the status change with the notes it
 * replaced, or a notes change. `notes` makes the old notes fit the screen.
 */
export function describeChange(change: StatusChange, style: {arrow: string; notes: (notes: string) => string}): string {
  const were = change.old_notes ? `notes were: ${style.notes(change.old_notes)}` : ''
  if (changeKind(change) === 'notes') return `notes changed (${were || 'there were none'})`
  return `${change.old_status} ${style.arrow} ${change.new_status}${were ? ` (${were})` : ''}`
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
 * lists and its one application): the record's eight fields first, then when it last changed and its posting closed.
 */
export function trackedRecord(application: TrackedApplication): TrackedApplication {
  const {updated_at, posting_closed_at} = application
  return {...applicationRecord(application), updated_at, posting_closed_at}
}

/** One application in full: the tracked record and its history, each entry saying what it changed. */
export function applicationDetail({application, history}: ApplicationWithHistory) {
  return {...trackedRecord(application), history: history.map((change) => ({...change, change: changeKind(change)}))}
}

export interface ApplicationCounts {
  total: number
  applied: number
  pending: number
}

/** `pending` means tracked but not yet applied for; every other status counts as applied. */
export function isAppliedStatus(status: ApplicationStatus): boolean {
  return status !== 'saved'
}
