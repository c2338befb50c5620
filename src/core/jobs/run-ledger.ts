import {ValidationError} from '../errors.js'
import type {JobStore, RunRecord} from './job-store.js'

export const RUNS_DEFAULT_LIMIT = 20
export const RUNS_MAX_LIMIT = 200

/** A run as the ledger lists it: the stored record with its duration. */
export interface LedgerRun extends RunRecord {
  duration_ms: number
}

export interface RunPage {
  runs: LedgerRun[]
  count: number
  /** Every run recorded, for paging. */
  total: number
  limit: number
  offset: number
}

/** The run ledger (`jobagent runs`, GET /runs): what each run did, newest first, a page at a time. */
export class RunLedger {
  constructor(private readonly jobs: Pick<JobStore, 'listRuns'>) {}

  async list(page: {limit?: number | undefined; offset?: number | undefined} = {}): Promise<RunPage> {
    const limit = page.limit ?? RUNS_DEFAULT_LIMIT
    const offset = page.offset ?? 0
    const problems = [
      ...(Number.isInteger(limit) && limit >= 1 && limit <= RUNS_MAX_LIMIT
        ? []
        : [{field: 'limit', message: `limit must be a whole number from 1 to ${RUNS_MAX_LIMIT}, got ${limit}`}]),
      ...(Number.isInteger(offset) && offset >= 0
        ? []
        : [{field: 'offset', message: `offset must be a whole number of 0 or more, got ${offset}`}]),
    ]
    if (problems.length > 0) {
      throw new ValidationError(problems.map((problem) => problem.message).join('; '), {details: problems})
    }
    const {runs, total} = await this.jobs.listRuns({limit, offset})
    const listed = runs.map((run) => ({...run, duration_ms: durationOf(run)}))
    return {runs: listed, count: listed.length, total, limit, offset}
  }
}

/** Both times are local timestamps without a zone, which Date reads as local time: their difference holds. */
function durationOf(run: Pick<RunRecord, 'started_at' | 'finished_at'>): number {
  const ms = Date.parse(run.finished_at) - Date.parse(run.started_at)
  return Number.isFinite(ms) && ms >= 0 ? ms : 0
}
