import type {ApplicationStatus, EditableField, TrackedApplication} from '../core/applications/application.js'
import type {ListedJob} from '../core/jobs/job-catalog.js'
import type {SourceProgress} from '../core/jobs/job-search.js'
import type {Verdict} from '../core/matching/verdicts.js'
import {layoutRows, type Rows, type Size, scrollTop} from './layout.js'
import {filterApplications, filterJobs, type StatusFilter} from './list-filters.js'
import {applicationOfJob, type DashboardData, type StatusOrNotes} from './services.js'
import type {EditKey} from './text-edit.js'

/**
 * The whole dashboard state, what is selected in it, and the small steps the reducer (dashboard-reducer.ts) and
 * the key handling (dashboard-keys.ts) build changes from. Work for the services is queued as `requests` and
 * carried out by the App, which reports back with actions.
 */

export type ViewName = 'jobs' | 'applications'

export interface ViewState {
  index: number
  top: number
  text: string
  status: StatusFilter
}

/** What a status or notes change is about; an application by its short id (`ref`, as the services take it). */
export type Target =
  | {kind: 'job'; jobId: number; label: string}
  | {kind: 'application'; ref: string; label: string; status: ApplicationStatus; notes: string}

/** An application an edit, removal or restore is about: its short id as the services take it, and how it is named. */
export interface ApplicationRef {
  ref: string
  label: string
}

/** A job a like or dismissal is about, and the last one given in the dashboard (what `u` takes back first). */
export interface JobRef {
  jobId: number
  label: string
}

export type Mode =
  | {kind: 'browse'}
  | {kind: 'help'}
  | {kind: 'stats'}
  | {kind: 'filter'}
  | {kind: 'pick-status'; purpose: 'track' | 'change'; choice: number; target: Target}
  | {kind: 'notes'; purpose: 'track' | 'change' | 'edit'; draft: string; status: ApplicationStatus; target: Target}
  | {kind: 'reason'; draft: string; target: JobRef}
  /** The edit prompts, one field after the other: `values` as typed so far, `original` as the tracker holds them. */
  | {
      kind: 'edit'
      target: ApplicationRef
      step: number
      values: Record<EditableField, string>
      original: Record<EditableField, string>
    }
  | {kind: 'confirm-remove'; target: ApplicationRef}

export type Request =
  | {kind: 'track'; jobId: number; status: ApplicationStatus; notes: string; label: string}
  | {kind: 'update'; ref: string; label: string; change: StatusOrNotes}
  | {kind: 'edit'; application: ApplicationRef; fields: Partial<Record<EditableField, string>>}
  | {kind: 'remove'; application: ApplicationRef}
  | {kind: 'restore'; application: ApplicationRef}
  | {kind: 'verdict'; job: JobRef; verdict: Verdict; reason: string | null}
  | {kind: 'undo-verdict'; job: JobRef}
  | {kind: 'export'}
  | {kind: 'open'; url: string}
  | {kind: 'search'}

export interface SearchLine {
  name: string
  state: SourceProgress['state']
  text: string
  startedAt: number
}

export interface Message {
  text: string
  tone: 'info' | 'success' | 'error'
}

export interface DashboardState {
  data: DashboardData | null
  size: Size
  view: ViewName
  views: Record<ViewName, ViewState>
  lists: {jobs: ListedJob[]; applications: TrackedApplication[]}
  mode: Mode
  detail: boolean
  message: Message | null
  /** The live search panel: one line per board; null when no search runs. */
  search: SearchLine[] | null
  /** The like or dismissal given last here and not yet taken back: `u` takes it back, even once it is off the list. */
  lastVerdict: JobRef | null
  /** The application removed last here and not yet brought back: `u` in the Applications view restores it. */
  lastRemoved: ApplicationRef | null
  requests: Request[]
  quitting: boolean
}

export type KeyPress = EditKey & {shift: boolean}

export type Action =
  | {type: 'data'; data: DashboardData}
  | {type: 'load-failed'; error: string}
  | {type: 'resize'; size: Size}
  | {type: 'key'; input: string; key: KeyPress}
  | {type: 'requests-taken'; count: number}
  | {type: 'message'; message: Message}
  | {type: 'search-progress'; progress: SourceProgress; at: number}
  | {type: 'search-finished'; message: Message}
  /** A like or dismissal was kept (the job given) or taken back (null). */
  | {type: 'last-verdict'; job: JobRef | null}
  /** Selects this job in the Jobs view, when it is listed (a job whose dismissal was taken back). */
  | {type: 'select-job'; jobId: number}
  /** An application was removed (the one given) or brought back (null). */
  | {type: 'last-removed'; application: ApplicationRef | null}

const emptyView: ViewState = {index: 0, top: 0, text: '', status: null}

export function initialState(size: Size): DashboardState {
  return {
    data: null,
    size,
    view: 'jobs',
    views: {jobs: emptyView, applications: emptyView},
    lists: {jobs: [], applications: []},
    mode: {kind: 'browse'},
    detail: false,
    message: null,
    search: null,
    lastVerdict: null,
    lastRemoved: null,
    requests: [],
    quitting: false,
  }
}

export function rowsOf(state: DashboardState): Rows {
  return layoutRows(state.size, {
    detail: state.detail,
    picker: state.mode.kind === 'pick-status',
    help: state.mode.kind === 'help' || state.mode.kind === 'stats',
    runLines: state.search === null ? 0 : Math.max(1, state.search.length),
    messageLines:
      state.mode.kind === 'browse' && state.message && state.message.text.length > state.size.columns ? 2 : 1,
  })
}

export function selectedJob(state: DashboardState): ListedJob | undefined {
  return state.lists.jobs[state.views.jobs.index]
}

export function selectedApplication(state: DashboardState): TrackedApplication | undefined {
  return state.lists.applications[state.views.applications.index]
}

/** The application the keys s and n act on: the selected one, or the tracked application of the selected job. */
export function targetApplication(state: DashboardState): TrackedApplication | undefined {
  if (state.view === 'applications') return selectedApplication(state)
  const job = selectedJob(state)
  return job && state.data ? applicationOfJob(state.data, job) : undefined
}

export function refilter(state: DashboardState): DashboardState {
  const {jobs, applications} = state.views
  const data = state.data
  return {
    ...state,
    lists: {
      jobs: data ? filterJobs(data.jobs, jobs.text, jobs.status) : [],
      applications: data ? filterApplications(data.applications, applications.text, applications.status) : [],
    },
  }
}

/**
 * After new data (a reload once a change is written), each view's cursor stays on the job or application it was
 * on, wherever the new order puts it: a job that stops being new moves below the new ones. Only when the item
 * has left the list (a filter no longer matches) does the cursor keep its position.
 */
export function keepSelection(before: DashboardState, after: DashboardState): DashboardState {
  const job = selectedJob(before)
  const application = selectedApplication(before)
  const jobIndex = job ? after.lists.jobs.findIndex((candidate) => candidate.id === job.id) : -1
  const applicationIndex = application
    ? after.lists.applications.findIndex((candidate) => candidate.id === application.id)
    : -1
  if (jobIndex === -1 && applicationIndex === -1) return after
  const views = after.views
  return {
    ...after,
    views: {
      jobs: jobIndex === -1 ? views.jobs : {...views.jobs, index: jobIndex},
      applications: applicationIndex === -1 ? views.applications : {...views.applications, index: applicationIndex},
    },
  }
}

/** Keeps each selection inside its list and on screen. */
export function settle(state: DashboardState): DashboardState {
  const visible = rowsOf(state).table
  const fix = (view: ViewState, length: number): ViewState => {
    const index = Math.max(0, Math.min(view.index, length - 1))
    const top = scrollTop(view.top, index, visible, length)
    return index === view.index && top === view.top ? view : {...view, index, top}
  }
  const jobs = fix(state.views.jobs, state.lists.jobs.length)
  const applications = fix(state.views.applications, state.lists.applications.length)
  if (jobs === state.views.jobs && applications === state.views.applications) return state
  return {...state, views: {jobs, applications}}
}

export function updateView(state: DashboardState, change: Partial<ViewState>): DashboardState {
  return {...state, views: {...state.views, [state.view]: {...state.views[state.view], ...change}}}
}

export function setFilter(state: DashboardState, change: Pick<Partial<ViewState>, 'text' | 'status'>): DashboardState {
  return refilter(updateView(state, {...change, index: 0, top: 0}))
}

export const info = (text: string): Message => ({text, tone: 'info'})

/** How messages and prompts name a job or application. */
export function label(item: {title: string; company: string}): string {
  return `${item.title} at ${item.company}`
}

/** How messages and prompts name a tracked application: by its short id first, as every list shows it. */
export function applicationRef(application: TrackedApplication): ApplicationRef {
  return {ref: String(application.id), label: `#${application.id} ${label(application)}`}
}

export function request(state: DashboardState, next: Request): DashboardState {
  return {...state, requests: [...state.requests, next]}
}
