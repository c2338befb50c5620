import type {JobResponse, SearchCriteria} from './job.js'

/** Criteria a board can apply on its side (query parameters); the rest are applied by jobagent after fetching. */
export type ServerSideFilter = 'tags' | 'keywords' | 'locations' | 'remote_only'

/**
 * The port every job board adapter implements. `fetchJobs` returns the board's jobs already mapped to
 * JobResponse (text unescaped and trimmed, dates normalised); it throws an error whose message names the cause
 * (HTTP status, timeout, malformed body) when the board fails. The run catches it and goes on with other boards.
 */
export interface JobSource {
  /** Unique within a run, used in logs and outcomes: `remoteok`, `greenhouse:gitlab`, `rss:example`. */
  readonly name: string
  /** Filters passed to the board itself; informational, jobagent still filters everything client-side. */
  readonly serverSideFilters: readonly ServerSideFilter[]
  fetchJobs(criteria: SearchCriteria, signal: AbortSignal): Promise<JobResponse[]>
}
