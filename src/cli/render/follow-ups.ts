import type {FollowUp} from '../../core/applications/follow-ups.js'
import type {Style} from '../style.js'
import {renderTable} from '../table.js'

export function renderFollowUps(due: readonly FollowUp[], afterDays: number, style: Style): string {
  if (due.length === 0) return `No follow-ups due: no application has waited ${afterDays} days or more.`
  const table = renderTable(
    due,
    [
      {header: 'WAITING', value: (application) => `${application.days_waiting} days`},
      {header: 'STATUS', value: (application) => application.status, max: 12},
      {header: 'TITLE', value: (application) => application.title, max: 36},
      {header: 'COMPANY', value: (application) => application.company, max: 22},
      {header: 'URL', value: (application) => application.url, max: 60},
    ],
    style.bold,
  )
  const count = `${due.length} ${due.length === 1 ? 'application' : 'applications'}`
  return [
    `${count} due for a follow-up (no status change for ${afterDays} days or more):`,
    table,
    '',
    'Postpone one with: jobagent status <url> --snooze 7',
  ].join('\n')
}
