import type {Logger} from '../logger.js'
import {deadBoardAnomaly} from './dead-board.js'
import type {RunRecord} from './job-store.js'
import type {RunSourceOutcome, SourceOutcome} from './search-result.js'
import {zeroYieldAnomalies} from './zero-yield.js'

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}

/**
 * The one line of a source of many boards: its jobs, then its boards by how they fared, failures by reason.
 * `870 jobs in 2.1 s from 300 boards: 290 answered, 5 unchanged, 3 dead, 2 resting, 0 failed`
 */
function boardSetLine(outcome: SourceOutcome): string {
  const b = outcome.boards
  if (!b) return ''
  const total = b.asked + b.resting
  const failed = outcome.error ? `; ${outcome.error}` : ''
  return `${outcome.count} jobs in ${seconds(outcome.duration_ms)} from ${total} boards: ${b.answered} answered, ${b.unchanged} unchanged, ${b.dead} dead, ${b.resting} resting, ${b.failed} failed${failed}`
}

/**
 * Each board's line of the run log, written as the board answers, with that moment's timestamp: a board that
 * failed at once is not logged only when the slowest board has answered. An empty or failed answer is checked
 * against the boards' recent runs in the ledger (read once, on the first such answer) before its line is written:
 * zero yield, or dead after `deadAfterRuns` runs of 404 or no jobs.
 */
export function boardReports(
  logger: Logger,
  recentRuns: () => Promise<readonly Pick<RunRecord, 'sources'>[]>,
  deadAfterRuns: number,
) {
  const reported = new Map<string, Promise<RunSourceOutcome>>()
  let history: Promise<readonly Pick<RunRecord, 'sources'>[]> | undefined

  const withAnomaly = async (outcome: SourceOutcome): Promise<RunSourceOutcome> => {
    if (outcome.ok && outcome.count > 0) return {...outcome, anomaly: null}
    history ??= recentRuns()
    const past = await history
    const anomaly =
      (outcome.ok ? zeroYieldAnomalies([outcome], past).get(outcome.name) : undefined) ??
      deadBoardAnomaly(outcome, past, deadAfterRuns)
    return {...outcome, anomaly}
  }

  const report = (outcome: SourceOutcome): Promise<RunSourceOutcome> => {
    const line = withAnomaly(outcome).then((board) => {
      const sourceLog = logger.child(`sources.${board.name}`)
      if (!board.ok) sourceLog.warning(`${board.name}: failed after ${seconds(board.duration_ms)}: ${board.error}`)
      if (board.anomaly) sourceLog.warning(`${board.name}: ${board.anomaly.message}`)
      else if (board.ok && board.boards) sourceLog.info(`${board.name}: ${boardSetLine(board)}`)
      else if (board.ok) sourceLog.info(`${board.name}: ${board.count} jobs in ${seconds(board.duration_ms)}`)
      return board
    })
    // Awaited by `all`; until then a failed ledger read must not count as unhandled.
    line.catch(() => undefined)
    reported.set(outcome.name, line)
    return line
  }

  return {
    /** A board answered: its line is written now. */
    answered(outcome: SourceOutcome): void {
      report(outcome)
    },
    /** Every board's outcome with its anomaly, in the search's order; a board not reported yet is reported now. */
    all(outcomes: readonly SourceOutcome[]): Promise<RunSourceOutcome[]> {
      return Promise.all(outcomes.map((outcome) => reported.get(outcome.name) ?? report(outcome)))
    },
  }
}
