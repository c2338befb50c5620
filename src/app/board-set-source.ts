import type {JobResponse, SearchCriteria} from '../core/jobs/job.js'
import type {BoardSetAnswer, BoardSetSource, JobSource} from '../core/jobs/job-source.js'
import type {RunBoardStore} from '../core/jobs/run-board-store.js'
import type {BoardCounts} from '../core/jobs/search-result.js'
import {type BoardRef, type SourceConfig, sourceName} from '../core/jobs/source-config.js'
import type {Logger} from '../core/logger.js'
import {sweptBoard} from '../core/sweep/directory.js'
import {deadBoardState, isResting, looksOffline, validatorsOf} from '../core/sweep/sweep-rules.js'
import {textHash} from '../core/text-hash.js'
import type {Clock} from '../core/time.js'
import type {BoardReader} from '../sources/board-sweep.js'
import {boardDeadlineMs, withinDeadline} from '../sources/shared.js'
import type {PoliteBoards} from './polite-boards.js'

interface BoardSetDeps {
  polite: PoliteBoards
  /** The ATS's reader, for a run: each list as the run's own source asks it, details for every job. */
  reader: BoardReader
  store: RunBoardStore
  clock: Clock
  logger: Logger
  /** The board asks its own search per tag (the run's tags are its words). */
  searchesByTag: boolean
}

/** How asking one board ended: resting (not asked), its jobs (listed or unchanged), gone (404), or failed. */
type Asked =
  | {outcome: 'resting'}
  | {outcome: 'listed' | 'unchanged'; jobs: JobResponse[]}
  | {outcome: 'gone'; error: unknown}
  | {outcome: 'failed'; reason: string; error: unknown; lastJobs: () => Promise<JobResponse[]>}

/**
 * Asking the boards of one entry for one search: through the sweep's politeness (PoliteBoards: per-ATS and global
 * limits, Retry-After, back-off) and with the validators of each board's last answer, so an unchanged board costs
 * one conditional request and its jobs are the stored ones, unparsed. `rests`: a board that answered 404 is not
 * asked until it is due, as a swept one (a file of hundreds of boards); a board named in the entry itself is asked
 * every run and reported dead by the run's own rule.
 */
function boardAsking(config: SourceConfig, deps: BoardSetDeps, criteria: SearchCriteria, rests: boolean) {
  const {boards_file: _file, ...entry} = config
  const log = deps.logger.child(`sources.${sourceName(config)}`)
  const now = deps.clock.now()
  const words = deps.searchesByTag ? [...new Set(criteria.tags.map((tag) => tag.trim().toLowerCase()))] : []
  // An answer kept for another base URL, region or search is no answer to this request.
  const requestKey = textHash(JSON.stringify([entry.url ?? null, entry.region ?? null, entry.max_pages ?? null, words]))

  /** `offline`: once aborted, the board is not asked and fails as by the network, keeping its last jobs. */
  return async (board: BoardRef, signal: AbortSignal, offline?: AbortSignal): Promise<Asked> => {
    signal.throwIfAborted()
    const key = `${config.type}:${board.slug}`
    const state = await deps.store.state(key)
    if (rests && isResting(state, now)) return {outcome: 'resting'}
    const kept = state?.request_key === requestKey ? state : undefined
    const lastJobs = () => (kept ? deps.store.lastJobs(key) : Promise.resolve([]))
    const noNetwork = (): Asked => ({outcome: 'failed', reason: 'network error', error: offline?.reason, lastJobs})
    if (offline?.aborted) return noNetwork()
    const asking = offline ? AbortSignal.any([signal, offline]) : signal
    const request = {config: boardConfig(entry, board), board, roleWords: words, signal: asking}
    let listed: Awaited<ReturnType<typeof deps.polite.list>>
    try {
      listed = await deps.polite.list(config.type, key, deps.reader, {
        ...request,
        previous: kept ? validatorsOf(kept) : null,
      })
    } catch (error) {
      if (signal.aborted || !offline?.aborted) throw error
      return noNetwork()
    }
    const alive = {key, request_key: requestKey, dead_since: null, dead_until: null, dead_count: 0}
    switch (listed.outcome) {
      case 'unchanged':
        deps.store.update({...alive, ...listed.validators, jobs: undefined})
        return {outcome: 'unchanged', jobs: await deps.store.lastJobs(key)}
      case 'listed': {
        const jobs = await deps.reader.details(request, listed.jobs)
        deps.store.update({...alive, ...listed.validators, jobs})
        return {outcome: 'listed', jobs}
      }
      case 'gone': {
        const dead = deadBoardState(state, now)
        if (rests) log.debug(`${key}: answered 404; not asked again before ${dead.dead_until}`)
        deps.store.update({key, request_key: requestKey, ...dead, ...(rests ? {} : {dead_until: null}), jobs: null})
        return {outcome: 'gone', error: listed.error}
      }
      case 'failed':
        return {...listed, lastJobs}
    }
  }
}

/**
 * A `sources` entry with `boards_file` as one source of the run, its boards asked as boardAsking says. A board that
 * answers 404 rests as a swept one does; a board that fails keeps the jobs of its last answer in the run, so a
 * failure closes none of them.
 */
export function boardSetSource(config: SourceConfig, boards: readonly BoardRef[], deps: BoardSetDeps): BoardSetSource {
  const fetchBoardSet = async (criteria: SearchCriteria, signal: AbortSignal): Promise<BoardSetAnswer> => {
    const ask = boardAsking(config, deps, criteria, true)
    const counts: BoardCounts = {asked: 0, answered: 0, unchanged: 0, dead: 0, resting: 0, failed: 0}
    const byReason: Record<string, number> = {}
    // Offline, as a sweep judges it (looksOffline): the boards not asked yet fail at once, keeping their jobs,
    // instead of each waiting out a back-off that doubles up to a minute.
    const offline = new AbortController()
    let networkFailures = 0
    const failed = (reason: string) => {
      counts.failed++
      byReason[reason] = (byReason[reason] ?? 0) + 1
    }
    const askOne = async (board: BoardRef): Promise<JobResponse[]> => {
      const asked = await ask(board, signal, offline.signal)
      if (asked.outcome !== 'resting') counts.asked++
      switch (asked.outcome) {
        case 'resting':
          counts.resting++
          return []
        case 'unchanged':
          counts.unchanged++
          return asked.jobs
        case 'listed':
          counts.answered++
          return asked.jobs
        case 'gone':
          counts.dead++
          return []
        case 'failed':
          failed(asked.reason)
          if (asked.reason === 'network error') networkFailures++
          if (
            looksOffline({
              answered: counts.answered + counts.unchanged + counts.dead,
              networkFailures,
              atsFailed: 1,
              atsAsked: 1,
            })
          )
            offline.abort()
          return asked.lastJobs()
      }
    }
    const perBoard = await Promise.all(boards.map((board) => deps.polite.schedule(config.type, () => askOne(board))))
    return {jobs: perBoard.flat(), boards: counts, failed_by_reason: byReason}
  }

  return {
    name: sourceName(config),
    serverSideFilters: deps.searchesByTag ? ['tags'] : [],
    fetchBoardSet,
    fetchJobs: async (criteria, signal) => (await fetchBoardSet(criteria, signal)).jobs,
  }
}

/**
 * The boards an ATS entry names in itself (`boards`, `companies`, ...), one source each as the run reports and
 * watches them (`greenhouse:gitlab`, its outcome and health of its own), each asked as boardAsking says and within
 * the board's deadline once the platform's limits let it start. A board that fails or answers 404 fails its source
 * with the board's own error, so the run closes none of its jobs and counts a 404 toward `run.dead_after_runs`.
 */
export function boardSources(config: SourceConfig, boards: readonly BoardRef[], deps: BoardSetDeps): JobSource[] {
  const deadline = boardDeadlineMs(config)
  return boards.map((board) => ({
    name: sourceName(config, board.slug),
    serverSideFilters: deps.searchesByTag ? ['tags'] : [],
    fetchJobs: (criteria, signal) =>
      deps.polite.schedule(config.type, async () => {
        const asked = await withinDeadline(deadline, signal, (bounded) =>
          boardAsking(config, deps, criteria, false)(board, bounded),
        )
        if (asked.outcome === 'gone' || asked.outcome === 'failed') throw asked.error
        return asked.outcome === 'resting' ? [] : asked.jobs
      }),
  }))
}

/** One board's source entry: the ATS's own host or region for the board (Teamtailor, Lever EU), then the entry's. */
function boardConfig(entry: SourceConfig, board: BoardRef): SourceConfig {
  const own = sweptBoard(
    {
      ats: entry.type,
      slug: board.slug,
      company: board.company ?? board.slug,
      ...(entry.region === 'eu' ? {region: 'eu' as const} : {}),
    },
    () => true,
  )
  return {...own?.config, ...entry}
}
