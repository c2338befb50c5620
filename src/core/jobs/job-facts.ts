import {daysAgo} from '../time.js'
import type {OtherListing} from './dedupe.js'
import type {EmploymentType} from './employment-type.js'
import type {JobDetails} from './job.js'
import type {JobLifecycle} from './job-store.js'
import {compactSalary, formatSalary} from './salary.js'

const EMPLOYMENT_WORDS: Record<EmploymentType, string> = {
  full_time: 'full time',
  part_time: 'part time',
  contract: 'contract',
  internship: 'internship',
  temporary: 'temporary',
}

/** `full_time` -> `full time`, for people. */
export function employmentWords(type: EmploymentType): string {
  return EMPLOYMENT_WORDS[type]
}

/** Remote or not, and where a candidate may be: `remote (USA, Canada)`, `on site`, or null when nothing is known. */
export function workplaceLine(job: Pick<JobDetails, 'remote' | 'regions' | 'timezones'>): string | null {
  const places = [...job.regions, ...job.timezones].join(', ')
  const where = job.remote === true ? 'remote' : job.remote === false ? 'on site' : null
  if (where === null && places === '') return null
  if (places === '') return where
  return where === null ? `candidates in ${places}` : `${where} (${places})`
}

/** The facts of a job's details a detail view lists, label and text, leaving out what the board did not give. */
export function detailFacts(job: JobDetails): [label: string, text: string][] {
  const facts: [string, string | null][] = [
    ['Salary', job.salary ? formatSalary(job.salary) : null],
    ['Type', job.employment_type ? employmentWords(job.employment_type) : null],
    ['Workplace', workplaceLine(job)],
    ['Seniority', job.seniority],
    ['Tags', job.tags.length > 0 ? job.tags.join(', ') : null],
    ['Company site', job.company_url],
  ]
  return facts.filter((fact): fact is [string, string] => fact[1] !== null)
}

/** Salary and type in a few words, for list rows and notification lines: `USD 70k-110k/yr, full time`. */
export function shortFacts(job: Pick<JobDetails, 'salary' | 'employment_type'>): string[] {
  return [
    job.salary ? compactSalary(job.salary) : '',
    job.employment_type ? employmentWords(job.employment_type) : '',
  ].filter(Boolean)
}

const times = (count: number) => `${count} ${count === 1 ? 'time' : 'times'}`

/**
 * Where a job is in its life, label and text, leaving out what did not happen: closed, reposted, reopened, and
 * its other listings (docs/LIFECYCLE.md).
 */
export function lifecycleFacts(job: JobLifecycle & {first_seen: string}, now: Date): [label: string, text: string][] {
  const facts: [string, string][] = []
  if (job.closed_at) {
    facts.push(['Closed', `${daysAgo(job.closed_at, now)} (${job.closed_at.slice(0, 10)}): no board lists it any more`])
  }
  if (job.reposted > 0) facts.push(['Reposted', `${times(job.reposted)} since ${job.first_seen.slice(0, 10)}`])
  if (job.reopened > 0) facts.push(['Reopened', `${times(job.reopened)} after it closed`])
  if (job.also_on.length > 0) {
    facts.push(['Also on', job.also_on.map(listingText).join(', ')])
  }
  return facts
}

/** One other listing of a role as people read it: `ashby https://… (Philippines)`. */
export function listingText(listing: OtherListing): string {
  return `${listing.source} ${listing.url}${listing.location ? ` (${listing.location})` : ''}`
}

/** A job's life in a word or two for list rows: `closed`, `reposted 3x`, or empty. */
export function lifecycleMark(job: Pick<JobLifecycle, 'closed_at' | 'reposted'>): string {
  if (job.closed_at) return 'closed'
  return job.reposted > 0 ? `reposted ${job.reposted}x` : ''
}
