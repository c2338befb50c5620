import {ValidationError} from '../errors.js'
import {localTimestamp} from '../time.js'
import {APPLICATION_STATUSES, type ApplicationStatus, type ApplicationWithHistory} from './application.js'

/** The stages an application goes through on the way to a job, in order. */
export const FUNNEL_STAGES = ['saved', 'applied', 'interviewing', 'offer', 'accepted'] as const

type FunnelStage = (typeof FUNNEL_STAGES)[number]

/**
 * How far along the funnel a status shows an application got (an index into FUNNEL_STAGES). Rejected, withdrawn
 * and ghosted are ends of an application that was sent, so they show that it reached `applied`, as every status
 * but `saved` counts as applied in the run's counts.
 */
const STAGE_REACHED: Record<ApplicationStatus, number> = {
  saved: 0,
  applied: 1,
  rejected: 1,
  withdrawn: 1,
  ghosted: 1,
  interviewing: 2,
  offer: 3,
  accepted: 4,
}

/** Statuses that show an answer to an application: anything after `applied` but a step back to `saved`. */
const RESPONSE_STATUSES: ReadonlySet<ApplicationStatus> = new Set(
  APPLICATION_STATUSES.filter((status) => status !== 'saved' && status !== 'applied'),
)

const DAY_MS = 86_400_000

interface FunnelStep {
  stage: FunnelStage
  /** Applications that reached this stage or a later one. */
  count: number
  /** count over the previous stage's count; null for the first stage and after a stage nobody reached. */
  conversion: number | null
}

export interface FunnelFigures {
  total: number
  by_status: Record<ApplicationStatus, number>
  funnel: FunnelStep[]
  /** Applications that reached `applied`. */
  applied: number
  /** Of those, the ones that moved on from `applied` to any answer (rejections included). */
  responded: number
  /** responded / applied; null when nothing was applied for. */
  response_rate: number | null
  /** Median days from applied_date to the first change away from `applied`; null when no such change is known. */
  median_days_to_response: number | null
}

export interface ApplicationStats extends FunnelFigures {
  /** The earliest applied_date counted (local timestamp), or null for every application. */
  since: string | null
  by_source: (FunnelFigures & {source: string})[]
  /** One entry per month (YYYY-MM of applied_date) that has applications, oldest first. */
  by_month: (FunnelFigures & {month: string})[]
}

const SINCE_UNITS: Record<string, number> = {d: 1, w: 7, m: 30, y: 365}

/** `90d`, `12w`, `6m` (30 days each), `1y` (365 days) as a number of days. */
export function parseSince(text: string): number {
  const match = /^(\d{1,5})([dwmy])$/i.exec(text.trim())
  const days = match ? Number(match[1]) * (SINCE_UNITS[(match[2] ?? '').toLowerCase()] ?? 0) : 0
  if (days <= 0) {
    throw new ValidationError(`invalid since: ${text} (expected a positive number of days, weeks, months or years)`, {
      details: [{field: 'since', message: 'expected e.g. 90d, 12w, 6m or 1y'}],
      hint: 'e.g. --since 90d',
    })
  }
  return days
}

/** The local timestamp `since` (`30d`, `4w`) counts back to from `now`: where a list filtered by it starts. */
export function sinceTimestamp(since: string, now: Date): string {
  return localTimestamp(new Date(now.getTime() - parseSince(since) * DAY_MS))
}

// Both timestamps are local and zoneless: reading them as UTC keeps their difference exact.
function timeOf(timestamp: string): number {
  return Date.parse(`${timestamp.slice(0, 23)}Z`)
}

function median(values: number[]): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  const value =
    sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
  return Math.round(value * 10) / 10
}

function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 1000) / 1000
}

/** What one application contributes to the figures. */
interface Outcome {
  status: ApplicationStatus
  stage: number
  responded: boolean
  daysToResponse: number | null
}

/**
 * An application reached a stage when its current status or any status in its history (old or new) is that stage
 * or a later one (see STAGE_REACHED), so an application that went on to `rejected` after an interview still
 * counts as interviewed. It responded when any of those statuses is an answer (RESPONSE_STATUSES), which also
 * covers a record imported straight as `interviewing`. Its time to response runs to the first change in its
 * history from `applied` to an answer, from when it was applied for: applied_date, or the last change into
 * `applied` before the answer when it was tracked as `saved` first (applied_date is then the day it was saved).
 * A negative time (applied_date rewritten by a later import) tells nothing and is left out.
 */
function outcomeOf({application, history}: ApplicationWithHistory): Outcome {
  const statuses = [application.status, ...history.flatMap((change) => [change.old_status, change.new_status])]
  const stage = Math.max(...statuses.map((status) => STAGE_REACHED[status] ?? 0))
  const responded = stage >= 1 && statuses.some((status) => RESPONSE_STATUSES.has(status))
  const answer = history.findIndex(
    (change) => change.old_status === 'applied' && RESPONSE_STATUSES.has(change.new_status),
  )
  const sent = history.slice(0, Math.max(0, answer)).findLast((change) => change.new_status === 'applied')
  const from = sent?.changed_at ?? application.applied_date
  const days = answer === -1 ? Number.NaN : (timeOf(history[answer]?.changed_at ?? '') - timeOf(from)) / DAY_MS
  return {status: application.status, stage, responded, daysToResponse: days >= 0 ? days : null}
}

function figuresOf(outcomes: readonly Outcome[]): FunnelFigures {
  const byStatus = Object.fromEntries(APPLICATION_STATUSES.map((status) => [status, 0])) as Record<
    ApplicationStatus,
    number
  >
  for (const outcome of outcomes) byStatus[outcome.status]++
  const funnel = FUNNEL_STAGES.map((stage, index): FunnelStep => {
    const count = outcomes.filter((outcome) => outcome.stage >= index).length
    return {stage, count, conversion: null}
  })
  for (const [index, step] of funnel.entries()) {
    const previous = funnel[index - 1]
    if (previous) step.conversion = ratio(step.count, previous.count)
  }
  const applied = funnel[1]?.count ?? 0
  const responded = outcomes.filter((outcome) => outcome.responded).length
  return {
    total: outcomes.length,
    by_status: byStatus,
    funnel,
    applied,
    responded,
    response_rate: ratio(responded, applied),
    median_days_to_response: median(
      outcomes.flatMap((outcome) => (outcome.daysToResponse === null ? [] : [outcome.daysToResponse])),
    ),
  }
}

function grouped<K extends string>(
  entries: readonly {key: string; outcome: Outcome}[],
  name: K,
): (FunnelFigures & Record<K, string>)[] {
  const groups = new Map<string, Outcome[]>()
  for (const {key, outcome} of entries) {
    const group = groups.get(key)
    if (group) group.push(outcome)
    else groups.set(key, [outcome])
  }
  return [...groups.keys()]
    .sort()
    .map((key) => ({[name]: key, ...figuresOf(groups.get(key) ?? [])}) as FunnelFigures & Record<K, string>)
}

/**
 * The funnel statistics of the tracked applications; with `sinceDays`, only of those whose applied_date lies
 * within that many days before `now` (so back-dated imports fall in the month they were applied for).
 */
export function applicationStats(
  applications: readonly ApplicationWithHistory[],
  options: {now: Date; sinceDays?: number},
): ApplicationStats {
  const since =
    options.sinceDays === undefined
      ? null
      : localTimestamp(new Date(options.now.getTime() - options.sinceDays * DAY_MS))
  const counted =
    since === null ? applications : applications.filter(({application}) => application.applied_date >= since)
  const entries = counted.map((entry) => ({application: entry.application, outcome: outcomeOf(entry)}))
  const outcomes = entries.map((entry) => entry.outcome)
  return {
    since,
    ...figuresOf(outcomes),
    by_source: grouped(
      entries.map(({application, outcome}) => ({key: application.source, outcome})),
      'source',
    ),
    by_month: grouped(
      entries.map(({application, outcome}) => ({key: application.applied_date.slice(0, 7), outcome})),
      'month',
    ),
  }
}
