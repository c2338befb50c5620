import {formatWallClock, wallClockAt} from '../time-zones.js'
import type {TrackedApplication} from './application.js'
import {interviewStart, type ScheduledInterview, scheduledRecord} from './interviews.js'

const DAY_MS = 86_400_000

/** The day of an instant in `zone`, YYYY-MM-DD. */
const dayIn = (instant: number, zone: string) => formatWallClock(wallClockAt(instant, zone)).slice(0, 10)

/** The next actions due by tomorrow (a day of `zone`), those overdue included, soonest first. */
export function dueNextActions(
  nextActions: readonly TrackedApplication[],
  now: Date,
  zone: string,
): TrackedApplication[] {
  const tomorrow = dayIn(now.getTime() + DAY_MS, zone)
  return nextActions.filter(
    (application) => application.next_action_due !== null && application.next_action_due <= tomorrow,
  )
}

/**
 * What `jobagent remind` names: the interviews starting today or tomorrow (days of `zone`, from now on) and the
 * next actions due by tomorrow, those overdue included, each list soonest first.
 */
export function remindersDue(
  interviews: readonly ScheduledInterview[],
  nextActions: readonly TrackedApplication[],
  now: Date,
  zone: string,
) {
  const tomorrow = dayIn(now.getTime() + DAY_MS, zone)
  const soon = interviews
    .filter((interview) => interviewStart(interview) >= now.getTime())
    .filter((interview) => dayIn(interviewStart(interview), zone) <= tomorrow)
    .map(scheduledRecord)
  return {
    today: dayIn(now.getTime(), zone),
    tomorrow,
    interviews: soon,
    next_actions: dueNextActions(nextActions, now, zone),
  }
}

/** "Next action due 2026-12-05: send portfolio for #1 Backend Engineer at Acme" (or "overdue since ..."). */
export function nextActionReminderLine(application: TrackedApplication, today: string): string {
  const due = application.next_action_due ?? ''
  const when = due < today ? `overdue since ${due}` : `due ${due}`
  return `Next action ${when}: ${application.next_action} for #${application.id} ${application.title} at ${application.company}`
}

/** "Interview today 14:00 Europe/Berlin: Backend Engineer at Acme (#1)". */
export function interviewReminderLine(interview: ReturnType<typeof scheduledRecord>, today: string): string {
  const day = interview.starts_at.slice(0, 10) === today ? 'today' : 'tomorrow'
  return `Interview ${day} ${interview.starts_at.slice(11)} ${interview.time_zone}: ${interview.application.title} at ${interview.application.company} (#${interview.application.id})`
}

/** Today, a day of `zone`, YYYY-MM-DD. */
export function todayIn(now: Date, zone: string): string {
  return dayIn(now.getTime(), zone)
}
