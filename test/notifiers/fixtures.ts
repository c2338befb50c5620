import type {JobResponse} from '../../src/core/jobs/job.js'
import type {HttpPolicy} from '../../src/notifiers/transport.js'
import {noDetails} from '../helpers/job-details.js'

export function job(n: number, overrides: Partial<JobResponse> = {}): JobResponse {
  return {
    ...noDetails(),
    title: `Engineer ${n}`,
    company: `Company ${n}`,
    location: n % 2 === 0 ? '' : 'Remote',
    url: `https://example.org/jobs/${n}`,
    source: 'remoteok',
    posted_date: '2026-04-10T00:28:23Z',
    ...overrides,
  }
}

export const jobs = (count: number) => Array.from({length: count}, (_, index) => job(index + 1))

/** Retries without real waiting, so failure tests stay fast. */
export const FAST: Partial<HttpPolicy> = {
  timeoutMs: 5_000,
  retries: 2,
  minDelayMs: 1,
  maxDelayMs: 5,
  maxRetryAfterMs: 5_000,
}

export const signal = () => new AbortController().signal
