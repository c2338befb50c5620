import {describe, expect, it} from 'vitest'
import type {BoardCount, KnownJob} from '../../../src/core/jobs/job-store.js'
import {
  changeOf,
  countBoardMisses,
  firstSeen,
  jobsToClose,
  matchFoundJobs,
  postingKeys,
  reopen,
  seenAgain,
  withinRepostWindow,
} from '../../../src/core/jobs/lifecycle.js'
import {acmeJob, foundJobs} from '../../helpers/job-details.js'

const NOW = '2026-11-22T08:00:00.000'

function known(id: number, fields: Partial<KnownJob> = {}): KnownJob {
  return {
    id,
    first_seen: '2026-11-01T08:00:00.000',
    last_seen: '2026-11-21T08:00:00.000',
    notified_at: '2026-11-01T09:00:00.000',
    posted_date: '2026-10-30',
    url: `https://board.example/jobs/${id}`,
    source: 'board',
    location: 'Remote',
    closed_at: null,
    reopened: 0,
    reposted: 0,
    also_on: [],
    ...fields,
  }
}

describe('the repost window', () => {
  it('holds a role seen again within 90 days, and not after', () => {
    expect(withinRepostWindow('2026-08-24T08:00:00.000', NOW)).toBe(true)
    expect(withinRepostWindow('2026-08-24T07:59:59.999', NOW)).toBe(false)
  })
})

describe('matching found jobs with stored ones', () => {
  const [found] = foundJobs([acmeJob(1)])

  it('takes the job listed under one of its URLs, else its role seen within the window', () => {
    const byUrl = known(7)
    const byRole = known(8, {url: 'https://board.example/old/1'})
    expect(
      matchFoundJobs([found!], {byUrlKey: () => byUrl, latestByRole: () => byRole}, NOW).map((match) => match),
    ).toEqual([{known: byUrl, byRole: false}])
    expect(matchFoundJobs([found!], {byUrlKey: () => undefined, latestByRole: () => byRole}, NOW)).toEqual([
      {known: byRole, byRole: true},
    ])
  })

  it('finds a new job when the role was last seen before the window', () => {
    const stale = known(8, {last_seen: '2026-05-01T08:00:00.000'})
    expect(matchFoundJobs([found!], {byUrlKey: () => undefined, latestByRole: () => stale}, NOW)).toEqual([null])
  })

  it('matches a stored job once per run', () => {
    const two = foundJobs([acmeJob(1), acmeJob(2)])
    const only = known(7)
    expect(matchFoundJobs(two, {byUrlKey: () => only, latestByRole: () => only}, NOW)).toEqual([
      {known: only, byRole: false},
      null,
    ])
  })
})

describe('a job seen again', () => {
  const [found] = foundJobs([{...acmeJob(1), posted_date: null}])

  it('keeps its id, first listing, notification and a posted date the board dropped', () => {
    const job = seenAgain(found!, {known: known(7), byRole: false}, NOW)
    expect(job).toMatchObject({
      id: 7,
      first_seen: '2026-11-01T08:00:00.000',
      last_seen: NOW,
      notified_at: '2026-11-01T09:00:00.000',
      posted_date: '2026-10-30',
      closed_at: null,
      reopened: 0,
      reposted: 0,
      also_on: [],
    })
    expect(changeOf(known(7), job)).toEqual({reopened: false, reposted: false})
  })

  it('is reposted under a new URL of its role, and keeps the old URL as another listing', () => {
    const before = known(7, {url: 'https://board.example/old/1', reposted: 2})
    const job = seenAgain(found!, {known: before, byRole: true}, NOW)
    expect(job).toMatchObject({reopened: 0, reposted: 3, also_on: [{source: 'board', url: before.url}]})
    expect(changeOf(before, job)).toEqual({reopened: false, reposted: true})
  })

  it('is reopened and reposted when it comes back after closing, once however it matched', () => {
    const closed = known(7, {closed_at: '2026-11-10T08:00:00.000', reopened: 1, reposted: 1})
    for (const byRole of [false, true]) {
      const job = seenAgain(found!, {known: closed, byRole}, NOW)
      expect(job).toMatchObject({closed_at: null, reopened: 2, reposted: 2})
      expect(changeOf(closed, job)).toEqual({reopened: true, reposted: true})
    }
  })

  it('keeps at most 20 other listings, newest first, none of them its own URL', () => {
    const earlier = Array.from({length: 25}, (_, n) => ({source: 'other', url: `https://other.example/${n}`}))
    const job = seenAgain(
      found!,
      {known: known(7, {also_on: [{source: 'x', url: found!.job.url}, ...earlier]}), byRole: false},
      NOW,
    )
    expect(job.also_on).toEqual(earlier.slice(0, 20))
  })

  it('starts its life when it is new', () => {
    expect(firstSeen(found!, NOW)).toMatchObject({
      first_seen: NOW,
      last_seen: NOW,
      notified_at: null,
      closed_at: null,
      reopened: 0,
      reposted: 0,
    })
  })
})

describe('counting the runs a board did not list a job', () => {
  const count = (jobId: number, misses: number, criteria = 'asked'): BoardCount => ({jobId, criteria, misses})

  it('starts the jobs listed from 0 and counts one more miss for the others asked the same way', () => {
    const changed = countBoardMisses([count(1, 1), count(2, 0), count(3, 1), count(4, 0, 'before')], {
      criteria: 'asked',
      listed: new Set([1, 2, 5]),
    })
    expect(changed).toEqual([count(1, 0), count(3, 2), count(5, 0)])
  })

  it('moves a listed job counted under other criteria over to these, from 0', () => {
    expect(countBoardMisses([count(4, 3, 'before')], {criteria: 'asked', listed: new Set([4])})).toEqual([count(4, 0)])
  })

  it('closes a job once every board that counts it has missed it enough runs in a row', () => {
    const counts = [
      {jobId: 1, misses: 2},
      {jobId: 1, misses: 3},
      {jobId: 2, misses: 2},
      {jobId: 2, misses: 1},
      {jobId: 3, misses: 0},
    ]
    expect(jobsToClose(counts, 2)).toEqual([1])
    expect(jobsToClose(counts, 1)).toEqual([1, 2])
  })
})

describe('reopening and the postings of applications', () => {
  it('reopens a closed job as one more return and one more repost', () => {
    expect(reopen({reopened: 0, reposted: 4})).toEqual({closed_at: null, reopened: 1, reposted: 5})
  })

  it('concerns the applications under the job URL, its canonical URL and every other listing', () => {
    const keys = postingKeys([
      {url: 'https://board.example/jobs/1?utm_source=x', also_on: [{source: 'other', url: 'https://other.example/1'}]},
    ])
    expect(keys).toEqual(
      expect.arrayContaining(['https://board.example/jobs/1?utm_source=x', 'https://board.example/jobs/1']),
    )
    expect(keys.some((key) => key.includes('other.example/1'))).toBe(true)
  })
})
