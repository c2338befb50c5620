import type {ApplicationCounts} from '../applications/application.js'
import type {ApplicationStore} from '../applications/application-store.js'
import type {DueFollowUps, FollowUps} from '../applications/follow-ups.js'
import {boardReports} from '../jobs/board-reports.js'
import {CachedAnalyser} from '../jobs/cached-analyser.js'
import type {FoundJob} from '../jobs/dedupe.js'
import type {TermsCache} from '../jobs/description-store.js'
import {type SalaryFloorOutcome, salaryFloorLine} from '../jobs/filters.js'
import type {JobResponse, SearchCriteria} from '../jobs/job.js'
import type {SearchOptions} from '../jobs/job-search.js'
import type {JobStore, LifecycleChanges, PreviewedJob} from '../jobs/job-store.js'
import {countsAsNew, jobTrackingKeys} from '../jobs/job-tracking.js'
import {type Learned, learnFrom, type VerdictStore} from '../jobs/job-verdicts.js'
import {previewRunJobs, recordRun} from '../jobs/run-changes.js'
import type {RunSourceOutcome, SearchResult} from '../jobs/search-result.js'
import {unreachableHint} from '../jobs/unreachable.js'
import type {Logger} from '../logger.js'
import {descriptionAnalyser, type Matching, rankJobs} from '../matching/score.js'
import type {Digest} from '../notifications/notifier.js'
import {type Clock, localTimestamp, systemClock} from '../time.js'

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
  /** `run.dead_after_runs`: after how many runs in a row of 404 or no jobs a board is reported dead (default 3). */
  deadAfterRuns?: number
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

/** What the search step hands on: the jobs found and what each board listed. */
type Found = Awaited<ReturnType<JobSearcher['search']>>

/**
 * What the store step hands on: the jobs as stored (or, for a dry run, as they would be), the new ones, and what
 * the person's verdicts teach (read once, for the count of new jobs and their ranking).
 */
interface Stored {
  jobs: PreviewedJob[]
  newJobs: PreviewedJob[]
  learned: Learned
}

/** One run's state: each step adds what it learned, and `finish` reports and records it. */
interface RunState {
  options: RunOptions
  dryRun: boolean
  clock: Clock
  started: Date
  startedAt: string
  applications: ApplicationCounts
  /** Analyses the descriptions for the profile as the boards answer; null without a profile. */
  analyser: CachedAnalyser | null
  sources: RunSourceOutcome[]
  jobsFound: number
  /** The run row saved with the jobs; null until then, and for a failed search or a dry run. */
  runId: number | null
  lifecycle: LifecycleSummary | null
  matching: MatchingSummary | null
  /** The new jobs, ranked. */
  jobs: RankedJob[]
  notifications: NotificationSummary
  /** Why the run failed, when a step found out; null otherwise. */
  error: string | null
  /** A line for the user logged after the run's last line (why no board could be reached). */
  hint: string | null
}

/** The status a shell gives a process a signal ends (128 + its number), which an interrupted run exits with. */
const INTERRUPTED_EXIT_CODES: Record<string, number> = {SIGINT: 130, SIGTERM: 143}

/** The ledger's runs an empty answer of a board is checked against. */
const RECENT_RUNS = {limit: 50, offset: 0}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}

/**
 * One agent run, the main job: count applications, search the boards, store the jobs, work out which are new,
 * notify about those never notified before, and log each of these steps in a fixed order.
 */
export class AgentRun {
  private readonly log: Logger

  constructor(
    private readonly deps: {
      applications: ApplicationStore
      /** Where the run stores its jobs, and their descriptions as the boards answer (a dry run stores nothing). */
      jobs: JobStore
      /** The terms descriptions held for the profile in earlier runs; without it every description is analysed. */
      termsCache?: TermsCache
      search: JobSearcher
      notifications: DigestSender
      /** Applications due for a follow-up, named in the digest; none without it. */
      followUps?: Pick<FollowUps, 'toRemind' | 'markReminded'>
      /** The person's likes and dismissals: they rank the new jobs, and a dismissed job is never notified. */
      verdicts?: Pick<VerdictStore, 'verdicts'>
      logger: Logger
      clock?: Clock
    },
  ) {
    this.log = deps.logger.child('run')
  }

  async run(options: RunOptions): Promise<RunSummary> {
    const run = await this.start(options)
    const found = await this.search(run)
    if (stopped(run) || !this.checkOutcomes(run, found)) return this.finish(run)
    const stored = await this.store(run, found)
    if (stopped(run)) return this.finish(run)
    await this.notify(run, await this.rank(run, found, stored))
    return this.finish(run)
  }

  /** Logs the start and the application counts; the run's state begins here. */
  private async start(options: RunOptions): Promise<RunState> {
    const clock = this.deps.clock ?? systemClock
    const started = clock.now()
    this.log.info(`Job Search Agent v${options.version} starting (mode: ${options.mode})`)
    const applications = await this.deps.applications.counts()
    this.log.info(
      `Applications: ${applications.total} total, ${applications.applied} applied, ${applications.pending} pending`,
    )
    const matching = options.matching?.matching ?? null
    return {
      options,
      dryRun: options.dryRun ?? false,
      clock,
      started,
      startedAt: localTimestamp(started),
      applications,
      analyser: matching ? new CachedAnalyser(descriptionAnalyser(matching), this.deps.termsCache) : null,
      sources: [],
      jobsFound: 0,
      runId: null,
      lifecycle: null,
      matching: null,
      jobs: [],
      notifications: skipped('nothing_new'),
      error: null,
      hint: null,
    }
  }

  /**
   * Searches every board, logging each as it answers (an empty answer checked against the recent runs). A storing
   * run stores the descriptions as the boards answer, out of memory, read first for the profile; a dry run stores
   * nothing.
   */
  private async search(run: RunState): Promise<Found> {
    const {options} = run
    const names = this.deps.search.sourceNames
    this.log.info(
      `Searching ${names.length} source(s): ${names.join(', ') || 'none'}${describeCriteria(options.criteria)}`,
    )
    const boards = boardReports(
      this.deps.logger,
      async () => (await this.deps.jobs.listRuns(RECENT_RUNS)).runs,
      options.deadAfterRuns ?? 3,
    )
    const descriptions = run.dryRun ? undefined : this.deps.jobs
    const found = await this.deps.search.search(options.criteria, {
      ...(options.signal ? {signal: options.signal} : {}),
      onProgress: (progress) => {
        options.onProgress?.(progress)
        if (progress.state !== 'running') boards.answered(progress.outcome)
      },
      ...(descriptions ? {descriptions} : {}),
      ...(descriptions && run.analyser ? {analyseTexts: run.analyser.analyse} : {}),
    })
    options.onSearchFinished?.()
    run.sources = await boards.all(found.sources)
    if (!stopped(run)) {
      for (const warning of found.warnings) this.log.warning(warning)
      if (found.salary) this.log.info(salaryFloorLine(found.salary))
    }
    return found
  }

  /** Whether any board answered; when none did, the run fails and the stored jobs stay as they are. */
  private checkOutcomes(run: RunState, found: Found): boolean {
    if (run.sources.some((outcome) => outcome.ok)) {
      run.jobsFound = found.jobs.length
      this.log.info(`Jobs found: ${found.jobs.length} (${found.fetched} fetched, after filters and deduplication)`)
      return true
    }
    const none = this.deps.search.sourceNames.length === 0
    run.error = none ? 'no source is enabled' : 'no source succeeded'
    run.notifications = skipped('failed')
    // Boards that failed for several reasons each have their warning above; the last line says where to look next.
    run.hint = none
      ? 'Hint: enable a source (jobagent config get sources), or add boards with: jobagent boards find <company> --add'
      : (unreachableHint(run.sources, {proxyConfigured: run.options.proxyConfigured ?? false}) ??
        "Hint: the warnings above give each board's reason; see every board's last outcome with: jobagent boards list (or run again with --verbose)")
    this.log.error(`Jobs found: none; ${run.error}, so the stored jobs were left as they were`)
    return false
  }

  /**
   * Stores the run and its jobs in one transaction with what the lifecycle rules decide (its change set,
   * run-changes.ts); a dry run only sees the jobs as the run would store them, and stores nothing, not even the run.
   */
  private async store(run: RunState, found: Found): Promise<Stored> {
    const [applied, learned] = await Promise.all([
      this.deps.applications.appliedUrlKeys(),
      learnFrom(this.deps.verdicts, run.options.matching?.matching?.knowledge.occupations),
    ])
    // New: no URL key of the job or of its other listings is an application applied for (the rule trackingOfJob applies
    // too), on the jobs as stored, which keep the listings of earlier runs; and not dismissed (countsAsNew).
    const isNew = (job: PreviewedJob) =>
      countsAsNew(job, !jobTrackingKeys(job).some((key) => applied.has(key)), learned.dismissed)
    if (run.dryRun) {
      const jobs = await previewRunJobs(this.deps.jobs, found.found, run.startedAt)
      return {jobs, newJobs: jobs.filter(isNew), learned}
    }
    const saved = await recordRun(
      this.deps.jobs,
      {
        started_at: run.startedAt,
        finished_at: run.startedAt,
        status: 'ok',
        mode: run.options.mode,
        jobs_found: found.jobs.length,
        new_jobs: 0,
        notified: 0,
        sources: run.sources,
        error: null,
      },
      {
        found: found.found,
        boards: run.sources.map((outcome) => ({outcome, urlKeys: found.listed.get(outcome.name) ?? []})),
        criteria: JSON.stringify(run.options.criteria),
        closeAfterRuns: run.options.closedAfterRuns ?? 2,
        isNew,
      },
    )
    run.runId = saved.run.id
    run.lifecycle = this.logLifecycle(saved.changes)
    return {...saved, learned}
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
   * Scores the new jobs against the profile and ranks them, highest first (as they are without a profile), and
   * returns those worth notifying: at or above `notify.min_score`. They are scored among all the run's jobs (a
   * skill's rarity is read among them), each on what the profile read in its description as the boards answered,
   * with what the person's verdicts teach.
   */
  private async rank(run: RunState, found: Found, stored: Stored): Promise<RankedJob[]> {
    const {model} = stored.learned
    const matching = run.options.matching?.matching ?? null
    const minScore = run.options.matching?.minScore ?? 0
    const started = performance.now()
    if (matching) {
      // The stored jobs come in the order they were found: a job whose description was stored away is scored on
      // what the profile's terms said of it then.
      const terms = new Map(stored.jobs.map((job, index) => [job, found.found[index]?.storedDescription?.terms]))
      const isNew = new Set(stored.newJobs)
      run.jobs = rankJobs(stored.jobs, matching, {
        termsOf: (job, analyse) => terms.get(job) ?? analyse(job.description),
        verdictModel: model,
        only: (job) => isNew.has(job),
      })
      run.matching = {
        min_score: minScore,
        scored: run.jobs.length,
        at_or_above: run.jobs.filter((job) => (job.score ?? 0) >= minScore).length,
        duration_ms: Math.round((run.analyser?.ms ?? 0) + performance.now() - started),
      }
    } else {
      run.jobs = rankJobs(stored.newJobs, null)
    }
    this.log.info(`New jobs (not yet applied): ${run.jobs.length}`)
    if (run.matching) {
      const {at_or_above, scored, min_score, duration_ms} = run.matching
      this.log.info(
        `Matching: ${at_or_above} of ${scored} new jobs score ${min_score} or more, ${scored - at_or_above} left out of the notifications below it (scored in ${duration_ms} ms)`,
      )
    }
    // A job the person dismissed is not new (countsAsNew), so it is never notified again, nor when it is reposted (a
    // repost is the same stored job).
    return run.jobs.filter((job) => (job.score ?? 0) >= (run.matching?.min_score ?? 0))
  }

  /** Sends the jobs not notified before (every one with --renotify) and the follow-ups due, in one digest. */
  private async notify(run: RunState, jobs: RankedJob[]): Promise<void> {
    run.notifications = await this.sendDigest(run, jobs)
  }

  private async sendDigest(run: RunState, newJobs: RankedJob[]): Promise<NotificationSummary> {
    const {options} = run
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
    if (run.dryRun) {
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
      localTimestamp(run.clock.now()),
    )
    await this.deps.followUps?.markReminded(followUps.named)
    notifyLog.info(
      `Notifications: sent ${pending.length} job(s)${alsoFollowUps} to ${accepted} of ${report.channels.length} channel(s)`,
    )
    return {result: 'sent', jobs: pending.length, channels: report.channels}
  }

  /**
   * Ends the run: its status (interrupted when the signal stopped it), the run row completed (or, when nothing was
   * stored, a failed run recorded; a dry run records nothing), the last line of the log, and the summary.
   */
  private async finish(run: RunState): Promise<RunSummary> {
    const finished = run.clock.now()
    const durationMs = finished.getTime() - run.started.getTime()
    const signal = run.options.signal
    const stoppedBy = signal?.aborted ? String(signal.reason ?? 'an interrupt') : null
    const failure = run.error ?? failureOf(run)
    const status = stoppedBy !== null ? 'interrupted' : failure === null ? 'ok' : 'failed'
    const error = stoppedBy !== null ? `interrupted by ${stoppedBy}` : failure
    const {jobs, notifications} = run
    const summary: RunSummary = {
      status,
      exit_code: stoppedBy !== null ? (INTERRUPTED_EXIT_CODES[stoppedBy] ?? 130) : status === 'ok' ? 0 : 1,
      version: run.options.version,
      mode: run.options.mode,
      started_at: run.startedAt,
      finished_at: localTimestamp(finished),
      duration_ms: durationMs,
      applications: run.applications,
      sources: run.sources,
      jobs_found: run.jobsFound,
      new_jobs: jobs.length,
      notifications,
      error,
      dry_run: run.dryRun,
      matching: run.matching,
      lifecycle: run.lifecycle,
      jobs: jobs.map(({description: _description, ...job}) => job),
    }
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
        started_at: run.startedAt,
        mode: run.options.mode,
        jobs_found: 0,
        sources: run.sources,
      })
    } else {
      await this.deps.jobs.completeRun(run.runId, outcome)
    }
    const ended = {ok: 'completed', failed: `failed (${error})`, interrupted: `${error}, stopped`}[status]
    const line = `Run ${ended} in ${seconds(durationMs)}`
    if (status === 'ok') this.log.info(line)
    else if (status === 'interrupted') this.log.warning(line)
    else this.log.error(line)
    if (run.hint) this.log.warning(run.hint)
    return summary
  }
}

/** Whether the run was stopped (Ctrl-C, SIGTERM): it goes no further than the step it is in. */
function stopped(run: RunState): boolean {
  return run.options.signal?.aborted ?? false
}

/** Why a run that went through every step failed: every channel failed, or under --strict a board did. */
function failureOf(run: RunState): string | null {
  if (run.notifications.result === 'failed') return 'every notification channel failed'
  const failedSources = run.sources.filter((outcome) => !outcome.ok).length
  return run.options.strict && failedSources > 0 ? `${failedSources} source(s) failed (--strict)` : null
}

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
