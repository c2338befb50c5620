import {formatWallClock, wallClockAt} from '../time-zones.js'
import type {TrackedApplication} from './application.js'
import {interviewStart, type ScheduledInterview, scheduledRecord} from './interviews.js'

const DAY_MS = 86_400_000

/** The day of an instant in `zone`, YYYY-MM-DD. */
const dayIn = (instant: number, zone: string) => formatWallClock(wallClockAt(instant, zone)).slice(0, 10)

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
  const due = nextActions.filter(
    (application) => application.next_action_due !== null && application.next_action_due <= tomorrow,
  )
  return {today: dayIn(now.getTime(), zone), tomorrow, interviews: soon, next_actions: due}
}
