import {describe, expect, it} from 'vitest'
import type {
  ApplicationStatus,
  ApplicationWithHistory,
  StatusChange,
} from '../../../src/core/applications/application.js'
import {applicationStats, parseSince} from '../../../src/core/applications/stats.js'
import {ValidationError} from '../../../src/core/errors.js'
import {memoryTracker} from '../../helpers/tracker.js'

function change(changed_at: string, old_status: ApplicationStatus, new_status: ApplicationStatus): StatusChange {
  return {changed_at: `${changed_at}.000`, old_status, new_status, old_notes: '', change: 'status', details: null}
}

function tracked(
  name: string,
  applied: string,
  source: string,
  status: ApplicationStatus,
  history: StatusChange[] = [],
): ApplicationWithHistory {
  return {
    application: {
      title: name,
      company: 'Acme',
      location: '',
      url: `https://example.org/jobs/${name}`,
      source,
      applied_date: `${applied}.000`,
      status,
      posting_closed_at: null,
      notes: '',
      updated_at: `${applied}.000`,
      id: 1,
      salary_expected: '',
      salary_offered: '',
      referral: '',
      removed_at: null,
      next_action: '',
      next_action_due: null,
      documents: [],
    },
    history,
  }
}

/*
 * Eight applications whose figures are worked out by hand below. Days to first response (from applied_date to the
 * first change from `applied` to an answer): A 4, B 2, C 10, F 21; G was imported as interviewing (no change
 * recorded), H went back from applied to saved (no answer).
 */
const HISTORY = [
  tracked('A', '2026-09-01T10:00:00', 'remoteok', 'accepted', [
    change('2026-09-05T10:00:00', 'applied', 'interviewing'),
    change('2026-09-20T10:00:00', 'interviewing', 'offer'),
    change('2026-09-25T10:00:00', 'offer', 'accepted'),
  ]),
  tracked('B', '2026-09-10T09:00:00', 'remoteok', 'rejected', [
    change('2026-09-12T09:00:00', 'applied', 'interviewing'),
    change('2026-09-30T09:00:00', 'interviewing', 'rejected'),
  ]),
  tracked('C', '2026-10-03T08:00:00', 'greenhouse', 'rejected', [change('2026-10-13T08:00:00', 'applied', 'rejected')]),
  tracked('D', '2026-10-15T00:00:00', 'greenhouse', 'applied'),
  tracked('E', '2026-10-20T00:00:00', 'greenhouse', 'saved'),
  tracked('F', '2026-11-01T00:00:00', 'remoteok', 'ghosted', [change('2026-11-22T00:00:00', 'applied', 'ghosted')]),
  tracked('G', '2026-06-15T00:00:00', 'lever', 'interviewing'),
  tracked('H', '2026-11-10T00:00:00', 'lever', 'saved', [
    change('2026-11-11T00:00:00', 'saved', 'applied'),
    change('2026-11-12T00:00:00', 'applied', 'saved'),
  ]),
]

const NOW = new Date(2026, 10, 22, 12, 0, 0)

function funnel(...steps: [number, number | null][]) {
  const stages = ['saved', 'applied', 'interviewing', 'offer', 'accepted']
  return steps.map(([count, conversion], index) => ({stage: stages[index], count, conversion}))
}

describe('applicationStats', () => {
  it('counts statuses, the funnel, the response rate and the median time to response', () => {
    const stats = applicationStats(HISTORY, {now: NOW})
    expect(stats.since).toBeNull()
    expect(stats.total).toBe(8)
    expect(stats.by_status).toEqual({
      saved: 2,
      applied: 1,
      interviewing: 1,
      offer: 0,
      accepted: 1,
      rejected: 2,
      withdrawn: 0,
      ghosted: 1,
    })
    // saved: all 8; applied: all but E (7); interviewing: A, B (in their history), G (3); offer and accepted: A.
    expect(stats.funnel).toEqual(funnel([8, null], [7, 0.875], [3, 0.429], [1, 0.333], [1, 1]))
    // A, B, C, F, G answered out of the 7 applied for; median of 2, 4, 10, 21 days.
    expect(stats).toMatchObject({applied: 7, responded: 5, response_rate: 0.714, median_days_to_response: 7})
  })

  it('groups the same figures per source and per month of applied_date', () => {
    const stats = applicationStats(HISTORY, {now: NOW})
    expect(stats.by_source.map((group) => group.source)).toEqual(['greenhouse', 'lever', 'remoteok'])
    const [greenhouse, lever, remoteok] = stats.by_source
    expect(greenhouse).toMatchObject({
      total: 3,
      funnel: funnel([3, null], [2, 0.667], [0, 0], [0, null], [0, null]),
      applied: 2,
      responded: 1,
      response_rate: 0.5,
      median_days_to_response: 10,
    })
    expect(greenhouse?.by_status).toMatchObject({saved: 1, applied: 1, rejected: 1})
    expect(lever).toMatchObject({
      funnel: funnel([2, null], [2, 1], [1, 0.5], [0, 0], [0, null]),
      response_rate: 0.5,
      median_days_to_response: null,
    })
    expect(remoteok).toMatchObject({
      funnel: funnel([3, null], [3, 1], [2, 0.667], [1, 0.5], [1, 1]),
      responded: 3,
      response_rate: 1,
      median_days_to_response: 4,
    })
    expect(stats.by_month.map((group) => [group.month, group.total])).toEqual([
      ['2026-06', 1],
      ['2026-09', 2],
      ['2026-10', 3],
      ['2026-11', 2],
    ])
    expect(stats.by_month[1]).toMatchObject({
      funnel: funnel([2, null], [2, 1], [2, 1], [1, 0.5], [1, 1]),
      response_rate: 1,
      median_days_to_response: 3,
    })
    expect(stats.by_month[3]).toMatchObject({applied: 2, responded: 1, median_days_to_response: 21})
  })

  it('with since, counts only applications applied for within that many days, by applied_date', () => {
    // 90 days before 2026-11-22 is 2026-08-24: only G (back-dated to June) falls out.
    const stats = applicationStats(HISTORY, {now: NOW, sinceDays: 90})
    expect(stats.since?.slice(0, 10)).toBe('2026-08-24')
    expect(stats.total).toBe(7)
    expect(stats.funnel).toEqual(funnel([7, null], [6, 0.857], [2, 0.333], [1, 0.5], [1, 1]))
    expect(stats).toMatchObject({applied: 6, responded: 4, response_rate: 0.667, median_days_to_response: 7})
    expect(stats.by_month.map((group) => group.month)).toEqual(['2026-09', '2026-10', '2026-11'])
    expect(stats.by_source.find((group) => group.source === 'lever')?.total).toBe(1)
  })

  it('has no rates and no median without applications, and leaves out a response dated before applied_date', () => {
    const empty = applicationStats([], {now: NOW})
    expect(empty).toMatchObject({total: 0, applied: 0, response_rate: null, median_days_to_response: null})
    expect(empty.funnel.map((step) => step.conversion)).toEqual([null, null, null, null, null])
    expect(empty.by_source).toEqual([])

    const rewritten = tracked('R', '2026-10-10T00:00:00', 'file', 'rejected', [
      change('2026-10-01T00:00:00', 'applied', 'rejected'),
    ])
    expect(applicationStats([rewritten], {now: NOW})).toMatchObject({
      responded: 1,
      response_rate: 1,
      median_days_to_response: null,
    })
  })

  it('times the response of an application tracked as saved first from when it moved to applied', () => {
    // Saved on the 1st, applied for on the 6th, interview invitation on the 9th: 3 days, not 8.
    const savedFirst = tracked('S', '2026-10-01T12:00:00', 'file', 'interviewing', [
      change('2026-10-06T12:00:00', 'saved', 'applied'),
      change('2026-10-09T12:00:00', 'applied', 'interviewing'),
    ])
    expect(applicationStats([savedFirst], {now: NOW}).median_days_to_response).toBe(3)
  })
})

describe('parseSince', () => {
  it('reads days, weeks, months of 30 days and years of 365 days', () => {
    expect([parseSince('90d'), parseSince('12w'), parseSince('6m'), parseSince('1Y')]).toEqual([90, 84, 180, 365])
  })

  it.each(['', '0d', '90', 'd', '-5d', '3h', '1.5m'])('refuses %j', (text) => {
    expect(() => parseSince(text)).toThrow(ValidationError)
  })
})

describe('the tracker read by ApplicationService.stats', () => {
  it('reads every application with its history in order and counts them', async () => {
    const {service, store, db} = memoryTracker()
    try {
      await service.record({title: 'One', company: 'A', location: '', url: 'https://example.org/1', source: 'x'})
      await service.record({title: 'Two', company: 'B', location: '', url: 'https://example.org/2', source: 'y'})
      await service.changeStatus('https://example.org/1', 'interviewing', 'call')
      await service.changeStatus('https://example.org/1', 'offer')
      const all = await store.allWithHistory()
      expect(all.map(({application, history}) => [application.url, history.map((step) => step.new_status)])).toEqual([
        ['https://example.org/1', ['interviewing', 'offer']],
        ['https://example.org/2', []],
      ])
      expect(all[0]?.history[1]?.old_notes).toBe('call')
      const stats = await service.stats({since: '30d'})
      expect(stats.funnel.map((step) => step.count)).toEqual([2, 2, 1, 1, 0])
      expect(stats.response_rate).toBe(0.5)
      await expect(service.stats({since: 'soon'})).rejects.toThrow(ValidationError)
    } finally {
      db.close()
    }
  })
})
