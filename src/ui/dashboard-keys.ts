import {APPLICATION_STATUSES} from '../core/applications/application.js'
import {onConfirmRemoveKey, onEditKey, startEdit, startRemoval, undoRemoval} from './application-keys.js'
import {
  applicationRef,
  type DashboardState,
  info,
  type KeyPress,
  label,
  type Mode,
  request,
  rowsOf,
  selectedApplication,
  selectedJob,
  setFilter,
  type Target,
  targetApplication,
  updateView,
} from './dashboard-state.js'
import {APPLICATION_STATUS_FILTERS, cycleFilter, JOB_STATUS_FILTERS} from './list-filters.js'
import {applicationOfJob} from './services.js'
import {editText} from './text-edit.js'
import {onReasonKey, startDismissal, startLike, undoVerdict} from './verdict-keys.js'

/**
 * What one key does, by mode: browsing, the help or statistics, the text filter, the status picker, the notes
 * prompt, the prompt for why a job is dismissed, the edit prompts or the question before a removal.
 */
export function onKey(state: DashboardState, input: string, key: KeyPress): DashboardState {
  switch (state.mode.kind) {
    case 'help':
    case 'stats':
      if (input === 'q') return {...state, quitting: true}
      return {...state, mode: {kind: 'browse'}}
    case 'filter':
      return onFilterKey(state, input, key)
    case 'pick-status':
      return onPickerKey(state, state.mode, input, key)
    case 'notes':
      return onNotesKey(state, state.mode, input, key)
    case 'reason':
      return onReasonKey(state, state.mode, input, key)
    case 'edit':
      return onEditKey(state, state.mode, input, key)
    case 'confirm-remove':
      return onConfirmRemoveKey(state, state.mode, input)
    case 'browse':
      return onBrowseKey({...state, message: null}, input, key)
  }
}

function move(state: DashboardState, to: (index: number, page: number, length: number) => number): DashboardState {
  const length = state.lists[state.view].length
  const index = to(state.views[state.view].index, rowsOf(state).table, length)
  return updateView(state, {index: Math.max(0, Math.min(index, length - 1))})
}

function onBrowseKey(state: DashboardState, input: string, key: KeyPress): DashboardState {
  if (key.downArrow || input === 'j') return move(state, (index) => index + 1)
  if (key.upArrow || input === 'k') return move(state, (index) => index - 1)
  if (key.pageDown) return move(state, (index, page) => index + page)
  if (key.pageUp) return move(state, (index, page) => index - page)
  if (key.home) return move(state, () => 0)
  if (key.end) return move(state, (_, __, length) => length - 1)
  if (key.tab) return {...state, view: state.view === 'jobs' ? 'applications' : 'jobs'}
  if (key.return) return {...state, detail: !state.detail}
  if (key.escape) return onEscape(state)
  if (key.ctrl || key.meta) return state
  switch (input) {
    case 'q':
      return {...state, quitting: true}
    case '?':
      return {...state, mode: {kind: 'help'}}
    case 't':
      return {...state, mode: {kind: 'stats'}}
    case '/':
      return {...state, mode: {kind: 'filter'}}
    case 'f':
    case 'F': {
      const filters = state.view === 'jobs' ? JOB_STATUS_FILTERS : APPLICATION_STATUS_FILTERS
      return setFilter(state, {status: cycleFilter(filters, state.views[state.view].status, input === 'f' ? 1 : -1)})
    }
    case 'a':
      return startTracking(state)
    case 'l':
      return startLike(state)
    case 'd':
      return startDismissal(state)
    case 'u':
      if (state.view === 'applications' && state.lastRemoved) return undoRemoval(state, state.lastRemoved)
      return undoVerdict(state)
    case 'E':
      return startEdit(state)
    case 'x':
      return startRemoval(state)
    case 's':
    case 'n':
      return startChange(state, input === 's' ? 'status' : 'notes')
    case 'o': {
      const url = state.view === 'jobs' ? selectedJob(state)?.url : selectedApplication(state)?.url
      return url ? request(state, {kind: 'open', url}) : {...state, message: info('Nothing selected to open')}
    }
    case 'e':
      return request({...state, message: info('Exporting…')}, {kind: 'export'})
    case 'r':
      if (state.search !== null) return {...state, message: info('A search is already running')}
      return request({...state, search: []}, {kind: 'search'})
    default:
      return state
  }
}

function onEscape(state: DashboardState): DashboardState {
  if (state.detail) return {...state, detail: false}
  const view = state.views[state.view]
  if (view.text !== '' || view.status !== null) return setFilter(state, {text: '', status: null})
  return state
}

function startTracking(state: DashboardState): DashboardState {
  if (state.view !== 'jobs') return {...state, message: info('a tracks a job of the Jobs view (Tab switches views)')}
  const job = selectedJob(state)
  if (!job) return {...state, message: info('No job selected')}
  if (job.tracked_status !== null) {
    // Matched by the tracker's canonical-key rule: a link with tracking parameters is the application tracked without.
    const tracked = state.data ? applicationOfJob(state.data, job) : undefined
    const as = tracked ? ` as #${tracked.id}` : ''
    return {...state, message: info(`Already tracked${as} (status: ${job.tracked_status}); s changes its status`)}
  }
  return {
    ...state,
    mode: {
      kind: 'pick-status',
      purpose: 'track',
      choice: APPLICATION_STATUSES.indexOf('applied'),
      target: {kind: 'job', jobId: job.id, label: label(job)},
    },
  }
}

function startChange(state: DashboardState, change: 'status' | 'notes'): DashboardState {
  const application = targetApplication(state)
  if (!application) {
    if (state.view !== 'jobs') return {...state, message: info('No application selected')}
    const untracked = selectedJob(state) !== undefined
    return {...state, message: info(untracked ? 'This job is not tracked; a tracks it' : 'No job selected')}
  }
  const target: Target = {
    kind: 'application',
    ref: applicationRef(application).ref,
    label: label(application),
    status: application.status,
    notes: application.notes,
  }
  if (change === 'notes') {
    return {
      ...state,
      mode: {kind: 'notes', purpose: 'edit', draft: application.notes, status: application.status, target},
    }
  }
  const choice = APPLICATION_STATUSES.indexOf(application.status)
  return {...state, mode: {kind: 'pick-status', purpose: 'change', choice, target}}
}

function onFilterKey(state: DashboardState, input: string, key: KeyPress): DashboardState {
  if (key.return) return {...state, mode: {kind: 'browse'}}
  if (key.escape) return setFilter({...state, mode: {kind: 'browse'}}, {text: ''})
  const text = editText(state.views[state.view].text, input, key)
  return text === null ? state : setFilter(state, {text})
}

function onPickerKey(
  state: DashboardState,
  mode: Extract<Mode, {kind: 'pick-status'}>,
  input: string,
  key: KeyPress,
): DashboardState {
  const last = APPLICATION_STATUSES.length - 1
  const choose = (choice: number) => ({...state, mode: {...mode, choice: Math.max(0, Math.min(choice, last))}})
  if (key.escape || input === 'q') return {...state, mode: {kind: 'browse'}, message: info('Cancelled')}
  if (key.downArrow || input === 'j') return choose(mode.choice + 1)
  if (key.upArrow || input === 'k') return choose(mode.choice - 1)
  if (key.home || key.pageUp) return choose(0)
  if (key.end || key.pageDown) return choose(last)
  const digit = Number.parseInt(input, 10)
  if (input.length === 1 && digit >= 1 && digit <= APPLICATION_STATUSES.length) {
    return confirmStatus(state, {...mode, choice: digit - 1})
  }
  if (key.return) return confirmStatus(state, mode)
  return state
}

function confirmStatus(state: DashboardState, mode: Extract<Mode, {kind: 'pick-status'}>): DashboardState {
  const status = APPLICATION_STATUSES[mode.choice] ?? 'applied'
  const {target} = mode
  if (mode.purpose === 'track') {
    return {...state, mode: {kind: 'notes', purpose: 'track', draft: '', status, target}}
  }
  if (target.kind !== 'application') return {...state, mode: {kind: 'browse'}}
  if (status === target.status) return {...state, mode: {kind: 'browse'}, message: info(`Status unchanged (${status})`)}
  // A new status comes with its own notes, empty unless typed, as on the command line; the old ones go to the history.
  return {...state, mode: {kind: 'notes', purpose: 'change', draft: '', status, target}}
}

function onNotesKey(
  state: DashboardState,
  mode: Extract<Mode, {kind: 'notes'}>,
  input: string,
  key: KeyPress,
): DashboardState {
  if (key.escape) return {...state, mode: {kind: 'browse'}, message: info('Cancelled')}
  if (key.return) {
    const browse = {...state, mode: {kind: 'browse'}} satisfies DashboardState
    const {target, status} = mode
    const notes = mode.draft.trim()
    if (target.kind === 'job') {
      return request(browse, {kind: 'track', jobId: target.jobId, status, notes, label: target.label})
    }
    const {ref, label: name} = target
    if (mode.purpose === 'change') return request(browse, {kind: 'update', ref, label: name, change: {status, notes}})
    if (notes === target.notes) return {...browse, message: info('Notes unchanged')}
    return request(browse, {kind: 'update', ref, label: name, change: {notes}})
  }
  const draft = editText(mode.draft, input, key)
  return draft === null ? state : {...state, mode: {...mode, draft}}
}
