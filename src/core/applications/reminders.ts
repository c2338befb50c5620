import {formatWallClock, wallClockAt} from '../time-zones.js'
import type {TrackedApplication} from './application.js'
import {interviewStart, type ScheduledInterview, scheduledRecord, whenText} from './interviews.js'

/** The day of an instant in `zone`, YYYY-MM-DD. */
const dayIn = (instant: number, zone: string) => formatWallClock(wallClockAt(instant, zone)).slice(0, 10)

/**
 * The day after today in `zone`, by the calendar: a day is 23 or 25 hours long when the clocks change, so 24 hours
 * from late in the evening before one can land two days on (or on the same day).
 */
function tomorrowIn(now: Date, zone: string): string {
  const [year, month, day] = dayIn(now.getTime(), zone).split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10)
}

/** The next actions due by tomorrow (a day of `zone`), those overdue included, soonest first. */
export function dueNextActions(
  nextActions: readonly TrackedApplication[],
  now: Date,
  zone: string,
): TrackedApplication[] {
  const tomorrow = tomorrowIn(now, zone)
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
  const tomorrow = tomorrowIn(now, zone)
  const soon = interviews
    .filter((interview) => interviewStart(interview) >= now.getTime())
    .filter((interview) => dayIn(interviewStart(interview), zone) <= tomorrow)
    .map((interview) => ({...scheduledRecord(interview), when: whenText(interview, now, zone)}))
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

/** Today, a day of `zone`, YYYY-MM-DD. */
export function todayIn(now: Date, zone: string): string {
  return dayIn(now.getTime(), zone)
}
