import {describe, expect, it} from 'vitest'
import {EDITABLE_FIELDS, type TrackedApplication} from '../../src/core/applications/application.js'
import {applicationStats} from '../../src/core/applications/stats.js'
import {dashboardReducer} from '../../src/ui/dashboard-reducer.js'
import {type DashboardState, initialState} from '../../src/ui/dashboard-state.js'
import type {DashboardData} from '../../src/ui/services.js'

const NO_KEY = {
  ctrl: false,
  meta: false,
  shift: false,
  backspace: false,
  delete: false,
  return: false,
  escape: false,
  tab: false,
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageUp: false,
  pageDown: false,
  home: false,
  end: false,
}

const application: TrackedApplication = {
  id: 7,
  title: 'Dev',
  company: 'Acme',
  location: 'Berlin',
  url: 'https://example.org/jobs/7',
  source: 'remoteok',
  applied_date: '2026-11-22T08:00:00.000',
  status: 'applied',
  notes: '',
  updated_at: '2026-11-22T08:00:00.000',
  posting_closed_at: null,
  salary_expected: '',
  salary_offered: '',
  referral: '',
  removed_at: null,
  next_action: '',
  next_action_due: null,
  documents: [],
}

/** The dashboard on its Applications view, holding one application. */
function applicationsView(): DashboardState {
  const data: DashboardData = {
    run: null,
    jobs: [],
    scored: false,
    applications: [application],
    counts: {total: 1, applied: 1, pending: 0},
    newJobs: 0,
    byUrl: new Map([[application.url, application]]),
    followUps: new Map(),
    stats: applicationStats([], {now: new Date('2026-11-22T09:00:00Z')}),
    likes: new Map(),
  }
  const loaded = dashboardReducer(initialState({columns: 100, rows: 30}), {type: 'data', data})
  return {...loaded, view: 'applications'}
}

/** Types `input` (characters, or one named key) into the reducer, as Ink hands keys over. */
function press(state: DashboardState, input: string, key: Partial<typeof NO_KEY> = {}): DashboardState {
  return dashboardReducer(state, {type: 'key', input, key: {...NO_KEY, ...key}})
}

describe('the keys of edit and remove', () => {
  it('asks for each field in turn, goes back with ↑, and asks the tracker for the changed fields only', () => {
    let state = press(applicationsView(), 'E')
    expect(state.mode).toMatchObject({kind: 'edit', step: 0, target: {ref: '7', label: '#7 Dev at Acme'}})
    state = press(state, 'u', {ctrl: true})
    state = press(state, 'Staff Dev')
    state = press(state, '', {return: true})
    state = press(state, '', {upArrow: true})
    expect(state.mode).toMatchObject({kind: 'edit', step: 0, values: {title: 'Staff Dev'}})
    for (let step = 0; step < 4; step += 1) state = press(state, '', {return: true})
    expect(state.mode).toMatchObject({kind: 'edit', step: 4})
    state = press(state, '?utm_source=x')
    for (let step = 4; step < EDITABLE_FIELDS.length; step += 1) state = press(state, '', {return: true})
    expect(state.mode).toEqual({kind: 'browse'})
    expect(state.requests).toEqual([
      {
        kind: 'edit',
        application: {ref: '7', label: '#7 Dev at Acme'},
        fields: {title: 'Staff Dev', url: 'https://example.org/jobs/7?utm_source=x'},
      },
    ])
  })

  it('removes only after y, and u brings back the application removed last, once', () => {
    const kept = press(press(applicationsView(), 'x'), 'n')
    expect(kept.requests).toEqual([])
    expect(kept.message?.text).toBe('Kept #7 Dev at Acme')

    const removed = press(press(applicationsView(), 'x'), 'y')
    const target = {ref: '7', label: '#7 Dev at Acme'}
    expect(removed.requests).toEqual([{kind: 'remove', application: target}])
    const told = dashboardReducer(removed, {type: 'last-removed', application: target})
    const undone = press(told, 'u')
    expect(undone.requests.at(-1)).toEqual({kind: 'restore', application: target})
    expect(undone.lastRemoved).toBeNull()
    expect(press(undone, 'u').requests).toHaveLength(undone.requests.length)
  })
})
