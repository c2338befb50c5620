import pLimit, {type LimitFunction} from 'p-limit'
import type {Logger} from '../core/logger.js'
import {failureReason, platformPause, strainsPlatform} from '../core/sweep/sweep-rules.js'
import {HttpError} from '../http-client/index.js'
import type {BoardReader, ListedJob, ListRequest, ListValidators} from '../sources/board-sweep.js'

/** How many boards are asked at once: per ATS platform and in all (`sweep.per_ats`, `sweep.concurrency`). */
export interface PoliteLimits {
  concurrency: number
  per_ats: number
}

/** Waits out a platform's pause (Retry-After, back-off); injected so tests count the waits instead of taking them. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>

/** How one board's list ended: unchanged since the validators sent, listed, gone (404), or failed with a reason. */
type BoardList =
  | {outcome: 'unchanged'; validators: ListValidators}
  | {outcome: 'listed'; jobs: ListedJob[]; validators: ListValidators}
  | {outcome: 'gone'; error: unknown}
  | {outcome: 'failed'; reason: string; error: unknown}

/** Retries of one board's list after a 429 or 503 whose Retry-After the platform waits out. */
const LIST_RETRIES = 2
/** The longest Retry-After a board is waited for; a board asking for more fails with its status. */
const MAX_RETRY_AFTER_MS = 60_000
/** The first back-off of a platform after an error; doubled with each error in a row. */
const BACKOFF_BASE_MS = 500

/** One ATS platform: its limit, its pause after a refusal or errors, and its errors in a row. */
class Platform {
  readonly limit: LimitFunction
  pause: Promise<void> = Promise.resolve()
  failures = 0
  /**
   * Counts the platform's back-offs. A request remembers the count it was sent at: when it fails after a back-off
   * began, it was in flight with the failures that began it and says nothing new, so 8 boards failing together
   * back the platform off once (0.5 s), not 8 times over (up to a minute).
   */
  backoffs = 0

  constructor(concurrency: number) {
    this.limit = pLimit(concurrency)
  }

  /**
   * Holds the platform's next requests for at least `ms` from now. A pause already under way runs on beside it, so
   * refusals that arrive together (8 boards in flight, each told "Retry-After: 1") hold the platform once, for the
   * longest, not for their sum.
   */
  pauseFor(ms: number, sleep: Sleep, signal: AbortSignal): void {
    if (ms <= 0) return
    this.pause = Promise.all([this.pause, sleep(ms, signal).catch(() => {})]).then(() => {})
  }

  /**
   * Ends when the platform is held no longer (a pause that began while an earlier one ran is waited out too), or
   * at once when `signal` aborts.
   */
  async resumed(signal: AbortSignal): Promise<void> {
    let pause: Promise<void> | undefined
    while (pause !== this.pause && !signal.aborted) {
      pause = this.pause
      await untilAborted(signal, pause)
    }
  }
}

/** `promise`, or nothing once `signal` aborts; the listener is removed either way, so a long sweep leaves none. */
async function untilAborted(signal: AbortSignal, promise: Promise<void>): Promise<void> {
  let stop = () => {}
  const aborted = new Promise<void>((resolve) => {
    stop = resolve
    signal.addEventListener('abort', stop, {once: true})
  })
  try {
    await Promise.race([promise, aborted])
  } finally {
    signal.removeEventListener('abort', stop)
  }
}

/**
 * The politeness of every request for a board's list, the sweep's and the daily run's alike: a limit per ATS
 * platform (thousands of Greenhouse boards are one API) within a global one, a 429 or 503 waited out per platform
 * for its Retry-After and asked again, errors in a row that say the platform is strained (strainsPlatform) backing it
 * off, and the validators of the last
 * answer sent so an unchanged board answers 304 or hashes the same.
 */
export class PoliteBoards {
  private readonly platforms = new Map<string, Platform>()
  private readonly global: LimitFunction
  /** Aborted by endPauses: a pause still running when the work is done holds no process open. */
  private pauses = new AbortController()

  constructor(
    private readonly limits: PoliteLimits,
    private readonly sleep: Sleep,
    private readonly logger: Logger,
  ) {
    this.global = pLimit(limits.concurrency)
  }

  /** Ends every pause running now: called when no board is left to ask. Later pauses are waited out as before. */
  endPauses(): void {
    this.pauses.abort()
    this.pauses = new AbortController()
  }

  /** `task` for a board of `ats`, when both the platform's limit and the global one let it start. */
  schedule<T>(ats: string, task: () => Promise<T>): Promise<T> {
    return this.platform(ats).limit(() => this.global(task))
  }

  /** One board's list through `reader`, after the platform's pause, asked again after a refusal. */
  async list(ats: string, key: string, reader: BoardReader, request: ListRequest): Promise<BoardList> {
    const platform = this.platform(ats)
    for (let attempt = 0; ; attempt++) {
      await platform.resumed(request.signal)
      request.signal.throwIfAborted()
      const sentAt = platform.backoffs
      try {
        const listed = await reader.list(request)
        platform.failures = 0
        const validators = {etag: listed.etag, last_modified: listed.last_modified, answer_hash: listed.answer_hash}
        if (listed.kind === 'unchanged') return {outcome: 'unchanged', validators}
        return {outcome: 'listed', jobs: listed.jobs, validators}
      } catch (error) {
        if (request.signal.aborted) throw error
        const status = error instanceof HttpError ? error.status : undefined
        if (status === 404) return {outcome: 'gone', error}
        const retryAfter = error instanceof HttpError ? error.retryAfterMs : undefined
        const refused = status === 429 || status === 503
        if (refused && attempt < LIST_RETRIES && (retryAfter ?? 0) <= MAX_RETRY_AFTER_MS) {
          platform.pauseFor(platformPause(1, retryAfter, BACKOFF_BASE_MS), this.sleep, this.pauseSignal(request.signal))
          continue
        }
        const reason = failureReason({message: (error as Error).message, status})
        if (strainsPlatform(reason) && sentAt === platform.backoffs) {
          platform.failures++
          platform.backoffs++
          platform.pauseFor(
            platformPause(platform.failures, undefined, BACKOFF_BASE_MS),
            this.sleep,
            this.pauseSignal(request.signal),
          )
        }
        this.logger.child(ats).debug(`${key}: ${(error as Error).message}`)
        return {outcome: 'failed', reason, error}
      }
    }
  }

  private pauseSignal(signal: AbortSignal): AbortSignal {
    return AbortSignal.any([signal, this.pauses.signal])
  }

  private platform(ats: string): Platform {
    let platform = this.platforms.get(ats)
    if (!platform) {
      platform = new Platform(this.limits.per_ats)
      this.platforms.set(ats, platform)
    }
    return platform
  }
}
