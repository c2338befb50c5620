// The Edit dialog of an application (PATCH /applications/{id}, as `jobagent edit`). The server's own message is
// shown in the dialog when it refuses an edit (409, 422).
import {EDITABLE, EDITABLE_FIELDS, type EditableField} from '../core/applications/application.js'
import {apiJson} from './api.js'
import type {TrackedApplication} from './api-types.js'
import {$, el} from './dom.js'
import {errorLines} from './messages.js'

/** A saved edit: the record the server answered and the fields that changed. */
interface SavedEdit {
  updated: TrackedApplication
  changed: EditableField[]
}

/** The input of a field in the dialog: `edit-title`, `edit-salary_expected`. */
const input = (field: EditableField) => $<HTMLInputElement>(`edit-${field}`)

/** What a field's input shows while it is empty, where an example helps. */
const PLACEHOLDERS: Partial<Record<EditableField, string>> = {salary_expected: '€70k'}

/** One labelled input per editable field, in the order of EDITABLE; a URL takes a whole row. */
function fieldInputs(): HTMLElement[] {
  return EDITABLE_FIELDS.map((field) => {
    const url = EDITABLE[field].rule === 'url'
    return el(
      'div',
      {className: url ? 'field wide' : 'field'},
      el('label', {for: `edit-${field}`}, EDITABLE[field].label),
      el('input', {id: `edit-${field}`, name: field, type: url ? 'url' : null, placeholder: PLACEHOLDERS[field]}),
    )
  })
}

/**
 * Wires the dialog of index.html once; the function it returns opens it for one application and resolves with the
 * record the server answered after a save, or null when the dialog is closed without one.
 */
export function setupEditDialog(): (application: TrackedApplication) => Promise<SavedEdit | null> {
  const dialog = $<HTMLDialogElement>('edit-dialog')
  const form = $<HTMLFormElement>('edit-form')
  const error = $('edit-error')
  error.before(...fieldInputs())
  let current: {application: TrackedApplication; resolve: (saved: SavedEdit | null) => void} | null = null

  const showError = (apiError: unknown) => {
    const lines = errorLines(apiError)
    const message = apiError instanceof Error ? apiError.message : String(apiError)
    error.replaceChildren(
      el('p', {}, el('strong', {}, 'Error: '), message),
      lines.length > 0 ? el('ul', {}, ...lines.map((line) => el('li', {}, line))) : '',
    )
    error.hidden = false
    const field = EDITABLE_FIELDS.find((name) => lines.some((line) => line.startsWith(`${name}:`)))
    if (field) input(field).focus()
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    if (!current) return
    const {application, resolve} = current
    const changed: Partial<Record<EditableField, string>> = {}
    for (const field of EDITABLE_FIELDS) {
      const value = input(field).value.trim()
      if (value !== (application[field] ?? '')) changed[field] = value
    }
    if (Object.keys(changed).length === 0) {
      dialog.close()
      return
    }
    const save = $<HTMLButtonElement>('edit-save')
    save.disabled = true
    try {
      const updated = await apiJson<TrackedApplication>('PATCH', `applications/${application.id}`, {body: changed})
      current = null
      dialog.close()
      resolve({updated, changed: EDITABLE_FIELDS.filter((field) => field in changed)})
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
      for (const field of EDITABLE_FIELDS) input(field).value = application[field] ?? ''
      error.hidden = true
      error.replaceChildren()
      dialog.showModal()
      input('title').focus()
    })
}
