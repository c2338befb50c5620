// The Edit dialog of an application (PATCH /applications/{id}, as `jobagent edit`) and how the page words each
// kind of history entry. The server's own message is shown in the dialog when it refuses an edit (409, 422).
import {ApiError, apiJson} from './api.js'
import {$, el} from './dom.js'

/** The fields PATCH /applications/{id} changes, by their input's id (`edit-title`) and label. */
const FIELDS = ['title', 'company', 'location', 'source', 'url', 'salary_expected', 'salary_offered']

/**
 * Wires the dialog of index.html once; the function it returns opens it for one application and resolves with the
 * record the server answered after a save, or null when the dialog is closed without one.
 */
export function setupEditDialog() {
  const dialog = $('edit-dialog')
  const form = $('edit-form')
  const error = $('edit-error')
  let current = null

  const showError = (apiError) => {
    const lines = apiError instanceof ApiError ? [...apiError.details] : []
    if (apiError instanceof ApiError && apiError.hint) lines.push(`Hint: ${apiError.hint}`)
    error.replaceChildren(
      el('p', {}, el('strong', {}, 'Error: '), apiError.message),
      lines.length > 0 ? el('ul', {}, ...lines.map((line) => el('li', {}, line))) : null,
    )
    error.hidden = false
    const field = FIELDS.find((name) => lines.some((line) => line.startsWith(`${name}:`)))
    if (field) $(`edit-${field}`).focus()
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    if (!current) return
    const {application, resolve} = current
    const changed = {}
    for (const field of FIELDS) {
      const value = $(`edit-${field}`).value.trim()
      if (value !== (application[field] ?? '')) changed[field] = value
    }
    if (Object.keys(changed).length === 0) {
      dialog.close()
      return
    }
    const save = $('edit-save')
    save.disabled = true
    try {
      const updated = await apiJson('PATCH', `applications/${application.id}`, {body: changed})
      current = null
      dialog.close()
      resolve({updated, changed: Object.keys(changed)})
    } catch (caught) {
      showError(caught)
    } finally {
      save.disabled = false
    }
  })
  $('edit-cancel').addEventListener('click', () => dialog.close())
  dialog.addEventListener('close', () => {
    current?.resolve(null)
    current = null
  })

  return (application) =>
    new Promise((resolve) => {
      current = {application, resolve}
      $('edit-heading').textContent = `Edit #${application.id} ${application.title} at ${application.company}`
      for (const field of FIELDS) $(`edit-${field}`).value = application[field] ?? ''
      error.hidden = true
      error.replaceChildren()
      dialog.showModal()
      $('edit-title').focus()
    })
}

/**
 * The words of one history entry after its time: a status change as two badges, a notes change as such (the old
 * notes follow it), any other entry in the words the API gives it (`summary`, the tracker's own), always as text.
 */
export function describeEntry(change) {
  if (change.change === 'notes') return ['notes changed']
  if (change.change !== 'status') return [String(change.summary ?? change.change)]
  const status = (value) => el('span', {className: `status status-${value}`}, String(value))
  return [status(change.old_status), ' → ', status(change.new_status)]
}
