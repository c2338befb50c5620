import {picked} from '../defined-fields.js'
import * as z from '../zod-mini.js'
import {employmentTypeSchema} from './employment-type.js'
import {type SalaryFloor, salarySchema} from './salary.js'

/**
 * What a board says about a job beyond the seed's six fields; each null or empty when the board does not give it
 * (docs/SOURCES.md has the table of which board gives what).
 */
export const jobDetailsSchema = z.object({
  /** Plain text: HTML removed, paragraphs and list items on lines of their own, at most 20,000 characters. */
  description: z.nullable(z.string()),
  salary: z.nullable(salarySchema),
  employment_type: z.nullable(employmentTypeSchema),
  /** True or false where the board says; null when it does not. */
  remote: z.nullable(z.boolean()),
  /** The places the board says a candidate may be in, as written (`USA`, `Europe`); empty when not stated. */
  regions: z.array(z.string()),
  /** The time zones the board names (`UTC-5`, `UTC+5:30`); empty when not stated. */
  timezones: z.array(z.string()),
  /** The board's own level (`Senior`, `Mid-level`, `Director`), as written. */
  seniority: z.nullable(z.string()),
  /** The board's tags or categories. */
  tags: z.array(z.string()),
  /** The board's own id of the posting. */
  board_id: z.nullable(z.string()),
  company_url: z.nullable(z.string()),
})

export type JobDetails = z.output<typeof jobDetailsSchema>

/**
 * A job posting as every board's adapter returns it: the seed's six fields, then the details. The one definition
 * of a job: the stored job (job-store.ts) extends it, and the API's shapes (src/http/schemas.ts), the page's types,
 * the job store's columns and the interchange fields (toJobResponse) are derived from it.
 */
export const jobResponseSchema = z.extend(
  z.object({
    title: z.string(),
    company: z.string(),
    location: z.string(),
    url: z.string(),
    /** The board it came from (attribution), e.g. `remoteok`, `greenhouse`. */
    source: z.string(),
    /**
     * ISO 8601 in UTC (`2026-04-10T00:28:23Z`), a plain date (`2026-04-10`) when the board gives only a date, or
     * null.
     */
    posted_date: z.nullable(z.string()),
  }),
  jobDetailsSchema.shape,
)

export type JobResponse = z.output<typeof jobResponseSchema>

/** Every field of a JobResponse, in the schema's order. */
export const JOB_RESPONSE_FIELDS = Object.keys(jobResponseSchema.shape) as (keyof JobResponse)[]

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
  return picked(job, JOB_RESPONSE_FIELDS)
}
