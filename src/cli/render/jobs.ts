import type {ListedJob} from '../../core/jobs/job-catalog.js'
import type {RunRecord} from '../../core/jobs/job-store.js'
import type {Style} from '../style.js'
import {renderTable} from '../table.js'

export function renderJobTable(jobs: readonly ListedJob[], run: RunRecord, style: Style): string {
  const header = `Last run ${run.started_at} (${run.status}): ${run.jobs_found} jobs, ${run.new_jobs} new`
  if (jobs.length === 0) return `${header}\nNo jobs to show.`
  const table = renderTable(
    jobs,
    [
      {header: 'ID', value: (job) => String(job.id)},
      {header: 'NEW', value: (job) => (job.is_new ? '*' : '')},
      {header: 'TITLE', value: (job) => job.title, max: 36},
      {header: 'COMPANY', value: (job) => job.company, max: 22},
      {header: 'LOCATION', value: (job) => job.location, max: 18},
      {header: 'SOURCE', value: (job) => job.source, max: 14},
      {header: 'POSTED', value: (job) => job.posted_date?.slice(0, 10) ?? '', max: 10},
      {header: 'STATUS', value: (job) => job.tracked_status ?? '', max: 12},
    ],
    style.bold,
  )
  return `${header}\n${table}\n\nTrack one with: jobagent apply <ID>`
}
