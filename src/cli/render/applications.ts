import type {FileImportOutcome} from '../../app/tracker-files.js'
import {
  type ApplicationCounts,
  type ApplicationDocument,
  type ApplicationWithHistory,
  describeChange,
  EDITABLE_FIELDS,
  type TrackedApplication,
} from '../../core/applications/application.js'
import {DOCUMENT_LABELS, documentLine, nextActionLine} from '../../core/applications/application-lines.js'
import type {StatusUpdate} from '../../core/applications/application-store.js'
import {type Contact, describeContact} from '../../core/applications/contact.js'
import {encodingLabel} from '../../core/applications/import-encoding.js'
import type {Interview} from '../../core/applications/interviews.js'
import {escapeControls as shown} from '../../core/control-characters.js'
import {daysAgo} from '../../core/time.js'
import type {Style} from '../style.js'
import {renderTable, type TableOptions} from '../table.js'
import {renderApplicationInterviews} from './interviews.js'

export function renderCounts(counts: ApplicationCounts): string {
  return `Applications: ${counts.total} total, ${counts.applied} applied, ${counts.pending} pending`
}

/** `status` is the filter the list was made with: an empty filtered list says so rather than "none tracked". */
/** The list's filter in words: `with status ghosted, from linkedin, matching "acme", applied in the last 30d`. */
function describeFilter(filter: ListFilterFlags): string {
  return [
    filter.status === undefined ? '' : `with status ${filter.status}`,
    filter.source === undefined ? '' : `from ${shown(filter.source)}`,
    filter.search === undefined ? '' : `matching ${JSON.stringify(shown(filter.search))}`,
    filter.since === undefined ? '' : `applied in the last ${shown(filter.since)}`,
  ]
    .filter(Boolean)
    .join(', ')
}

interface ListFilterFlags {
  status?: string | undefined
  search?: string | undefined
  source?: string | undefined
  since?: string | undefined
}

/**
 * The list of `status`, ids first. An empty list made with a filter says so rather than "none tracked". URLs are
 * whole off a terminal and as wide as the terminal allows on one.
 */
export function renderApplicationTable(
  applications: readonly TrackedApplication[],
  style: Style,
  options: {filter: ListFilterFlags; total: number} & TableOptions,
): string {
  const filter = describeFilter(options.filter)
  if (applications.length === 0 && filter !== '' && options.total > 0) return `No applications ${filter}.`
  if (applications.length === 0) return 'No applications tracked yet. Track one with: jobagent apply <url> --title ...'
  return renderTable(
    applications,
    [
      {header: 'ID', value: (a) => String(a.id), shrinkTo: 8},
      {header: 'STATUS', value: (a) => a.status, shrinkTo: 12},
      {header: 'APPLIED', value: (a) => a.applied_date.slice(0, 10), shrinkTo: 10},
      {header: 'TITLE', value: (a) => a.title, shrinkTo: 36},
      {header: 'COMPANY', value: (a) => a.company, shrinkTo: 24},
      {header: 'URL', value: (a) => a.url, fill: true},
    ],
    style.bold,
    options,
  )
}

const multiline = {keepLineBreaks: true}

/** Text of several lines shown as one block: each line after the first starts `indent` columns in, under the first. */
function block(text: string, indent: number): string {
  return shown(text, multiline).replaceAll('\n', `\n${' '.repeat(indent)}`)
}

/** Where the value of a field of `status <id>` starts: `  notes         ` */
const FIELD_INDENT = 16

/** A document recorded, its text escaped for the terminal. */
function documentText(document: ApplicationDocument): string {
  return shown(documentLine(document))
}

/** A next action with its due date, as `status <id>` and `followups` show it. */
export function nextActionText(application: Pick<TrackedApplication, 'next_action' | 'next_action_due'>): string {
  return shown(nextActionLine(application))
}

export function renderApplication(
  {application, history}: ApplicationWithHistory,
  style: Style,
  parts: {interviews?: readonly Interview[]; now: Date},
): string {
  const lines = [
    `${style.bold(`#${application.id} ${shown(application.title)}`)}${application.removed_at ? style.dim(' (removed)') : ''}`,
    `  company       ${shown(application.company)}`,
    `  location      ${shown(application.location) || '-'}`,
    `  url           ${shown(application.url)}`,
    `  source        ${shown(application.source)}`,
    `  status        ${shown(application.status)}`,
    `  applied_date  ${shown(application.applied_date)}`,
    `  updated_at    ${shown(application.updated_at)}`,
    `  notes         ${block(application.notes, FIELD_INDENT) || '-'}`,
    ...(application.salary_expected ? [`  expected      ${shown(application.salary_expected)}`] : []),
    ...(application.salary_offered ? [`  offered       ${shown(application.salary_offered)}`] : []),
    ...(application.referral ? [`  referral      ${shown(application.referral)}`] : []),
    ...(application.next_action ? [`  next          ${nextActionText(application)}`] : []),
    ...application.documents.map(
      (document) => `  ${DOCUMENT_LABELS[document.kind].padEnd(14)}${documentText(document)}`,
    ),
    ...(application.removed_at
      ? [
          `  removed       ${shown(application.removed_at)}; bring it back with: jobagent remove ${application.id} --undo`,
        ]
      : []),
  ]
  if (application.posting_closed_at) {
    const closed = application.posting_closed_at
    lines.push(
      `  posting       closed ${daysAgo(closed, parts.now)} (${closed.slice(0, 10)}): the board no longer lists it`,
    )
  }
  lines.push(...renderApplicationInterviews(parts.interviews ?? [], style))
  if (history.length > 0) {
    lines.push('', style.bold('History'))
    const words = {arrow: '->', notes: (notes: string) => shown(notes, multiline)}
    for (const change of history) {
      const when = `  ${shown(change.changed_at)}  `
      lines.push(`${when}${describeChange(change, words).replaceAll('\n', `\n${' '.repeat(when.length)}`)}`)
    }
  }
  return lines.join('\n')
}

/** The contacts block of `status <id>`: one line each with the id `contact <id> --remove` takes; nothing without any. */
export function renderContacts(contacts: readonly Contact[], style: Style): string {
  if (contacts.length === 0) return ''
  const lines = ['', style.bold('Contacts')]
  for (const contact of contacts) {
    lines.push(`  ${contact.id}. ${shown(describeContact(contact))}`)
    if (contact.notes) lines.push(`     ${block(contact.notes, 5)}`)
  }
  return lines.join('\n')
}

/** What `jobagent contact` did: the contact added or removed, with its application. */
export function renderContactChange(contact: Contact, what: 'added' | 'removed'): string {
  const hint =
    what === 'added' ? `; remove it with: jobagent contact ${contact.application_id} --remove ${contact.id}` : ''
  return `${what === 'added' ? 'Added' : 'Removed'} contact ${contact.id} of #${contact.application_id}: ${shown(describeContact(contact))}${hint}`
}

export function renderStatusChange({previous, current}: StatusUpdate): string {
  const notes = current.notes ? ` (notes: ${block(current.notes, 2)})` : ''
  // The same status given again with notes changes the notes only, as the history records it.
  const change =
    previous.status === current.status
      ? `${current.status}, notes ${current.notes === previous.notes ? 'unchanged' : 'changed'}`
      : `${previous.status} -> ${current.status}`
  return `#${current.id} ${shown(current.url)}: ${change}${notes}`
}

/** What an edit changed, field by field, or that nothing did. */
export function renderEdit({previous, current}: StatusUpdate): string {
  const changed = EDITABLE_FIELDS.filter((field) => previous[field] !== current[field])
  const lines = changed.map(
    (field) => `  ${field}: ${shown(previous[field]) || '-'} -> ${shown(current[field]) || '-'}`,
  )
  const sent = current.documents.filter(
    (document) =>
      !previous.documents.some(
        (held) =>
          held.kind === document.kind &&
          held.sha256 === document.sha256 &&
          held.path === document.path &&
          held.copy === document.copy,
      ),
  )
  lines.push(...sent.map((document) => `  ${DOCUMENT_LABELS[document.kind]}: ${documentText(document)}`))
  if (lines.length === 0) return `#${current.id}: nothing changed.`
  return [`Edited #${current.id}:`, ...lines].join('\n')
}

const REMOVALS = {
  removed: (id: number) => `Removed #${id} from lists and stats; bring it back with: jobagent remove ${id} --undo`,
  gone: (id: number) => `#${id} is removed already; bring it back with: jobagent remove ${id} --undo`,
  restored: (id: number) => `Restored #${id} to lists and stats.`,
  listed: (id: number) => `#${id} is not removed; nothing to restore.`,
  purged: (id: number) => `Deleted #${id} for good, with its history.`,
}

/** What `remove` did to an application. */
export function renderRemoval(application: TrackedApplication, what: keyof typeof REMOVALS): string {
  return `${REMOVALS[what](application.id)} (${shown(application.title)} at ${shown(application.company)})`
}

export function renderTracked(application: TrackedApplication): string {
  const {id, url, status, title, company} = application
  const documents = application.documents.map(
    (document) => `\n  ${DOCUMENT_LABELS[document.kind]}: ${documentText(document)}`,
  )
  return `Tracked #${id} ${shown(url)} (${status}): ${shown(title)} at ${shown(company)}${documents.join('')}`
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
