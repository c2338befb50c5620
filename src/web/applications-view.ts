// The Applications tab: the tracked applications, each with its status and notes saved from its row
// (PATCH /applications/{id}/status), its history, and Edit, Remove and Undo (PATCH and DELETE /applications/{id},
// POST /applications/{id}/restore). Each change is an entry in the application's history; a removed application
// leaves the lists and counts, and Undo brings it back.
import {APPLICATION_STATUSES, type ApplicationStatus} from '../core/applications/application.js'
import {apiJson, apiList} from './api.js'
import type {ApplicationsPage, FollowUps, Interviews, StatusChanged, TrackedApplication} from './api-types.js'
import {applicationDetailsToggle} from './application-details.js'
import {setupEditDialog} from './application-edit.js'
import {historyToggle} from './application-history.js'
import {$, cell, el, formatLocalTimestamp, hiddenText, plural, timeElement, titleLink} from './dom.js'
import {renderCounts} from './header-view.js'
import {refreshTracking, renderJobs, renderLastRunSummary} from './jobs-view.js'
import {showError, showMessage} from './messages.js'
import {matchesText, type Page, state} from './page-state.js'

let page: Page
let openEditor: ReturnType<typeof setupEditDialog>

/** Wires the tab's controls of index.html; `whole` draws the other views and reads the applications again. */
export function setupApplicationsView(whole: Page): void {
  page = whole
  for (const value of APPLICATION_STATUSES) $('applications-status').append(el('option', {value}, value))
  openEditor = setupEditDialog()
}

/** The applications, those due for a follow-up and every interview, read again. */
export async function loadApplications(): Promise<void> {
  const [body, due, interviews] = await Promise.all([
    apiList<ApplicationsPage>('applications', 'applications'),
    apiJson<FollowUps>('GET', 'applications/followups'),
    apiJson<Interviews>('GET', 'interviews?all=true'),
  ])
  state.interviews = interviews.interviews
  state.applications = body.applications
  state.followUps = new Map(due.applications.map((application) => [application.url, application]))
  state.applicationsLoaded = true
}

export function renderApplications(): void {
  const table = $<HTMLTableElement>('applications-table')
  const empty = $('applications-empty')
  const text = $<HTMLInputElement>('applications-filter').value.trim().toLowerCase()
  const wanted = $<HTMLSelectElement>('applications-status').value
  const rows = state.applications.filter(
    (application) =>
      (!wanted || application.status === wanted) &&
      matchesText(application, ['title', 'company', 'location', 'notes', 'source', 'url'], text),
  )
  // A table drawn again (a search or the last run loaded, a filter typed) keeps each application's open details and
  // history open.
  const body = table.tBodies[0]!
  const open = new Map<string, OpenRows>()
  for (const row of body.querySelectorAll<HTMLTableRowElement>('tr[data-id]')) open.set(row.dataset.id!, openBelow(row))
  const fresh = rows.map(applicationRow)
  body.replaceChildren(...fresh)
  for (const row of fresh) reopen(row, open.get(row.dataset.id!))
  table.hidden = rows.length === 0
  empty.hidden = rows.length > 0
  if (!state.applicationsLoaded) empty.textContent = 'Applications are not loaded.'
  else if (state.applications.length === 0) empty.textContent = 'No applications yet: track a job from the Jobs tab.'
  else empty.textContent = 'No application matches the filters.'
}

interface RowControls {
  status: HTMLSelectElement
  notes: HTMLTextAreaElement
  button: HTMLButtonElement
  reloadHistory: () => Promise<void>
}

function applicationRow(application: TrackedApplication): HTMLTableRowElement {
  const name = `${application.title} at ${application.company}`
  const status = el(
    'select',
    {'aria-label': `Status of ${name}`},
    ...APPLICATION_STATUSES.map((value) => el('option', {value, selected: value === application.status}, value)),
  )
  const notes = el('textarea', {rows: 2, 'aria-label': `Notes for ${name}`})
  notes.value = application.notes ?? ''
  const button = el('button', {type: 'button'}, 'Save', hiddenText(` ${name}`))
  const history = historyToggle(application, name, () => row)
  // An interview added in the details can move the application on (applied to interviewing).
  const details = applicationDetailsToggle(
    application,
    name,
    () => row,
    (updated) => {
      Object.assign(application, updated)
      status.value = application.status
      renderCounts()
      renderLastRunSummary()
      renderJobs()
      history.reload()
    },
  )
  button.addEventListener('click', () =>
    saveApplication(application, {status, notes, button, reloadHistory: history.reload}),
  )
  const edit = el('button', {type: 'button', className: 'edit'}, 'Edit', hiddenText(` ${name}`))
  edit.addEventListener('click', () => editApplication(application, row))
  const remove = el('button', {type: 'button', className: 'remove'}, 'Remove', hiddenText(` ${name}`))
  remove.addEventListener('click', () => removeApplication(application, remove))
  const row = el(
    'tr',
    {'data-id': application.id},
    cell('ID', el('span', {className: 'application-id'}, `#${application.id}`)),
    cell('Title', titleLink(application)),
    cell('Company', application.company),
    cell(
      'Status',
      status,
      followUpBadge(application),
      application.posting_closed_at ? el('span', {className: 'badge closed'}, 'posting closed') : null,
    ),
    cell('Applied', timeElement(application.applied_date, formatLocalTimestamp(application.applied_date))),
    cell('Notes', notes),
    cell('', el('div', {className: 'row-actions'}, button, details, history.button, edit, remove)),
  )
  return row
}

async function saveApplication(application: TrackedApplication, controls: RowControls): Promise<void> {
  controls.button.disabled = true
  const status = controls.status.value as ApplicationStatus
  const notes = controls.notes.value
  try {
    const path = `applications/${application.id}/status`
    const updated = await apiJson<StatusChanged>('PATCH', path, {body: {status, notes}})
    const previous = updated.previous_status ?? application.status
    Object.assign(application, {status, notes}, updated.updated_at ? {updated_at: updated.updated_at} : {})
    showMessage(`Saved “${application.title}”: ${previous} → ${status}.`)
    // The edited table keeps its rows (and any unsaved edits in other rows); counts, jobs and an open history
    // follow the change.
    renderCounts()
    renderLastRunSummary()
    renderJobs()
    await controls.reloadHistory()
  } catch (error) {
    showError(`Could not save “${application.title}”`, error)
  } finally {
    controls.button.disabled = false
  }
}

/** The rows open below an application's row (its details, its history) and the buttons that open them. */
interface OpenRows {
  rows: Element[]
  labels: ('Details' | 'History')[]
}

function openBelow(row: HTMLTableRowElement): OpenRows {
  const rows: Element[] = []
  for (
    let next = row.nextElementSibling;
    next?.classList.contains('detail-row') || next?.classList.contains('history-row');
    next = next.nextElementSibling
  )
    rows.push(next)
  return {rows, labels: rows.map((open) => (open.classList.contains('history-row') ? 'History' : 'Details'))}
}

/** Opens below a row drawn again what was open below the row it replaces; each loads afresh. */
function reopen(row: HTMLTableRowElement, open: OpenRows | undefined): void {
  if (!open || open.labels.length === 0) return
  for (const button of row.querySelectorAll<HTMLButtonElement>('button[aria-expanded]')) {
    if (open.labels.some((label) => button.textContent?.startsWith(label))) button.click()
  }
}

async function editApplication(application: TrackedApplication, row: HTMLTableRowElement): Promise<void> {
  const saved = await openEditor(application)
  // The rows open below it (details, history), each opened again below the fresh row.
  const open = openBelow(row)
  if (!saved) {
    row.querySelector<HTMLButtonElement>('button.edit')?.focus()
    return
  }
  Object.assign(application, saved.updated)
  const fields = saved.changed.map((field) => field.replace('_', ' '))
  showMessage(`Edited #${application.id} “${application.title}”: ${fields.join(', ')}.`)
  // The row is drawn again with the new fields (other rows keep any unsaved edits); an open history follows.
  const fresh = applicationRow(application)
  for (const below of open.rows) below.remove()
  row.replaceWith(fresh)
  reopen(fresh, open)
  fresh.querySelector<HTMLButtonElement>('button.edit')?.focus()
  // A new URL may match other found jobs, or no longer match the one it did.
  if (saved.changed.includes('url')) {
    await refreshTracking()
    renderCounts()
    renderLastRunSummary()
    renderJobs()
  }
}

async function removeApplication(application: TrackedApplication, button: HTMLButtonElement): Promise<void> {
  button.disabled = true
  const name = `#${application.id} “${application.title}” at ${application.company}`
  try {
    await apiJson('DELETE', `applications/${application.id}`)
  } catch (error) {
    showError(`Could not remove ${name}`, error)
    button.disabled = false
    return
  }
  const undo = el('button', {type: 'button', className: 'undo'}, 'Undo', hiddenText(` the removal of ${name}`))
  undo.addEventListener('click', () => restoreApplication(application, name, undo))
  showMessage(`Removed ${name} from lists and stats.`, {actions: [undo]})
  await refreshAll()
  undo.focus()
}

async function restoreApplication(application: TrackedApplication, name: string, button: HTMLButtonElement) {
  button.disabled = true
  try {
    await apiJson('POST', `applications/${application.id}/restore`)
  } catch (error) {
    showError(`Could not restore ${name}`, error)
    button.disabled = false
    return
  }
  showMessage(`Restored ${name}.`)
  await refreshAll()
  $('applications-table').querySelector<HTMLButtonElement>(`tr[data-id="${application.id}"] button.edit`)?.focus()
}

/** The applications and whether each found job is tracked, read again, then everything drawn. */
async function refreshAll(): Promise<void> {
  await refreshTracking()
  await page.refresh()
}

/** "follow up: 9 days without news" for an application due for a follow-up (GET /applications/followups). */
function followUpBadge(application: TrackedApplication): HTMLSpanElement | null {
  const due = state.followUps.get(application.url)
  if (!due) return null
  return el('span', {className: 'badge follow-up'}, `follow up: ${plural(due.days_waiting, 'day')} without news`)
}
