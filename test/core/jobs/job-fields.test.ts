import {describe, expect, it} from 'vitest'
import {JOB_RESPONSE_FIELDS, jobDetailsSchema, toJobResponse} from '../../../src/core/jobs/job.js'
import {JOB_DETAILS, storedJobSchema} from '../../../src/core/jobs/job-store.js'
import {acmeJob} from '../../helpers/job-details.js'

describe('the fields of a job', () => {
  it('list the stored job as its id, the JobResponse, when it was seen, then its life', () => {
    expect(Object.keys(storedJobSchema.shape)).toEqual([
      'id',
      ...JOB_RESPONSE_FIELDS,
      'first_seen',
      'last_seen',
      'notified_at',
      'closed_at',
      'reopened',
      'reposted',
      'also_on',
    ])
    expect(JOB_RESPONSE_FIELDS.slice(0, 6)).toEqual(['title', 'company', 'location', 'url', 'source', 'posted_date'])
  })

  it('keep the details a fingerprint reads in the order stored fingerprints were made with', () => {
    // A change of this order changes every stored job's fingerprint, and the next run rewrites every row once.
    expect(JOB_DETAILS).toEqual(Object.keys(jobDetailsSchema.shape).filter((field) => field !== 'description'))
    expect(JOB_DETAILS).toEqual([
      'salary',
      'employment_type',
      'remote',
      'regions',
      'timezones',
      'seniority',
      'tags',
      'board_id',
      'company_url',
    ])
  })

  it('cut a stored job to its JobResponse fields, in order', () => {
    const job = acmeJob(1, {salary: null, tags: ['node'], remote: true})
    const stored = {id: 7, ...job, first_seen: 'x', last_seen: 'y', notified_at: null, url_key: 'k'}
    const response = toJobResponse(stored)
    expect(response).toEqual(job)
    expect(Object.keys(response)).toEqual(JOB_RESPONSE_FIELDS)
  })
})
