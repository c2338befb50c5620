// The Jobs tab: the jobs of the last run or of a search, tracked from their row, liked or dismissed
// (POST and DELETE /jobs/{id}/verdict), each with its details.
import {APPLICATION_STATUSES, type ApplicationStatus} from '../core/applications/application.js'
import {isNewJob} from '../core/jobs/job-tracking.js'
import {formatSalary} from '../core/jobs/salary.js'
import {apiJson, apiList} from './api.js'
import type {
  Job,
  LastRunPage,
  Recorded,
  SearchResult,
  TrackingAnswer,
  VerdictGiven,
  VerdictUndone,
} from './api-types.js'
import {
  $,
  type Child,
  cell,
  el,
  formatDate,
  formatDuration,
  formatInstant,
  hiddenText,
  plural,
  timeElement,
  titleLink,
} from './dom.js'
import {newJobs, renderLastRun} from './header-view.js'
import {detailsToggle} from './job-details.js'
import {showError, showMessage} from './messages.js'
import {applicationOf, applicationsByUrl, matchesText, type Page, state, type TrackedUrl} from './page-state.js'

let page: Page

/** Wires the tab's controls of index.html; `whole` draws the other views and reads the applications again. */
export function setupJobsView(whole: Page): void {
  page = whole
  for (const value of APPLICATION_STATUSES) $('jobs-status').append(el('option', {value}, `Tracked as ${value}`))
  $('search-button').addEventListener('click', search)
  $('jobs-score-sort').addEventListener('click', () => {
    state.scoreOrder = state.scoreOrder === 'descending' ? 'ascending' : 'descending'
    renderJobs()
  })
}

/** Asks the server again whether the listed jobs are tracked and new (after a change made elsewhere). */
export async function refreshTracking(): Promise<void> {
  const jobs = state.jobs
  if (!jobs || jobs.length === 0) return
  try {
    const body = await apiJson<TrackingAnswer>('POST', 'jobs/tracking', {body: {urls: jobs.map((job) => job.url)}})
    jobs.forEach((job, index) => {
      const judgement = body.jobs[index]
      if (judgement?.url !== job.url) return
      Object.assign(job, {
        tracked_status: judgement.tracked_status,
        tracked_url: judgement.tracked_url,
        is_new: judgement.is_new,
      })
    })
  } catch (error) {
    showError('Could not check which jobs are tracked', error)
  }
}

/**
 * The jobs the last `jobagent run` stored, as `jobagent jobs` lists them; a search finished meanwhile wins unless
 * `replace` (after a like or dismissal, which changes the ranking and leaves a dismissed job out).
 */
export async function loadLastRun({replace = false}: {replace?: boolean} = {}): Promise<void> {
  try {
    // Closed jobs too: the Status filter shows them on their own; every other view leaves them out.
    const body = await apiList<LastRunPage>('jobs/last?state=all', 'jobs')
    state.run = body.run ?? null
    if ((state.jobs === null || replace) && !state.searching) {
      state.jobs = body.jobs
      state.jobsFrom = 'run'
    }
  } catch (error) {
    if (!state.searching) $('search-summary').textContent = 'The jobs of the last run could not be loaded.'
    showError('Could not load the jobs of the last run', error)
  }
  renderLastRun()
  page.render()
}

async function search(): Promise<void> {
  if (state.searching) return
  state.searching = true
  // aria-disabled rather than disabled: a disabled button would drop the keyboard focus while the search runs.
  const button = $('search-button')
  button.setAttribute('aria-disabled', 'true')
  const started = Date.now()
  const summary = $('search-summary')
  $('search-state').setAttribute('aria-busy', 'true')
  $('search-state').classList.add('busy')
  summary.textContent = 'Searching the job boards…'
  const elapsed = el('span', {className: 'elapsed', 'aria-hidden': 'true'})
  summary.append(' ', elapsed)
  const timer = setInterval(() => {
    elapsed.textContent = `${Math.round((Date.now() - started) / 1000)} s`
  }, 1000)
  try {
    const body = await apiJson<SearchResult>('GET', 'jobs')
    state.jobs = body.jobs
    state.jobsFrom = 'search'
    renderSearchOutcome(body, body.jobs)
  } catch (error) {
    summary.textContent = 'The search failed.'
    showError('The search failed', error)
  } finally {
    clearInterval(timer)
    state.searching = false
    button.removeAttribute('aria-disabled')
    $('search-state').removeAttribute('aria-busy')
    $('search-state').classList.remove('busy')
  }
  page.render()
}

async function track(job: Job, status: ApplicationStatus, button: HTMLButtonElement): Promise<void> {
  button.disabled = true
  const name = `“${job.title}” at ${job.company}`
  try {
    // POST /jobs/track refuses a job tracked under its URL or its canonical URL (the run's rule), so tracking
    // from a list judged a while ago never makes a second application.
    const body = await apiJson<Recorded>('POST', 'jobs/track', {
      body: {title: job.title, company: job.company, location: job.location, url: job.url, source: job.source, status},
    })
    state.applications.push(body.application)
    Object.assign(job, {
      tracked_status: status,
      tracked_url: body.application.url,
      is_new: isNewJob(job, status),
    })
    showMessage(`Tracked ${name} as ${status}.`)
    page.render()
  } catch (error) {
    showError(`Could not track ${name}`, error)
    // Another client may have tracked it meanwhile: show what the server holds now.
    await refreshTracking()
    await page.refresh()
  }
  focusJobRow(job)
}

const jobRows = (): HTMLTableRowElement[] =>
  [...$<HTMLTableElement>('jobs-table').tBodies[0]!.rows].filter((row) => row.dataset.key)

/** The Track button is gone after a re-render; the keyboard focus goes to the job's new row instead of the page. */
function focusJobRow(job: Job): void {
  jobRows()
    .find((candidate) => candidate.dataset.key === job.url)
    ?.focus()
}

const PAST_TENSE = {like: 'liked', dismiss: 'dismissed'} as const

async function giveVerdict(job: Job, verdict: 'like' | 'dismiss', button: HTMLButtonElement): Promise<void> {
  button.disabled = true
  const name = `“${job.title}” at ${job.company}`
  // A dismissed job leaves the list: the keyboard focus goes to the row that takes its place.
  const place = jobRows().findIndex((row) => row.dataset.key === job.url)
  let body: VerdictGiven
  try {
    body = await apiJson<VerdictGiven>('POST', `jobs/${job.id}/verdict`, {body: {verdict}})
  } catch (error) {
    showError(`Could not ${verdict} ${name}`, error)
    button.disabled = false
    return
  }
  const scored = (state.jobs ?? []).some((candidate) => typeof candidate.score === 'number')
  const text =
    verdict === 'like'
      ? `Liked ${name}${scored ? ': jobs like it now rank higher' : ''}.`
      : `Dismissed ${name}: it is hidden from the list and never notified again.`
  const previous =
    body.previous && body.previous.verdict !== verdict ? ` It was ${PAST_TENSE[body.previous.verdict]} before.` : ''
  const undo = el(
    'button',
    {type: 'button', className: 'undo'},
    'Undo',
    hiddenText(` the ${verdict === 'like' ? 'like' : 'dismissal'} of ${job.title} at ${job.company}`),
  )
  undo.addEventListener('click', () => undoVerdict(job, undo))
  showMessage(`${text}${previous}`, {details: body.proposal ? [`Suggestion: ${body.proposal}`] : [], actions: [undo]})
  await loadLastRun({replace: true})
  if (verdict === 'like') focusJobRow(job)
  else {
    const rows = jobRows()
    rows[Math.min(place, rows.length - 1)]?.focus()
  }
}

async function undoVerdict(job: Job, button: HTMLButtonElement): Promise<void> {
  button.disabled = true
  const name = `“${job.title}” at ${job.company}`
  try {
    const body = await apiJson<VerdictUndone>('DELETE', `jobs/${job.id}/verdict`)
    showMessage(`Took back the ${body.undone?.verdict === 'like' ? 'like' : 'dismissal'} of ${name}.`)
  } catch (error) {
    showError(`Could not undo the verdict on ${name}`, error)
    button.disabled = false
    return
  }
  await loadLastRun({replace: true})
  focusJobRow(job)
}

/**
 * The line above the jobs of the last run, with their count and how many are new, counted as the header counts
 * them: it follows every change (a Track, a status saved, a like or dismissal) with the rest of the page. A
 * search's outcome, or a search under way, keeps its own line.
 */
export function renderLastRunSummary(): void {
  if (!state.jobs || state.jobsFrom !== 'run' || state.searching) return
  // The list holds the closed jobs too (for its Closed filter); the last run's are the open ones.
  const open = state.jobs.filter((job) => !job.closed_at)
  const fresh = newJobs(open).length
  $('search-summary').textContent =
    open.length > 0
      ? `The ${plural(open.length, 'job')} of the last run, ${fresh} new. “Search now” asks the job boards again.`
      : `${state.run ? 'The last run stored no jobs.' : 'No run yet.'} Press “Search now” to ask the job boards.`
}

function renderSearchOutcome(body: SearchResult, jobs: readonly Job[]): void {
  const sources = body.sources
  const failed = sources.filter((source) => !source.ok).length
  const at = typeof body.searched_at === 'string' ? ` at ${formatInstant(body.searched_at)}` : ''
  $('search-summary').textContent =
    `Found ${plural(jobs.length, 'job')}${at} from ${plural(sources.length, 'board')}` +
    (failed > 0 ? `; ${failed} failed.` : '.')
  $('search-sources').replaceChildren(
    ...sources.map((source) =>
      el(
        'li',
        {className: source.ok ? 'ok' : 'failed'},
        el('span', {className: 'mark', 'aria-hidden': 'true'}, source.ok ? '✓' : '✗'),
        el('strong', {}, String(source.name)),
        source.ok
          ? `: ok, ${plural(source.count ?? 0, 'job')} in ${formatDuration(source.duration_ms)}`
          : `: failed after ${formatDuration(source.duration_ms)}: ${source.error ?? 'unknown error'}`,
      ),
    ),
  )
}

const isStatus = (value: string): value is ApplicationStatus =>
  (APPLICATION_STATUSES as readonly string[]).includes(value)

export function renderJobs(): void {
  const table = $<HTMLTableElement>('jobs-table')
  const empty = $('jobs-empty')
  if (!state.jobs) return
  const fromRun = state.jobsFrom === 'run'
  $('jobs-caption').textContent = fromRun ? 'Jobs stored by the last run' : 'Jobs found by the search'
  const index = applicationsByUrl()
  const text = $<HTMLInputElement>('jobs-filter').value.trim().toLowerCase()
  const wanted = $<HTMLSelectElement>('jobs-status').value
  const scored = state.jobs.some((job) => typeof job.score === 'number')
  const header = $('jobs-score-header')
  header.hidden = !scored
  header.setAttribute('aria-sort', state.scoreOrder)
  const mark = header.querySelector('.sort-mark')
  if (mark) mark.textContent = state.scoreOrder === 'ascending' ? '▲' : '▼'
  const wantedJobs = state.jobs.filter((job) => {
    const application = applicationOf(job, index)
    if ((wanted === 'closed') !== Boolean(job.closed_at)) return false
    if (wanted === 'new' && !isNewJob(job, application?.status ?? null)) return false
    if (wanted === 'untracked' && application) return false
    if (isStatus(wanted) && application?.status !== wanted) return false
    return matchesText(job, ['title', 'company', 'location', 'source'], text)
  })
  // A stable sort: jobs of equal score keep the API's order.
  const rows =
    scored && state.scoreOrder === 'ascending'
      ? [...wantedJobs].sort((a, b) => (a.score ?? 0) - (b.score ?? 0))
      : wantedJobs
  table.tBodies[0]!.replaceChildren(...rows.map((job) => jobRow(job, applicationOf(job, index), scored)))
  table.hidden = rows.length === 0
  empty.hidden = rows.length > 0
  if (state.jobs.length > 0) empty.textContent = 'No job matches the filters.'
  else empty.textContent = fromRun ? 'No jobs from the last run.' : 'The search found no jobs.'
}

function jobRow(job: Job, application: TrackedUrl | undefined, scored: boolean): HTMLTableRowElement {
  const name = `${job.title} at ${job.company}`
  let action: Child = 'Tracked'
  if (!application) {
    const status = el(
      'select',
      {'aria-label': `Status to record for ${name}`},
      ...APPLICATION_STATUSES.map((value) => el('option', {value, selected: value === 'applied'}, value)),
    )
    const button = el('button', {type: 'button'}, 'Track', hiddenText(` ${name}`))
    button.addEventListener('click', () => track(job, status.value as ApplicationStatus, button))
    action = el('div', {className: 'track'}, status, button)
  }
  const details = detailsToggle(job, name, () => row, scored ? 9 : 8)
  // Only stored jobs (the last run's) have an id to keep a verdict on; the jobs of a search have none.
  const verdicts = typeof job.id === 'number' ? verdictButtons(job, name) : null
  const row = el(
    'tr',
    {'data-key': job.url, tabindex: -1},
    scored ? scoreCell(job.score) : null,
    cell('Title', titleLink(job)),
    cell('Company', job.company),
    cell('Location', job.location || '—'),
    wideCell('Salary', (job.salary && formatSalary(job.salary)) || '—'),
    cell('Source', job.source),
    cell('Posted', job.posted_date ? timeElement(job.posted_date, formatDate(job.posted_date)) : '—'),
    cell(
      'Status',
      application ? el('span', {className: `status status-${application.status}`}, application.status) : 'not tracked',
      isNewJob(job, application?.status ?? null) ? el('span', {className: 'badge'}, 'new') : null,
      lifecycleBadge(job),
    ),
    cell('', el('div', {className: 'row-actions'}, action, verdicts, details)),
  )
  return row
}

/** "Like" and "Dismiss", named for screen readers after the job they are about. */
function verdictButtons(job: Job, name: string): HTMLDivElement {
  const like = el('button', {type: 'button', className: 'like'}, 'Like', hiddenText(` ${name}`))
  const dismiss = el('button', {type: 'button', className: 'dismiss-job'}, 'Dismiss', hiddenText(` ${name}`))
  like.addEventListener('click', () => giveVerdict(job, 'like', like))
  dismiss.addEventListener('click', () => giveVerdict(job, 'dismiss', dismiss))
  return el('div', {className: 'verdicts', role: 'group', 'aria-label': `Like or dismiss ${name}`}, like, dismiss)
}

/** "closed" for a job no board lists any more, "reposted 3×" for a role that came back; nothing otherwise. */
function lifecycleBadge(job: Job): HTMLSpanElement | null {
  if (job.closed_at) return el('span', {className: 'badge closed'}, 'closed')
  if (job.reposted) return el('span', {className: 'badge reposted'}, `reposted ${job.reposted}×`)
  return null
}

/** A cell of a column shown only where the screen is wide enough (the Salary column). */
function wideCell(label: string, ...content: Child[]): HTMLTableCellElement {
  const node = cell(label, ...content)
  node.classList.add('wide-only')
  return node
}

/** A job's score out of 100, in the column shown when the jobs are scored. */
function scoreCell(score: number | null): HTMLTableCellElement {
  const node = cell('Score', typeof score === 'number' ? String(score) : '—')
  node.classList.add('score')
  return node
}
