import type {TrackedApplication} from '../../core/applications/application.js'
import type {FollowUp} from '../../core/applications/follow-ups.js'
import {escapeControls as shown} from '../../core/control-characters.js'
import {daysAgo} from '../../core/time.js'
import type {Style} from '../style.js'
import {renderTable, type TableOptions} from '../table.js'

/** The follow-ups due, ids first; URLs whole off a terminal and as wide as a terminal allows on one. */
export function renderFollowUps(
  due: readonly FollowUp[],
  afterDays: number,
  style: Style,
  options: TableOptions & {now: Date},
): string {
  if (due.length === 0) return `No follow-ups due: no application has waited ${afterDays} days or more.`
  const table = renderTable(
    due,
    [
      {header: 'ID', value: (application) => String(application.id), shrinkTo: 8},
      {header: 'WAITING', value: (application) => `${application.days_waiting} days`},
      {header: 'STATUS', value: (application) => application.status, shrinkTo: 12},
      {header: 'TITLE', value: (application) => application.title, shrinkTo: 36},
      {header: 'COMPANY', value: (application) => application.company, shrinkTo: 22},
      {
        header: 'POSTING',
        value: (application) =>
          application.posting_closed_at ? `closed ${daysAgo(application.posting_closed_at, options.now)}` : '',
        shrinkTo: 20,
      },
      {header: 'URL', value: (application) => application.url, fill: true},
    ],
    style.bold,
    options,
  )
  const count = `${due.length} ${due.length === 1 ? 'application' : 'applications'}`
  const ghosted = due.filter((application) => application.suggest_ghosted)
  const suggestions =
    ghosted.length === 0
      ? []
      : [
          '',
          'Their postings closed long ago; consider marking these ghosted:',
          ...ghosted.map((application) => `  jobagent status ${application.id} ghosted`),
        ]
  return [
    `${count} due for a follow-up (no status change for ${afterDays} days or more):`,
    table,
    ...suggestions,
    '',
    'Postpone one with: jobagent status <id> --snooze 7',
  ].join('\n')
}

/** The next actions block of `followups`, due first first; nothing without any. */
export function renderNextActions(applications: readonly TrackedApplication[], style: Style): string[] {
  if (applications.length === 0) return []
  return [
    '',
    style.bold('Next actions'),
    ...applications.map(
      (application) =>
        `  ${(application.next_action_due ?? 'no date').padEnd(10)}  #${application.id} ${shown(application.title)} at ${shown(application.company)}: ${shown(application.next_action)}`,
    ),
  ]
}
