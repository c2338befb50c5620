import {describe, expect, it} from 'vitest'
import {dedupeJobs, jobIdentityKey, keyJob} from '../../../src/core/jobs/dedupe.js'
import type {JobResponse} from '../../../src/core/jobs/job.js'
import {lifecycleFacts, listingText} from '../../../src/core/jobs/job-facts.js'
import {parseSalaryText, salaryFromAmounts} from '../../../src/core/jobs/salary.js'
import {canonicalJobUrl} from '../../../src/core/url-identity.js'
import {noDetails} from '../../helpers/job-details.js'
import {linearBound, timeGrowth} from '../../helpers/linear-time.js'

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

/** Listings as a search hands them over, each from the board its source names. */
const listings = (jobs: readonly JobResponse[]) => jobs.map((one) => ({...keyJob(one), board: one.source}))
const dedupe = (jobs: readonly JobResponse[]) => dedupeJobs(listings(jobs)).map((found) => found.job)

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
    const jobs = dedupe([
      job({url: 'https://RemoteOK.com/remote-jobs/1?utm_campaign=a'}),
      job({url: 'https://remoteok.com/remote-jobs/1/', title: 'Other'}),
    ])
    expect(jobs).toHaveLength(1)
  })

  it('recognises a job re-listed under a new slug by company, title and location', () => {
    const jobs = dedupe([
      job({url: 'https://www.arbeitnow.com/jobs/solaredge-engineer-256258', company: 'SolarEdge GmbH'}),
      job({url: 'https://www.arbeitnow.com/jobs/solaredge-engineer-61695', company: 'Solaredge'}),
    ])
    expect(jobs).toHaveLength(1)
  })

  it('recognises the same job from two boards and keeps the most complete record', () => {
    const sparse = job({url: 'https://remotive.com/jobs/1', source: 'remotive', location: 'Berlin'})
    const complete = job({url: 'https://jobicy.com/jobs/1', source: 'jobicy', posted_date: '2026-11-20T10:00:00Z'})
    const jobs = dedupe([sparse, complete])
    expect(jobs).toEqual([complete])
  })

  it('makes one job of a role posted once per city, its places collapsed and the other postings in also_on', () => {
    const [found, ...rest] = dedupeJobs(
      listings([
        job({url: 'https://x.org/1', location: 'Munich'}),
        job({url: 'https://x.org/2', location: 'Essen', source: 'jobicy'}),
        job({url: 'https://x.org/3', location: 'munich'}),
        job({url: 'https://x.org/4', title: 'Frontend Engineer'}),
      ]),
    )
    expect(rest).toHaveLength(1)
    expect(found?.job.location).toBe('Munich; Essen')
    expect(found?.urlKey).toBe('https://x.org/1')
    expect(found?.urlKeys).toEqual(['https://x.org/1', 'https://x.org/2', 'https://x.org/3'])
    expect(found?.boards).toEqual(['remoteok', 'jobicy'])
    expect(found?.also_on).toEqual([
      // Each other listing keeps its own place: a role posted once per country says which link is which.
      {source: 'jobicy', url: 'https://x.org/2', location: 'Essen'},
      {source: 'remoteok', url: 'https://x.org/3', location: 'munich'},
    ])
  })

  it('says which country each other listing is for when a role is posted once per country', () => {
    const [found] = dedupeJobs(
      listings([
        job({url: 'https://jobs.ashbyhq.com/acme/1', title: 'Registered Nurse', location: 'USA', source: 'ashby'}),
        job({
          url: 'https://jobs.ashbyhq.com/acme/2',
          title: 'Registered Nurse',
          location: 'Philippines',
          source: 'ashby',
        }),
      ]),
    )
    expect(found?.job.location).toBe('USA; Philippines')
    expect(found?.also_on).toEqual([{source: 'ashby', url: 'https://jobs.ashbyhq.com/acme/2', location: 'Philippines'}])
    const facts = Object.fromEntries(
      lifecycleFacts(
        {closed_at: null, reposted: 0, reopened: 0, also_on: found!.also_on, first_seen: '2026-11-01T08:00:00.000'},
        new Date('2026-11-22T08:00:00Z'),
      ),
    )
    expect(facts['Also on']).toBe('ashby https://jobs.ashbyhq.com/acme/2 (Philippines)')
    // A listing without a place says none.
    expect(listingText({source: 'remoteok', url: 'https://x.org/1'})).toBe('remoteok https://x.org/1')
  })

  it('keeps the record of the more complete listing as the job and the earlier one in also_on', () => {
    const sparse = job({url: 'https://remotive.com/jobs/1', source: 'remotive'})
    const complete = job({url: 'https://jobicy.com/jobs/1', source: 'jobicy', posted_date: '2026-11-20T10:00:00Z'})
    const [found] = dedupeJobs(listings([sparse, complete]))
    expect(found?.urlKey).toBe('https://jobicy.com/jobs/1')
    expect(found?.also_on).toEqual([{source: 'remotive', url: 'https://remotive.com/jobs/1', location: 'Berlin'}])
  })

  it('lists a job once per board with no other listings when nothing repeats', () => {
    const [found] = dedupeJobs(listings([job({})]))
    expect(found).toMatchObject({urlKeys: ['https://example.org/jobs/1'], boards: ['remoteok'], also_on: []})
  })

  it('ignores accents, punctuation and company suffixes in the identity key', () => {
    expect(jobIdentityKey(job({company: 'Zürich Labs, Inc.', title: 'Café Engineer'}))).toBe(
      jobIdentityKey(job({company: 'zurich labs', title: 'cafe engineer!'})),
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
    const [merged] = dedupe([fromRemotive, fromRemoteOk])
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

describe('deduplication of one role listed many times', () => {
  const relisted = (count: number) =>
    listings(Array.from({length: count}, (_, index) => job({url: `https://example.org/jobs/${index}`})))

  it('merges 60,000 listings of one role in linear time, keeping 20 of them in also_on', () => {
    const jobs = relisted(60_000)
    const [found, ...others] = dedupeJobs(jobs)
    expect(others).toEqual([])
    expect(found?.job.url).toBe('https://example.org/jobs/0')
    expect(found?.also_on).toHaveLength(20)
    expect(found?.also_on[0]).toEqual({source: 'remoteok', url: 'https://example.org/jobs/1', location: 'Berlin'})
    expect(found?.also_on[19]).toEqual({source: 'remoteok', url: 'https://example.org/jobs/20', location: 'Berlin'})
    // Every listing's URL still names the job, so the next run recognises it under any of them.
    expect(found?.urlKeys).toHaveLength(60_000)
    // Eight times the listings: about eight times the time (the quadratic version took 64 times, minutes here).
    expect(timeGrowth(dedupeJobs, relisted(7_500), jobs)).toBeLessThan(linearBound(8))
  }, 120_000)

  it('lists a URL listed twice once in also_on', () => {
    const twice = [job({}), job({url: 'https://example.org/jobs/2'}), job({url: 'https://example.org/jobs/2/'})]
    expect(dedupeJobs(listings(twice))[0]?.also_on).toEqual([
      {source: 'remoteok', url: 'https://example.org/jobs/2', location: 'Berlin'},
    ])
  })
})
