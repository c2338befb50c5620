import {describe, expect, it} from 'vitest'
import {cycleFilter, filterApplications, filterJobs, JOB_STATUS_FILTERS} from '../../src/ui/list-filters.js'
import {type EditKey, editText, splitTyped} from '../../src/ui/text-edit.js'
import {openLife} from '../helpers/job-details.js'
import {job} from './harness.js'

const none: EditKey = {
  ctrl: false,
  meta: false,
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

describe('one-line prompts', () => {
  it('appends typed text, erases with backspace or delete, clears with Ctrl-U and a word with Ctrl-W', () => {
    expect(editText('ab', 'c', none)).toBe('abc')
    expect(editText('abc', '', {...none, delete: true})).toBe('ab')
    expect(editText('ab😀', '', {...none, backspace: true})).toBe('ab')
    expect(editText('call Tue', 'u', {...none, ctrl: true})).toBe('')
    expect(editText('call Tue', 'w', {...none, ctrl: true})).toBe('call ')
    expect(editText('x', 'pasted\nline', none)).toBe('xpasted line')
  })

  it('ignores keys that are not edits', () => {
    expect(editText('ab', '', {...none, return: true})).toBeNull()
    expect(editText('ab', '', {...none, upArrow: true})).toBeNull()
    expect(editText('ab', '\u0007', none)).toBeNull()
  })

  it('splits characters that arrived in one read into single keys', () => {
    expect(splitTyped('j', none)).toEqual([{input: 'j', key: none}])
    expect(splitTyped('ab\r\u007f\t', none)).toEqual([
      {input: 'a', key: none},
      {input: 'b', key: none},
      {input: '', key: {...none, return: true}},
      {input: '', key: {...none, delete: true}},
      {input: '', key: {...none, tab: true}},
    ])
    expect(splitTyped('q\u0003', none)[1]).toEqual({input: 'c', key: {...none, ctrl: true}})
  })

  it('reads Esc followed at once by a key as Esc, then that key', () => {
    const esc = {input: '', key: {...none, escape: true}}
    expect(splitTyped('j', {...none, meta: true})).toEqual([esc, {input: 'j', key: none}])
    expect(splitTyped('\t', none)).toEqual([esc, {input: '', key: {...none, tab: true}}])
    expect(splitTyped('', {...none, downArrow: true, meta: true})).toEqual([
      esc,
      {input: '', key: {...none, downArrow: true}},
    ])
    expect(splitTyped('', {...none, escape: true, meta: true})).toEqual([
      {input: '', key: {...none, escape: true, meta: true}},
    ])
  })
})

describe('list filters', () => {
  const listed = [
    {
      ...job(1),
      id: 1,
      first_seen: '',
      last_seen: '',
      notified_at: null,
      ...openLife(),
      tracked_status: null,
      tracked_url: null,
      is_new: true,
      score: null,
      reasons: [],
    },
    {
      ...job(2),
      id: 2,
      first_seen: '',
      last_seen: '',
      notified_at: null,
      ...openLife(),
      tracked_status: 'saved' as const,
      tracked_url: job(2).url,
      is_new: true,
      score: null,
      reasons: [],
    },
    {
      ...job(3),
      id: 3,
      first_seen: '',
      last_seen: '',
      notified_at: null,
      ...openLife(),
      tracked_status: 'offer' as const,
      tracked_url: job(3).url,
      is_new: false,
      score: null,
      reasons: [],
    },
  ]

  it('matches text in any column, ignoring case', () => {
    expect(filterJobs(listed, 'company 2', null).map((item) => item.id)).toEqual([2])
    expect(filterJobs(listed, 'JOBS/3', null).map((item) => item.id)).toEqual([3])
  })

  it('filters jobs by new, untracked or a tracked status', () => {
    expect(filterJobs(listed, '', 'new').map((item) => item.id)).toEqual([1, 2])
    expect(filterJobs(listed, '', 'untracked').map((item) => item.id)).toEqual([1])
    expect(filterJobs(listed, '', 'offer').map((item) => item.id)).toEqual([3])
  })

  it('filters applications by status and by their notes', () => {
    const applications = [
      {
        ...job(1),
        applied_date: '',
        updated_at: '',
        posting_closed_at: null,
        id: 1,
        salary_expected: '',
        salary_offered: '',
        referral: '',
        removed_at: null,
        next_action: '',
        next_action_due: null,
        documents: [],
        status: 'saved' as const,
        notes: 'ask Ann',
      },
      {
        ...job(2),
        applied_date: '',
        updated_at: '',
        posting_closed_at: null,
        id: 2,
        salary_expected: '',
        salary_offered: '',
        referral: '',
        removed_at: null,
        next_action: '',
        next_action_due: null,
        documents: [],
        status: 'offer' as const,
        notes: '',
      },
    ]
    expect(filterApplications(applications, 'ann', null)).toHaveLength(1)
    expect(filterApplications(applications, '', 'offer')[0]?.title).toBe('Engineer 2')
  })

  it('cycles through every status filter and back to all', () => {
    let filter = cycleFilter(JOB_STATUS_FILTERS, null, 1)
    const seen = [filter]
    while (filter !== null) {
      filter = cycleFilter(JOB_STATUS_FILTERS, filter, 1)
      seen.push(filter)
    }
    expect(seen).toEqual([...JOB_STATUS_FILTERS.slice(1), null])
    expect(cycleFilter(JOB_STATUS_FILTERS, null, -1)).toBe('ghosted')
  })
})
