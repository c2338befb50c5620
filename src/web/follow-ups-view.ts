// The Follow-ups tab: the applications due for a follow-up (GET /applications/followups), longest waiting first as
// the API lists them, and every interview (GET /interviews?all=true), upcoming soonest first, then past ones. Both
// are read with the applications, so a change made on the page shows here too.
import {interviewLine, interviewWho} from '../core/applications/interview-fields.js'
import {apiJson} from './api.js'
import {$, cell, el, hiddenText, plural, titleLink} from './dom.js'
import {showError, showMessage} from './messages.js'
import {type Page, state} from './page-state.js'

/** The days a follow-up is put off by the tab's button: a week, the wait `followups.after_days` has by default. */
const SNOOZE_DAYS = 7

let page: Page | undefined

/** Wires the tab to the page, which reads everything again after a snooze. */
export function setupFollowUpsView(whole: Page): void {
  page = whole
}

/** A due application's "Snooze a week" button: POST /applications/{url}/snooze, then the page read again. */
function snoozeButton(application: {id: number; title: string}): HTMLButtonElement {
  const button = el(
    'button',
    {type: 'button', className: 'snooze'},
    'Snooze a week',
    hiddenText(` #${application.id} ${application.title}`),
  )
  button.addEventListener('click', async () => {
    button.disabled = true
    try {
      const snoozed = await apiJson<{snoozed_until: string}>('POST', `applications/${application.id}/snooze`, {
        body: {days: SNOOZE_DAYS},
      })
      showMessage(`Snoozed #${application.id} “${application.title}” until ${snoozed.snoozed_until.slice(0, 10)}.`)
      await page?.refresh()
    } catch (error) {
      showError(`Could not snooze #${application.id}`, error)
      button.disabled = false
    }
  })
  return button
}

/** `#12 Platform Engineer` (linked) `at Initech`: an application in a list of another kind. */
function applicationCell(application: {id: number; title: string; company: string; url: string}) {
  return cell(
    'Application',
    el('span', {className: 'application-id'}, `#${application.id}`),
    ' ',
    titleLink(application),
    ` at ${application.company}`,
  )
}

export function renderFollowUps(): void {
  const due = [...state.followUps.values()]
  const followUps = $<HTMLTableElement>('follow-ups-table')
  followUps.tBodies[0]!.replaceChildren(
    ...due.map((application) =>
      el(
        'tr',
        {'data-id': application.id},
        applicationCell(application),
        cell('Status', el('span', {className: `status status-${application.status}`}, application.status)),
        cell(
          'Waiting',
          `${plural(application.days_waiting, 'day')} without news`,
          application.suggest_ghosted ? el('span', {className: 'badge'}, 'posting closed: ghosted?') : null,
        ),
        cell('Snooze', snoozeButton(application)),
      ),
    ),
  )
  followUps.hidden = due.length === 0
  $('follow-ups-empty').hidden = due.length > 0

  const interviews = $<HTMLTableElement>('interviews-table')
  interviews.tBodies[0]!.replaceChildren(
    ...state.interviews.map((interview) =>
      el(
        'tr',
        {'data-id': interview.id},
        cell(
          'When',
          el(
            'time',
            {datetime: interview.starts_at_utc},
            interviewLine({...interview, kind: null, with: '', interviewers: []}),
          ),
        ),
        applicationCell(interview.application),
        cell('Kind', interview.kind ?? '—'),
        cell('With', interviewWho(interview) || '—'),
      ),
    ),
  )
  interviews.hidden = state.interviews.length === 0
  $('interviews-empty').hidden = state.interviews.length > 0
  $('tab-follow-ups-count').textContent = state.applicationsLoaded ? String(due.length) : ''
  if (!state.applicationsLoaded) {
    $('follow-ups-empty').textContent = 'Follow-ups are not loaded.'
    $('interviews-empty').textContent = 'Interviews are not loaded.'
  } else {
    $('follow-ups-empty').textContent = 'No application is due for a follow-up.'
    $('interviews-empty').textContent = "No interviews yet: add one from an application's Details."
  }
}
