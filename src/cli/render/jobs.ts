import type {ListedSummary} from '../../core/jobs/job-catalog.js'
import {lifecycleMark} from '../../core/jobs/job-facts.js'
import type {RunRecord} from '../../core/jobs/job-store.js'
import {compactSalary} from '../../core/jobs/salary.js'
import type {Style} from '../style.js'
import {renderTable} from '../table.js'

/** `newJobs`: how many of the run's jobs are new now (the catalog's count), which the header gives. */
export function renderJobTable(
  jobs: readonly ListedSummary[],
  run: RunRecord,
  newJobs: number,
  style: Style,
  options: {dismissed?: boolean; width?: number | undefined} = {},
): string {
  const header = `Last run ${run.started_at} (${run.status}): ${run.jobs_found} jobs, ${newJobs} new`
  if (options.dismissed) {
    if (jobs.length === 0) return `${header}\nNo dismissed jobs.`
  } else if (jobs.length === 0) return `${header}\nNo jobs to show.`
  const scored = jobs.some((job) => job.score !== null)
  const table = renderTable(
    jobs,
    [
      {header: 'ID', value: (job) => String(job.id)},
      ...(scored ? [{header: 'SCORE', value: (job: ListedSummary) => String(job.score ?? '')}] : []),
      {header: 'NEW', value: (job) => (job.is_new ? '*' : '')},
      // On a narrow terminal the source goes first, then the posting date, the lifecycle mark, the salary and the
      // tracked status; the title, company and place stay (the job's page has every field).
      {header: 'TITLE', value: (job) => job.title, shrinkTo: 28},
      {header: 'COMPANY', value: (job) => job.company, shrinkTo: 16},
      {header: 'LOCATION', value: (job) => job.location, shrinkTo: 14},
      {header: 'SALARY', value: (job) => (job.salary ? compactSalary(job.salary) : ''), shrinkTo: 18, hideOrder: 4},
      {header: 'SOURCE', value: (job) => job.source, shrinkTo: 14, hideOrder: 1},
      {header: 'POSTED', value: (job) => job.posted_date?.slice(0, 10) ?? '', shrinkTo: 10, hideOrder: 2},
      {header: 'STATUS', value: (job) => job.tracked_status ?? '', shrinkTo: 12, hideOrder: 5},
      ...(jobs.some((job) => lifecycleMark(job) !== '')
        ? [{header: 'LIFE', value: (job: ListedSummary) => lifecycleMark(job), shrinkTo: 14, hideOrder: 3}]
        : []),
    ],
    style.bold,
    {width: options.width},
  )
  if (options.dismissed) return `${header}\n${table}\n\nTake a dismissal back with: jobagent jobs <ID> --undo`
  return `${header}\n${table}\n\nShow one in full with: jobagent jobs <ID>\nTrack one with: jobagent apply <ID>`
}
