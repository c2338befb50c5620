import {type FoundJob, keyJob} from '../../src/core/jobs/dedupe.js'
import type {JobDetails, JobResponse} from '../../src/core/jobs/job.js'
import type {JobLifecycle, NewRunRecord} from '../../src/core/jobs/job-store.js'
import type {RunAnswers} from '../../src/core/jobs/run-changes.js'

/** A job of a board that gives none of the details (or before they are read). */
export function noDetails(): JobDetails {
  return {
    description: null,
    salary: null,
    employment_type: null,
    remote: null,
    regions: [],
    timezones: [],
    seniority: null,
    tags: [],
    board_id: null,
    company_url: null,
  }
}

/** Job `n` of one board: `Engineer n` at Acme, board.example/jobs/n, no details and no date unless given. */
export function acmeJob(n: number, fields: Partial<JobResponse> = {}): JobResponse {
  return {
    ...noDetails(),
    title: `Engineer ${n}`,
    company: 'Acme',
    location: 'Remote',
    url: `https://board.example/jobs/${n}`,
    source: 'remotive',
    posted_date: null,
    ...fields,
  }
}

/** Jobs as a search hands them to the store: each its own role, listed by the board its `source` names. */
export function foundJobs(jobs: readonly JobResponse[]): FoundJob[] {
  return jobs.map((job) => {
    const keyed = keyJob(job)
    return {...keyed, urlKeys: [keyed.urlKey], boards: [job.source], also_on: []}
  })
}

/** A run whose boards close nothing (the lifecycle tests give their own boards); `found` is the run's jobs. */
export const closesNothing: Omit<RunAnswers, 'found'> = {boards: [], criteria: '', closeAfterRuns: 2}

/** A job that was never closed, reopened, reposted or listed elsewhere. */
export function openLife(): JobLifecycle {
  return {closed_at: null, reopened: 0, reposted: 0, also_on: []}
}

/** A run that completed at `started_at` with one job, as the job store records it. */
export function runRecord(started_at: string): NewRunRecord {
  return {
    started_at,
    finished_at: started_at,
    status: 'ok',
    mode: 'production',
    jobs_found: 1,
    new_jobs: 1,
    notified: 0,
    sources: [],
    error: null,
  }
}
