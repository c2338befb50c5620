import {describe, expect, it} from 'vitest'
import {dedupeJobs, jobIdentityKey} from '../../../src/core/jobs/dedupe.js'
import type {JobResponse} from '../../../src/core/jobs/job.js'
import {parseSalaryText, salaryFromAmounts} from '../../../src/core/jobs/salary.js'
import {canonicalJobUrl} from '../../../src/core/url-identity.js'
import {noDetails} from '../../helpers/job-details.js'

const job = (fields: Partial<JobResponse>): JobResponse => ({
  ...noDetails(),
  title: 'Backend Engineer',
  company: 'Acme',
  location: 'Berlin',
  url: 'https://example.org/jobs/1',
  source: 'remoteok',
  posted_date: null,
  ...fields,
})

describe('canonical job URL', () => {
  it('lower-cases the host, drops tracking parameters, the fragment and a trailing slash', () => {
    expect(canonicalJobUrl('https://RemoteOK.com/remote-jobs/123/?utm_source=x&ref=feed&id=5#apply')).toBe(
      'https://remoteok.com/remote-jobs/123?id=5',
    )
  })

  it('keeps parameters that identify the job', () => {
    expect(canonicalJobUrl('https://stripe.com/jobs/search?gh_jid=42')).toBe('https://stripe.com/jobs/search?gh_jid=42')
  })

  it('compares unparseable URLs as trimmed text', () => {
    expect(canonicalJobUrl(' not a url/ ')).toBe('not a url')
  })
})

describe('deduplication', () => {
  it('treats URLs that differ only in tracking parameters and host case as one job', () => {
    const jobs = dedupeJobs([
      job({url: 'https://RemoteOK.com/remote-jobs/1?utm_campaign=a'}),
      job({url: 'https://remoteok.com/remote-jobs/1/', title: 'Other'}),
    ])
    expect(jobs).toHaveLength(1)
  })

  it('recognises a job re-listed under a new slug by company, title and location', () => {
    const jobs = dedupeJobs([
      job({url: 'https://www.arbeitnow.com/jobs/solaredge-engineer-256258', company: 'SolarEdge GmbH'}),
      job({url: 'https://www.arbeitnow.com/jobs/solaredge-engineer-61695', company: 'Solaredge'}),
    ])
    expect(jobs).toHaveLength(1)
  })

  it('recognises the same job from two boards and keeps the most complete record', () => {
    const sparse = job({url: 'https://remotive.com/jobs/1', source: 'remotive', location: 'Berlin'})
    const complete = job({url: 'https://jobicy.com/jobs/1', source: 'jobicy', posted_date: '2026-11-20T10:00:00Z'})
    const jobs = dedupeJobs([sparse, complete])
    expect(jobs).toEqual([complete])
  })

  it('keeps jobs that differ in location (a posting per city)', () => {
    const jobs = dedupeJobs([
      job({url: 'https://x.org/1', location: 'Munich'}),
      job({url: 'https://x.org/2', location: 'Essen'}),
    ])
    expect(jobs).toHaveLength(2)
  })

  it('ignores accents, punctuation and company suffixes in the identity key', () => {
    expect(jobIdentityKey(job({company: 'Zürich Labs, Inc.', location: 'Zürich, CH'}))).toBe(
      jobIdentityKey(job({company: 'zurich labs', location: 'Zurich CH'})),
    )
  })

  it('merges the details of one job from two boards field by field', () => {
    const salary = salaryFromAmounts({min: 70000, max: 90000, currency: 'USD', period: 'year'})
    const words = parseSalaryText('Competitive')
    const fromRemoteOk = job({
      url: 'https://remoteok.com/jobs/1',
      source: 'remoteok',
      posted_date: '2026-11-20T10:00:00Z',
      salary,
      tags: ['node'],
      remote: true,
      description: 'Short text',
    })
    const fromRemotive = job({
      url: 'https://remotive.com/jobs/1',
      source: 'remotive',
      salary: words,
      employment_type: 'full_time',
      regions: ['USA'],
      description: 'A much longer description of the same job',
      tags: ['backend'],
    })
    const [merged] = dedupeJobs([fromRemotive, fromRemoteOk])
    expect(merged).toEqual({
      // The seed fields of the more complete record (it has the posting time).
      ...fromRemoteOk,
      // The longer description, the salary with amounts, and what only the other board gave.
      description: 'A much longer description of the same job',
      salary,
      employment_type: 'full_time',
      regions: ['USA'],
      tags: ['node'],
    })
  })
})
