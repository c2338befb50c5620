import type {FileImportOutcome} from '../../app/tracker-files.js'
import {
  type ApplicationCounts,
  type ApplicationWithHistory,
  describeChange,
  type TrackedApplication,
} from '../../core/applications/application.js'
import type {StatusUpdate} from '../../core/applications/application-store.js'
import {encodingLabel} from '../../core/applications/import-encoding.js'
import {escapeControls as shown} from '../../core/control-characters.js'
import {daysAgo} from '../../core/time.js'
import type {Style} from '../style.js'
import {renderTable} from '../table.js'

export function renderCounts(counts: ApplicationCounts): string {
  return `Applications: ${counts.total} total, ${counts.applied} applied, ${counts.pending} pending`
}

/** `status` is the filter the list was made with: an empty filtered list says so rather than "none tracked". */
export function renderApplicationTable(
  applications: readonly TrackedApplication[],
  style: Style,
  filter: {status?: string; total: number},
): string {
  if (applications.length === 0 && filter.status && filter.total > 0)
    return `No applications with status ${filter.status}.`
  if (applications.length === 0) return 'No applications tracked yet. Track one with: jobagent apply <url> --title ...'
  return renderTable(
    applications,
    [
      {header: 'STATUS', value: (a) => a.status, max: 12},
      {header: 'APPLIED', value: (a) => a.applied_date.slice(0, 10), max: 10},
      {header: 'TITLE', value: (a) => a.title, max: 36},
      {header: 'COMPANY', value: (a) => a.company, max: 24},
      {header: 'URL', value: (a) => a.url, max: 80},
    ],
    style.bold,
  )
}

const multiline = {keepLineBreaks: true}

export function renderApplication({application, history}: ApplicationWithHistory, style: Style): string {
  const lines = [
    style.bold(shown(application.title)),
    `  company       ${shown(application.company)}`,
    `  location      ${shown(application.location) || '-'}`,
    `  url           ${shown(application.url)}`,
    `  source        ${shown(application.source)}`,
    `  status        ${shown(application.status)}`,
    `  applied_date  ${shown(application.applied_date)}`,
    `  updated_at    ${shown(application.updated_at)}`,
    `  notes         ${shown(application.notes, multiline) || '-'}`,
  ]
  if (application.posting_closed_at) {
    const closed = application.posting_closed_at
    lines.push(`  posting       closed ${daysAgo(closed)} (${closed.slice(0, 10)}): the board no longer lists it`)
  }
  if (history.length > 0) {
    lines.push('', style.bold('History'))
    const words = {arrow: '->', notes: (notes: string) => shown(notes, multiline)}
    for (const change of history) lines.push(`  ${shown(change.changed_at)}  ${describeChange(change, words)}`)
  }
  return lines.join('\n')
}

export function renderStatusChange({previous, current}: StatusUpdate): string {
  const notes = current.notes ? ` (notes: ${shown(current.notes, multiline)})` : ''
  return `${shown(current.url)}: ${previous.status} -> ${current.status}${notes}`
}

export function renderTracked(application: TrackedApplication): string {
  const {url, status, title, company} = application
  return `Tracked ${shown(url)} (${status}): ${shown(title)} at ${shown(company)}`
}

export function renderImport(outcome: FileImportOutcome): string {
  const lines = [
    // A file not in UTF-8 was converted; saying how lets the user check names with accents came through.
    ...(outcome.encoding === 'utf-8' ? [] : [`Read ${outcome.file} as ${encodingLabel(outcome.encoding)}.`]),
    `Imported ${outcome.inserted} new, updated ${outcome.updated}, left ${outcome.unchanged.length} unchanged` +
      (outcome.identical > 0 ? `, ${outcome.identical} already as in the file.` : '.'),
    ...outcome.unchanged.map((url) => `  already tracked (use --update to overwrite): ${shown(url)}`),
  ]
  return lines.join('\n')
}
