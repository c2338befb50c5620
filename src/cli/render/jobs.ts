import wrapAnsi from 'wrap-ansi'
import type {ListedJob} from '../../core/jobs/job-catalog.js'
import {detailFacts} from '../../core/jobs/job-facts.js'
import type {RunRecord} from '../../core/jobs/job-store.js'
import {compactSalary} from '../../core/jobs/salary.js'
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
      {header: 'SALARY', value: (job) => (job.salary ? compactSalary(job.salary) : ''), max: 18},
      {header: 'SOURCE', value: (job) => job.source, max: 14},
      {header: 'POSTED', value: (job) => job.posted_date?.slice(0, 10) ?? '', max: 10},
      {header: 'STATUS', value: (job) => job.tracked_status ?? '', max: 12},
    ],
    style.bold,
  )
  return `${header}\n${table}\n\nShow one in full with: jobagent jobs <ID>\nTrack one with: jobagent apply <ID>`
}

/** One job in full, as `jobagent jobs <id>` shows it: the facts, then the description wrapped to `width`. */
export function renderJobDetail(job: ListedJob, style: Style, width: number): string {
  const facts: [string, string][] = [
    ['Company', job.company],
    ['Location', job.location],
    ...detailFacts(job),
    ['Posted', job.posted_date ?? ''],
    ['Source', job.board_id ? `${job.source} (id ${job.board_id})` : job.source],
    ['Seen', `${job.first_seen} to ${job.last_seen}`],
    ['Tracked', job.tracked_status ? `${job.tracked_status} (${job.tracked_url})` : 'no'],
    ['URL', job.url],
  ]
  const shown = facts.filter(([, value]) => value !== '')
  const label = Math.max(...shown.map(([name]) => name.length)) + 2
  const lines = shown.map(([name, value]) => `${style.dim(`${name}:`.padEnd(label))}${value}`)
  const description = job.description
    ? wrapAnsi(job.description, Math.max(20, Math.min(width, 100)), {hard: true, trim: false})
    : style.dim('No description from the board.')
  const next = job.tracked_status ? [] : ['', `Track it with: jobagent apply ${job.id}`]
  return [style.bold(`${job.id}  ${job.title}`), ...lines, '', description, ...next].join('\n')
}
