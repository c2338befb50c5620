import * as z from '../zod-mini.js'
import type {JobResponse} from './job.js'

/**
 * How the boards behind one outcome fared: a sweep's ATS, or a `sources` entry that names its boards in a file
 * (`boards_file`). Boards asked (not resting), those that answered (with jobs or unchanged), found dead, and failed.
 */
const sweptBoardsSchema = z.object({
  asked: z.int(),
  answered: z.int(),
  unchanged: z.int(),
  dead: z.int(),
  resting: z.int(),
  failed: z.int(),
})

/** How one board fared in a search: shown per source in the run log, `--json`, GET /jobs and the dashboard. */
export const sourceOutcomeSchema = z.object({
  name: z.string(),
  ok: z.boolean(),
  /** Jobs the board returned (before filters and deduplication). */
  count: z.int(),
  /** Why the board failed, e.g. "HTTP 503 Service Unavailable" or "timed out after 15 s"; null when ok. */
  error: z.nullable(z.string()),
  /** The HTTP status a failed board answered with (404: the board is gone); absent when none, and in older runs. */
  status: z.optional(z.int()),
  duration_ms: z.number(),
  /** The counts of a source of many boards (a sweep's ATS, an entry with `boards_file`); absent for one board. */
  boards: z.optional(sweptBoardsSchema),
})

export type SourceOutcome = z.output<typeof sourceOutcomeSchema>

export type BoardCounts = z.output<typeof sweptBoardsSchema>

/** The failed boards by reason, as an outcome's error says them: `3 of 300 boards failed (HTTP 503 2, timed out 1)`. */
export function boardFailures(boards: BoardCounts, byReason: Readonly<Record<string, number>>): string | null {
  if (boards.failed === 0) return null
  const reasons = Object.entries(byReason)
    .map(([reason, count]) => `${reason} ${count}`)
    .join(', ')
  return `${boards.failed} of ${boards.asked} boards failed (${reasons})`
}

/**
 * A board whose answer looks wrong: "returned nothing where it always returned something" (`zero_yield`), or
 * "404 or nothing for `run.dead_after_runs` runs in a row" (`dead`).
 */
const sourceAnomalySchema = z.discriminatedUnion('code', [
  z.object({
    code: z.literal('zero_yield'),
    /** About how many jobs the board returned in its recent successful runs. */
    usual_count: z.int(),
    message: z.string(),
  }),
  z.object({
    code: z.literal('dead'),
    /** How many runs in a row the board answered 404 or nothing. */
    runs: z.int(),
    message: z.string(),
  }),
])

export type SourceAnomaly = z.output<typeof sourceAnomalySchema>

/**
 * A board's outcome in a run: the search's outcome and whether its answer looked wrong. A sweep's run has one per
 * ATS, named by it, with its boards' counts in `boards`, as a daily run has for an entry with `boards_file`.
 */
export const runSourceOutcomeSchema = z.extend(sourceOutcomeSchema, {
  anomaly: z.nullable(sourceAnomalySchema),
})

export type RunSourceOutcome = z.output<typeof runSourceOutcomeSchema>

/** The result of one search over every enabled board: filtered and deduplicated jobs. */
export interface SearchResult {
  jobs: JobResponse[]
  sources: SourceOutcome[]
  /** ISO 8601 UTC time the search started. */
  searched_at: string
}
