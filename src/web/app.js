// The jobagent web page: plain ES modules, no framework and no build step. It talks only to the public REST API,
// inserts API text as text (never as HTML) and has no inline script or style, so a Content-Security-Policy of
// default-src 'self' holds.
import {ApiError, api, apiJson, apiList, onTokenNeeded} from './api.js'
import {describeEntry, setupEditDialog} from './application-edit.js'
import {
  $,
  cell,
  el,
  formatDate,
  formatDuration,
  formatInstant,
  formatLocalTimestamp,
  formatRate,
  formatSalary,
  hiddenText,
  jobFacts,
  plural,
  svg,
  timeElement,
  titleLink,
} from './dom.js'

const STATUSES = ['saved', 'applied', 'interviewing', 'offer', 'accepted', 'rejected', 'withdrawn', 'ghosted']
const MAX_MESSAGES = 5

// jobs come from the last stored run (GET /jobs/last) when the page opens, then from each "Search now". Each job
// carries the server's judgement (tracked_status, tracked_url, is_new, and with a profile score and reasons): the
// page never applies URL rules or scores itself. With scores the API lists the jobs best first; scoreOrder
// 'ascending' shows them lowest first instead.
const state = {
  applications: [],
  applicationsLoaded: false,
  jobs: null,
  jobsFrom: 'run',
  run: null,
  searching: false,
  scoreOrder: 'descending',
  followUps: new Map(),
}

// ---- the token form: one prompt however many requests were refused, resolved with what the user typed

let tokenWaiters = []

function askForToken(reason) {
  $('token-reason').textContent = reason
  const form = $('token-form')
  if (form.hidden) {
    form.hidden = false
    $('token-input').value = ''
    $('token-input').focus()
  }
  return new Promise((resolve) => tokenWaiters.push(resolve))
}

function submitToken(event) {
  event.preventDefault()
  const token = $('token-input').value.trim()
  if (!token) return
  $('token-form').hidden = true
  const waiters = tokenWaiters
  tokenWaiters = []
  for (const resolve of waiters) resolve(token)
}

// ---- messages: an aria-live region; errors stay until closed, a newer notice replaces the older one. Their button
// says Close, not Dismiss, which a job row's button says for hiding the job.

/** `actions`: buttons offered with the message, such as the Undo of the last like or dismissal. */
function showMessage(text, {kind = 'info', details = [], actions = []} = {}) {
  const region = $('messages')
  if (kind === 'info') for (const old of region.querySelectorAll('.message.info')) old.remove()
  const item = el(
    'div',
    {className: `message ${kind}`},
    el('p', {}, kind === 'error' ? el('strong', {}, 'Error: ') : null, text),
    details.length > 0 ? el('ul', {}, ...details.map((detail) => el('li', {}, detail))) : null,
  )
  item.append(...actions, el('button', {type: 'button', className: 'close', onclick: () => item.remove()}, 'Close'))
  region.append(item)
  while (region.children.length > MAX_MESSAGES) region.firstElementChild.remove()
}

function showError(what, error) {
  const details = error instanceof ApiError ? [...error.details] : []
  if (error instanceof ApiError && error.hint) details.push(`Hint: ${error.hint}`)
  showMessage(`${what}: ${error.message}`, {kind: 'error', details})
}

// ---- data

async function loadApplications() {
  const [body, due] = await Promise.all([
    apiList('applications', 'applications'),
    apiJson('GET', 'applications/followups'),
  ])
  state.applications = Array.isArray(body.applications) ? body.applications : []
  // Applications due for a follow-up, by URL: their rows say how long they have waited.
  state.followUps = new Map((Array.isArray(due.applications) ? due.applications : []).map((a) => [a.url, a]))
  state.applicationsLoaded = true
}

async function refresh() {
  try {
    await loadApplications()
  } catch (error) {
    showError('Could not load the applications', error)
  }
  render()
}

function applicationsByUrl() {
  return new Map(state.applications.map((application) => [application.url, application]))
}

/**
 * The tracked application of a job, the one the server matched (tracked_url, exactly as stored): from the page's
 * own list when loaded, so a status changed here shows at once, else as the server judged it.
 */
function applicationOf(job, index) {
  if (!job.tracked_url) return undefined
  return index.get(job.tracked_url) ?? {url: job.tracked_url, status: job.tracked_status}
}

/** A job is new while it is listed and its tracked application has not been applied for (a saved one has not). */
const isNewJob = (job, application) => !job.closed_at && (!application || application.status === 'saved')

/** Asks the server again whether the listed jobs are tracked and new (after a change made elsewhere). */
async function refreshTracking() {
  if (!state.jobs || state.jobs.length === 0) return
  try {
    const body = await apiJson('POST', 'jobs/tracking', {body: {urls: state.jobs.map((job) => job.url)}})
    const judged = Array.isArray(body.jobs) ? body.jobs : []
    state.jobs.forEach((job, index) => {
      const judgement = judged[index]
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
async function loadLastRun({replace = false} = {}) {
  try {
    // Closed jobs too: the Status filter shows them on their own; every other view leaves them out.
    const body = await apiList('jobs/last?state=all', 'jobs')
    state.run = body.run ?? null
    if ((state.jobs === null || replace) && !state.searching) {
      state.jobs = Array.isArray(body.jobs) ? body.jobs : []
      state.jobsFrom = 'run'
    }
  } catch (error) {
    if (!state.searching) $('search-summary').textContent = 'The jobs of the last run could not be loaded.'
    showError('Could not load the jobs of the last run', error)
  }
  renderLastRun()
  render()
}

async function search() {
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
    const body = await apiJson('GET', 'jobs')
    state.jobs = Array.isArray(body.jobs) ? body.jobs : []
    state.jobsFrom = 'search'
    renderSearchOutcome(body)
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
  render()
}

async function track(job, status, button) {
  button.disabled = true
  const name = `“${job.title}” at ${job.company}`
  try {
    // POST /jobs/track refuses a job tracked under its URL or its canonical URL (the run's rule), so tracking
    // from a list judged a while ago never makes a second application.
    const body = await apiJson('POST', 'jobs/track', {
      body: {title: job.title, company: job.company, location: job.location, url: job.url, source: job.source, status},
    })
    state.applications.push(body.application)
    Object.assign(job, {tracked_status: status, tracked_url: body.application.url, is_new: status === 'saved'})
    showMessage(`Tracked ${name} as ${status}.`)
    render()
  } catch (error) {
    showError(`Could not track ${name}`, error)
    // Another client may have tracked it meanwhile: show what the server holds now.
    await refreshTracking()
    await refresh()
  }
  focusJobRow(job)
}

/** The Track button is gone after a re-render; the keyboard focus goes to the job's new row instead of the page. */
function focusJobRow(job) {
  const row = [...$('jobs-table').tBodies[0].rows].find((candidate) => candidate.dataset.key === job.url)
  row?.focus()
}

// ---- likes and dismissals (POST and DELETE /jobs/{id}/feedback): the server ranks with them at once, so the list
// is read again after each; a dismissed job is left out of it.

const PAST_TENSE = {like: 'liked', dismiss: 'dismissed'}

async function giveVerdict(job, verdict, button) {
  button.disabled = true
  const name = `“${job.title}” at ${job.company}`
  // A dismissed job leaves the list: the keyboard focus goes to the row that takes its place.
  const place = jobRows().findIndex((row) => row.dataset.key === job.url)
  let body
  try {
    body = await apiJson('POST', `jobs/${job.id}/feedback`, {body: {verdict}})
  } catch (error) {
    showError(`Could not ${verdict} ${name}`, error)
    button.disabled = false
    return
  }
  const scored = state.jobs.some((candidate) => typeof candidate.score === 'number')
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

async function undoVerdict(job, button) {
  button.disabled = true
  const name = `“${job.title}” at ${job.company}`
  try {
    const body = await apiJson('DELETE', `jobs/${job.id}/feedback`)
    showMessage(`Took back the ${body.undone?.verdict === 'like' ? 'like' : 'dismissal'} of ${name}.`)
  } catch (error) {
    showError(`Could not undo the verdict on ${name}`, error)
    button.disabled = false
    return
  }
  await loadLastRun({replace: true})
  focusJobRow(job)
}

const jobRows = () => [...$('jobs-table').tBodies[0].rows].filter((row) => row.dataset.key)

async function saveApplication(application, controls) {
  controls.button.disabled = true
  const status = controls.status.value
  const notes = controls.notes.value
  try {
    const path = `applications/${application.id}/status`
    const body = await apiJson('PATCH', path, {body: {status, notes}})
    const updated = body?.application && typeof body.application === 'object' ? body.application : body
    const previous = body?.previous_status ?? application.status
    Object.assign(application, {status, notes}, updated?.updated_at ? {updated_at: updated.updated_at} : {})
    showMessage(`Saved “${application.title}”: ${previous} → ${status}.`)
    // The edited table keeps its rows (and any unsaved edits in other rows); counts, jobs and an open history
    // follow the change.
    renderCounts()
    renderLastRunSummary()
    renderJobs()
    await controls.reloadHistory()
  } catch (error) {
    showError(`Could not save “${application.title}”`, error)
  } finally {
    controls.button.disabled = false
  }
}

async function downloadCsv(event) {
  event.preventDefault()
  const link = event.currentTarget
  try {
    const response = await api('GET', link.getAttribute('href'), {accept: 'text/csv, application/json'})
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

// ---- rendering

function render() {
  renderCounts()
  renderLastRunSummary()
  renderJobs()
  renderApplications()
}

function renderCounts() {
  const applications = state.applications
  const known = state.applicationsLoaded
  const applied = applications.filter((application) => application.status !== 'saved').length
  $('count-total').textContent = known ? String(applications.length) : '–'
  $('count-applied').textContent = known ? String(applied) : '–'
  $('count-pending').textContent = known ? String(applications.length - applied) : '–'
  const index = applicationsByUrl()
  const fresh = state.jobs?.filter((job) => isNewJob(job, applicationOf(job, index))).length
  $('count-new').textContent = state.jobs && known ? String(fresh) : '–'
  // The Jobs tab lists the open jobs unless its filter asks for the closed ones.
  $('tab-jobs-count').textContent = state.jobs ? String(state.jobs.filter((job) => !job.closed_at).length) : ''
  $('tab-applications-count').textContent = known ? String(applications.length) : ''
}

/** The dashboard's header line: `last run 2026-11-22 07:30 (ok)`. */
function renderLastRun() {
  const run = state.run
  $('last-run').textContent = run ? `last run ${formatLocalTimestamp(run.started_at)} (${run.status})` : 'no run yet'
}

/**
 * The line above the jobs of the last run, with their count and how many are new, counted as the header counts
 * them: it follows every change (a Track, a status saved, a like or dismissal) with the rest of the page. A
 * search's outcome, or a search under way, keeps its own line.
 */
function renderLastRunSummary() {
  if (!state.jobs || state.jobsFrom !== 'run' || state.searching) return
  // The list holds the closed jobs too (for its Closed filter); the last run's are the open ones.
  const open = state.jobs.filter((job) => !job.closed_at)
  const index = applicationsByUrl()
  const fresh = open.filter((job) => isNewJob(job, applicationOf(job, index))).length
  $('search-summary').textContent =
    open.length > 0
      ? `The ${plural(open.length, 'job')} of the last run, ${fresh} new. “Search now” asks the job boards again.`
      : `${state.run ? 'The last run stored no jobs.' : 'No run yet.'} Press “Search now” to ask the job boards.`
}

function renderSearchOutcome(body) {
  const sources = Array.isArray(body.sources) ? body.sources : []
  const failed = sources.filter((source) => !source.ok).length
  const at = typeof body.searched_at === 'string' ? ` at ${formatInstant(body.searched_at)}` : ''
  $('search-summary').textContent =
    `Found ${plural(state.jobs.length, 'job')}${at} from ${plural(sources.length, 'board')}` +
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

function matchesText(record, fields, text) {
  return (
    !text ||
    fields.some((field) =>
      String(record[field] ?? '')
        .toLowerCase()
        .includes(text),
    )
  )
}

function renderJobs() {
  const table = $('jobs-table')
  const empty = $('jobs-empty')
  if (!state.jobs) return
  const fromRun = state.jobsFrom === 'run'
  $('jobs-caption').textContent = fromRun ? 'Jobs stored by the last run' : 'Jobs found by the search'
  const index = applicationsByUrl()
  const text = $('jobs-filter').value.trim().toLowerCase()
  const wanted = $('jobs-status').value
  const scored = state.jobs.some((job) => typeof job.score === 'number')
  const header = $('jobs-score-header')
  header.hidden = !scored
  header.setAttribute('aria-sort', state.scoreOrder)
  header.querySelector('.sort-mark').textContent = state.scoreOrder === 'ascending' ? '▲' : '▼'
  const wantedJobs = state.jobs.filter((job) => {
    const application = applicationOf(job, index)
    if ((wanted === 'closed') !== Boolean(job.closed_at)) return false
    if (wanted === 'new' && !isNewJob(job, application)) return false
    if (wanted === 'untracked' && application) return false
    if (STATUSES.includes(wanted) && application?.status !== wanted) return false
    return matchesText(job, ['title', 'company', 'location', 'source'], text)
  })
  // A stable sort: jobs of equal score keep the API's order.
  const rows =
    scored && state.scoreOrder === 'ascending' ? [...wantedJobs].sort((a, b) => a.score - b.score) : wantedJobs
  table.tBodies[0].replaceChildren(...rows.map((job) => jobRow(job, applicationOf(job, index), scored)))
  table.hidden = rows.length === 0
  empty.hidden = rows.length > 0
  if (state.jobs.length > 0) empty.textContent = 'No job matches the filters.'
  else empty.textContent = fromRun ? 'No jobs from the last run.' : 'The search found no jobs.'
}

function jobRow(job, application, scored) {
  const name = `${job.title} at ${job.company}`
  let action = 'Tracked'
  if (!application) {
    const status = el(
      'select',
      {'aria-label': `Status to record for ${name}`},
      ...STATUSES.map((value) => el('option', {value, selected: value === 'applied'}, value)),
    )
    const button = el('button', {type: 'button'}, 'Track', hiddenText(` ${name}`))
    button.addEventListener('click', () => track(job, status.value, button))
    action = el('div', {className: 'track'}, status, button)
  }
  const details = detailsToggle(job, name, () => row, scored ? 9 : 8)
  // Only stored jobs (the last run's) have an id to keep a verdict on; the jobs of a search have none.
  const feedback = typeof job.id === 'number' ? feedbackButtons(job, name) : null
  const row = el(
    'tr',
    {'data-key': job.url, tabindex: -1},
    scored ? scoreCell(job.score) : null,
    cell('Title', titleLink(job)),
    cell('Company', job.company),
    cell('Location', job.location || '—'),
    wideCell('Salary', formatSalary(job.salary) || '—'),
    cell('Source', job.source),
    cell('Posted', job.posted_date ? timeElement(job.posted_date, formatDate(job.posted_date)) : '—'),
    cell(
      'Status',
      application ? el('span', {className: `status status-${application.status}`}, application.status) : 'not tracked',
      isNewJob(job, application) ? el('span', {className: 'badge'}, 'new') : null,
      lifecycleBadge(job),
    ),
    cell('', el('div', {className: 'row-actions'}, action, feedback, details.button)),
  )
  return row
}

/** "Like" and "Dismiss", named for screen readers after the job they are about. */
function feedbackButtons(job, name) {
  const like = el('button', {type: 'button', className: 'like'}, 'Like', hiddenText(` ${name}`))
  const dismiss = el('button', {type: 'button', className: 'dismiss-job'}, 'Dismiss', hiddenText(` ${name}`))
  like.addEventListener('click', () => giveVerdict(job, 'like', like))
  dismiss.addEventListener('click', () => giveVerdict(job, 'dismiss', dismiss))
  return el('div', {className: 'feedback', role: 'group', 'aria-label': `Like or dismiss ${name}`}, like, dismiss)
}

/** "closed" for a job no board lists any more, "reposted 3×" for a role that came back; nothing otherwise. */
function lifecycleBadge(job) {
  if (job.closed_at) return el('span', {className: 'badge closed'}, 'closed')
  if (job.reposted > 0) return el('span', {className: 'badge reposted'}, `reposted ${job.reposted}×`)
  return null
}

/** A cell of a column shown only where the screen is wide enough (the Salary column). */
function wideCell(label, ...content) {
  const node = cell(label, ...content)
  node.classList.add('wide-only')
  return node
}

/** A job's score out of 100, in the column shown when the jobs are scored. */
function scoreCell(score) {
  const node = cell('Score', typeof score === 'number' ? String(score) : '—')
  node.classList.add('score')
  return node
}

let detailIds = 0

/**
 * The "Details" button of a job row and the row it opens below: the score and its reasons (with a profile), salary,
 * type, workplace, seniority, tags and the description, from the job the list already holds.
 */
function detailsToggle(job, name, jobRowOf, columns) {
  const id = `job-detail-${++detailIds}`
  const facts = jobFacts(job)
  const row = el(
    'tr',
    {className: 'detail-row', id},
    el(
      'td',
      {colspan: columns},
      el('h3', {}, name),
      typeof job.score === 'number' ? scoreDetail(job) : null,
      facts.length > 0
        ? el('dl', {className: 'facts'}, ...facts.flatMap(([label, text]) => [el('dt', {}, label), el('dd', {}, text)]))
        : null,
      job.description
        ? el('div', {className: 'description'}, job.description)
        : el('p', {className: 'empty'}, 'No description from the board.'),
    ),
  )
  const button = el('button', {type: 'button', 'aria-expanded': 'false'}, 'Details', hiddenText(` of ${name}`))
  button.addEventListener('click', () => {
    const open = !row.isConnected
    if (open) {
      jobRowOf().after(row)
      button.setAttribute('aria-controls', id)
    } else {
      row.remove()
      button.removeAttribute('aria-controls')
    }
    button.setAttribute('aria-expanded', String(open))
  })
  return {button}
}

/** `Score: 72 of 100` and the reasons the server gave, one to a line: `+ typescript (title)`, `- php (description)`. */
function scoreDetail(job) {
  const reasons = Array.isArray(job.reasons) ? job.reasons : []
  // The scorer's reason lines: `+`/`~` count for the job, `-` and gates against it (docs/MATCHING.md).
  const tone = (reason) =>
    /^[+~] /.test(reason) ? 'for' : reason.startsWith('- ') || reason.startsWith('gate: ') ? 'against' : 'other'
  return el(
    'div',
    {className: 'score-detail'},
    el('p', {}, 'Score: ', el('strong', {}, String(job.score)), ' of 100'),
    reasons.length > 0
      ? el(
          'ul',
          {className: 'reasons', 'aria-label': 'Reasons for the score'},
          ...reasons.map((reason) => el('li', {className: tone(reason)}, String(reason))),
        )
      : null,
  )
}

function renderApplications() {
  const table = $('applications-table')
  const empty = $('applications-empty')
  const text = $('applications-filter').value.trim().toLowerCase()
  const wanted = $('applications-status').value
  const rows = state.applications.filter(
    (application) =>
      (!wanted || application.status === wanted) &&
      matchesText(application, ['title', 'company', 'location', 'notes', 'source', 'url'], text),
  )
  table.tBodies[0].replaceChildren(...rows.map(applicationRow))
  table.hidden = rows.length === 0
  empty.hidden = rows.length > 0
  if (!state.applicationsLoaded) empty.textContent = 'Applications are not loaded.'
  else if (state.applications.length === 0) empty.textContent = 'No applications yet: track a job from the Jobs tab.'
  else empty.textContent = 'No application matches the filters.'
}

function applicationRow(application) {
  const name = `${application.title} at ${application.company}`
  const status = el(
    'select',
    {'aria-label': `Status of ${name}`},
    ...STATUSES.map((value) => el('option', {value, selected: value === application.status}, value)),
  )
  const notes = el('textarea', {rows: 2, 'aria-label': `Notes for ${name}`})
  notes.value = application.notes ?? ''
  const button = el('button', {type: 'button'}, 'Save', hiddenText(` ${name}`))
  const history = historyToggle(application, name, () => row)
  button.addEventListener('click', () =>
    saveApplication(application, {status, notes, button, reloadHistory: history.reload}),
  )
  const edit = el('button', {type: 'button', className: 'edit'}, 'Edit', hiddenText(` ${name}`))
  edit.addEventListener('click', () => editApplication(application, row))
  const remove = el('button', {type: 'button', className: 'remove'}, 'Remove', hiddenText(` ${name}`))
  remove.addEventListener('click', () => removeApplication(application, remove))
  const row = el(
    'tr',
    {'data-id': application.id},
    cell('ID', el('span', {className: 'application-id'}, `#${application.id}`)),
    cell('Title', titleLink(application)),
    cell('Company', application.company),
    cell(
      'Status',
      status,
      followUpBadge(application),
      application.posting_closed_at ? el('span', {className: 'badge closed'}, 'posting closed') : null,
    ),
    cell('Applied', timeElement(application.applied_date, formatLocalTimestamp(application.applied_date))),
    cell('Notes', notes),
    cell('', el('div', {className: 'row-actions'}, button, history.button, edit, remove)),
  )
  return row
}

// ---- edit and remove (PATCH and DELETE /applications/{id}, POST /applications/{id}/restore): each is an entry in
// the application's history; a removed application leaves the lists and counts, and Undo brings it back.

const openEditor = setupEditDialog()

async function editApplication(application, row) {
  const saved = await openEditor(application)
  const historyWasOpen = row.nextElementSibling?.classList.contains('history-row') ?? false
  if (!saved) {
    row.querySelector('button.edit')?.focus()
    return
  }
  Object.assign(application, saved.updated)
  const fields = saved.changed.map((field) => field.replace('_', ' '))
  showMessage(`Edited #${application.id} “${application.title}”: ${fields.join(', ')}.`)
  // The row is drawn again with the new fields (other rows keep any unsaved edits); an open history follows.
  const fresh = applicationRow(application)
  if (historyWasOpen) row.nextElementSibling.remove()
  row.replaceWith(fresh)
  if (historyWasOpen) fresh.querySelector('button[aria-expanded]')?.click()
  fresh.querySelector('button.edit')?.focus()
  // A new URL may match other found jobs, or no longer match the one it did.
  if (saved.changed.includes('url')) {
    await refreshTracking()
    renderCounts()
    renderLastRunSummary()
    renderJobs()
  }
}

async function removeApplication(application, button) {
  button.disabled = true
  const name = `#${application.id} “${application.title}” at ${application.company}`
  try {
    await apiJson('DELETE', `applications/${application.id}`)
  } catch (error) {
    showError(`Could not remove ${name}`, error)
    button.disabled = false
    return
  }
  const undo = el('button', {type: 'button', className: 'undo'}, 'Undo', hiddenText(` the removal of ${name}`))
  undo.addEventListener('click', () => restoreApplication(application, name, undo))
  showMessage(`Removed ${name} from lists and stats.`, {actions: [undo]})
  await refreshAll()
  undo.focus()
}

async function restoreApplication(application, name, button) {
  button.disabled = true
  try {
    await apiJson('POST', `applications/${application.id}/restore`)
  } catch (error) {
    showError(`Could not restore ${name}`, error)
    button.disabled = false
    return
  }
  showMessage(`Restored ${name}.`)
  await refreshAll()
  $('applications-table').querySelector(`tr[data-id="${application.id}"] button.edit`)?.focus()
}

/** The applications and whether each found job is tracked, read again, then everything drawn. */
async function refreshAll() {
  await refreshTracking()
  await refresh()
}

/** "follow up: 9 days without news" for an application due for a follow-up (GET /applications/followups). */
function followUpBadge(application) {
  const due = state.followUps?.get(application.url)
  if (!due) return null
  return el('span', {className: 'badge follow-up'}, `follow up: ${plural(due.days_waiting, 'day')} without news`)
}

let historyIds = 0

/**
 * The "History" button of an application row and the detail row it opens below: every status change, oldest
 * first, from GET /applications/{url}. The detail row exists only while open, so the table holds one row per
 * application otherwise. `reload` refreshes an open history (after a save).
 */
function historyToggle(application, name, applicationRowOf) {
  const id = `history-${++historyIds}`
  const list = el('div', {className: 'history-body'})
  const row = el(
    'tr',
    {className: 'history-row', id},
    el('td', {colspan: 7}, el('h3', {}, `Status history of ${name}`), list),
  )
  const button = el('button', {type: 'button', 'aria-expanded': 'false'}, 'History')
  button.append(hiddenText(` of ${name}`))
  const load = async () => {
    list.replaceChildren(el('p', {}, 'Loading the history…'))
    row.setAttribute('aria-busy', 'true')
    try {
      const body = await apiJson('GET', `applications/${application.id}`)
      list.replaceChildren(historyList(Array.isArray(body.history) ? body.history : []))
    } catch (error) {
      list.replaceChildren(el('p', {}, 'The history could not be loaded.'))
      showError(`Could not load the history of “${application.title}”`, error)
    } finally {
      row.removeAttribute('aria-busy')
    }
  }
  button.addEventListener('click', () => {
    const open = !row.isConnected
    if (open) {
      applicationRowOf().after(row)
      button.setAttribute('aria-controls', id)
      load()
    } else {
      row.remove()
      button.removeAttribute('aria-controls')
    }
    button.setAttribute('aria-expanded', String(open))
  })
  return {button, reload: async () => (row.isConnected ? load() : undefined)}
}

function historyList(history) {
  if (history.length === 0) return el('p', {className: 'empty'}, 'No status changes yet.')
  return el(
    'ol',
    {className: 'history'},
    ...history.map((change) =>
      el(
        'li',
        {},
        timeElement(change.changed_at, formatLocalTimestamp(change.changed_at)),
        ' ',
        // An edit of the notes alone, an edit of fields, a removal keep the status: each is shown as what it changed.
        ...describeEntry(change),
        change.old_notes ? el('span', {className: 'old-notes'}, `notes before: ${change.old_notes}`) : null,
      ),
    ),
  )
}

// ---- statistics: GET /stats, loaded each time the Stats tab opens or its period changes

let statsRequest = 0

async function loadStats() {
  const request = ++statsRequest
  const since = $('stats-since').value
  $('stats-summary').textContent = 'Counting the applications…'
  try {
    const stats = await apiJson('GET', since ? `stats?since=${encodeURIComponent(since)}` : 'stats')
    // A slower answer for a period chosen before must not replace the one shown.
    if (request === statsRequest) renderStats(stats)
  } catch (error) {
    if (request !== statsRequest) return
    $('stats-summary').textContent = 'The statistics could not be loaded.'
    showError('Could not load the statistics', error)
  }
}

function renderStats(stats) {
  const funnel = Array.isArray(stats.funnel) ? stats.funnel : []
  const counted = stats.total > 0
  $('stats-figure').hidden = !counted
  $('stats-groups').hidden = !counted
  if (!counted) {
    $('stats-summary').textContent = $('stats-since').value
      ? 'No application was applied for in this period.'
      : 'No applications yet: track a job from the Jobs tab.'
    return
  }
  const median = stats.median_days_to_response
  $('stats-summary').textContent =
    `${plural(stats.total, 'application')}. Response rate ${formatRate(stats.response_rate)} ` +
    `(${stats.responded} of ${stats.applied} applied for moved on, rejections included). ` +
    (typeof median === 'number' ? `Median time to first response: ${median} days.` : 'No response time known yet.')
  $('stats-funnel').replaceChildren(funnelChart(funnel))
  fillGroups($('stats-sources'), 'Source', Array.isArray(stats.by_source) ? stats.by_source : [], (g) => g.source)
  fillGroups($('stats-months'), 'Month', Array.isArray(stats.by_month) ? stats.by_month : [], (g) => g.month)
}

const CHART = {width: 640, row: 40, label: 120, bar: 22, trail: 150}

/** The funnel as horizontal bars, one per stage, each as long as its count beside the first stage's. */
function funnelChart(funnel) {
  const most = Math.max(1, ...funnel.map((step) => step.count))
  const room = CHART.width - CHART.label - CHART.trail
  const height = funnel.length * CHART.row
  const value = (step) =>
    step.conversion === null ? String(step.count) : `${step.count} (${formatRate(step.conversion)})`
  return svg(
    'svg',
    {
      viewBox: `0 0 ${CHART.width} ${height}`,
      className: 'funnel-chart',
      role: 'img',
      'aria-label': `Funnel: ${funnel.map((step) => `${step.stage} ${value(step)}`).join(', ')}`,
    },
    ...funnel.map((step, index) => {
      const y = index * CHART.row
      const length = Math.round((step.count / most) * room)
      return svg(
        'g',
        {className: `funnel-step stage-${step.stage}`, 'data-stage': step.stage},
        svg('text', {x: CHART.label - 10, y: y + CHART.row / 2, className: 'funnel-label'}, step.stage),
        svg('rect', {
          x: CHART.label,
          y: y + (CHART.row - CHART.bar) / 2,
          width: length,
          height: CHART.bar,
          rx: 3,
          className: 'funnel-bar',
        }),
        svg('text', {x: CHART.label + length + 8, y: y + CHART.row / 2, className: 'funnel-value'}, value(step)),
      )
    }),
  )
}

function fillGroups(table, label, groups, key) {
  const stage = (group, index) => String(group.funnel?.[index]?.count ?? 0)
  table.tBodies[0].replaceChildren(
    ...groups.map((group) =>
      el(
        'tr',
        {},
        cell(label, String(key(group))),
        cell('Total', String(group.total)),
        cell('Applied', stage(group, 1)),
        cell('Interviewing', stage(group, 2)),
        cell('Offer', stage(group, 3)),
        cell('Accepted', stage(group, 4)),
        cell('Response rate', formatRate(group.response_rate)),
        cell(
          'Median days to response',
          typeof group.median_days_to_response === 'number' ? String(group.median_days_to_response) : '–',
        ),
      ),
    ),
  )
  table.hidden = groups.length === 0
}

// ---- wiring

function setupTabs() {
  const tabs = [...document.querySelectorAll('[role="tab"]')]
  const choose = (chosen, focus) => {
    for (const tab of tabs) {
      const selected = tab === chosen
      tab.setAttribute('aria-selected', String(selected))
      tab.tabIndex = selected ? 0 : -1
      $(tab.getAttribute('aria-controls')).hidden = !selected
    }
    if (focus) chosen.focus()
    if (chosen.id === 'tab-stats') loadStats()
  }
  tabs.forEach((tab, index) => {
    tab.addEventListener('click', () => choose(tab, false))
    tab.addEventListener('keydown', (event) => {
      const target = {ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1}[event.key]
      if (target === undefined) return
      event.preventDefault()
      choose(tabs[(target + tabs.length) % tabs.length], true)
    })
  })
}

function init() {
  for (const value of STATUSES) {
    $('applications-status').append(el('option', {value}, value))
    $('jobs-status').append(el('option', {value}, `Tracked as ${value}`))
  }
  for (const tab of ['jobs', 'applications']) {
    $(`tab-${tab}`).append(' ', el('span', {className: 'tab-count', id: `tab-${tab}-count`}))
    $(`${tab}-filter`).addEventListener('input', render)
    $(`${tab}-status`).addEventListener('change', render)
  }
  setupTabs()
  $('search-button').addEventListener('click', search)
  $('jobs-score-sort').addEventListener('click', () => {
    state.scoreOrder = state.scoreOrder === 'descending' ? 'ascending' : 'descending'
    renderJobs()
  })
  $('stats-since').addEventListener('change', loadStats)
  $('export-link').addEventListener('click', downloadCsv)
  $('token-form').addEventListener('submit', submitToken)
  onTokenNeeded(askForToken)
  refresh()
  loadLastRun()
}

init()
