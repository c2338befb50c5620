import {describe, expect, it} from 'vitest'
import {applyCriteria} from '../../../src/core/jobs/filters.js'
import type {JobResponse, SearchCriteria} from '../../../src/core/jobs/job.js'
import {EMPTY_CRITERIA} from '../../helpers/criteria.js'

const now = new Date('2026-11-22T12:00:00Z')
const job = (fields: Partial<JobResponse>): JobResponse => ({
  title: 'Backend Engineer',
  company: 'Acme',
  location: 'Berlin',
  url: `https://example.org/jobs/${Math.random()}`,
  source: 'greenhouse',
  posted_date: '2026-11-21T00:00:00Z',
  ...fields,
})
const filter = (jobs: JobResponse[], criteria: Partial<SearchCriteria>, serverSide = new Map()) =>
  applyCriteria(jobs, {...EMPTY_CRITERIA, ...criteria}, {now, serverSide})

describe('search filters', () => {
  it('keeps jobs whose title or company has a keyword and drops excluded keywords', () => {
    const jobs = [
      job({title: 'Senior TypeScript Developer'}),
      job({title: 'Java Developer'}),
      job({title: 'TypeScript Intern'}),
    ]
    const result = filter(jobs, {keywords: ['typescript'], exclude_keywords: ['intern']})
    expect(result.jobs.map((j) => j.title)).toEqual(['Senior TypeScript Developer'])
  })

  it('filters by tag on the title unless the board applied the tags itself', () => {
    const jobs = [
      job({title: 'Go Engineer', source: 'remoteok'}),
      job({title: 'Go Engineer', source: 'greenhouse'}),
      job({title: 'Rust Engineer', source: 'greenhouse'}),
    ]
    const result = filter(jobs, {tags: ['rust']}, new Map([['remoteok', ['tags']]]))
    expect(result.jobs.map((j) => `${j.source} ${j.title}`)).toEqual([
      'remoteok Go Engineer',
      'greenhouse Rust Engineer',
    ])
  })

  it('matches locations as text and drops blocked companies', () => {
    const jobs = [
      job({location: 'Berlin, Germany'}),
      job({location: 'Paris'}),
      job({location: 'Berlin', company: 'Evil Corp'}),
    ]
    const result = filter(jobs, {locations: ['berlin'], company_block_list: ['evil corp']})
    expect(result.jobs).toHaveLength(1)
    expect(result.jobs[0]?.location).toBe('Berlin, Germany')
  })

  it('blocks a company under any spelling deduplication treats as the same company', () => {
    const jobs = [
      job({company: 'Acme'}),
      job({company: 'ACME GmbH'}),
      job({company: 'acme inc'}),
      job({company: 'Acmé Ltd.'}),
      job({company: 'Acme Robotics'}),
      job({company: 'Acmecorp'}),
      job({company: 'Other, Inc.'}),
    ]
    const kept = filter(jobs, {company_block_list: ['Acme, Inc.']}).jobs.map((kept) => kept.company)
    // A blocked name still blocks the companies that carry it as whole words, but not a longer word.
    expect(kept).toEqual(['Acmecorp', 'Other, Inc.'])
  })

  it('ignores a block list entry that is only a legal suffix', () => {
    expect(filter([job({company: 'Acme GmbH'})], {company_block_list: ['GmbH', ' Inc. ']}).jobs).toHaveLength(1)
  })

  it('keeps remote jobs only: remote boards, or remote in the location', () => {
    const jobs = [job({location: 'Remote, EU'}), job({location: 'Berlin'}), job({location: '', source: 'remotive'})]
    expect(filter(jobs, {remote_only: true}).jobs).toHaveLength(2)
  })

  it('drops jobs older than max_age_days and warns about jobs without a date', () => {
    const jobs = [
      job({posted_date: '2026-11-20T00:00:00Z'}),
      job({posted_date: '2026-10-01'}),
      job({posted_date: null, source: 'hackernews'}),
    ]
    const result = filter(jobs, {max_age_days: 7})
    expect(result.jobs).toHaveLength(2)
    expect(result.warnings).toEqual([
      'max_age_days cannot be applied to 1 job(s) from hackernews without a posted date; they were kept',
    ])
  })
})
