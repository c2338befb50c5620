// The status history of an application (GET /applications/{id}), opened below its row, and how the page words
// each kind of history entry.
import {apiJson} from './api.js'
import type {ApplicationWithHistory, HistoryEntry, TrackedApplication} from './api-types.js'
import {type Child, el, formatLocalTimestamp, hiddenText, timeElement, toggleRowBelow} from './dom.js'
import {showError} from './messages.js'

/**
 * The words of one history entry after its time: a status change as two badges, a notes change as such (the old
 * notes follow it), any other entry in the words the API gives it (`summary`, the tracker's own), always as text.
 */
function describeEntry(change: HistoryEntry): Child[] {
  if (change.change === 'notes') return ['notes changed']
  if (change.change !== 'status') return [String(change.summary ?? change.change)]
  const status = (value: string) => el('span', {className: `status status-${value}`}, String(value))
  return [status(change.old_status), ' → ', status(change.new_status)]
}

function historyList(history: readonly HistoryEntry[]): HTMLElement {
  if (history.length === 0) return el('p', {className: 'empty'}, 'No status changes yet.')
  return el(
    'ol',
    {className: 'history'},
    ...history.map((change) =>
      el(
        'li',
        {},
        timeElement(change.changed_at, formatLocalTimestamp(change.changed_at)),
        ' ',
        // An edit of the notes alone, an edit of fields, a removal keep the status: each is shown as what it changed.
        ...describeEntry(change),
        change.old_notes ? el('span', {className: 'old-notes'}, `notes before: ${change.old_notes}`) : null,
      ),
    ),
  )
}

let historyIds = 0

/**
 * The "History" button of an application row and the detail row it opens below: every status change, oldest
 * first. The detail row exists only while open, so the table holds one row per application otherwise. `reload`
 * refreshes an open history (after a save).
 */
export function historyToggle(
  application: TrackedApplication,
  name: string,
  applicationRowOf: () => HTMLTableRowElement,
): {button: HTMLButtonElement; reload: () => Promise<void>} {
  const id = `history-${++historyIds}`
  const list = el('div', {className: 'history-body'})
  const row = el(
    'tr',
    {className: 'history-row', id},
    el('td', {colspan: 7}, el('h3', {}, `Status history of ${name}`), list),
  )
  const button = el('button', {type: 'button'}, 'History', hiddenText(` of ${name}`))
  const load = async () => {
    list.replaceChildren(el('p', {}, 'Loading the history…'))
    row.setAttribute('aria-busy', 'true')
    try {
      const body = await apiJson<ApplicationWithHistory>('GET', `applications/${application.id}`)
      list.replaceChildren(historyList(body.history))
    } catch (error) {
      list.replaceChildren(el('p', {}, 'The history could not be loaded.'))
      showError(`Could not load the history of “${application.title}”`, error)
    } finally {
      row.removeAttribute('aria-busy')
    }
  }
  toggleRowBelow(button, row, applicationRowOf, load)
  return {button, reload: async () => (row.isConnected ? load() : undefined)}
}
