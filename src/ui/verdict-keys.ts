import {
  type DashboardState,
  info,
  type JobRef,
  type KeyPress,
  label,
  type Mode,
  request,
  selectedJob,
} from './dashboard-state.js'
import {editText} from './text-edit.js'

/**
 * The keys of verdicts on the Jobs view: `l` likes the selected job, `d` dismisses it (after asking why, which
 * Enter skips) and `u` takes back the like or dismissal given last here, else the selected job's like. The catalog
 * ranks with them at once (docs/MATCHING.md): the data is read again after each, and a dismissed job leaves the list.
 */

/** The selected job of the Jobs view, or the state saying why there is none. */
function jobFor(state: DashboardState, elsewhere: string): JobRef | DashboardState {
  if (state.view !== 'jobs') return {...state, message: info(`${elsewhere} (Tab switches views)`)}
  const job = selectedJob(state)
  if (!job) return {...state, message: info('No job selected')}
  return {jobId: job.id, label: label(job)}
}

export function startLike(state: DashboardState): DashboardState {
  const job = jobFor(state, 'l likes a job of the Jobs view')
  if (!('jobId' in job)) return job
  if (state.data?.likes.has(job.jobId)) return {...state, message: info(`Already liked: ${job.label}`)}
  return request(state, {kind: 'verdict', job, verdict: 'like', reason: null})
}

export function startDismissal(state: DashboardState): DashboardState {
  const job = jobFor(state, 'd dismisses a job of the Jobs view')
  if (!('jobId' in job)) return job
  return {...state, mode: {kind: 'reason', draft: '', target: job}}
}

export function undoVerdict(state: DashboardState): DashboardState {
  // Cleared at once, so a second u goes on to the selected job instead of asking again for the same one.
  if (state.lastVerdict) {
    return request({...state, lastVerdict: null}, {kind: 'undo-verdict', job: state.lastVerdict})
  }
  const job = jobFor(state, 'Nothing to undo: u takes back a like of the Jobs view')
  if (!('jobId' in job)) return job
  if (!state.data?.likes.has(job.jobId)) return {...state, message: info(`Nothing to undo: ${job.label} is not liked`)}
  return request(state, {kind: 'undo-verdict', job})
}

/** The prompt for why a job is dismissed: Enter dismisses it (an empty reason says none), Esc keeps it. */
export function onReasonKey(
  state: DashboardState,
  mode: Extract<Mode, {kind: 'reason'}>,
  input: string,
  key: KeyPress,
): DashboardState {
  if (key.escape) return {...state, mode: {kind: 'browse'}, message: info('Cancelled')}
  if (key.return) {
    const reason = mode.draft.trim()
    return request(
      {...state, mode: {kind: 'browse'}},
      {kind: 'verdict', job: mode.target, verdict: 'dismiss', reason: reason === '' ? null : reason},
    )
  }
  const draft = editText(mode.draft, input, key)
  return draft === null ? state : {...state, mode: {...mode, draft}}
}
