import type {RunRecord} from './job-store.js'
import type {SourceAnomaly, SourceOutcome} from './search-result.js'

/** How many of a board's latest successful runs must all have returned jobs before an empty answer is suspicious. */
const ZERO_YIELD_WINDOW = 3

/**
 * Boards that succeeded with 0 jobs although each of their last ZERO_YIELD_WINDOW successful runs returned
 * some: a board that changed its API or its response shape often answers 200 with an empty list, which would
 * otherwise look like a quiet day. `history` is the run ledger, newest first.
 */
export function zeroYieldAnomalies(
  outcomes: readonly SourceOutcome[],
  history: readonly Pick<RunRecord, 'sources'>[],
): Map<string, SourceAnomaly> {
  const anomalies = new Map<string, SourceAnomaly>()
  for (const outcome of outcomes) {
    if (!outcome.ok || outcome.count > 0) continue
    const counts: number[] = []
    for (const run of history) {
      const past = run.sources.find((source) => source.name === outcome.name && source.ok)
      if (past) counts.push(past.count)
      if (counts.length === ZERO_YIELD_WINDOW) break
    }
    if (counts.length < ZERO_YIELD_WINDOW || counts.some((count) => count === 0)) continue
    const usual = Math.round(counts.reduce((sum, count) => sum + count, 0) / counts.length)
    anomalies.set(outcome.name, {
      code: 'zero_yield',
      usual_count: usual,
      message: `returned 0 jobs, usually about ${usual}: the board may have changed`,
    })
  }
  return anomalies
}
