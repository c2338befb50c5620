import {ValidationError} from '../errors.js'
import {isCalendarDay} from '../time.js'
import type {TrackedApplication} from './application.js'
import type {NextAction} from './application-store.js'

/** The longest next action kept, in characters: a line, not notes. */
const NEXT_ACTION_MAX_LENGTH = 200

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** What a front end asks of the next action; a part left out keeps the held one. */
export interface NextActionChange {
  /** The action; empty clears it and its due date (`--next ""`, `--done`). */
  action?: string
  /** YYYY-MM-DD; empty removes the date and keeps the action. */
  due?: string
}

function invalid(field: string, message: string, hint: string): ValidationError {
  return new ValidationError(`invalid ${field}: ${message}`, {details: [{field, message}], hint})
}

/** A due date as the tracker keeps it: a calendar day written YYYY-MM-DD. */
function parseDueDay(text: string): string {
  const day = text.trim()
  const match = DAY.exec(day)
  if (!match) {
    throw invalid(
      'due',
      `${JSON.stringify(text)} is not a day written YYYY-MM-DD`,
      'give the day, e.g. --due 2026-12-05',
    )
  }
  if (!isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]))) {
    throw invalid(
      'due',
      `${JSON.stringify(text)} is no day of the calendar (${match[1]}-${match[2]} has no day ${match[3]})`,
      'give a day the month has, e.g. --due 2026-12-05',
    )
  }
  return day
}

/**
 * The next action a change leaves: a new action with its due date (none unless given), an empty one clearing both,
 * or a due date alone moved on the held action. A due date with no action to go with it is refused.
 */
export function nextActionAfter(
  held: Pick<TrackedApplication, 'id' | 'next_action' | 'next_action_due'>,
  change: NextActionChange,
): NextAction {
  const action = change.action?.trim()
  const due = change.due === undefined || change.due.trim() === '' ? null : parseDueDay(change.due)
  if (action === '') {
    if (due !== null) {
      throw invalid(
        'due',
        'an empty next action has no due date',
        `set one with: jobagent status ${held.id} --next "..." --due ${due}`,
      )
    }
    return {action: '', due: null}
  }
  if (action === undefined) {
    if (held.next_action === '') {
      throw invalid(
        'due',
        `#${held.id} has no next action to give a date to`,
        `set one with: jobagent status ${held.id} --next "..." --due <YYYY-MM-DD>`,
      )
    }
    return {action: held.next_action, due}
  }
  if (action.length > NEXT_ACTION_MAX_LENGTH || /\p{Cc}/u.test(action)) {
    throw invalid(
      'next_action',
      `a next action is one line of at most ${NEXT_ACTION_MAX_LENGTH} characters`,
      'keep it short, e.g. --next "send portfolio"; longer text goes in the notes',
    )
  }
  return {action, due}
}
