import type {JobResponse, SearchCriteria} from './job.js'
import type {BoardCounts} from './search-result.js'

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

/** What a source of many boards answered: its jobs, how its boards fared, and the failed ones by reason. */
export interface BoardSetAnswer {
  jobs: JobResponse[]
  boards: BoardCounts
  /** Failed boards by reason (`HTTP 503`, `timed out`, `malformed answer`). */
  failed_by_reason: Record<string, number>
}

/**
 * A source of many boards, reported as one (a `sources` entry with `boards_file`): the search reads its answer with
 * the counts and gives its outcome `boards`; it fails only when every board asked failed.
 */
export interface BoardSetSource extends JobSource {
  fetchBoardSet(criteria: SearchCriteria, signal: AbortSignal): Promise<BoardSetAnswer>
}
