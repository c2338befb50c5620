// The page's header: the counts, the last run's line and the CSV download.
import {isAppliedStatus} from '../core/applications/application.js'
import {isNewJob} from '../core/jobs/job-tracking.js'
import {api} from './api.js'
import type {Job} from './api-types.js'
import {$, el, formatLocalTimestamp} from './dom.js'
import {showError} from './messages.js'
import {applicationOf, applicationsByUrl, state} from './page-state.js'

/** The jobs of the list that are new, judged with the status the page holds for each. */
export function newJobs(jobs: readonly Job[]): Job[] {
  const index = applicationsByUrl()
  return jobs.filter((job) => isNewJob(job, applicationOf(job, index)?.status ?? null))
}

export function renderCounts(): void {
  const applications = state.applications
  const known = state.applicationsLoaded
  const applied = applications.filter((application) => isAppliedStatus(application.status)).length
  $('count-total').textContent = known ? String(applications.length) : '–'
  $('count-applied').textContent = known ? String(applied) : '–'
  $('count-pending').textContent = known ? String(applications.length - applied) : '–'
  $('count-new').textContent = state.jobs && known ? String(newJobs(state.jobs).length) : '–'
  // The Jobs tab lists the open jobs unless its filter asks for the closed ones.
  $('tab-jobs-count').textContent = state.jobs ? String(state.jobs.filter((job) => !job.closed_at).length) : ''
  $('tab-applications-count').textContent = known ? String(applications.length) : ''
}

/** The dashboard's header line: `last run 2026-11-22 07:30 (ok)`. */
export function renderLastRun(): void {
  const run = state.run
  $('last-run').textContent = run ? `last run ${formatLocalTimestamp(run.started_at)} (${run.status})` : 'no run yet'
}

/** The export link's download, with the token: a plain link could not send it. */
export async function downloadCsv(event: MouseEvent): Promise<void> {
  event.preventDefault()
  const link = event.currentTarget as HTMLAnchorElement
  try {
    const response = await api('GET', link.getAttribute('href') ?? '', {accept: 'text/csv, application/json'})
    const disposition = /filename="?([^";]+)"?/i.exec(response.headers.get('Content-Disposition') ?? '')
    const blobUrl = URL.createObjectURL(await response.blob())
    const anchor = el('a', {href: blobUrl, download: disposition?.[1] ?? 'applications.csv', hidden: true})
    document.body.append(anchor)
    anchor.click()
    anchor.remove()
    setTimeout(() => URL.revokeObjectURL(blobUrl), 60_000)
  } catch (error) {
    showError('Could not download the CSV export', error)
  }
}
