// What the page holds between API calls, and what one view asks of the whole page.
import type {FollowUp, Job, LastRun, ScheduledInterview, TrackedApplication} from './api-types.js'

/**
 * jobs come from the last stored run (GET /jobs/last) when the page opens, then from each "Search now". Each job
 * carries the server's judgement (tracked_status, tracked_url, is_new, and with a profile score and reasons): the
 * page never applies URL rules or scores itself. With scores the API lists the jobs best first; scoreOrder
 * 'ascending' shows them lowest first instead.
 */
export const state = {
  applications: [] as TrackedApplication[],
  applicationsLoaded: false,
  jobs: null as Job[] | null,
  jobsFrom: 'run' as 'run' | 'search',
  run: null as LastRun,
  searching: false,
  scoreOrder: 'descending' as 'ascending' | 'descending',
  /** Applications due for a follow-up, by URL: their rows say how long they have waited. */
  followUps: new Map<string, FollowUp>(),
  /** Every interview, the upcoming ones soonest first, then the past ones latest first (GET /interviews?all=true). */
  interviews: [] as ScheduledInterview[],
}

/** What a view asks of the whole page (src/web/app.ts): every view drawn again, the applications read again. */
export interface Page {
  render(): void
  refresh(): Promise<void>
}

/** An application as far as the page knows it: its URL and status. */
export type TrackedUrl = Pick<TrackedApplication, 'url' | 'status'>

export function applicationsByUrl(): Map<string, TrackedApplication> {
  return new Map(state.applications.map((application) => [application.url, application]))
}

/**
 * The tracked application of a job, the one the server matched (tracked_url, exactly as stored): from the page's
 * own list when loaded, so a status changed here shows at once, else as the server judged it.
 */
export function applicationOf(job: Job, index: ReadonlyMap<string, TrackedApplication>): TrackedUrl | undefined {
  if (!job.tracked_url || !job.tracked_status) return undefined
  return index.get(job.tracked_url) ?? {url: job.tracked_url, status: job.tracked_status}
}

/** Whether any of the record's `fields` holds `text` (already lower case); every record matches no text. */
export function matchesText<R>(record: R, fields: readonly (keyof R & string)[], text: string): boolean {
  return (
    !text ||
    fields.some((field) =>
      String(record[field] ?? '')
        .toLowerCase()
        .includes(text),
    )
  )
}
