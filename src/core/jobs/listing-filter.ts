import {sinceTimestamp} from '../applications/stats.js'
import type {JobSummary} from './job-store.js'

/** The filters of `jobagent jobs` and GET /jobs/last as the user gives them; each left out matches every job. */
export interface JobListFilter {
  /** Text in the title, the company or a tag, any case, taken literally (jobs carry no notes). */
  search?: string | undefined
  /** The board type a job was listed on (`greenhouse`, `remoteok`, `rss`), any case; another listing counts too. */
  source?: string | undefined
  /** First seen in the last N days, weeks, months or years (`30d`, `4w`, `6m`, `1y`), as `status --since` reads it. */
  since?: string | undefined
}

type Filtered = Pick<JobSummary, 'title' | 'company' | 'tags' | 'source' | 'also_on' | 'first_seen'>

/**
 * Whether a job passes the filters, checked once here (an unreadable `since` is refused with what to type); `now`
 * is when the list is made, what `since` counts back from.
 */
export function jobListFilter(filter: JobListFilter, now: Date): (job: Filtered) => boolean {
  const search = filter.search?.trim().toLowerCase() || undefined
  const source = filter.source?.trim().toLowerCase() || undefined
  const since = filter.since === undefined ? undefined : sinceTimestamp(filter.since, now)
  return (job) =>
    (search === undefined ||
      [job.title, job.company, ...job.tags].some((text) => text.toLowerCase().includes(search))) &&
    (source === undefined ||
      [job.source, ...job.also_on.map((listing) => listing.source)].some((name) => name.toLowerCase() === source)) &&
    (since === undefined || job.first_seen >= since)
}
