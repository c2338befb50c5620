import type {JobDetails} from '../../src/core/jobs/job.js'

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
