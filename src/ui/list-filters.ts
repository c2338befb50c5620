import {APPLICATION_STATUSES, type TrackedApplication} from '../core/applications/application.js'
import type {ListedJob} from '../core/jobs/job-catalog.js'

/** Status filters of the Jobs view: `new` is not yet applied for (untracked or saved), `untracked` is not tracked. */
export const JOB_STATUS_FILTERS = [null, 'new', 'untracked', ...APPLICATION_STATUSES] as const
export const APPLICATION_STATUS_FILTERS = [null, ...APPLICATION_STATUSES] as const

export type StatusFilter = (typeof JOB_STATUS_FILTERS)[number]

/** The next (or previous) entry of a status filter cycle; `null` means every status. */
export function cycleFilter(filters: readonly StatusFilter[], current: StatusFilter, step: 1 | -1): StatusFilter {
  const index = filters.indexOf(current)
  const next = (Math.max(0, index) + step + filters.length) % filters.length
  return filters[next] ?? null
}

function contains(fields: readonly string[], text: string): boolean {
  if (text === '') return true
  const wanted = text.toLocaleLowerCase()
  return fields.some((field) => field.toLocaleLowerCase().includes(wanted))
}

export function filterJobs(jobs: readonly ListedJob[], text: string, status: StatusFilter): ListedJob[] {
  const trimmed = text.trim()
  if (trimmed === '' && status === null) return [...jobs]
  return jobs.filter((job) => {
    if (status === 'new' && !job.is_new) return false
    if (status === 'untracked' && job.tracked_status !== null) return false
    if (status !== null && status !== 'new' && status !== 'untracked' && job.tracked_status !== status) return false
    return contains([job.title, job.company, job.location, job.source, job.url], trimmed)
  })
}

export function filterApplications(
  applications: readonly TrackedApplication[],
  text: string,
  status: StatusFilter,
): TrackedApplication[] {
  const trimmed = text.trim()
  if (trimmed === '' && status === null) return [...applications]
  return applications.filter(
    (application) =>
      (status === null || application.status === status) &&
      contains(
        [
          application.title,
          application.company,
          application.location,
          application.source,
          application.notes,
          application.url,
        ],
        trimmed,
      ),
  )
}
