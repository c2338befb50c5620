import type {EmploymentType} from './employment-type.js'
import type {JobDetails} from './job.js'
import {compactSalary, formatSalary} from './salary.js'

const EMPLOYMENT_WORDS: Record<EmploymentType, string> = {
  full_time: 'full time',
  part_time: 'part time',
  contract: 'contract',
  internship: 'internship',
  temporary: 'temporary',
}

/** `full_time` -> `full time`, for people. */
function employmentWords(type: EmploymentType): string {
  return EMPLOYMENT_WORDS[type]
}

/** Remote or not, and where a candidate may be: `remote (USA, Canada)`, `on site`, or null when nothing is known. */
function workplaceLine(job: Pick<JobDetails, 'remote' | 'regions' | 'timezones'>): string | null {
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
