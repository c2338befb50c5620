import {ConflictError} from '../errors.js'
import {boardFailures, type RunSourceOutcome} from '../jobs/search-result.js'
import type {Matching} from '../matching/score.js'
import {textHash} from '../text-hash.js'

/** What a sweep keeps of one board between sweeps: how it answered last and when it may be asked again. */
export interface BoardState {
  key: string
  etag: string | null
  last_modified: string | null
  /** The hash of the last answer's text, for a board that sends no validators. */
  answer_hash: string | null
  /** When the board was last answered 404 or an empty list, in a row; null when it last listed jobs. */
  dead_since: string | null
  /** A dead board is not asked before this time. */
  dead_until: string | null
  /** How many sweeps in a row it was found dead. */
  dead_count: number
  /** The profile its kept candidates were picked under (profileKey); null before any was kept. */
  profile_key: string | null
}

/** How one board of a sweep ended. */
export type BoardOutcome = 'answered' | 'unchanged' | 'dead' | 'resting' | 'failed'

/** A dead board rests this long after it is first found dead, then twice as long each time again, at most MAX_REST. */
const FIRST_REST_DAYS = 7
const MAX_REST_DAYS = 90

/** When a board found dead `count` times in a row may be asked again. */
export function restUntil(now: Date, count: number): string {
  const days = Math.min(MAX_REST_DAYS, FIRST_REST_DAYS * 2 ** Math.max(0, count - 1))
  return new Date(now.getTime() + days * 86_400_000).toISOString()
}

/** What was sent back to a board last time, so an unchanged one answers 304 or hashes the same. */
export function validatorsOf(state: Pick<BoardState, 'etag' | 'last_modified' | 'answer_hash'>) {
  return {etag: state.etag, last_modified: state.last_modified, answer_hash: state.answer_hash}
}

/** A board found dead again: resting longer each time; validators forgotten, so its next answer is read in full. */
export function deadBoardState(
  state: Pick<BoardState, 'dead_since' | 'dead_count'> | undefined,
  now: Date,
): Omit<BoardState, 'key' | 'profile_key'> {
  const count = (state?.dead_count ?? 0) + 1
  return {
    etag: null,
    last_modified: null,
    answer_hash: null,
    dead_since: state?.dead_since ?? now.toISOString(),
    dead_until: restUntil(now, count),
    dead_count: count,
  }
}

/** Whether a board is resting (found dead and not yet due again). */
export function isResting(state: Pick<BoardState, 'dead_until'> | undefined, now: Date): boolean {
  return state?.dead_until != null && state.dead_until > now.toISOString()
}

/**
 * A sweep that finished less than `intervalHours` ago is not repeated unless forced: a sweep asks thousands of
 * boards, and what they list changes over days. Throws the refusal, naming when the next one may start.
 */
export function checkInterval(lastFinished: string | null, now: Date, intervalHours: number, force: boolean): void {
  if (force || lastFinished === null) return
  const next = new Date(Date.parse(lastFinished) + intervalHours * 3_600_000)
  if (next.getTime() <= now.getTime()) return
  throw new ConflictError(
    `the last sweep finished at ${lastFinished}, less than sweep.interval_hours (${intervalHours}) ago; the next may start at ${next.toISOString()}`,
    {hint: 'sweep again anyway with: jobagent sweep --force (or change sweep.interval_hours)'},
  )
}

/** What a platform waits before its next request after failures: Retry-After when the board said, else a back-off. */
export function platformPause(failuresInRow: number, retryAfterMs: number | undefined, baseMs: number): number {
  if (retryAfterMs !== undefined) return retryAfterMs
  if (failuresInRow <= 0) return 0
  return Math.min(60_000, baseMs * 2 ** (failuresInRow - 1))
}

/** The counts of a sweep, as `sweep --json` prints them and the sweep's record keeps them. */
export interface SweepCounts {
  boards: number
  asked: number
  answered: number
  unchanged: number
  dead: number
  resting: number
  failed: number
  /** Failed boards by reason (`HTTP 503`, `timed out`, `malformed answer`, `unexpected shape`). */
  failed_by_reason: Record<string, number>
  jobs_seen: number
  candidates: number
  matches: number
}

export function emptyCounts(): SweepCounts {
  return {
    boards: 0,
    asked: 0,
    answered: 0,
    unchanged: 0,
    dead: 0,
    resting: 0,
    failed: 0,
    failed_by_reason: {},
    jobs_seen: 0,
    candidates: 0,
    matches: 0,
  }
}

/** One board's result added to the counts of its sweep. */
export function countBoard(
  counts: SweepCounts,
  result: {outcome: BoardOutcome; reason?: string | null; jobs: number; candidates: number},
): void {
  counts.boards++
  if (result.outcome !== 'resting') counts.asked++
  counts[result.outcome]++
  if (result.outcome === 'failed') {
    const reason = result.reason ?? 'unknown'
    counts.failed_by_reason[reason] = (counts.failed_by_reason[reason] ?? 0) + 1
  }
  counts.jobs_seen += result.jobs
  counts.candidates += result.candidates
}

/** The short reason a board failed with, for counting failures by kind: a status, a timeout, a malformed answer. */
export function failureReason(error: {message: string; status?: number | undefined}): string {
  if (error.status !== undefined) return `HTTP ${error.status}`
  const message = error.message
  if (/timed out|deadline/i.test(message)) return 'timed out'
  if (/malformed JSON|nested deeper|HTML instead/i.test(message)) return 'malformed answer'
  if (/unexpected response shape/i.test(message)) return 'unexpected shape'
  if (/network error/i.test(message)) return 'network error'
  return 'other'
}

/**
 * Whether a board's failure (by its reason, failureReason) says its platform may be strained, so that the platform's
 * next requests wait: no answer in time, no connection, a refusal or a server error. An answer the board gave that
 * cannot be read (malformed, another shape) or a client error (401, 403, 410) is that board's own: the platform's
 * other boards are asked at once.
 */
export function strainsPlatform(reason: string): boolean {
  if (reason === 'malformed answer' || reason === 'unexpected shape') return false
  const status = /^HTTP (\d+)$/.exec(reason)?.[1]
  return status === undefined || status === '429' || status.startsWith('5')
}

/**
 * A sweep's outcome per ATS as its run records it (`jobagent runs`), named `sweep:<ats>` so no board of the daily
 * run's `sources` reads it as its own history: an ATS is ok unless every board asked there failed, its count is the
 * jobs its boards listed, its error says how many boards failed and why.
 */
export function sweepSources(byAts: ReadonlyMap<string, SweepCounts>, durationMs: number): RunSourceOutcome[] {
  return [...byAts].map(([ats, c]) => {
    const boards = {
      asked: c.asked,
      answered: c.answered,
      unchanged: c.unchanged,
      dead: c.dead,
      resting: c.resting,
      failed: c.failed,
    }
    return {
      name: `sweep:${ats}`,
      ok: c.asked === 0 || c.failed < c.asked,
      count: c.jobs_seen,
      error: boardFailures(boards, c.failed_by_reason),
      duration_ms: durationMs,
      anomaly: null,
      boards,
    }
  })
}

/**
 * What a board's kept candidates depend on besides its answer: the profile and the scorer's options, which the
 * gates and role match read (and which give Workday's and SmartRecruiters' search words), and the knowledge they
 * read titles and places with (its version, derived from the files and the override layer). A board kept under
 * another key is read again in full, its candidates picked anew.
 */
export function profileKey(matching: Pick<Matching, 'profile' | 'options' | 'knowledge'>): string {
  return textHash(JSON.stringify([matching.profile, matching.options, matching.knowledge.version]))
}

/** Boards failed with a network error, with none answered yet, after which a sweep takes the network as down. */
export const OFFLINE_AFTER = 10

/**
 * Whether a sweep is offline rather than meeting a few dead hosts: no board has answered yet, OFFLINE_AFTER boards
 * failed with a network error, on three ATSs (or on every ATS the sweep asks, when fewer). A platform that cannot be
 * reached backs off up to a minute per board, so an offline sweep of the directory would otherwise take days.
 */
export function looksOffline(seen: {answered: number; networkFailures: number; atsFailed: number; atsAsked: number}) {
  return seen.answered === 0 && seen.networkFailures >= OFFLINE_AFTER && seen.atsFailed >= Math.min(3, seen.atsAsked)
}
