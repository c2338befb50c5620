import type {JobResponse, SearchCriteria} from '../core/jobs/job.js'
import type {BoardSetAnswer, BoardSetSource, ServerSideFilter} from '../core/jobs/job-source.js'
import type {RunBoardStore} from '../core/jobs/run-board-store.js'
import type {BoardCounts} from '../core/jobs/search-result.js'
import {type BoardRef, type SourceConfig, sourceName} from '../core/jobs/source-config.js'
import type {Logger} from '../core/logger.js'
import {sweptBoard} from '../core/sweep/directory.js'
import {deadBoardState, isResting, looksOffline, validatorsOf} from '../core/sweep/sweep-rules.js'
import {textHash} from '../core/text-hash.js'
import type {Clock} from '../core/time.js'
import type {BoardReader} from '../sources/board-sweep.js'
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

/**
 * A `sources` entry with `boards_file` as one source of the run: every board asked through the sweep's politeness
 * (PoliteBoards: per-ATS and global limits, Retry-After, back-off) and with the validators of its last answer, so an
 * unchanged board costs one conditional request and its jobs are the stored ones, unparsed. A board that answers
 * 404 rests as a swept one does and is not asked until it is due; a board that fails keeps the jobs of its last
 * answer in the run, so a failure closes none of them.
 */
export function boardSetSource(config: SourceConfig, boards: readonly BoardRef[], deps: BoardSetDeps): BoardSetSource {
  const name = sourceName(config)
  const serverSideFilters: ServerSideFilter[] = deps.searchesByTag ? ['tags'] : []
  const {boards_file: _file, ...entry} = config
  const log = deps.logger.child(`sources.${name}`)

  const fetchBoardSet = async (criteria: SearchCriteria, signal: AbortSignal): Promise<BoardSetAnswer> => {
    const now = deps.clock.now()
    const words = deps.searchesByTag ? [...new Set(criteria.tags.map((tag) => tag.trim().toLowerCase()))] : []
    // An answer kept for another base URL, region or search is no answer to this request.
    const requestKey = textHash(
      JSON.stringify([entry.url ?? null, entry.region ?? null, entry.max_pages ?? null, words]),
    )
    const counts: BoardCounts = {asked: 0, answered: 0, unchanged: 0, dead: 0, resting: 0, failed: 0}
    const byReason: Record<string, number> = {}
    // Offline, as a sweep judges it (looksOffline): the boards not asked yet fail at once, keeping their jobs,
    // instead of each waiting out a back-off that doubles up to a minute.
    const offline = new AbortController()
    let networkFailures = 0
    const asking = AbortSignal.any([signal, offline.signal])
    const failed = (reason: string) => {
      counts.failed++
      byReason[reason] = (byReason[reason] ?? 0) + 1
    }

    const askOne = async (board: BoardRef): Promise<JobResponse[]> => {
      signal.throwIfAborted()
      const key = `${config.type}:${board.slug}`
      const state = await deps.store.state(key)
      if (isResting(state, now)) {
        counts.resting++
        return []
      }
      counts.asked++
      const kept = state?.request_key === requestKey ? state : undefined
      const lastJobs = () => (kept ? deps.store.lastJobs(key) : Promise.resolve([]))
      if (offline.signal.aborted) {
        failed('network error')
        return lastJobs()
      }
      const request = {config: boardConfig(entry, board), board, roleWords: words, signal: asking}
      let listed: Awaited<ReturnType<typeof deps.polite.list>>
      try {
        listed = await deps.polite.list(config.type, key, deps.reader, {
          ...request,
          previous: kept ? validatorsOf(kept) : null,
        })
      } catch (error) {
        if (signal.aborted || !offline.signal.aborted) throw error
        failed('network error')
        return lastJobs()
      }
      const alive = {key, request_key: requestKey, dead_since: null, dead_until: null, dead_count: 0}
      switch (listed.outcome) {
        case 'unchanged':
          counts.unchanged++
          deps.store.update({...alive, ...listed.validators, jobs: undefined})
          return deps.store.lastJobs(key)
        case 'listed': {
          const jobs = await deps.reader.details(request, listed.jobs)
          counts.answered++
          deps.store.update({...alive, ...listed.validators, jobs})
          return jobs
        }
        case 'gone': {
          counts.dead++
          const dead = deadBoardState(state, now)
          log.debug(`${key}: answered 404; not asked again before ${dead.dead_until}`)
          deps.store.update({key, request_key: requestKey, ...dead, jobs: null})
          return []
        }
        case 'failed':
          failed(listed.reason)
          if (listed.reason === 'network error') networkFailures++
          if (
            looksOffline({
              answered: counts.answered + counts.unchanged + counts.dead,
              networkFailures,
              atsFailed: 1,
              atsAsked: 1,
            })
          )
            offline.abort()
          return lastJobs()
      }
    }

    const perBoard = await Promise.all(boards.map((board) => deps.polite.schedule(config.type, () => askOne(board))))
    return {jobs: perBoard.flat(), boards: counts, failed_by_reason: byReason}
  }

  return {
    name,
    serverSideFilters,
    fetchBoardSet,
    fetchJobs: async (criteria, signal) => (await fetchBoardSet(criteria, signal)).jobs,
  }
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
