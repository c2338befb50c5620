import type {JobResponse} from '../../src/core/jobs/job.js'
import type {Profile} from '../../src/core/matching/profile.js'
import {noDetails} from './job-details.js'

let serial = 0

/** A posting for the scorer's tests: an engineer at Acme on Remotive with a url of its own, and what `fields` say. */
export function scoringJob(fields: Partial<JobResponse> = {}): JobResponse {
  return {
    title: 'Engineer',
    company: 'Acme',
    location: '',
    url: `https://example.org/scored/${serial++}`,
    source: 'remotive',
    posted_date: null,
    ...noDetails(),
    ...fields,
  }
}

/** A profile that asks for nothing but what `fields` say. */
export function scoringProfile(fields: Partial<Profile> = {}): Profile {
  return {roles: [], skills: {}, avoid: [], seniority: 'any', home: null, locations: [], ...fields}
}
