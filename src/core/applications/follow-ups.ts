import {NotFoundError, ValidationError} from '../errors.js'
import type {Clock} from '../time.js'
import {localTimestamp, systemClock} from '../time.js'
import {type ApplicationStatus, type TrackedApplication, trackedRecord} from './application.js'
import {type InterviewReminders, remindersDocument} from './interviews.js'
import {dueNextActions, todayIn} from './reminders.js'

/** Statuses that wait on the employer: an application left in one of them for long is due for a follow-up. */
export const WAITING_STATUSES: readonly ApplicationStatus[] = ['applied', 'interviewing']

/** An application due for a follow-up, with how long it has waited since its status last changed. */
export interface FollowUp extends TrackedApplication {
  days_waiting: number
  /**
   * In `applied` for `ghosted_after_days` or more and its posting closed: the employer has most likely moved on,
   * and marking it `ghosted` is suggested (never done by itself).
   */
  suggest_ghosted: boolean
}

/**
 * The follow-ups due as `followups --json` and `GET /applications/followups` both print them: each tracked record
 * with the days it has waited and whether ghosted is suggested, their number and the wait that makes one due.
 */
export function followUpsDocument(
  due: readonly FollowUp[],
  afterDays: number,
  interviews: InterviewReminders,
  nextActions: readonly TrackedApplication[] = [],
) {
  const applications = due.map((followUp) => ({
    ...trackedRecord(followUp),
    days_waiting: followUp.days_waiting,
    suggest_ghosted: followUp.suggest_ghosted,
  }))
  return {
    applications,
    count: applications.length,
    after_days: afterDays,
    ...remindersDocument(interviews),
    next_actions: nextActions.map(trackedRecord),
  }
}

/** The most next actions a list shows: more is a backlog, not a plan. */
const NEXT_ACTIONS_SHOWN = 100

interface FollowUpSettings {
  /** Days in `applied` or `interviewing` without a status change after which an application is due. */
  after_days: number
  /** Days in `applied`, with the posting closed, after which `ghosted` is suggested. */
  ghosted_after_days: number
  /** Days after an interview before its application can be due again; one with an interview ahead is not due. */
  after_interview_days: number
}

/**
 * Applications in a waiting status last changed at or before `changedBefore`, not snoozed past `now`, and with
 * `remindedBefore` not named by a digest after it.
 */
export interface WaitingQuery {
  changedBefore: string
  now: string
  /** UTC `YYYY-MM-DDTHH:MM`: an application with an interview starting after it is not waiting (the rule above). */
  interviewsAfter: string
  remindedBefore?: string
}

/**
 * The follow-ups a digest names (the longest waiting, no more than it names) and how many are due in all; with
 * them, the interviews soon and the applications waiting after one, which ride along with every digest sent.
 */
export interface DueFollowUps {
  named: FollowUp[]
  total: number
  interviews?: InterviewReminders
  /** The next actions due by tomorrow, overdue ones included, and the day they were judged on. */
  nextActions?: {due: TrackedApplication[]; today: string}
}

/** What follow-ups need of the tracker's storage. */
export interface FollowUpStore {
  /** The applications of `query`, oldest change first, at most `limit` of them (all without), and their number. */
  waiting(query: WaitingQuery, limit?: number): Promise<{applications: TrackedApplication[]; total: number}>
  /** The listed applications with a next action, the one due first first and those without a date last. */
  nextActions(limit: number): Promise<TrackedApplication[]>
  markReminded(ids: readonly number[], at: string): Promise<void>
  /** Sets the time until which an application is not due; false when no application has the id. */
  snooze(id: number, until: string): Promise<boolean>
}

const DAY_MS = 86_400_000
/** The longest snooze: a year; a longer wait is no follow-up any more. */
const MAX_SNOOZE_DAYS = 365

/**
 * Applications waiting on an employer: due `after_days` after their status last changed (`updated_at`), unless
 * snoozed, or an interview is ahead of them, or their last one was less than `after_interview_days` ago. A run's digest names each due application at most once per period of `after_days`.
 */
export class FollowUps {
  constructor(
    private readonly store: FollowUpStore,
    private readonly settings: FollowUpSettings,
    private readonly clock: Clock = systemClock,
    private readonly interviewsSource?: {reminders(): Promise<InterviewReminders>; readonly timeZone: string},
  ) {}

  get afterDays(): number {
    return this.settings.after_days
  }

  /** The applications due now, longest waiting first. */
  async due(): Promise<FollowUp[]> {
    return (await this.listed(false)).named
  }

  /**
   * What a run's digest names: of the due applications no digest has named within the last `after_days`, the
   * `limit` that have waited longest, and how many there are. The others are counted, and named by later runs
   * (a backlog of thousands costs a run a count, not thousands of rows).
   */
  async toRemind(limit: number): Promise<DueFollowUps> {
    const listed = await this.listed(true, limit)
    // Without a channel nothing is named; without interviews there is nothing to say about them.
    if (limit === 0 || !this.interviewsSource) return listed
    const now = this.clock.now()
    const zone = this.interviewsSource.timeZone
    const [interviews, nextActions] = await Promise.all([this.interviews(), this.nextActions()])
    return {
      ...listed,
      interviews,
      nextActions: {due: dueNextActions(nextActions, now, zone).slice(0, limit), today: todayIn(now, zone)},
    }
  }

  /** The interviews within the next 48 hours and the applications waiting after their last interview. */
  async interviews(): Promise<InterviewReminders> {
    return (await this.interviewsSource?.reminders()) ?? {soon: [], waiting: []}
  }

  private async listed(unremindedOnly: boolean, limit?: number): Promise<DueFollowUps> {
    const now = this.clock.now()
    // One period back: the last status change for `due`, the last reminder for `toRemind`.
    const periodAgo = localTimestamp(new Date(now.getTime() - this.settings.after_days * DAY_MS))
    const interviewsAfter = new Date(now.getTime() - this.settings.after_interview_days * DAY_MS)
    const query = {
      changedBefore: periodAgo,
      now: localTimestamp(now),
      interviewsAfter: interviewsAfter.toISOString().slice(0, 16),
      ...(unremindedOnly ? {remindedBefore: periodAgo} : {}),
    }
    const {applications, total} = await this.store.waiting(query, limit)
    // updated_at is a local time without zone, as Date reads it.
    const named = applications.map((application) => {
      const days = Math.floor((now.getTime() - new Date(application.updated_at).getTime()) / DAY_MS)
      const ghosted =
        application.status === 'applied' &&
        application.posting_closed_at !== null &&
        days >= this.settings.ghosted_after_days
      return {...application, days_waiting: days, suggest_ghosted: ghosted}
    })
    return {named, total}
  }

  /** The applications with a next action, the one due first first (NEXT_ACTIONS_SHOWN at most). */
  nextActions(): Promise<TrackedApplication[]> {
    return this.store.nextActions(NEXT_ACTIONS_SHOWN)
  }

  async markReminded(followUps: readonly FollowUp[]): Promise<void> {
    if (followUps.length === 0) return
    await this.store.markReminded(
      followUps.map((application) => application.id),
      localTimestamp(this.clock.now()),
    )
  }

  /** Postpones the follow-up of an application (found by ApplicationService.find) by `days` from now; until when. */
  async snooze(application: TrackedApplication, days: number): Promise<string> {
    if (!Number.isInteger(days) || days < 1 || days > MAX_SNOOZE_DAYS) {
      throw new ValidationError(`snooze must be a whole number of days from 1 to ${MAX_SNOOZE_DAYS}, got ${days}`, {
        details: [{field: 'days', message: `must be 1 to ${MAX_SNOOZE_DAYS}`}],
      })
    }
    const until = localTimestamp(new Date(this.clock.now().getTime() + days * DAY_MS))
    if (!(await this.store.snooze(application.id, until))) {
      throw new NotFoundError(`no application #${application.id}`, {
        hint: 'list tracked applications with their ids: jobagent status',
      })
    }
    return until
  }
}
