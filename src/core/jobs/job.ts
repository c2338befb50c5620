/** A job posting as every board's adapter returns it. */
export interface JobResponse {
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
}

/** Just the JobResponse fields of a job that carries more (a stored job's id and dates), for interchange. */
export function toJobResponse(job: JobResponse): JobResponse {
  const {title, company, location, url, source, posted_date} = job
  return {title, company, location, url, source, posted_date}
}
