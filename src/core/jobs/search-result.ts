import type {JobResponse} from './job.js'

/** How one board fared in a search: shown per source in the run log, `--json`, GET /jobs and the dashboard. */
export interface SourceOutcome {
  name: string
  ok: boolean
  /** Jobs the board returned (before filters and deduplication). */
  count: number
  /** Why the board failed, e.g. "HTTP 503 Service Unavailable" or "timed out after 15 s"; null when ok. */
  error: string | null
  /** The HTTP status a failed board answered with (404: the board is gone); absent when none, and in older runs. */
  status?: number
  duration_ms: number
}

/**
 * A board whose answer looks wrong: "returned nothing where it always returned something" (`zero_yield`), or
 * "404 or nothing for `run.dead_after_runs` runs in a row" (`dead`).
 */
export type SourceAnomaly =
  | {
      code: 'zero_yield'
      /** About how many jobs the board returned in its recent successful runs. */
      usual_count: number
      message: string
    }
  | {
      code: 'dead'
      /** How many runs in a row the board answered 404 or nothing. */
      runs: number
      message: string
    }

/** A board's outcome in a run: the search's outcome and whether its answer looked wrong. */
export interface RunSourceOutcome extends SourceOutcome {
  anomaly: SourceAnomaly | null
}

/** The result of one search over every enabled board: filtered and deduplicated jobs. */
export interface SearchResult {
  jobs: JobResponse[]
  sources: SourceOutcome[]
  /** ISO 8601 UTC time the search started. */
  searched_at: string
}
