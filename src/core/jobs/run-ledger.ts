import {checkPage, RUNS_PAGE} from '../paging.js'
import * as z from '../zod-mini.js'
import {type JobStore, type RunRecord, runRecordSchema} from './job-store.js'

/** A run as the ledger lists it (`jobagent runs`, GET /runs): the stored record with its duration. */
export const ledgerRunSchema = z.extend(runRecordSchema, {duration_ms: z.int()})

export type LedgerRun = z.output<typeof ledgerRunSchema>

interface RunPage {
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
    const {limit, offset} = checkPage(page, RUNS_PAGE)
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
