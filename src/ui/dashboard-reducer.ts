import type {SourceProgress} from '../core/jobs/job-search.js'
import {onKey} from './dashboard-keys.js'
import {type Action, type DashboardState, keepSelection, refilter, type SearchLine, settle} from './dashboard-state.js'
import {splitTyped} from './text-edit.js'

/**
 * The one reducer of the dashboard. Keys become actions here, so a burst of keys in one read (a paste, tmux
 * send-keys) is applied in order on the latest state.
 */
export function dashboardReducer(state: DashboardState, action: Action): DashboardState {
  switch (action.type) {
    case 'data':
      return settle(keepSelection(state, refilter({...state, data: action.data})))
    case 'load-failed':
      return {...state, message: {text: action.error, tone: 'error'}}
    case 'resize':
      return settle({...state, size: action.size})
    case 'requests-taken':
      return {...state, requests: state.requests.slice(action.count)}
    case 'message':
      return {...state, message: action.message}
    case 'search-progress':
      return settle({...state, search: progressLines(state.search ?? [], action.progress, action.at)})
    case 'search-finished':
      return settle({...state, search: null, message: action.message})
    case 'last-verdict':
      return {...state, lastVerdict: action.job}
    case 'last-removed':
      return {...state, lastRemoved: action.application}
    case 'select-job': {
      const index = state.lists.jobs.findIndex((job) => job.id === action.jobId)
      if (index === -1) return state
      return settle({...state, views: {...state.views, jobs: {...state.views.jobs, index}}})
    }
    case 'key': {
      let next = state
      for (const {input, key} of splitTyped(action.input, action.key)) {
        if (key.ctrl && input === 'c') return {...next, quitting: true}
        next = settle(onKey(next, input, key))
      }
      return next
    }
  }
}

function progressLines(lines: SearchLine[], progress: SourceProgress, at: number): SearchLine[] {
  const text =
    progress.state === 'running'
      ? ''
      : progress.outcome.ok
        ? `${progress.outcome.count} jobs in ${(progress.outcome.duration_ms / 1000).toFixed(1)} s`
        : `failed: ${progress.outcome.error}`
  const existing = lines.find((line) => line.name === progress.name)
  const line = {name: progress.name, state: progress.state, text, startedAt: existing?.startedAt ?? at}
  return existing ? lines.map((other) => (other === existing ? line : other)) : [...lines, line]
}
