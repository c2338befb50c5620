import {describe, expect, it} from 'vitest'
import {applySalaryFloor, criteriaFilter, salaryFloorLine} from '../../../src/core/jobs/filters.js'
import type {JobResponse, SearchCriteria} from '../../../src/core/jobs/job.js'
import {parseSalaryText, salaryFromAmounts} from '../../../src/core/jobs/salary.js'
import {EMPTY_CRITERIA} from '../../helpers/criteria.js'
import {noDetails} from '../../helpers/job-details.js'

const now = new Date('2026-11-22T12:00:00Z')
const job = (fields: Partial<JobResponse>): JobResponse => ({
  ...noDetails(),
  title: 'Backend Engineer',
  company: 'Acme',
  location: 'Berlin',
  url: `https://example.org/jobs/${Math.random()}`,
  source: 'greenhouse',
  posted_date: '2026-11-21T00:00:00Z',
  ...fields,
})
const filter = (jobs: JobResponse[], criteria: Partial<SearchCriteria>, serverSide = new Map()) => {
  const test = criteriaFilter({...EMPTY_CRITERIA, ...criteria}, {now, serverSide})
  return {jobs: jobs.filter(test.accepts), warnings: test.warnings()}
}

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

  it('keeps remote jobs only: what the board says, else remote in the location or title', () => {
    const jobs = [
      job({location: 'Remote, EU'}),
      job({location: 'Berlin'}),
      job({location: '', source: 'remotive', remote: true}),
      // The board's word wins over the location text, both ways.
      job({location: 'Remote, EU', remote: false}),
      job({location: 'Berlin', remote: true}),
    ]
    expect(filter(jobs, {remote_only: true}).jobs.map((found) => [found.location, found.remote])).toEqual([
      ['Remote, EU', null],
      ['', true],
      ['Berlin', true],
    ])
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

describe('salary floor', () => {
  const paid = (min: number, max: number, currency = 'EUR', period: 'year' | 'hour' = 'year') =>
    job({salary: salaryFromAmounts({min, max, currency, period})})
  const floor = (unknown: 'keep' | 'drop') => ({amount: 70000, currency: 'EUR', period: 'year', unknown}) as const

  it('keeps jobs whose range reaches the floor and counts the ones below', () => {
    const jobs = [paid(60000, 75000), paid(50000, 65000), paid(40, 45, 'EUR', 'hour'), paid(30, 32, 'EUR', 'hour')]
    const result = applySalaryFloor(jobs, {min_salary: floor('keep'), fx: {}})
    // 40-45 an hour is 83,200-93,600 a year; 30-32 an hour is at most 66,560.
    expect(result.jobs.map((kept) => kept.salary?.min)).toEqual([60000, 40])
    expect(result.salary).toEqual({floor: floor('keep'), below: 2, unknown: 0, unknown_kept: true})
  })

  it('converts other currencies through fx, and counts them as unknown without a rate', () => {
    const usd = paid(80000, 80000, 'USD')
    expect(applySalaryFloor([usd], {min_salary: floor('keep'), fx: {USD: 0.92}}).salary?.below).toBe(0)
    expect(applySalaryFloor([usd], {min_salary: floor('keep'), fx: {USD: 0.8}}).salary?.below).toBe(1)
    const noRate = applySalaryFloor([usd], {min_salary: floor('drop'), fx: {}})
    expect(noRate.jobs).toEqual([])
    expect(noRate.salary).toMatchObject({below: 0, unknown: 1, unknown_kept: false})
  })

  it('keeps or drops jobs without a salary as `unknown` says, and says so in the run log', () => {
    const jobs = [job({}), job({salary: parseSalaryText('Competitive')}), paid(90000, 100000)]
    const kept = applySalaryFloor(jobs, {min_salary: floor('keep'), fx: {}})
    expect(kept.jobs).toHaveLength(3)
    expect(salaryFloorLine(kept.salary!)).toBe(
      'Salary floor EUR 70,000 a year: 0 jobs below it dropped, 2 jobs without a comparable salary kept',
    )
    const dropped = applySalaryFloor(jobs, {min_salary: floor('drop'), fx: {}})
    expect(dropped.jobs).toHaveLength(1)
    expect(salaryFloorLine(dropped.salary!)).toBe(
      'Salary floor EUR 70,000 a year: 0 jobs below it dropped, 2 jobs without a comparable salary dropped',
    )
  })

  it('names the floor as salaries are named, in any period', () => {
    const hourly = {amount: 40, currency: 'USD', period: 'hour', unknown: 'keep'} as const
    const outcome = applySalaryFloor([job({})], {min_salary: hourly, fx: {}}).salary!
    expect(salaryFloorLine(outcome)).toBe(
      'Salary floor USD 40 an hour: 0 jobs below it dropped, 1 job without a comparable salary kept',
    )
  })

  it('does nothing without a floor', () => {
    expect(applySalaryFloor([job({})], {min_salary: null, fx: {}})).toEqual({
      jobs: [job({url: expect.any(String)})],
      salary: null,
    })
  })
})
