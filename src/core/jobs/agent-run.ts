import type {ApplicationCounts} from '../applications/application.js'
import type {ApplicationStore} from '../applications/application-store.js'
import type {DueFollowUps, FollowUps} from '../applications/follow-ups.js'
import type {Logger} from '../logger.js'
import type {FeedbackModel} from '../matching/feedback.js'
import {
  type DescriptionReader,
  type DescriptionTerms,
  descriptionReader,
  type Matching,
  rankJobs,
} from '../matching/score.js'
import type {Digest} from '../notifications/notifier.js'
import {type Clock, localTimestamp, systemClock} from '../time.js'
import {boardReports} from './board-reports.js'
import type {FoundJob} from './dedupe.js'
import type {DescriptionReadings, DescriptionShelf, ParkedDescription} from './description-shelf.js'
import {type SalaryFloorOutcome, salaryFloorLine} from './filters.js'
import type {JobResponse, SearchCriteria} from './job.js'
import {type FeedbackStore, learnFrom} from './job-feedback.js'
import type {SearchOptions} from './job-search.js'
import type {BoardListing, JobStore, LifecycleChanges, PreviewedJob} from './job-store.js'
import {jobTrackingKeys} from './job-tracking.js'
import type {RunSourceOutcome, SearchResult} from './search-result.js'
import {unreachableHint} from './unreachable.js'

interface ChannelReport {
  channel: string
  ok: boolean
  error: string | null
}

/** What the run needs of the notification service. */
export interface DigestSender {
  readonly channelCount: number
  /** How many jobs, and how many follow-ups, a digest names (`notify.max_items`). */
  readonly maxItems: number
  buildDigest(jobs: readonly JobResponse[], followUps: DueFollowUps): Digest
  deliver(digest: Digest, signal: AbortSignal): Promise<{delivered: boolean; channels: ChannelReport[]}>
}

interface JobSearcher {
  readonly sourceNames: string[]
  search(
    criteria: SearchCriteria,
    options?: SearchOptions,
  ): Promise<
    SearchResult & {
      found: FoundJob[]
      listed: Map<string, string[]>
      fetched: number
      warnings: string[]
      salary: SalaryFloorOutcome | null
    }
  >
}

export interface RunOptions {
  version: string
  mode: string
  criteria: SearchCriteria
  dryRun?: boolean
  renotify?: boolean
  strict?: boolean
  signal?: AbortSignal
  onProgress?: SearchOptions['onProgress']
  /** Called when every board has answered (ends a live display). */
  onSearchFinished?: () => void
  /** A proxy is set in the environment: when no board can be reached, the hint points at it. */
  proxyConfigured?: boolean
  /** The profile the new jobs are scored against (null: no profile, no scores), and `notify.min_score`. */
  matching?: {matching: Matching | null; minScore: number}
  /** `run.closed_after_runs`: after how many runs in a row without it a job is closed (default 2). */
  closedAfterRuns?: number
}

/** What scoring did in a run: how many new jobs reach the threshold, and how long it took. */
interface MatchingSummary {
  min_score: number
  scored: number
  at_or_above: number
  duration_ms: number
}

interface NotificationSummary {
  /** sent, dry_run, none_configured, nothing_new, failed */
  result: 'sent' | 'dry_run' | 'none_configured' | 'nothing_new' | 'failed'
  jobs: number
  channels: ChannelReport[]
}

export interface RunSummary {
  status: 'ok' | 'failed' | 'interrupted'
  /** 0 completed, 1 failed (or a source failed under --strict), 130 stopped by SIGINT, 143 by SIGTERM. */
  exit_code: number
  version: string
  mode: string
  started_at: string
  finished_at: string
  duration_ms: number
  applications: ApplicationCounts
  sources: RunSourceOutcome[]
  jobs_found: number
  new_jobs: number
  notifications: NotificationSummary
  error: string | null
  /** True for --dry-run: nothing was stored, not even the run. */
  dry_run: boolean
  /**
   * The new jobs (not yet applied for), with their short ids (null for a job a dry run found for the first time),
   * without their descriptions: thousands of jobs of several KB each would make the summary tens of MB, and
   * `jobagent jobs <id> --json` and the API have them.
   */
  jobs: SummaryJob[]
  /** With a profile: the threshold, how many new jobs were scored and reached it, and how long scoring took. */
  matching: MatchingSummary | null
  /** What the run changed in the jobs' lives (docs/LIFECYCLE.md); null when it stored nothing. */
  lifecycle: LifecycleSummary | null
}

interface LifecycleSummary {
  closed: number
  reopened: number
  reposted: number
  /** Tracked applications whose posting closed in this run. */
  postings_closed: number
}

type RankedJob = PreviewedJob & {score: number | null; reasons: string[]}
type SummaryJob = Omit<RankedJob, 'description'>

/** The status a shell gives a process a signal ends (128 + its number), which an interrupted run exits with. */
const INTERRUPTED_EXIT_CODES: Record<string, number> = {SIGINT: 130, SIGTERM: 143}

/** The ledger's runs an empty answer of a board is judged against. */
const RECENT_RUNS = {limit: 50, offset: 0}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}

/**
 * One agent run, the main job: count applications, search the boards, remember the jobs, work out which are
 * new, notify about those never notified before, and log each of these steps in a fixed order.
 */
export class AgentRun {
  private readonly log: Logger

  constructor(
    private readonly deps: {
      applications: ApplicationStore
      jobs: JobStore
      /** Where a storing run keeps its jobs' descriptions while it holds them; without it they stay in memory. */
      shelf?: DescriptionShelf
      /** What descriptions said for the profile in earlier runs; without it every description is read. */
      readings?: DescriptionReadings
      search: JobSearcher
      notifications: DigestSender
      /** Applications due for a follow-up, named in the digest; none without it. */
      followUps?: Pick<FollowUps, 'toRemind' | 'markReminded'>
      /** The person's likes and dismissals: they rank the new jobs, and a dismissed job is never notified. */
      feedback?: Pick<FeedbackStore, 'verdicts'>
      logger: Logger
      clock?: Clock
    },
  ) {
    this.log = deps.logger.child('run')
  }

  async run(options: RunOptions): Promise<RunSummary> {
    const clock = this.deps.clock ?? systemClock
    const started = clock.now()
    const startedAt = localTimestamp(started)
    this.log.info(`Job Search Agent v${options.version} starting (mode: ${options.mode})`)

    const counts = await this.deps.applications.counts()
    this.log.info(`Applications: ${counts.total} total, ${counts.applied} applied, ${counts.pending} pending`)

    const names = this.deps.search.sourceNames
    const filters = describeCriteria(options.criteria)
    this.log.info(`Searching ${names.length} source(s): ${names.join(', ') || 'none'}${filters}`)
    const dryRun = options.dryRun ?? false
    // A run that stores its jobs keeps their descriptions on the shelf, out of memory, and with a profile what the
    // profile reads in each, timed as part of scoring; a dry run stores nothing.
    const shelf = dryRun ? undefined : this.deps.shelf
    const matching = options.matching?.matching ?? null
    const reading = {ms: 0}
    const readTerms = matching ? this.readingTerms(descriptionReader(matching), reading) : undefined
    const boards = boardReports(this.deps.logger, async () => (await this.deps.jobs.listRuns(RECENT_RUNS)).runs)
    const result = await this.deps.search.search(options.criteria, {
      ...(options.signal ? {signal: options.signal} : {}),
      onProgress: (progress) => {
        options.onProgress?.(progress)
        if (progress.state !== 'running') boards.answered(progress.outcome)
      },
      ...(shelf ? {shelf} : {}),
      ...(shelf && readTerms ? {readTerms} : {}),
    })
    options.onSearchFinished?.()
    const sources = await boards.all(result.sources)
    const base = {version: options.version, mode: options.mode, started_at: startedAt, applications: counts, dryRun}
    const stop = {started, clock, signal: options.signal}
    if (options.signal?.aborted) {
      return this.finish({...base, ...stop, sources, error: null, runId: null}, [], 0, skipped('nothing_new'))
    }
    for (const warning of result.warnings) this.log.warning(warning)
    if (result.salary) this.log.info(salaryFloorLine(result.salary))

    const succeeded = sources.filter((outcome) => outcome.ok).length
    if (succeeded === 0) {
      const error = names.length === 0 ? 'no source is enabled' : 'no source succeeded'
      this.log.error(`Jobs found: none; ${error}, so the stored jobs were left as they were`)
      const summary = await this.finish({...base, ...stop, sources, error, runId: null}, [], 0, skipped('failed'))
      const hint = unreachableHint(sources, {proxyConfigured: options.proxyConfigured ?? false})
      if (hint) this.log.warning(hint)
      return summary
    }
    this.log.info(`Jobs found: ${result.jobs.length} (${result.fetched} fetched, after filters and deduplication)`)

    const applied = await this.deps.applications.appliedUrlKeys()
    // New: no URL key of the job or of its other listings is an application applied for (the rule judgeJob applies
    // too). Judged once per job, on the jobs as stored, which remember the listings of earlier runs.
    const isNew = (job: PreviewedJob) => !jobTrackingKeys(job).some((key) => applied.has(key))
    // A dry run sees the jobs as the run would store them, and stores nothing: not the jobs, not the run.
    const saved = dryRun
      ? await this.preview(result.found, startedAt, isNew)
      : await this.deps.jobs.saveRun(
          {
            started_at: startedAt,
            finished_at: startedAt,
            status: 'ok',
            mode: options.mode,
            jobs_found: result.jobs.length,
            new_jobs: 0,
            notified: 0,
            sources,
            error: null,
          },
          result.found,
          {
            listings: closingListings(sources, result.listed, options.criteria),
            closeAfterRuns: options.closedAfterRuns ?? 2,
          },
          isNew,
        )
    const lifecycle = saved.changes ? this.logLifecycle(saved.changes) : null
    if (options.signal?.aborted) {
      const runId = saved.run?.id ?? null
      return this.finish(
        {...base, ...stop, sources, error: null, runId, lifecycle},
        [],
        result.jobs.length,
        skipped('nothing_new'),
      )
    }
    // The stored jobs come in the order they were found: a job whose description is parked is scored on what the
    // profile's terms said of it when it was parked.
    const parked = new Map(saved.jobs.map((job, index) => [job, result.found[index]?.parked ?? null]))
    const {model, dismissed} = await learnFrom(this.deps.feedback)
    const newJobs = this.rank(saved, options, reading.ms, {
      descriptionOf: (job) => parked.get(job)?.terms ?? job.description,
      feedback: model,
    })
    this.log.info(`New jobs (not yet applied): ${newJobs.jobs.length}`)
    if (newJobs.matching) {
      const {at_or_above, scored, min_score, duration_ms} = newJobs.matching
      this.log.info(
        `Matching: ${at_or_above} of ${scored} new jobs score ${min_score} or more (scored in ${duration_ms} ms)`,
      )
    }

    // A job the person dismissed is never notified again, nor when it is reposted (a repost is the same stored job).
    const notifications = await this.notify(
      newJobs.jobs.filter(
        (job) => (job.score ?? 0) >= (newJobs.matching?.min_score ?? 0) && !(job.id !== null && dismissed.has(job.id)),
      ),
      options,
      clock,
    )
    const failedSources = sources.length - succeeded
    const strictFailure = options.strict && failedSources > 0
    const error =
      notifications.result === 'failed'
        ? 'every notification channel failed'
        : strictFailure
          ? `${failedSources} source(s) failed (--strict)`
          : null
    return this.finish(
      {...base, ...stop, sources, error, runId: saved.run?.id ?? null, matching: newJobs.matching, lifecycle},
      newJobs.jobs,
      result.jobs.length,
      notifications,
    )
  }

  /**
   * The texts read for the profile, as each board answers: a text read in an earlier run is recalled, the others
   * read and kept for the next run; all of it timed into `total`, as part of scoring.
   */
  private readingTerms(reader: DescriptionReader, total: {ms: number}) {
    const readings = this.deps.readings
    return async (texts: readonly string[], parked: readonly ParkedDescription[]): Promise<DescriptionTerms[]> => {
      const started = performance.now()
      try {
        const hashes = parked.map((spot) => spot.hash)
        const kept = readings ? await readings.recall(reader.key, hashes).catch(() => new Map<string, string>()) : null
        const fresh: [string, string][] = []
        const read = texts.map((text, index) => {
          const known = kept?.get(hashes[index]!)
          const recalled = known === undefined ? null : reader.decode(known)
          if (recalled) return recalled
          const terms = reader.read(text)
          fresh.push([hashes[index]!, reader.encode(terms)])
          return terms
        })
        // Keeping is an optimisation: a failed write leaves the next run to read these texts again.
        if (readings && fresh.length > 0) await readings.remember(reader.key, fresh).catch(() => undefined)
        return read
      } finally {
        total.ms += performance.now() - started
      }
    }
  }

  /** What saveRun would give, for --dry-run: the jobs as they would be stored and the new ones among them. */
  private async preview(found: readonly FoundJob[], seenAt: string, isNew: (job: PreviewedJob) => boolean) {
    const jobs = await this.deps.jobs.previewRun(found, seenAt)
    return {run: null, jobs, newJobs: jobs.filter(isNew), changes: null}
  }

  /** One line on what the run changed in the jobs' lives, when it changed anything. */
  private logLifecycle(changes: LifecycleChanges): LifecycleSummary {
    const summary = {
      closed: changes.closed.length,
      reopened: changes.reopened,
      reposted: changes.reposted,
      postings_closed: changes.postings_closed,
    }
    const parts = [
      summary.closed > 0 ? `${summary.closed} closed (no longer listed)` : '',
      summary.reopened > 0 ? `${summary.reopened} reopened` : '',
      summary.reposted > 0 ? `${summary.reposted} reposted` : '',
      summary.postings_closed > 0 ? `${summary.postings_closed} tracked application(s) whose posting closed` : '',
    ].filter(Boolean)
    if (parts.length > 0) this.log.info(`Lifecycle: ${parts.join(', ')}`)
    return summary
  }

  /**
   * The new jobs scored against the profile and ranked, highest first; as they are without a profile. They are
   * scored among all the run's jobs (a skill's rarity is read among them), each on `descriptionOf` it, with what
   * the person's verdicts teach; `readingMs` is the time spent reading descriptions for the profile before.
   */
  private rank(
    saved: {jobs: PreviewedJob[]; newJobs: PreviewedJob[]},
    options: RunOptions,
    readingMs: number,
    scoring: {
      descriptionOf: (job: PreviewedJob) => string | null | DescriptionTerms
      feedback: FeedbackModel | null
    },
  ) {
    const matching = options.matching?.matching ?? null
    const started = performance.now()
    const isNew = new Set(saved.newJobs)
    const ranked = matching
      ? rankJobs(saved.jobs, matching, {...scoring, only: (job) => isNew.has(job)})
      : rankJobs(saved.newJobs, null)
    if (!matching) return {jobs: ranked, matching: null}
    const minScore = options.matching?.minScore ?? 0
    const summary: MatchingSummary = {
      min_score: minScore,
      scored: ranked.length,
      at_or_above: ranked.filter((job) => (job.score ?? 0) >= minScore).length,
      duration_ms: Math.round(readingMs + performance.now() - started),
    }
    return {jobs: ranked, matching: summary}
  }

  private async notify(newJobs: RankedJob[], options: RunOptions, clock: Clock): Promise<NotificationSummary> {
    const notifyLog = this.deps.logger.child('notify')
    const pending = options.renotify ? newJobs : newJobs.filter((job) => job.notified_at === null)
    // Applications due for a follow-up ride along with the jobs, each named at most once per period; without a
    // channel nothing is named, so they are only counted.
    const {channelCount, maxItems} = this.deps.notifications
    const followUps = (await this.deps.followUps?.toRemind(channelCount > 0 ? maxItems : 0)) ?? {named: [], total: 0}
    const alsoFollowUps = followUps.total > 0 ? ` and ${followUps.total} follow-up(s)` : ''
    if (pending.length === 0 && followUps.total === 0) {
      notifyLog.info(
        `Notifications: none sent; no new jobs to notify${newJobs.length > 0 ? ' (all notified before)' : ''}`,
      )
      return skipped('nothing_new')
    }
    if (channelCount === 0) {
      notifyLog.info(`Notifications: none sent; no channel is configured (set notify.urls or pass --notify URL)`)
      return skipped('none_configured', pending.length)
    }
    if (options.dryRun) {
      notifyLog.info(
        `Notifications: dry run; ${pending.length} job(s)${alsoFollowUps} would be sent and none are marked notified`,
      )
      return skipped('dry_run', pending.length)
    }
    const digest = this.deps.notifications.buildDigest(pending, followUps)
    const report = await this.deps.notifications.deliver(digest, options.signal ?? new AbortController().signal)
    const accepted = report.channels.filter((channel) => channel.ok).length
    if (!report.delivered) {
      notifyLog.error(`Notifications: every channel failed (${report.channels.length}); the jobs stay unnotified`)
      return {result: 'failed', jobs: pending.length, channels: report.channels}
    }
    await this.deps.jobs.markNotified(
      pending.flatMap((job) => (job.id === null ? [] : [job.id])),
      localTimestamp(clock.now()),
    )
    await this.deps.followUps?.markReminded(followUps.named)
    notifyLog.info(
      `Notifications: sent ${pending.length} job(s)${alsoFollowUps} to ${accepted} of ${report.channels.length} channel(s)`,
    )
    return {result: 'sent', jobs: pending.length, channels: report.channels}
  }

  private async finish(
    run: {
      version: string
      mode: string
      started_at: string
      applications: ApplicationCounts
      sources: RunSourceOutcome[]
      error: string | null
      dryRun: boolean
      started: Date
      clock: Clock
      /** Aborted: the run was stopped (its reason names the signal) and is recorded as interrupted. */
      signal?: AbortSignal | undefined
      /** The run row saved with the jobs, or null when the search failed (or a dry run) and nothing was saved. */
      runId: number | null
      matching?: MatchingSummary | null
      lifecycle?: LifecycleSummary | null
    },
    jobs: RankedJob[],
    found: number,
    notifications: NotificationSummary,
  ): Promise<RunSummary> {
    const finished = run.clock.now()
    const durationMs = finished.getTime() - run.started.getTime()
    const stoppedBy = run.signal?.aborted ? String(run.signal.reason ?? 'an interrupt') : null
    const status = stoppedBy !== null ? 'interrupted' : run.error === null ? 'ok' : 'failed'
    const error = stoppedBy !== null ? `interrupted by ${stoppedBy}` : run.error
    const summary: RunSummary = {
      status,
      exit_code: stoppedBy !== null ? (INTERRUPTED_EXIT_CODES[stoppedBy] ?? 130) : status === 'ok' ? 0 : 1,
      version: run.version,
      mode: run.mode,
      started_at: run.started_at,
      finished_at: localTimestamp(finished),
      duration_ms: durationMs,
      applications: run.applications,
      sources: run.sources,
      jobs_found: found,
      new_jobs: jobs.length,
      notifications,
      error,
      dry_run: run.dryRun,
      matching: run.matching ?? null,
      lifecycle: run.lifecycle ?? null,
      jobs: jobs.map(({description: _description, ...job}) => job),
    }
    const ended = {ok: 'completed', failed: `failed (${error})`, interrupted: `${error}, stopped`}[status]
    const line = `Run ${ended} in ${seconds(durationMs)}`
    const outcome = {
      finished_at: summary.finished_at,
      status,
      new_jobs: jobs.length,
      notified: notifications.result === 'sent' ? notifications.jobs : 0,
      error,
    } as const
    if (run.dryRun) {
      // Nothing stored: the ledger and "the last run" stay as the last real run left them.
    } else if (run.runId === null) {
      await this.deps.jobs.saveFailedRun({
        ...outcome,
        started_at: run.started_at,
        mode: run.mode,
        jobs_found: 0,
        sources: run.sources,
      })
    } else {
      await this.deps.jobs.completeRun(run.runId, outcome)
    }
    if (status === 'ok') this.log.info(line)
    else if (status === 'interrupted') this.log.warning(line)
    else this.log.error(line)
    return summary
  }
}

/**
 * The boards whose answer can close jobs: they answered, with jobs, and nothing looked wrong. A board that failed,
 * returned nothing or an anomaly never closes anything.
 */
function closingListings(
  sources: readonly RunSourceOutcome[],
  listed: ReadonlyMap<string, string[]>,
  criteria: SearchCriteria,
): BoardListing[] {
  const asked = JSON.stringify(criteria)
  return sources
    .filter((outcome) => outcome.ok && outcome.count > 0 && outcome.anomaly === null)
    .map((outcome) => ({board: outcome.name, criteria: asked, urlKeys: listed.get(outcome.name) ?? []}))
}

/** `read`, adding the time each call takes to `total.ms`. */

function skipped(result: NotificationSummary['result'], jobs = 0): NotificationSummary {
  return {result, jobs, channels: []}
}

function describeCriteria(criteria: SearchCriteria): string {
  const parts = [
    criteria.tags.length ? `tags: ${criteria.tags.join(', ')}` : '',
    criteria.keywords.length ? `keywords: ${criteria.keywords.join(', ')}` : '',
    criteria.exclude_keywords.length ? `excluding: ${criteria.exclude_keywords.join(', ')}` : '',
    criteria.locations.length ? `locations: ${criteria.locations.join(', ')}` : '',
    criteria.remote_only ? 'remote only' : '',
    criteria.max_age_days === null ? '' : `max age: ${criteria.max_age_days} days`,
    criteria.company_block_list.length ? `${criteria.company_block_list.length} blocked companies` : '',
  ].filter(Boolean)
  return parts.length ? ` (${parts.join('; ')})` : ''
}
