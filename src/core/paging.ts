import {ValidationError} from './errors.js'

/** One page of a list: at most `limit` items after skipping `offset`. */
export interface Page {
  limit: number
  offset: number
}

/** How large a page of one list may be, and how large it is when the caller does not say. */
export interface PageBounds {
  defaultLimit: number
  maxLimit: number
}

/** A page of jobs of the last run (GET /jobs/last): a million stored jobs must not become one answer. */
export const JOBS_PAGE: PageBounds = {defaultLimit: 100, maxLimit: 1000}
/** A page of tracked applications (GET /applications). */
export const APPLICATIONS_PAGE: PageBounds = {defaultLimit: 100, maxLimit: 1000}
/** A page of the run ledger (`jobagent runs`, GET /runs). */
export const RUNS_PAGE: PageBounds = {defaultLimit: 20, maxLimit: 200}

/**
 * How a number outside its range is refused, by the services and the API's query checks alike:
 * `limit must be a whole number from 1 to 1000, got 0`. `got` is what was sent, as it is to be shown.
 */
export function wholeNumberMessage(name: string, range: {min: number; max?: number}, got: string): string {
  const words =
    range.max === undefined
      ? `a whole number of ${range.min} or more`
      : `a whole number from ${range.min} to ${range.max}`
  return `${name} must be ${words}, got ${got}`
}

/** The page asked for, with the defaults filled in; a limit out of bounds or a negative offset is refused. */
export function checkPage(page: {limit?: number | undefined; offset?: number | undefined}, bounds: PageBounds): Page {
  const limit = page.limit ?? bounds.defaultLimit
  const offset = page.offset ?? 0
  const problems = [
    ...(Number.isInteger(limit) && limit >= 1 && limit <= bounds.maxLimit
      ? []
      : [{field: 'limit', message: wholeNumberMessage('limit', {min: 1, max: bounds.maxLimit}, String(limit))}]),
    ...(Number.isInteger(offset) && offset >= 0
      ? []
      : [{field: 'offset', message: wholeNumberMessage('offset', {min: 0}, String(offset))}]),
  ]
  if (problems.length > 0) {
    throw new ValidationError(problems.map((problem) => problem.message).join('; '), {details: problems})
  }
  return {limit, offset}
}
