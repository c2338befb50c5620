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

/** A tracked application with its status changes, oldest first. */
export interface ApplicationWithHistory {
  application: TrackedApplication
  history: StatusChange[]
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
