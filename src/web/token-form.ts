// The token form: one prompt however many requests were refused, resolved with what the user typed.
import {onTokenNeeded} from './api.js'
import {$} from './dom.js'

let tokenWaiters: ((token: string) => void)[] = []

function askForToken(reason: string): Promise<string> {
  $('token-reason').textContent = reason
  const form = $<HTMLFormElement>('token-form')
  if (form.hidden) {
    form.hidden = false
    $<HTMLInputElement>('token-input').value = ''
    $('token-input').focus()
  }
  return new Promise((resolve) => tokenWaiters.push(resolve))
}

function submitToken(event: SubmitEvent): void {
  event.preventDefault()
  const token = $<HTMLInputElement>('token-input').value.trim()
  if (!token) return
  $('token-form').hidden = true
  const waiters = tokenWaiters
  tokenWaiters = []
  for (const resolve of waiters) resolve(token)
}

/** Wires the form of index.html: every request the server answers 401 waits for it. */
export function setupTokenForm(): void {
  $<HTMLFormElement>('token-form').addEventListener('submit', submitToken)
  onTokenNeeded(askForToken)
}
