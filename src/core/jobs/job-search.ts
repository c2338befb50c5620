import pLimit from 'p-limit'
import type {Logger} from '../logger.js'
import {type Clock, systemClock, utcTimestamp} from '../time.js'
import {screenBoardJobs} from './board-limits.js'
import {dedupeJobs, type FoundJob, keyJob} from './dedupe.js'
import {applyCriteria, applySalaryFloor, type SalaryFloorOutcome} from './filters.js'
import type {JobResponse, SearchCriteria} from './job.js'
import type {JobSource, ServerSideFilter} from './job-source.js'
import type {SearchResult, SourceOutcome} from './search-result.js'

export type SourceProgress =
  | {name: string; state: 'running'}
  | {name: string; state: 'done' | 'failed'; outcome: SourceOutcome}

export interface SearchOptions {
  signal?: AbortSignal
  onProgress?: (progress: SourceProgress) => void
}

interface SearchRun extends SearchResult {
  /** The jobs with their keys, boards and other listings, in the order of `jobs`. */
  found: FoundJob[]
  /** Per board that answered: the canonical URLs of every job it returned, before filters (for closing jobs). */
  listed: Map<string, string[]>
  /** Jobs the boards returned before filters and deduplication. */
  fetched: number
  warnings: string[]
  /** What the salary floor did; null without one. */
  salary: SalaryFloorOutcome | null
}

function describeFailure(error: unknown): string {
  if (error instanceof Error) return error.message || error.name
  return String(error)
}

/**
 * Searches every board concurrently, each on its own: one board failing or hanging never empties the search.
 * Then filters on our side and removes duplicates across boards.
 */
export class JobSearch {
  constructor(
    private readonly sources: readonly JobSource[],
    private readonly logger: Logger,
    private readonly clock: Clock = systemClock,
    private readonly concurrency = 6,
  ) {}

  get sourceNames(): string[] {
    return this.sources.map((source) => source.name)
  }

  async search(criteria: SearchCriteria, options: SearchOptions = {}): Promise<SearchRun> {
    const startedAt = this.clock.now()
    const limit = pLimit(this.concurrency)
    const signal = options.signal ?? new AbortController().signal
    const results = await Promise.all(
      this.sources.map((source) => limit(() => this.fetchOne(source, criteria, signal, options.onProgress))),
    )
    // Every job's keys are worked out once, here: deduplication, closing and the store all use them.
    const fetched = results.flatMap((result, index) => {
      const board = this.sources[index]?.name ?? ''
      return result.jobs.map((job) => ({...keyJob(job), board}))
    })
    const listed = new Map<string, string[]>()
    for (const keyed of fetched) {
      const keys = listed.get(keyed.board) ?? []
      keys.push(keyed.urlKey)
      listed.set(keyed.board, keys)
    }
    const serverSide = new Map<string, readonly ServerSideFilter[]>()
    for (const source of this.sources)
      serverSide.set(source.name.split(':')[0] ?? source.name, source.serverSideFilters)
    const filtered = applyCriteria(
      fetched.map((keyed) => keyed.job),
      criteria,
      {now: startedAt, serverSide},
    )
    const kept = new Set(filtered.jobs)
    const found = dedupeJobs(fetched.filter((keyed) => kept.has(keyed.job)))
    const paid = applySalaryFloor(
      found.map((one) => one.job),
      criteria,
    )
    const paidJobs = new Set(paid.jobs)
    return {
      jobs: paid.jobs,
      found: found.filter((one) => paidJobs.has(one.job)),
      listed,
      salary: paid.salary,
      sources: results.map((result) => result.outcome),
      searched_at: utcTimestamp(startedAt),
      fetched: fetched.length,
      warnings: filtered.warnings,
    }
  }

  private async fetchOne(
    source: JobSource,
    criteria: SearchCriteria,
    signal: AbortSignal,
    onProgress: SearchOptions['onProgress'],
  ): Promise<{jobs: JobResponse[]; outcome: SourceOutcome}> {
    const started = performance.now()
    onProgress?.({name: source.name, state: 'running'})
    try {
      const screened = screenBoardJobs(source.name, await source.fetchJobs(criteria, signal))
      const jobs = screened.jobs
      for (const warning of screened.warnings) this.logger.child(`sources.${source.name}`).warning(warning)
      const outcome = {name: source.name, ok: true, count: jobs.length, error: null, duration_ms: elapsed(started)}
      onProgress?.({name: source.name, state: 'done', outcome})
      return {jobs, outcome}
    } catch (error) {
      const outcome = {
        name: source.name,
        ok: false,
        count: 0,
        error: describeFailure(error),
        duration_ms: elapsed(started),
      }
      this.logger.child(`sources.${source.name}`).debug(`failure detail: ${String((error as Error)?.stack ?? error)}`)
      onProgress?.({name: source.name, state: 'failed', outcome})
      return {jobs: [], outcome}
    }
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started)
}
