import {describe, expect, it} from 'vitest'
import type {FoundJob} from '../../../src/core/jobs/dedupe.js'
import type {BoardCount, KnownRow, LifeOfJob, RunChangeSet, StoredRunView} from '../../../src/core/jobs/job-store.js'
import {type BoardAnswer, decideRunChanges, type RunAnswers} from '../../../src/core/jobs/run-changes.js'
import {textHash} from '../../../src/core/text-hash.js'
import {jobApplicationKeys} from '../../../src/core/url-identity.js'
import {acmeJob, foundJobs, runRecord} from '../../helpers/job-details.js'

const NOW = '2026-11-22T08:00:00.000'
const ASKED = textHash('asked')

/** A stored job: job `n` of the board as acmeJob gives it, open unless told otherwise. */
type Stored = KnownRow & LifeOfJob

function stored(id: number, fields: Partial<Stored> = {}): Stored {
  const {title, company, url} = acmeJob(id)
  return {
    id,
    title,
    company,
    url,
    url_key: url,
    source: 'remotive',
    location: 'Remote',
    first_seen: '2026-11-01T08:00:00.000',
    last_seen: '2026-11-21T08:00:00.000',
    notified_at: null,
    posted_date: null,
    closed_at: null,
    reopened: 0,
    reposted: 0,
    also_on: [],
    fingerprint: null,
    ...fields,
  }
}

/** What the store holds, as the port hands it over: the jobs and every board's counts. */
function view(jobs: Stored[], counts: (BoardCount & {board: string})[] = []): StoredRunView {
  const byId = new Map(jobs.map((job) => [job.id, job]))
  return {
    byUrlKey: (key) => jobs.find((job) => job.url_key === key),
    latestByRole: () => undefined,
    jobIdsOf: (keys) => jobs.filter((job) => keys.includes(job.url_key)).map((job) => job.id),
    boardCounts: () => counts.map((count) => ({...count, open: byId.get(count.jobId)?.closed_at === null})),
    lives: (ids) => jobs.filter((job) => ids.includes(job.id)),
  }
}

/** Board `name` answered these URLs (the default: ok, with as many jobs, nothing looked wrong). */
function board(name: string, urls: string[], outcome: Partial<BoardAnswer['outcome']> = {}): BoardAnswer {
  return {outcome: {name, ok: true, count: urls.length, anomaly: null, ...outcome}, urlKeys: urls}
}

/** The run found these jobs of board `a`, and the boards answered as given. */
function decide(found: FoundJob[], boards: BoardAnswer[], store: StoredRunView, more: Partial<RunAnswers> = {}) {
  return decideRunChanges(runRecord(NOW), {found, boards, criteria: 'asked', closeAfterRuns: 2, ...more}, store)
}

const ofBoardA = (...ns: number[]) => foundJobs(ns.map((n) => acmeJob(n))).map((job) => ({...job, boards: ['a']}))
const urlOf = (n: number) => acmeJob(n).url

describe("a run's change set", () => {
  it('inserts the jobs found for the first time, each counted from 0 by the board that listed it', () => {
    const changes = decide(ofBoardA(1, 2), [board('a', [urlOf(1), urlOf(2)])], view([]))
    expect(changes.jobs.map((one) => [one.change, one.job.url, one.job.first_seen])).toEqual([
      ['insert', urlOf(1), NOW],
      ['insert', urlOf(2), NOW],
    ])
    expect(changes.boardCounts).toEqual([
      {job: {found: 0}, board: 'a', criteria: ASKED, misses: 0},
      {job: {found: 1}, board: 'a', criteria: ASKED, misses: 0},
    ])
    expect(changes).toMatchObject({close: [], reopen: [], postings: {reopened: [], closed: []}})
  })

  it('touches a job seen again whose row holds what it would write, and updates one that changed', () => {
    const first = decide(ofBoardA(1), [], view([]))
    const fingerprint = first.jobs[0]!.fingerprint
    const same = decide(ofBoardA(1), [], view([stored(1, {fingerprint})]))
    expect(same.jobs.map((one) => [one.change, one.job.last_seen])).toEqual([['touch', NOW]])
    const moved = foundJobs([acmeJob(1, {location: 'Berlin'})])
    const changed = decide(moved, [], view([stored(1, {fingerprint})]))
    expect(changed.jobs.map((one) => [one.change, one.job.location])).toEqual([['update', 'Berlin']])
    expect(changed.jobs[0]?.fingerprint).not.toBe(fingerprint)
  })

  it('closes a job every board that counts it has missed enough runs, and marks its applications', () => {
    const store = view(
      [stored(1), stored(2)],
      [
        {jobId: 1, board: 'a', criteria: ASKED, misses: 0},
        {jobId: 2, board: 'a', criteria: ASKED, misses: 1},
      ],
    )
    const changes = decide(ofBoardA(1), [board('a', [urlOf(1)])], store)
    expect(changes.boardCounts).toEqual([{job: {id: 2}, board: 'a', criteria: ASKED, misses: 2}])
    expect(changes.close).toEqual([2])
    expect(changes.closedAt).toBe(NOW)
    expect(changes.changes.closed).toEqual([{id: 2, title: 'Engineer 2', company: 'Acme'}])
    expect(changes.postings.closed).toEqual(jobApplicationKeys(urlOf(2)))
  })

  it('keeps a job open while another board that counts it still lists it', () => {
    const store = view(
      [stored(2)],
      [
        {jobId: 2, board: 'a', criteria: ASKED, misses: 5},
        {jobId: 2, board: 'b', criteria: ASKED, misses: 0},
      ],
    )
    const changes = decide([], [board('a', [urlOf(9)]), board('b', [urlOf(2)])], store)
    expect(changes.close).toEqual([])
    expect(changes.boardCounts).toEqual([{job: {id: 2}, board: 'a', criteria: ASKED, misses: 6}])
  })

  it('closes nothing and counts nothing for a board that failed, returned nothing or looked wrong', () => {
    const counts = [{jobId: 2, board: 'a', criteria: ASKED, misses: 1}]
    const anomaly = {code: 'zero_yield', usual_count: 40, message: 'returned 0 jobs'} as const
    for (const answer of [
      board('a', [], {ok: false, count: 0}),
      board('a', [], {count: 0}),
      board('a', [urlOf(9)], {anomaly}),
    ]) {
      const changes = decide([], [answer], view([stored(2)], counts))
      expect(changes).toMatchObject({boardCounts: [], close: [], reopen: [], changes: {closed: [], reopened: 0}})
    }
  })

  it('counts no miss for a board asked with other criteria, and leaves its count as it is', () => {
    const store = view([stored(2)], [{jobId: 2, board: 'a', criteria: textHash('other'), misses: 1}])
    const changes = decide([], [board('a', [urlOf(9)])], store)
    expect(changes).toMatchObject({boardCounts: [], close: []})
  })

  it('reopens a closed job found again, counting it reopened and reposted, and its postings open', () => {
    const closed = stored(1, {closed_at: '2026-11-10T08:00:00.000'})
    const changes = decide(ofBoardA(1), [board('a', [urlOf(1)])], view([closed]))
    expect(changes.jobs.map((one) => [one.change, one.job.closed_at, one.job.reopened, one.job.reposted])).toEqual([
      ['update', null, 1, 1],
    ])
    expect(changes.changes).toMatchObject({reopened: 1, reposted: 1})
    expect(changes.postings.reopened).toEqual(jobApplicationKeys(urlOf(1)))
    expect(changes.reopen).toEqual([])
  })

  it('reopens a closed job its board lists again though the run left it out (a filter)', () => {
    const closed = stored(3, {closed_at: '2026-11-10T08:00:00.000', reopened: 1, reposted: 2})
    const changes = decide(ofBoardA(1), [board('a', [urlOf(1), urlOf(3)])], view([closed]))
    expect(changes.reopen).toEqual([{id: 3, reopened: 2, reposted: 3}])
    expect(changes.boardCounts).toContainEqual({job: {id: 3}, board: 'a', criteria: ASKED, misses: 0})
    expect(changes.changes).toMatchObject({reopened: 1, reposted: 1})
    expect(changes.postings.reopened).toEqual(jobApplicationKeys(urlOf(3)))
  })

  it('counts the new jobs by the rule it is given, in the run record too', () => {
    const changes: RunChangeSet = decide(ofBoardA(1, 2, 3), [], view([stored(2)]), {
      isNew: (job) => job.id === null,
    })
    expect(changes.newJobs).toEqual([0, 2])
    expect(changes.run.new_jobs).toBe(2)
    expect(decide(ofBoardA(1, 2), [], view([])).newJobs).toEqual([0, 1])
  })
})
