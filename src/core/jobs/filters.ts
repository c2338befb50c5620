import {companyKey, normaliseKeyPart} from './dedupe.js'
import type {JobResponse, SearchCriteria} from './job.js'
import type {ServerSideFilter} from './job-source.js'
import {formatSalary, judgeSalary, type SalaryFloor, salaryFromAmounts} from './salary.js'

const REMOTE_WORDS = /\b(remote|anywhere|worldwide|distributed|work from home|wfh)\b/i
const DAY_MS = 86_400_000

/** What the salary floor did to a run's jobs, for the run log. */
export interface SalaryFloorOutcome {
  floor: SalaryFloor
  /** Jobs whose pay is below the floor, dropped. */
  below: number
  /** Jobs without a salary the floor can be compared with (none, no amounts, another currency without a rate). */
  unknown: number
  /** Whether those were kept (`unknown: "keep"`) or dropped. */
  unknown_kept: boolean
}

function containsWord(haystack: string, needle: string): boolean {
  const word = normaliseKeyPart(needle)
  return word !== '' && ` ${haystack} `.includes(` ${word} `)
}

/** The search criteria as one test per job, and what it could not apply, counted as it goes. */
export interface CriteriaFilter {
  accepts(job: JobResponse): boolean
  /** Filters that could not be applied to some of the jobs tested so far, in words for a WARNING line. */
  warnings(): string[]
}

/** Jobs of the boards in `serverSide` were already filtered by the board on these criteria. */
export function criteriaFilter(
  criteria: SearchCriteria,
  options: {now: Date; serverSide?: ReadonlyMap<string, readonly ServerSideFilter[]>},
): CriteriaFilter {
  const cutoff = criteria.max_age_days === null ? null : options.now.getTime() - criteria.max_age_days * DAY_MS
  const undated = new Map<string, number>()
  // Compared by the key deduplication uses, so a blocked company cannot come back under another legal suffix.
  const blocked = criteria.company_block_list.map(companyKey).filter(Boolean)
  const locations = criteria.locations.map(normaliseKeyPart).filter(Boolean)

  const accepts = (job: JobResponse) => {
    const text = normaliseKeyPart(`${job.title} ${job.company}`)
    const title = normaliseKeyPart(job.title)
    const boardDid = options.serverSide?.get(job.source) ?? []
    if (
      criteria.tags.length > 0 &&
      !boardDid.includes('tags') &&
      !criteria.tags.some((tag) => containsWord(title, tag))
    ) {
      return false
    }
    if (criteria.keywords.length > 0 && !criteria.keywords.some((keyword) => containsWord(text, keyword))) return false
    if (criteria.exclude_keywords.some((keyword) => containsWord(text, keyword))) return false
    if (blocked.length > 0) {
      const company = companyKey(job.company)
      if (blocked.some((name) => company === name || containsWord(company, name))) return false
    }
    if (locations.length > 0) {
      const location = normaliseKeyPart(job.location)
      if (!locations.some((wanted) => location.includes(wanted))) return false
    }
    // The board's word on remote work wins; without it, the location and title say.
    if (criteria.remote_only && !(job.remote ?? REMOTE_WORDS.test(`${job.location} ${job.title}`))) return false
    if (cutoff !== null) {
      const posted = job.posted_date ? Date.parse(job.posted_date) : Number.NaN
      if (Number.isNaN(posted)) {
        undated.set(job.source, (undated.get(job.source) ?? 0) + 1)
        return true
      }
      if (posted < cutoff) return false
    }
    return true
  }
  // By source, whatever order the boards answered in.
  const warnings = () =>
    [...undated]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([source, count]) =>
          `max_age_days cannot be applied to ${count} job(s) from ${source} without a posted date; they were kept`,
      )
  return {accepts, warnings}
}

/**
 * The salary floor (`search.min_salary`), applied after deduplication so that a salary one board gives counts for
 * the job another board listed without one. Null outcome without a floor.
 */
export function applySalaryFloor(
  jobs: readonly JobResponse[],
  criteria: Pick<SearchCriteria, 'min_salary' | 'fx'>,
): {jobs: JobResponse[]; salary: SalaryFloorOutcome | null} {
  const floor = criteria.min_salary
  if (!floor) return {jobs: [...jobs], salary: null}
  const outcome = {floor, below: 0, unknown: 0, unknown_kept: floor.unknown === 'keep'}
  const kept = jobs.filter((job) => {
    const judged = judgeSalary(job.salary, floor, criteria.fx)
    if (judged === 'below') outcome.below++
    if (judged === 'unknown') outcome.unknown++
    return judged === 'above' || (judged === 'unknown' && outcome.unknown_kept)
  })
  return {jobs: kept, salary: outcome}
}

const jobCount = (count: number) => `${count} ${count === 1 ? 'job' : 'jobs'}`

/** The run log's line on the floor: never silent about what it dropped or kept. */
export function salaryFloorLine({floor, below, unknown, unknown_kept}: SalaryFloorOutcome): string {
  const {amount, currency, period} = floor
  const wanted = salaryFromAmounts({min: amount, max: amount, currency, period})
  const named = wanted ? formatSalary(wanted) : `${currency} ${amount}`
  const without = `${jobCount(unknown)} without a comparable salary ${unknown_kept ? 'kept' : 'dropped'}`
  return `Salary floor ${named}: ${jobCount(below)} below it dropped, ${without}`
}
