import {EDITABLE_FIELDS, type EditableField, type TrackedApplication} from '../core/applications/application.js'
import {
  type ApplicationRef,
  applicationRef,
  type DashboardState,
  info,
  type KeyPress,
  type Mode,
  request,
  selectedApplication,
} from './dashboard-state.js'
import {editText} from './text-edit.js'

/**
 * The keys that correct and remove tracked applications in the Applications view, as `jobagent edit` and
 * `jobagent remove` do: `E` edits the fields one prompt after the other, `x` removes the selected application once
 * `y` confirms, and `u` brings back the one removed last. Each is one entry in the application's history.
 */

function applicationFor(state: DashboardState, key: string): TrackedApplication | DashboardState {
  if (state.view !== 'applications') {
    return {...state, message: info(`${key} acts on the Applications view (Tab switches views)`)}
  }
  return selectedApplication(state) ?? {...state, message: info('No application selected')}
}

const isState = (value: TrackedApplication | DashboardState): value is DashboardState => 'mode' in value

export function startEdit(state: DashboardState): DashboardState {
  const application = applicationFor(state, 'E')
  if (isState(application)) return application
  const original = Object.fromEntries(EDITABLE_FIELDS.map((field) => [field, application[field]])) as Record<
    EditableField,
    string
  >
  return {...state, mode: {kind: 'edit', target: applicationRef(application), step: 0, values: original, original}}
}

/**
 * One field at a time, starting with what it holds: Enter keeps what is typed and goes on (saving after the last
 * field), ↑ goes back a field, Esc cancels the whole edit. Only fields that differ from the tracker's are sent.
 */
export function onEditKey(
  state: DashboardState,
  mode: Extract<Mode, {kind: 'edit'}>,
  input: string,
  key: KeyPress,
): DashboardState {
  if (key.escape) return {...state, mode: {kind: 'browse'}, message: info('Edit cancelled')}
  if (key.upArrow) return {...state, mode: {...mode, step: Math.max(0, mode.step - 1)}}
  if (key.return || key.downArrow) {
    if (mode.step < EDITABLE_FIELDS.length - 1) return {...state, mode: {...mode, step: mode.step + 1}}
    if (key.downArrow) return state
    return saveEdit({...state, mode: {kind: 'browse'}}, mode)
  }
  const field = EDITABLE_FIELDS[mode.step] ?? 'title'
  const draft = editText(mode.values[field], input, key)
  return draft === null ? state : {...state, mode: {...mode, values: {...mode.values, [field]: draft}}}
}

function saveEdit(state: DashboardState, mode: Extract<Mode, {kind: 'edit'}>): DashboardState {
  const fields: Partial<Record<EditableField, string>> = {}
  for (const field of EDITABLE_FIELDS) {
    const value = mode.values[field].trim()
    if (value !== mode.original[field]) fields[field] = value
  }
  if (Object.keys(fields).length === 0) return {...state, message: info(`Nothing changed for ${mode.target.label}`)}
  return request(state, {kind: 'edit', application: mode.target, fields})
}

export function startRemoval(state: DashboardState): DashboardState {
  const application = applicationFor(state, 'x')
  if (isState(application)) return application
  return {...state, mode: {kind: 'confirm-remove', target: applicationRef(application)}}
}

/** `y` removes; any other key keeps the application. */
export function onConfirmRemoveKey(
  state: DashboardState,
  mode: Extract<Mode, {kind: 'confirm-remove'}>,
  input: string,
): DashboardState {
  const browse = {...state, mode: {kind: 'browse'}} satisfies DashboardState
  if (input !== 'y' && input !== 'Y') return {...browse, message: info(`Kept ${mode.target.label}`)}
  return request(browse, {kind: 'remove', application: mode.target})
}

/** The application removed last here, brought back; cleared at once so a second `u` does not ask again. */
export function undoRemoval(state: DashboardState, removed: ApplicationRef): DashboardState {
  return request({...state, lastRemoved: null}, {kind: 'restore', application: removed})
}
