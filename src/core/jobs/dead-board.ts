import type {RunRecord} from './job-store.js'
import type {SourceAnomaly, SourceOutcome} from './search-result.js'

/** A board's answer that says "nothing here": 200 with no jobs, or 404 (the slug or the board is gone). */
function looksGone(outcome: Pick<SourceOutcome, 'ok' | 'count' | 'status'>): boolean {
  return outcome.ok ? outcome.count === 0 : outcome.status === 404
}

/**
 * A board that answered 404 or no jobs in each of its last `deadAfterRuns` runs, this one included: a company
 * that moved its board or a mistyped slug looks like a quiet day forever unless someone says so. Runs the board
 * was not part of are skipped; any other answer (jobs, a timeout, a 503) breaks the chain, so a board that answers
 * with jobs again clears it. The anomaly counts every run of the chain the ledger read holds, not just the
 * `deadAfterRuns` that make it dead, so `dead (7 runs)` says how long the board has been gone. `history` is the
 * run ledger, newest first, without this run.
 */
export function deadBoardAnomaly(
  outcome: SourceOutcome,
  history: readonly Pick<RunRecord, 'sources'>[],
  deadAfterRuns: number,
): SourceAnomaly | null {
  if (!looksGone(outcome)) return null
  let runs = 1
  for (const run of history) {
    const past = run.sources.find((source) => source.name === outcome.name)
    if (!past) continue
    if (!looksGone(past)) break
    runs += 1
  }
  if (runs < deadAfterRuns) return null
  return {
    code: 'dead',
    runs,
    message:
      `no jobs or 404 in the last ${runs === 1 ? 'run' : `${runs} runs`}; the board may be gone: check the slug, ` +
      'or remove the source with jobagent config set sources ...',
  }
}
