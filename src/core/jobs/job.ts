import type {EmploymentType} from './employment-type.js'
import type {Salary, SalaryFloor} from './salary.js'

/**
 * What a board says about a job beyond the seed's six fields; each null or empty when the board does not give it
 * (docs/SOURCES.md has the table of which board gives what).
 */
export interface JobDetails {
  /** Plain text: HTML removed, paragraphs and list items on lines of their own, at most 20,000 characters. */
  description: string | null
  salary: Salary | null
  employment_type: EmploymentType | null
  /** True or false where the board says; null when it does not. */
  remote: boolean | null
  /** The places the board says a candidate may be in, as written (`USA`, `Europe`); empty when not stated. */
  regions: string[]
  /** The time zones the board names (`UTC-5`, `UTC+5:30`); empty when not stated. */
  timezones: string[]
  /** The board's own level (`Senior`, `Mid-level`, `Director`), as written. */
  seniority: string | null
  /** The board's tags or categories. */
  tags: string[]
  /** The board's own id of the posting. */
  board_id: string | null
  company_url: string | null
}

/** A job posting as every board's adapter returns it: the seed's six fields and the details. */
export interface JobResponse extends JobDetails {
  title: string
  company: string
  location: string
  url: string
  /** The board it came from (attribution), e.g. `remoteok`, `greenhouse`. */
  source: string
  /** ISO 8601 in UTC (`2026-04-10T00:28:23Z`), a plain date (`2026-04-10`) when the board gives only a date, or null. */
  posted_date: string | null
}

/** What the user is looking for; from config `search` and run flags. */
export interface SearchCriteria {
  tags: string[]
  keywords: string[]
  exclude_keywords: string[]
  locations: string[]
  remote_only: boolean
  max_age_days: number | null
  company_block_list: string[]
  /** The lowest pay wanted, compared on annual amounts; null: no floor. */
  min_salary: SalaryFloor | null
  /** Exchange rates into the floor's currency (`{"USD": 0.92}`: 1 USD is 0.92 of it). */
  fx: Record<string, number>
}

/** Just the JobResponse fields of a job that carries more (a stored job's id and dates), for interchange. */
export function toJobResponse(job: JobResponse): JobResponse {
  const {title, company, location, url, source, posted_date} = job
  const {description, salary, employment_type, remote, regions, timezones, seniority, tags, board_id, company_url} = job
  return {
    title,
    company,
    location,
    url,
    source,
    posted_date,
    description,
    salary,
    employment_type,
    remote,
    regions,
    timezones,
    seniority,
    tags,
    board_id,
    company_url,
  }
}
