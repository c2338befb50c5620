import pLimit from 'p-limit'
import type {Logger} from '../logger.js'
import type {DescriptionTerms} from '../matching/score.js'
import {type Clock, systemClock, utcTimestamp} from '../time.js'
import {screenBoardJobs} from './board-limits.js'
import {dedupeJobs, type FoundJob, type KeyedJob, keyJob} from './dedupe.js'
import type {DescriptionStore, StoredDescription} from './description-store.js'
import {applySalaryFloor, type CriteriaFilter, criteriaFilter, type SalaryFloorOutcome} from './filters.js'
import type {JobResponse, SearchCriteria} from './job.js'
import type {BoardSetSource, JobSource, ServerSideFilter} from './job-source.js'
import {boardFailures, type SearchResult, type SourceOutcome} from './search-result.js'

export type SourceProgress =
  | {name: string; state: 'running'}
  | {name: string; state: 'done' | 'failed'; outcome: SourceOutcome}

export interface SearchOptions {
  signal?: AbortSignal
  onProgress?: (progress: SourceProgress) => void
  /**
   * Where the descriptions of the jobs kept go as each board answers (a storing run); without it they stay in the
   * jobs. A store that fails leaves them in the jobs too.
   */
  descriptions?: DescriptionStore
  /**
   * With `descriptions`: the terms scoring keeps of each text (descriptionAnalyser), found before the texts are stored away;
   * given the texts and the keys they are stored under, in order.
   */
  analyseTexts?: (texts: readonly string[], stored: readonly StoredDescription[]) => Promise<DescriptionTerms[]>
}

/** A job of one board, keyed. */
type BoardJob = KeyedJob & {board: string}

/** What one board gave: its outcome, the canonical URL of every job it returned, the jobs the criteria kept. */
interface BoardResult {
  outcome: SourceOutcome
  listed: string[]
  kept: BoardJob[]
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

/** The status of a board that answered with an HTTP error (the adapters' errors carry it as `status`). */
function httpStatus(error: unknown): {status?: number} {
  const status = (error as {status?: unknown} | null)?.status
  return typeof status === 'number' ? {status} : {}
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
    const serverSide = new Map<string, readonly ServerSideFilter[]>()
    for (const source of this.sources)
      serverSide.set(source.name.split(':')[0] ?? source.name, source.serverSideFilters)
    // Each board's jobs are keyed and filtered as the board answers, so a storing run can put their descriptions
    // away before the next board's arrive.
    const filter = criteriaFilter(criteria, {now: startedAt, serverSide})
    const results = await Promise.all(
      this.sources.map((source) => limit(() => this.searchOne(source, criteria, signal, filter, options))),
    )
    const listed = new Map<string, string[]>()
    for (const [index, result] of results.entries()) {
      const board = this.sources[index]?.name ?? ''
      if (result.listed.length > 0) listed.set(board, result.listed)
    }
    const kept = results.flatMap((result) => result.kept)
    const found = dedupeJobs(kept)
    const paid = applySalaryFloor(
      found.map((one) => one.job),
      criteria,
    )
    const paidJobs = new Set(paid.jobs)
    this.logger
      .child('search')
      .debug(
        `${kept.length} jobs kept by the criteria, ${found.length} after deduplication, ${paid.jobs.length} after the salary floor`,
      )
    return {
      jobs: paid.jobs,
      found: found.filter((one) => paidJobs.has(one.job)),
      listed,
      salary: paid.salary,
      sources: results.map((result) => result.outcome),
      searched_at: utcTimestamp(startedAt),
      fetched: results.reduce((sum, result) => sum + result.listed.length, 0),
      warnings: filter.warnings(),
    }
  }

  /** One board: its jobs with their keys, the ones the criteria keep, their descriptions stored when asked. */
  private async searchOne(
    source: JobSource,
    criteria: SearchCriteria,
    signal: AbortSignal,
    filter: CriteriaFilter,
    options: SearchOptions,
  ): Promise<BoardResult> {
    const {jobs, outcome} = await this.fetchOne(source, criteria, signal, options.onProgress)
    const keyed = jobs.map((job) => ({...keyJob(job), board: source.name}))
    const kept = keyed.filter((one) => filter.accepts(one.job))
    if (outcome.ok) {
      this.logger
        .child(`sources.${source.name}`)
        .debug(`${keyed.length} jobs returned, ${kept.length} kept by the criteria`)
    }
    return {outcome, listed: keyed.map((one) => one.urlKey), kept: await this.storeDescriptions(kept, options, source)}
  }

  /**
   * The jobs with their descriptions stored away; as they are without a description store, or when storing them
   * fails.
   */
  private async storeDescriptions(jobs: BoardJob[], options: SearchOptions, source: JobSource): Promise<BoardJob[]> {
    const {descriptions, analyseTexts} = options
    const described = jobs.filter((one) => one.job.description !== null)
    if (!descriptions || described.length === 0) return jobs
    try {
      const texts = described.map((one) => one.job.description as string)
      const stored = await descriptions.storeDescriptions(texts)
      const read = analyseTexts ? await analyseTexts(texts, stored) : []
      const where = new Map(described.map((one, index) => [one, index]))
      return jobs.map((one) => {
        const index = where.get(one)
        if (index === undefined) return one
        const storedDescription = stored[index]!
        const terms = read[index]
        return {
          ...one,
          job: {...one.job, description: null},
          storedDescription: terms ? {...storedDescription, terms} : storedDescription,
        }
      })
    } catch (error) {
      // Storing them early saves memory only: the descriptions stay with the jobs, and storing the jobs reports any
      // real fault. The line's wording is part of the run log that tests and users read.
      this.logger
        .child(`sources.${source.name}`)
        .debug(`descriptions: keeping them in memory, storing them failed (${describeFailure(error)})`)
      return jobs
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
      const set = isBoardSet(source) ? await source.fetchBoardSet(criteria, signal) : undefined
      const screened = screenBoardJobs(source.name, set ? set.jobs : await source.fetchJobs(criteria, signal))
      const jobs = screened.jobs
      for (const warning of screened.warnings) this.logger.child(`sources.${source.name}`).warning(warning)
      const outcome: SourceOutcome = {
        name: source.name,
        // A source of many boards fails only when every board asked failed; its error names the failures by reason.
        ok: !set || set.boards.asked === 0 || set.boards.failed < set.boards.asked,
        count: jobs.length,
        error: set ? boardFailures(set.boards, set.failed_by_reason) : null,
        duration_ms: elapsed(started),
        ...(set ? {boards: set.boards} : {}),
      }
      onProgress?.({name: source.name, state: 'done', outcome})
      return {jobs, outcome}
    } catch (error) {
      const outcome = {
        name: source.name,
        ok: false,
        count: 0,
        error: describeFailure(error),
        ...httpStatus(error),
        duration_ms: elapsed(started),
      }
      // The stack as lines of the log, one frame each, rather than one line of escaped line breaks.
      const sourceLog = this.logger.child(`sources.${source.name}`)
      for (const line of String((error as Error)?.stack ?? error).split('\n'))
        sourceLog.debug(`failure detail: ${line}`)
      onProgress?.({name: source.name, state: 'failed', outcome})
      return {jobs: [], outcome}
    }
  }
}

function isBoardSet(source: JobSource): source is BoardSetSource {
  return typeof (source as Partial<BoardSetSource>).fetchBoardSet === 'function'
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started)
}
