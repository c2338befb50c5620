import {UnavailableError} from '../core/errors.js'
import {dedupeJobs, jobIdentityKey, keyJob} from '../core/jobs/dedupe.js'
import type {JobResponse} from '../core/jobs/job.js'
import type {JobStore} from '../core/jobs/job-store.js'
import {recordRun} from '../core/jobs/run-changes.js'
import type {SourceConfig} from '../core/jobs/source-config.js'
import type {Logger} from '../core/logger.js'
import {roleWords} from '../core/matching/role-match.js'
import {type Matching, rankRead} from '../core/matching/score.js'
import {candidateIndexes} from '../core/sweep/candidates.js'
import {
  type Directory,
  type DirectorySelection,
  type SweptBoard,
  selectEntries,
  sweptBoard,
} from '../core/sweep/directory.js'
import {
  checkInterval,
  countBoard,
  deadBoardState,
  emptyCounts,
  isResting,
  looksOffline,
  profileKey,
  type SweepCounts,
  sweepSources,
  validatorsOf,
} from '../core/sweep/sweep-rules.js'
import type {BoardResult, SweepStore} from '../core/sweep/sweep-store.js'
import {type Clock, localTimestamp} from '../core/time.js'
import type {BoardReader, ListedJob} from '../sources/board-sweep.js'
import {PoliteBoards, type Sleep} from './polite-boards.js'

/** The `sweep` section of the config. */
export interface SweepSettings {
  interval_hours: number
  concurrency: number
  per_ats: number
  timeout_seconds: number
  min_score: number
  urls: Record<string, string>
}

interface SweepDeps {
  store: SweepStore
  jobs: Pick<JobStore, 'saveRun'>
  readerFor: (type: string) => BoardReader | undefined
  matching: Matching
  clock: Clock
  logger: Logger
  settings: SweepSettings
  sleep: Sleep
  closeAfterRuns: number
}

interface SweepRequest {
  /** Opens the directory for one more read from its start; with an ATS, a directory may give its boards only. */
  directory: (ats?: string) => Directory
  /** The directory's file, part of what a resumed sweep must share with the stopped one. */
  directoryName: string
  selection: DirectorySelection
  force: boolean
  restart: boolean
  signal: AbortSignal
  /** Called with the number of boards selected, before the first is asked. */
  onStart?: (total: number) => void
  onProgress?: (progress: SweepProgress) => void
  /** Told once every board is asked, with the candidates about to be ranked. */
  onRanking?: (candidates: number) => void
}

/** How far a sweep is, after each board. */
export interface SweepProgress {
  counts: SweepCounts
  /** Boards done per ATS. */
  by_ats: Record<string, number>
}

/** A board of the sweep whose matches a `--follow` may add to `sources`. */
export interface MatchedBoard {
  type: string
  slug: string
  region?: 'eu'
  company: string
  best_score: number
}

export interface SweepSummary extends SweepCounts {
  sweep_id: number
  /** The run the matches are stored as (`jobagent jobs` lists them); null for a sweep stopped before its end. */
  run_id: number | null
  status: 'done' | 'interrupted'
  resumed: boolean
  /** The boards with matches, best first. */
  companies: MatchedBoard[]
}

/**
 * The most matches a sweep stores as its run, best first: more than a person reads, and what a sweep holds in memory
 * at its end (each with its description) stays bounded however many boards matched.
 */
const MAX_MATCHES = 2000

/** Boards read from the directory ahead of those being asked, per board a platform asks at once. */
const QUEUE_PER_SLOT = 4

/** Whether the sweep has reached any board yet, and stops it as offline when looksOffline says so. */
class Offline {
  private readonly stop = new AbortController()
  private readonly failedAts = new Set<string>()
  private readonly held: {ats: string; result: BoardResult}[] = []
  /** Whether any board has answered: from then on every result is kept as it comes. */
  private reached = false
  private networkFailures = 0

  constructor(private readonly atsAsked: number) {}

  get signal(): AbortSignal {
    return this.stop.signal
  }

  /**
   * The results to keep now, given one more: none while no board has answered and this one found no network (it
   * is held), else it and those held before it.
   */
  settle(ats: string, result: BoardResult): {ats: string; result: BoardResult}[] {
    if (!this.reached && result.outcome === 'failed' && result.reason === 'network error') {
      this.held.push({ats, result})
      this.networkFailures++
      this.failedAts.add(ats)
      const seen = {answered: 0, networkFailures: this.networkFailures, atsFailed: this.failedAts.size}
      if (looksOffline({...seen, atsAsked: this.atsAsked})) this.stop.abort()
      return []
    }
    this.reached = true
    return [...this.release(), {ats, result}]
  }

  /**
   * Whether every board asked failed with a network error: a sweep too small to stop early (three boards on a
   * closed port) has reached no board all the same.
   */
  get reachedNone(): boolean {
    return !this.reached && this.networkFailures > 0
  }

  /** The results held back, to keep after all. */
  private release(): {ats: string; result: BoardResult}[] {
    return this.held.splice(0)
  }

  error(): UnavailableError {
    return new UnavailableError(
      `no board could be reached: the first ${this.networkFailures} asked, on ${this.failedAts.size} ATS${this.failedAts.size === 1 ? '' : 's'}, failed with a network error`,
      {
        hint: 'check the connection (or sweep.urls, for a mirror), then run jobagent sweep again: it continues where it stopped',
      },
    )
  }
}

/** What a sweep counts of one ATS platform, for its line of the log. */
interface PlatformTally {
  done: number
  readonly counts: SweepCounts
}

/**
 * A sweep of a directory's boards (docs/SOURCES.md, "Sweeping the directory"): each board's list only, through the
 * ATS's lightest request and asked whether it changed; candidates picked by the profile from title and place; their
 * details only; each board's result committed as it ends, so a stopped sweep resumes; then the candidates ranked and
 * stored as a run of kind `sweep`.
 */
export class Sweeper {
  private readonly platforms = new Map<string, PlatformTally>()
  private readonly polite: PoliteBoards
  private readonly profileKey: string

  constructor(private readonly deps: SweepDeps) {
    this.polite = new PoliteBoards(deps.settings, deps.sleep, deps.logger.child('sweep'))
    this.profileKey = profileKey(deps.matching)
  }

  async sweep(request: SweepRequest): Promise<SweepSummary> {
    const {store, clock, settings} = this.deps
    const now = clock.now()
    checkInterval(await store.lastFinished(), now, settings.interval_hours, request.force)
    const selection = JSON.stringify([request.directoryName, request.selection])
    const unfinished = request.restart ? null : await store.unfinished(selection)
    const sweep = unfinished ?? (await store.start(selection, now.toISOString()))
    const done = await store.doneBoards(sweep.id)
    if (unfinished) {
      // A sweep stopped before any board was done (offline, interrupted at once) starts again, with nothing to resume.
      this.deps.logger.info(
        done.size > 0
          ? `Resuming sweep ${sweep.id}: ${done.size} boards done already`
          : `Starting sweep ${sweep.id} again: no board was done before it stopped`,
      )
    }
    const counts = unfinished ? await store.counts(sweep.id) : emptyCounts()
    await this.askAll(request, sweep.id, done, counts)
    if (request.signal.aborted) {
      this.logPlatforms()
      return {
        ...counts,
        sweep_id: sweep.id,
        run_id: null,
        status: 'interrupted',
        resumed: unfinished !== null,
        companies: [],
      }
    }
    request.onRanking?.(counts.candidates)
    const {runId, companies, matches} = await this.storeMatches(sweep.id, now)
    counts.matches = matches
    await store.finish(sweep.id, runId, clock.now().toISOString(), counts)
    this.logPlatforms()
    return {...counts, sweep_id: sweep.id, run_id: runId, status: 'done', resumed: unfinished !== null, companies}
  }

  /**
   * Every selected board not done yet, as many at once as the limits allow. The directory is read once to count
   * each ATS's boards among those selected, then once per ATS at the same time: a directory sorted by ATS (as the
   * shared one is) would otherwise keep every platform but one idle, each read holding a few boards ahead only.
   */
  private async askAll(request: SweepRequest, sweepId: number, done: ReadonlySet<string>, counts: SweepCounts) {
    const perAts = new Map<string, number>()
    for await (const entry of selectEntries(request.directory(), request.selection)) {
      perAts.set(entry.ats, (perAts.get(entry.ats) ?? 0) + 1)
    }
    request.onStart?.([...perAts.values()].reduce((sum, count) => sum + count, 0))
    const failures: unknown[] = []
    const byAts: Record<string, number> = {}
    const offline = new Offline(perAts.size)
    const platforms = {...request, signal: AbortSignal.any([request.signal, offline.signal])}
    await Promise.all(
      [...perAts].map(async ([ats, count]) => {
        const selection = {...request.selection, ats: [ats], limit: count}
        try {
          await this.askPlatform(platforms, selection, sweepId, done, counts, byAts, offline)
        } catch (error) {
          failures.push(error)
        }
      }),
    )
    // Every board is asked: a back-off still running holds the process open no longer.
    this.polite.endPauses()
    // Stopped early as offline (a board answering after the stop does not finish the sweep), or too small to stop
    // early with no board reached.
    if ((offline.signal.aborted || offline.reachedNone) && !request.signal.aborted) throw offline.error()
    if (failures.length > 0 && !request.signal.aborted) throw failures[0]
  }

  /** One board's result kept: committed with its candidates, counted, and the progress told. */
  private async record(
    sweepId: number,
    {ats, result}: {ats: string; result: BoardResult},
    counts: SweepCounts,
    byAts: Record<string, number>,
    request: SweepRequest,
  ): Promise<void> {
    const platform = this.platform(ats)
    const candidates = await this.deps.store.saveBoard(sweepId, result)
    countBoard(counts, {...result, candidates})
    countBoard(platform.counts, {...result, candidates})
    platform.done++
    byAts[ats] = platform.done
    request.onProgress?.({counts, by_ats: byAts})
  }

  /** The selected boards of one ATS, at most `per_ats` at a time and a few more read ahead. */
  private async askPlatform(
    request: SweepRequest,
    selection: DirectorySelection,
    sweepId: number,
    done: ReadonlySet<string>,
    counts: SweepCounts,
    byAts: Record<string, number>,
    offline: Offline,
  ) {
    const {signal} = request
    const inFlight = new Set<Promise<void>>()
    let failure: unknown
    for await (const entry of selectEntries(request.directory(selection.ats?.[0]), selection)) {
      if (signal.aborted || failure !== undefined) break
      const key = `${entry.ats}:${entry.slug}`
      if (done.has(key)) continue
      const board = sweptBoard(entry, (type) => this.deps.readerFor(type) !== undefined)
      const task = this.polite
        .schedule(entry.ats, async () =>
          signal.aborted ? undefined : this.askBoard(board, key, entry.company, request),
        )
        .then(async (result) => {
          if (!result) return
          // Until a board answers, a board that found no network is held back, not kept as done: a sweep stopped as
          // offline asks it again when it continues.
          for (const one of offline.settle(entry.ats, result)) await this.record(sweepId, one, counts, byAts, request)
        })
        .catch((error: unknown) => {
          if (!signal.aborted) failure ??= error
        })
        .finally(() => inFlight.delete(task))
      inFlight.add(task)
      if (inFlight.size >= this.deps.settings.per_ats * QUEUE_PER_SLOT) await Promise.race(inFlight)
    }
    await Promise.all(inFlight)
    if (failure !== undefined) throw failure
  }

  private platform(ats: string): PlatformTally {
    let platform = this.platforms.get(ats)
    if (!platform) {
      platform = {done: 0, counts: emptyCounts()}
      this.platforms.set(ats, platform)
    }
    return platform
  }

  /** One board: resting, unchanged, dead, failed (with its reason) or answered with its candidates and their details. */
  private async askBoard(
    board: SweptBoard | undefined,
    key: string,
    company: string,
    request: SweepRequest,
  ): Promise<BoardResult | undefined> {
    if (!board) return {key, company, jobs: 0, outcome: 'failed', reason: 'unknown ATS'}
    const base = {
      key,
      company,
      jobs: 0,
      reason: null,
      region: board.config.region === 'eu' ? ('eu' as const) : undefined,
    }
    const reader = this.deps.readerFor(board.type) as BoardReader
    const {store, clock} = this.deps
    const state = await store.boardState(key)
    const now = clock.now()
    if (isResting(state, now)) return {...base, outcome: 'resting'}
    const config = this.configOf(board)
    const roles = this.deps.matching.profile.roles.flatMap((role) => roleWords(role).join(' ') || [])
    const listed = await this.polite.list(board.type, key, reader, {
      config,
      board: board.board,
      roleWords: roles,
      // An answer judged under another profile is read again: its candidates were picked by other gates.
      previous: state && state.profile_key === this.profileKey ? validatorsOf(state) : null,
      signal: request.signal,
    })
    if (listed.outcome === 'failed') return {...base, outcome: 'failed', reason: listed.reason}
    const alive = {dead_since: null, dead_until: null, dead_count: 0, profile_key: this.profileKey}
    const dead = {...deadBoardState(state, now), profile_key: this.profileKey}
    if (listed.outcome === 'gone') return {...base, outcome: 'dead', candidates: [], state: dead}
    if (listed.outcome === 'unchanged') return {...base, outcome: 'unchanged', state: {...listed.validators, ...alive}}
    if (listed.jobs.length === 0) return {...base, outcome: 'dead', candidates: [], state: dead}
    const candidates = await this.candidatesOf(reader, config, board, roles, listed.jobs, request.signal)
    return {
      ...base,
      outcome: 'answered',
      jobs: listed.jobs.length,
      candidates,
      state: {...listed.validators, ...alive},
    }
  }

  /** The candidates of one board's list, with their details: only these are kept. */
  private async candidatesOf(
    reader: BoardReader,
    config: SourceConfig,
    board: SweptBoard,
    roles: readonly string[],
    jobs: readonly ListedJob[],
    signal: AbortSignal,
  ): Promise<JobResponse[]> {
    const picked = candidateIndexes(
      jobs.map((one) => one.job),
      this.deps.matching,
    ).map((index) => jobs[index] as ListedJob)
    if (picked.length === 0) return []
    return reader.details({config, board: board.board, roleWords: roles, signal}, picked)
  }

  /** The board's source entry, pointed at the ATS's mirror when `sweep.urls` names one. */
  private configOf(board: SweptBoard): SourceConfig {
    const mirror = this.deps.settings.urls[board.type]
    return {
      ...board.config,
      timeout_seconds: this.deps.settings.timeout_seconds,
      ...(mirror ? {url: mirror} : {}),
    }
  }

  /** The candidates of every board of the sweep ranked, those scored at least `min_score` stored as a run. */
  private async storeMatches(sweepId: number, startedAt: Date) {
    const {store, matching, settings} = this.deps
    const boardOf = new Map<string, string>()
    const inEu = new Set<string>()
    // The candidates of every board are read from the store twice instead of held: only the matches stay in memory.
    const read = async function* () {
      for await (const {board, region, job} of store.candidates(sweepId)) {
        boardOf.set(job.url, board)
        if (region === 'eu') inEu.add(board)
        yield job
      }
    }
    // One listing per role (company and title), as the run's deduplication keeps, before the best are kept.
    const {ranked, scoredAtLeast} = await rankRead(read, matching, {
      minScore: settings.min_score,
      limit: MAX_MATCHES,
      keyOf: jobIdentityKey,
    })
    if (ranked.length === MAX_MATCHES) {
      this.deps.logger.info(
        `${scoredAtLeast} candidates scored ${settings.min_score} or more; the best ${MAX_MATCHES} roles are the sweep's matches (raise sweep.min_score for fewer)`,
      )
    }
    const found = dedupeJobs(ranked.map((job) => ({...keyJob(job), board: boardOf.get(job.url) ?? job.source})))
    const finished = this.deps.clock.now()
    const sources = sweepSources(await store.countsByAts(sweepId), finished.getTime() - startedAt.getTime())
    const saved = await recordRun(
      this.deps.jobs,
      {
        started_at: localTimestamp(startedAt),
        finished_at: localTimestamp(finished),
        status: 'ok',
        mode: 'sweep',
        jobs_found: found.length,
        new_jobs: found.length,
        notified: 0,
        sources,
        error: null,
      },
      {found, boards: [], criteria: 'sweep', closeAfterRuns: this.deps.closeAfterRuns},
    )
    const companies = new Map<string, MatchedBoard>()
    for (const job of ranked) {
      const key = boardOf.get(job.url)
      if (!key || companies.has(key)) continue
      const at = key.indexOf(':')
      companies.set(key, {
        type: key.slice(0, at),
        slug: key.slice(at + 1),
        ...(inEu.has(key) ? {region: 'eu' as const} : {}),
        company: job.company,
        best_score: job.score ?? 0,
      })
    }
    return {runId: saved.run.id, companies: [...companies.values()], matches: found.length}
  }

  /** One line per ATS: how its boards fared. */
  private logPlatforms(): void {
    for (const [ats, platform] of this.platforms) {
      const c = platform.counts
      const failed = Object.entries(c.failed_by_reason)
        .map(([reason, count]) => `${reason} ${count}`)
        .join(', ')
      this.deps.logger
        .child(`sweep.${ats}`)
        .info(
          `${c.boards} boards: ${c.answered} answered, ${c.unchanged} unchanged, ${c.dead} dead, ${c.resting} resting, ${c.failed} failed${failed ? ` (${failed})` : ''}; ${c.jobs_seen} jobs seen, ${c.candidates} candidates`,
        )
    }
  }
}
