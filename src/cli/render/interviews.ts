import {interviewWho} from '../../core/applications/interview-fields.js'
import {
  type AddedInterview,
  type Interview,
  type InterviewReminders,
  type ScheduledInterview,
  soonLine,
  waitingLine,
} from '../../core/applications/interviews.js'
import {escapeControls as shown} from '../../core/control-characters.js'
import {offsetText} from '../../core/time-zones.js'
import type {Style} from '../style.js'
import {renderTable, type TableOptions} from '../table.js'

/** `2026-12-02 14:00+01:00`: the start with the offset it was read with (one recorded before has none). */
const startClock = (interview: Interview) =>
  `${interview.starts_at.replace('T', ' ')}${interview.utc_offset === null ? '' : offsetText(interview.utc_offset)}`

/** `2026-12-02 14:00+01:00 Europe/Berlin`. */
const startText = (interview: Interview) => `${startClock(interview)} ${interview.time_zone}`

/** `video with Ann Lee, CTO, 45 min, at Acme HQ`: what else is known of an interview, or nothing. */
function detailsText(interview: Interview): string {
  return [
    interview.kind ?? '',
    interviewWho(interview) ? `with ${interviewWho(interview)}` : '',
    interview.duration_minutes === 60 ? '' : `${interview.duration_minutes} min`,
    interview.place ? `at ${interview.place}` : '',
    interview.link,
  ]
    .filter(Boolean)
    .join(' ')
}

export function renderAddedInterview({interview, previous, current}: AddedInterview): string {
  const details = detailsText(interview)
  const lines = [
    `Interview #${interview.id} added to #${current.id} ${shown(current.title)} at ${shown(current.company)}: ` +
      `${startText(interview)}${details ? `, ${shown(details)}` : ''}`,
  ]
  if (previous.status !== current.status) lines.push(`#${current.id}: ${previous.status} -> ${current.status}`)
  return lines.join('\n')
}

export function renderRemovedInterview(interview: Interview): string {
  const details = detailsText(interview)
  return `Removed interview #${interview.id} of #${interview.application_id}: ${startText(interview)}${details ? `, ${shown(details)}` : ''}`
}

/** The list of `jobagent interviews`: when, what, which application. */
export function renderInterviewTable(
  interviews: readonly ScheduledInterview[],
  style: Style,
  options: {all: boolean} & TableOptions,
): string {
  if (interviews.length === 0) {
    return options.all
      ? 'No interviews yet. Add one with: jobagent interview <id> --at "2026-12-02 14:00"'
      : 'No upcoming interviews (jobagent interviews --all lists the past ones too).'
  }
  return renderTable(
    interviews,
    [
      {header: 'STARTS', value: startClock, shrinkTo: 22},
      {header: 'ZONE', value: (interview) => interview.time_zone, shrinkTo: 24},
      {header: 'KIND', value: (interview) => interview.kind ?? '', shrinkTo: 10},
      {header: 'WITH', value: interviewWho, shrinkTo: 30},
      {header: 'APP', value: (interview) => `#${interview.application_id}`, shrinkTo: 8},
      {header: 'TITLE', value: (interview) => interview.application.title, shrinkTo: 36},
      {header: 'COMPANY', value: (interview) => interview.application.company, fill: true},
    ],
    style.bold,
    options,
  )
}

/** The interviews of one application, for `jobagent status <id>`; nothing when it has none. */
export function renderApplicationInterviews(interviews: readonly Interview[], style: Style): string[] {
  if (interviews.length === 0) return []
  const lines = interviews.map((interview) => {
    const details = detailsText(interview)
    const notes = interview.notes ? ` (${interview.notes})` : ''
    // Numbered as the contacts are: `interview <id> --remove N` takes the number.
    return `  ${interview.id}. ${startText(interview)}${details ? `  ${shown(details)}` : ''}${shown(notes)}`
  })
  return ['', style.bold('Interviews'), ...lines]
}

/** What `jobagent followups` says about interviews: the ones soon, then the applications waiting after one. */
export function renderInterviewReminders(reminders: InterviewReminders): string[] {
  const lines = [...reminders.soon.map(soonLine), ...reminders.waiting.map(waitingLine)].map((line) => shown(line))
  return lines.length === 0 ? [] : ['', ...lines]
}
