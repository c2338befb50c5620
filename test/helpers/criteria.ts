import type {SearchCriteria} from '../../src/core/jobs/job.js'

/** Search criteria that keep every job: what a run without a search section passes. */
export const EMPTY_CRITERIA: SearchCriteria = {
  tags: [],
  keywords: [],
  exclude_keywords: [],
  locations: [],
  remote_only: false,
  max_age_days: null,
  company_block_list: [],
  min_salary: null,
  fx: {},
}
