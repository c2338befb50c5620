import type {Page} from '../paging.js'
import type {
  ApplicationCounts,
  ApplicationRecord,
  ApplicationStatus,
  ApplicationWithHistory,
  StatusChange,
  TrackedApplication,
} from './application.js'

/** What a status change sets; a field left out keeps its current value. */
export interface StatusEdit {
  status?: ApplicationStatus
  notes?: string
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

/**
 * The storage port of the tracker. Records are addressed by their URL key (see applicationUrlKey);
 * every method that writes does so in one transaction.
 */
export interface ApplicationStore {
  /** Inserts the record; returns null when its URL key is already tracked. */
  insert(record: ApplicationRecord, urlKey: string, at: string): Promise<TrackedApplication | null>
  get(urlKey: string): Promise<TrackedApplication | null>
  /** Newest first; with `page`, only that page. */
  list(filter?: {status?: ApplicationStatus; page?: Page}): Promise<TrackedApplication[]>
  /** How many records `list` would return without a page. */
  countOf(filter?: {status?: ApplicationStatus}): Promise<number>
  history(urlKey: string): Promise<StatusChange[]>
  /** Every record with its history (oldest change first), read in one query. */
  allWithHistory(): Promise<ApplicationWithHistory[]>
  /**
   * Changes status and notes, keeping the old values in the history; null when the URL is not tracked. A field
   * left out keeps the value the record holds when the change is written, whoever wrote it last.
   */
  changeStatus(urlKey: string, change: StatusEdit, at: string): Promise<StatusUpdate | null>
  counts(): Promise<ApplicationCounts>
  /**
   * URL keys of every record whose status counts as applied (not `saved`), each as tracked and without tracking
   * parameters (applicationCanonicalKey).
   */
  appliedUrlKeys(): Promise<Set<string>>
  /**
   * URL key -> URL and status of the tracked records among these keys (point lookups, not a scan of the tracker). A
   * record answers for its own key and, where no record is tracked under that exactly, for its key without tracking
   * parameters, so a job is the application's whichever of the two links carries them.
   */
  trackedOf(urlKeys: readonly string[]): Promise<Map<string, {url: string; status: ApplicationStatus}>>
  /**
   * All or nothing: inserts new records and, with `update`, overwrites tracked ones. A record whose file gave no
   * applied_date (`appliedDateGiven: false`) keeps the tracked one on update; a new one gets the record's. A new
   * record's status dates from `since` (statusSince); a tracked one whose status changes, from `at`.
   */
  importRecords(
    records: readonly {record: ApplicationRecord; urlKey: string; appliedDateGiven: boolean; since: string}[],
    options: {update: boolean; at: string},
  ): Promise<ImportOutcome>
  /**
   * Marks the posting of the applications tracked under these URL keys closed at `at` (the lifecycle rules decide
   * which, docs/LIFECYCLE.md); one marked already keeps its date. Returns how many it marked. Synchronous: the job
   * store calls it inside the transaction that stores a run, so a run's jobs and their applications change together.
   */
  markPostingsClosed(urlKeys: readonly string[], at: string): number
  /** Clears the mark of the applications tracked under these URL keys; synchronous, as markPostingsClosed. */
  markPostingsOpen(urlKeys: readonly string[]): void
}
