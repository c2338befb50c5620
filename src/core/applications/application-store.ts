import type {Page} from '../paging.js'
import type {
  ApplicationCounts,
  ApplicationDocument,
  ApplicationRecord,
  ApplicationStatus,
  ApplicationWithHistory,
  EditableField,
  ExtraField,
  StatusChange,
  TrackedApplication,
} from './application.js'
import type {ContactFields} from './contact.js'

/** What a status change sets; a field left out keeps its current value. */
export interface StatusEdit {
  status?: ApplicationStatus
  notes?: string
  /** A line added to the notes the record holds when the change is written (withNoteAdded), in place of `notes`. */
  addedNote?: string
}

export interface StatusUpdate {
  previous: TrackedApplication
  current: TrackedApplication
}

export interface ImportOutcome {
  inserted: number
  updated: number
  /** URLs already tracked and left as they were (no `update`). */
  unchanged: string[]
  /** Records already tracked exactly as the file has them: nothing to write, with `update` or without. */
  identical: number
}

/** The extra fields (EXTRA_FIELDS) given with a record; one left out is empty in a new application. */
export type Extras = Partial<Pick<TrackedApplication, ExtraField>>

/**
 * What an imported record brings besides the eight fields, each left out when the file has no column for it: the
 * extra fields (EXTRA_FIELDS), and contacts merged by name into the application's (contactFields).
 */
type ImportedExtras = Extras & {contacts?: ContactFields[]}

/** One record of an import as the store writes it. */
export interface ImportedApplication {
  record: ApplicationRecord
  extras: ImportedExtras
  keys: UrlKeys
  appliedDateGiven: boolean
  since: string
}

/** The two keys of an application URL: as given (applicationUrlKey) and without tracking parameters. */
export interface UrlKeys {
  urlKey: string
  canonicalKey: string
}

/** Which applications a list shows: a status, text in title, company or notes, a source, applied since a date. */
export interface ApplicationFilter {
  status?: ApplicationStatus
  /** Matched case-insensitively anywhere in the title, company or notes. */
  search?: string
  source?: string
  /** A local timestamp: applied at or after it. */
  since?: string
}

/** A next action as stored: empty text and no due date when there is none. */
export interface NextAction {
  action: string
  /** YYYY-MM-DD, or null. */
  due: string | null
}

/** An edit's new values. */
export type FieldEdit = Partial<Record<EditableField, string>>

/** What an insert or an edit found in the way: the application already tracked under the URL. */
export interface Taken {
  taken: TrackedApplication
}

/**
 * The storage port of the tracker. An application is found by its id, or by its URL: the one tracked under the URL
 * as given, else one tracked under the same URL without tracking parameters (docs/DESIGN: one canonical-key
 * rule). Removed applications are found too (their `removed_at` says so) but left out of lists, counts and the
 * keys a run compares jobs with. Every method that writes does so in one transaction. The `at` of a method that
 * records history is an offsetTimestamp: the history entry keeps it whole, the record's own times (`updated_at`,
 * `removed_at`) its local time (wallClockOf), as the contact and interview stores do with theirs.
 */
export interface ApplicationStore {
  /** Inserts the record with its extra fields, or returns the application its URL is tracked as already. */
  insert(record: ApplicationRecord & Extras, keys: UrlKeys, at: string): Promise<TrackedApplication | Taken>
  byId(id: number): Promise<TrackedApplication | null>
  byUrl(keys: UrlKeys): Promise<TrackedApplication | null>
  /** Newest first; with `page`, only that page. */
  list(filter?: ApplicationFilter & {page?: Page}): Promise<TrackedApplication[]>
  /** How many records `list` would return without a page. */
  countOf(filter?: ApplicationFilter): Promise<number>
  history(id: number): Promise<StatusChange[]>
  /** Every listed record with its history (oldest change first), read in one query. */
  allWithHistory(): Promise<ApplicationWithHistory[]>
  /**
   * Changes status and notes, keeping the old values in the history; null when no application has the id. A field
   * left out keeps the value the record holds when the change is written, whoever wrote it last.
   */
  changeStatus(id: number, change: StatusEdit, at: string): Promise<StatusUpdate | null>
  /**
   * Sets the fields given and records what changed (an `edit` entry); a URL tracked as another application is
   * refused with that one. Null when no application has the id.
   */
  edit(id: number, fields: FieldEdit, at: string): Promise<StatusUpdate | Taken | null>
  /**
   * Sets the next action and its due date (empty and null clear them), recording the change in the history (an
   * `edit` entry); null when no application has the id.
   */
  setNextAction(id: number, next: NextAction, at: string): Promise<StatusUpdate | null>
  /**
   * Records documents sent with the application, each replacing the one of its kind (withDocuments); the history
   * keeps what each replaced. Null when no application has the id.
   */
  setDocuments(id: number, documents: readonly ApplicationDocument[], at: string): Promise<StatusUpdate | null>
  /** Takes the application out of lists and stats (`removed_at`), or brings it back; each recorded in the history. */
  setRemoved(id: number, removed: boolean, at: string): Promise<StatusUpdate | null>
  /**
   * Deletes the application with its history, interviews and contacts, and the like that tracking it gave its job
   * (it came with the application); a like or dismissal the person gave the job stays. False when no application
   * has the id.
   */
  purge(id: number): Promise<boolean>
  counts(): Promise<ApplicationCounts>
  /**
   * URL keys of every listed record whose status counts as applied (not `saved`), each as tracked and without
   * tracking parameters (applicationCanonicalKey).
   */
  appliedUrlKeys(): Promise<Set<string>>
  /**
   * URL key -> URL and status of the listed records among these keys (point lookups, not a scan of the tracker). A
   * record answers for its own key and, where no record is tracked under that exactly, for its key without tracking
   * parameters, so a job is the application's whichever of the two links carries them.
   */
  trackedOf(urlKeys: readonly string[]): Promise<Map<string, {url: string; status: ApplicationStatus}>>
  /**
   * All or nothing: inserts new records and, with `update`, overwrites tracked ones, taking them one at a time as
   * they come, all in one transaction; when reading them throws, the transaction writes nothing. A record whose file gave no
   * applied_date (`appliedDateGiven: false`) keeps the tracked one on update; a new one gets the record's. A new
   * record's status dates from `since` (statusSince); a tracked one whose status changes, from `at`. With `update`,
   * salary lines given overwrite the tracked ones and contacts are merged by name (a contact of the file replaces
   * the tracked one of the same name; the others are kept), each change in the history.
   */
  importRecords(records: Iterable<ImportedApplication>, options: {update: boolean; at: string}): Promise<ImportOutcome>
  /**
   * Marks the posting of the applications tracked under these URL keys closed at `at` (the lifecycle rules decide
   * which, docs/LIFECYCLE.md); one marked already keeps its date. Returns how many it marked. Synchronous: the job
   * store calls it inside the transaction that stores a run, so a run's jobs and their applications change together.
   */
  markPostingsClosed(urlKeys: readonly string[], at: string): number
  /** Clears the mark of the applications tracked under these URL keys; synchronous, as markPostingsClosed. */
  markPostingsOpen(urlKeys: readonly string[]): void
}
