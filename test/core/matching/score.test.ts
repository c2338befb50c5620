import {describe, expect, it} from 'vitest'
import type {JobResponse} from '../../../src/core/jobs/job.js'
import {salaryFromAmounts} from '../../../src/core/jobs/salary.js'
import {overlaps, placesIn} from '../../../src/core/matching/places.js'
import type {Profile} from '../../../src/core/matching/profile.js'
import {rankJobs, scoreJobs} from '../../../src/core/matching/score.js'
import {noDetails} from '../../helpers/job-details.js'

const job = (fields: Partial<JobResponse>): JobResponse => ({
  title: 'Engineer',
  company: 'Acme',
  location: '',
  url: `https://example.org/${Math.random()}`,
  source: 'remotive',
  posted_date: null,
  ...noDetails(),
  ...fields,
})

const profile = (fields: Partial<Profile>): Profile => ({
  skills: {},
  avoid: [],
  seniority: 'any',
  locations: [],
  ...fields,
})

const one = (target: JobResponse, wanted: Profile, options = {}) => scoreJobs([target], wanted, options)[0]!

describe('the score of a job against a profile', () => {
  const backend = profile({skills: {typescript: 3, 'node.js': 3, postgresql: 2, backend: 2}})

  it('weighs the title over the tags over the description, by the documented parts', () => {
    // Without level, place or pay in the profile those parts give their full points: 10 + 15 + 5.
    expect(one(job({title: 'TypeScript Engineer'}), backend).parts[0]).toMatchObject({part: 'skills', points: 21})
    expect(one(job({tags: ['typescript']}), backend).parts[0]?.points).toBeCloseTo(12.6)
    expect(one(job({description: 'We write TypeScript.'}), backend).parts[0]?.points).toBeCloseTo(6.3)
    // n mentions in sentences: 0.6 x n / (n + 1).
    expect(one(job({description: 'TypeScript here. TypeScript there.'}), backend).parts[0]?.points).toBeCloseTo(8.4)
    expect(one(job({title: 'TypeScript Engineer'}), backend).score).toBe(51)
  })

  it('reads common spellings alike: nodejs and node are node.js, postgres is postgresql', () => {
    const scored = one(job({title: 'NodeJS developer', description: 'Postgres and Back-End work'}), backend)
    expect(scored.reasons).toEqual(['+ node.js (title)', '+ postgresql, backend (description)'])
  })

  it('does not let a keyword list at the end of a description buy a high score', () => {
    const prose = job({description: 'You build our TypeScript and Node.js services on PostgreSQL, backend work.'})
    const stuffed = job({
      description: 'We sell shoes.\nKeywords: typescript, node.js, postgresql, backend, react, vue, php, java, go',
    })
    expect(one(prose, backend).score).toBeGreaterThan(one(stuffed, backend).score)
    expect(one(stuffed, backend, {explain: true}).parts[0]?.detail[0]).toContain('only in a keyword list')
    // A board's list of dozens of tags counts as a keyword list too.
    const bloated = job({tags: ['typescript', ...Array.from({length: 20}, (_, n) => `tag${n}`)]})
    expect(one(bloated, backend).parts[0]?.points).toBeCloseTo(3.2, 0)
  })

  it('takes points off for avoided terms, more in the title', () => {
    const avoid = profile({skills: {typescript: 3}, avoid: ['php', 'WordPress']})
    const title = one(job({title: 'PHP developer', description: 'TypeScript'}), avoid)
    const description = one(job({description: 'TypeScript and some WordPress'}), avoid)
    expect(title.parts.find((part) => part.part === 'avoid')?.points).toBe(-20)
    expect(description.parts.find((part) => part.part === 'avoid')?.points).toBe(-10)
    expect(title.reasons).toContain('- php (title)')
    expect(description.reasons).toContain('- wordpress (description)')
  })

  it("compares the job's level, from the board or the title, with the one wanted", () => {
    const senior = profile({seniority: 'senior'})
    expect(one(job({title: 'Senior Engineer'}), senior).parts[1]?.points).toBe(10)
    expect(one(job({title: 'Staff Engineer'}), senior).parts[1]?.points).toBe(5)
    expect(one(job({title: 'Junior Engineer'}), senior).parts[1]?.points).toBe(0)
    expect(one(job({title: 'Engineer', seniority: 'Mid-level'}), senior).parts[1]?.points).toBe(5)
    expect(one(job({title: 'Engineer'}), senior).parts[1]?.points).toBe(5)
    // "Manager" names a role, not a level.
    expect(one(job({title: 'Customer Success Manager'}), senior).parts[1]?.detail).toEqual(['level not stated: +5'])
  })

  it('fits a job to the places wanted: remote regions, countries inside regions, cities inside countries', () => {
    const eu = profile({locations: ['remote', 'europe', 'germany']})
    const place = (fields: Partial<JobResponse>) => one(job(fields), eu).parts[2]
    expect(place({remote: true})).toEqual({part: 'place', points: 15, detail: ['remote fits']})
    expect(place({remote: true, regions: ['Europe']})?.points).toBe(15)
    expect(place({remote: true, regions: ['USA']})).toEqual({
      part: 'place',
      points: -20,
      detail: ['remote for USA only, not europe, germany: -20'],
    })
    expect(place({remote: true, location: 'Remote - New Zealand'})?.points).toBe(-20)
    expect(place({remote: false, location: 'Munich'})?.points).toBe(15)
    expect(place({remote: false, location: 'Gothenburg, Sweden'})?.points).toBe(15)
    expect(place({remote: false, location: 'San Francisco'})?.points).toBe(-20)
    expect(place({location: 'Somewhere nice'})?.points).toBe(8)
    expect(placesIn('Remote - US/Canada')).toEqual(['united states', 'canada'])
    expect(overlaps('new york', 'united states')).toBe(true)
    expect(overlaps('germany', 'europe')).toBe(true)
    expect(overlaps('germany', 'americas')).toBe(false)
  })

  it('counts the salary against the floor when one is set', () => {
    const floor = {amount: 70000, currency: 'EUR', period: 'year' as const, unknown: 'keep' as const}
    const paid = (min: number) => job({salary: salaryFromAmounts({min, max: min, currency: 'EUR', period: 'year'})})
    const options = {minSalary: floor, fx: {}}
    expect(one(paid(80000), profile({skills: {x: 1}}), options).reasons).toContain(
      'salary: EUR 80,000 a year, above floor: +5',
    )
    expect(one(paid(50000), profile({skills: {x: 1}}), options).parts[3]?.points).toBe(0)
    expect(one(job({}), profile({skills: {x: 1}}), options).parts[3]?.points).toBe(2)
  })

  it('keeps every score between 0 and 100 and ranks highest first, ties in the order given', () => {
    const avoid = profile({avoid: ['php', 'wordpress', 'drupal', 'joomla', 'magento'], locations: ['berlin']})
    const worst = one(job({title: 'PHP WordPress Drupal Joomla Magento', location: 'Tokyo', remote: false}), avoid)
    expect(worst.score).toBe(0)
    const [a, b, c] = [job({title: 'A'}), job({title: 'TypeScript B'}), job({title: 'C'})]
    expect(rankJobs([a, b, c], {profile: backend, options: {}}).map((ranked) => ranked.title)).toEqual([
      'TypeScript B',
      'A',
      'C',
    ])
    expect(rankJobs([a, b], null).map((ranked) => [ranked.title, ranked.score])).toEqual([
      ['A', null],
      ['TypeScript B', null],
    ])
  })
})
