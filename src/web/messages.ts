// Messages: an aria-live region; errors stay until closed, a newer notice replaces the older one. Their button
// says Close, not Dismiss, which a job row's button says for hiding the job.
import {ApiError} from './api.js'
import {$, el} from './dom.js'

const MAX_MESSAGES = 5

/** `actions`: buttons offered with the message, such as the Undo of the last like or dismissal. */
export function showMessage(
  text: string,
  {kind = 'info', details = [], actions = []}: {kind?: 'info' | 'error'; details?: string[]; actions?: Node[]} = {},
): void {
  const region = $('messages')
  if (kind === 'info') for (const old of region.querySelectorAll('.message.info')) old.remove()
  const item = el(
    'div',
    {className: `message ${kind}`},
    el('p', {}, kind === 'error' ? el('strong', {}, 'Error: ') : null, text),
    details.length > 0 ? el('ul', {}, ...details.map((detail) => el('li', {}, detail))) : null,
  )
  item.append(...actions, el('button', {type: 'button', className: 'close', onclick: () => item.remove()}, 'Close'))
  region.append(item)
  while (region.children.length > MAX_MESSAGES) region.firstElementChild?.remove()
}

/** The lines an error adds below its message: the API's details, then its hint. */
export function errorLines(error: unknown): string[] {
  if (!(error instanceof ApiError)) return []
  return error.hint ? [...error.details, `Hint: ${error.hint}`] : [...error.details]
}

export function showError(what: string, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error)
  showMessage(`${what}: ${message}`, {kind: 'error', details: errorLines(error)})
}
