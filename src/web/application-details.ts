// The details of an application (GET /applications/{id}), opened below its row: its salary and referral, its
// contacts (added with POST and removed with DELETE /applications/{id}/contacts) and its interviews (added with
// POST /applications/{id}/interviews). Salary and referral are edited in the Edit dialog.
import {DOCUMENT_LABELS, documentLine, nextActionLine} from '../core/applications/application-lines.js'
import {INTERVIEW_KINDS, interviewLine} from '../core/applications/interview-fields.js'
import {api, apiJson} from './api.js'
import type {ApplicationWithHistory, Contact, InterviewAdded, TrackedApplication} from './api-types.js'
import {type Child, el, factList, hiddenText, toggleRowBelow} from './dom.js'
import {showError, showMessage} from './messages.js'

/** What the details of an application can change beyond themselves: its record, after an interview moved it on. */
type Changed = (updated: TrackedApplication) => void

interface Shown {
  application: ApplicationWithHistory
  name: string
  reload: () => Promise<void>
  changed: Changed
}

/**
 * The rows the details list, in order, each a label and what it shows (nothing leaves the row out): a field of
 * the application is one more entry here.
 */
const DETAIL_ROWS: readonly [label: string, value: (shown: Shown) => Child][] = [
  ['Salary expected', ({application}) => application.salary_expected],
  ['Salary offered', ({application}) => application.salary_offered],
  ['Referral', ({application}) => application.referral],
  ['Next action', ({application}) => (application.next_action ? nextActionLine(application) : '')],
  ['Documents', documentsDetail],
  ['Contacts', contactsDetail],
  ['Interviews', interviewsDetail],
]

function contactsDetail(shown: Shown): HTMLElement {
  const {application, name} = shown
  const items = application.contacts.map((contact) => {
    const remove = el('button', {type: 'button', className: 'remove'}, 'Remove', hiddenText(` ${contact.name}`))
    remove.addEventListener('click', () => removeContact(shown, contact, remove))
    return el('li', {}, [contact.name, contact.role, contact.reach].filter(Boolean).join(', '), ' ', remove)
  })
  const fields = {
    name: input('Name', {required: true}),
    role: input('Role', {placeholder: 'recruiter'}),
    reach: input('Email or link', {placeholder: 'ann@example.org'}),
  }
  const form = el(
    'form',
    {className: 'inline-form', 'aria-label': `Add a contact to ${name}`},
    ...Object.values(fields).map((field) => field.label),
    el('button', {type: 'submit'}, 'Add contact'),
  )
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const body = Object.fromEntries(
      Object.entries(fields)
        .map(([key, field]) => [key, field.input.value.trim()])
        .filter(([, value]) => value),
    )
    await submit(form, `Could not add the contact to “${application.title}”`, async () => {
      const added = await apiJson<Contact>('POST', `applications/${application.id}/contacts`, {body})
      showMessage(`Added ${added.name} to the contacts of #${application.id} “${application.title}”.`)
      await shown.reload()
    })
  })
  return el(
    'div',
    {},
    items.length > 0 ? el('ul', {className: 'detail-list contacts'}, ...items) : el('p', {}, 'No contacts yet.'),
    form,
  )
}

function documentsDetail({application}: Shown): Child {
  if (application.documents.length === 0) return ''
  return el(
    'ul',
    {},
    ...application.documents.map((document) =>
      el('li', {}, `${DOCUMENT_LABELS[document.kind]}: ${documentLine(document)}`),
    ),
  )
}

function interviewsDetail(shown: Shown): HTMLElement {
  const {application, name} = shown
  const fields = {
    starts_at: input('When', {type: 'datetime-local', required: true}),
    time_zone: input('Time zone', {value: Intl.DateTimeFormat().resolvedOptions().timeZone}),
    // One person: a contact's exact name or number is that contact, any other text is kept as written.
    with: input('With', {placeholder: 'a contact, or anyone'}),
  }
  const kind = el(
    'select',
    {name: 'kind'},
    el('option', {value: ''}, 'any kind'),
    ...INTERVIEW_KINDS.map((value) => el('option', {value}, value)),
  )
  const form = el(
    'form',
    {className: 'inline-form', 'aria-label': `Add an interview to ${name}`},
    fields.starts_at.label,
    fields.time_zone.label,
    el('label', {}, 'Kind', kind),
    fields.with.label,
    el('button', {type: 'submit'}, 'Add interview'),
  )
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const body: Record<string, string> = {}
    for (const [key, field] of Object.entries(fields))
      if (field.input.value.trim()) body[key] = field.input.value.trim()
    if (kind.value) body.kind = kind.value
    await submit(form, `Could not add the interview to “${application.title}”`, async () => {
      const added = await apiJson<InterviewAdded>('POST', `applications/${application.id}/interviews`, {body})
      const moved = added.previous_status === added.application.status ? '' : ` It is ${added.application.status} now.`
      showMessage(`Added the interview of ${interviewLine(added.interview)} to #${application.id}.${moved}`)
      shown.changed(added.application)
      await shown.reload()
    })
  })
  const items = application.interviews.map((interview) => {
    const line = interviewLine(interview)
    const remove = el(
      'button',
      {type: 'button', className: 'remove'},
      'Remove',
      hiddenText(` the interview of ${line}`),
    )
    remove.addEventListener('click', () => removeInterview(shown, interview, line, remove))
    return el('li', {}, line, ' ', remove)
  })
  return el(
    'div',
    {},
    items.length > 0 ? el('ul', {className: 'detail-list interviews'}, ...items) : el('p', {}, 'No interviews yet.'),
    form,
  )
}

/** A labelled input; the label holds it, so the pair wraps as one on a narrow screen. */
function input(
  text: string,
  props: Record<string, string | boolean>,
): {label: HTMLLabelElement; input: HTMLInputElement} {
  const field = el('input', props)
  return {label: el('label', {}, text, field), input: field}
}

/** Runs `send` with the form's buttons off; a refusal is shown with the server's words and hint. */
async function submit(form: HTMLFormElement, what: string, send: () => Promise<void>): Promise<void> {
  const buttons = [...form.querySelectorAll('button')]
  for (const button of buttons) button.disabled = true
  try {
    await send()
  } catch (error) {
    showError(what, error)
  } finally {
    for (const button of buttons) button.disabled = false
  }
}

async function removeContact(shown: Shown, contact: Contact, button: HTMLButtonElement): Promise<void> {
  button.disabled = true
  const {application} = shown
  try {
    await apiJson('DELETE', `applications/${application.id}/contacts/${contact.id}`)
    showMessage(`Removed ${contact.name} from the contacts of #${application.id} “${application.title}”.`)
    await shown.reload()
  } catch (error) {
    showError(`Could not remove ${contact.name}`, error)
    button.disabled = false
  }
}

async function removeInterview(
  shown: Shown,
  interview: {id: number},
  line: string,
  button: HTMLButtonElement,
): Promise<void> {
  button.disabled = true
  const {application} = shown
  try {
    await api('DELETE', `applications/${application.id}/interviews/${interview.id}`)
    showMessage(`Removed the interview of ${line} from #${application.id} “${application.title}”.`)
    await shown.reload()
  } catch (error) {
    showError('Could not remove the interview', error)
    button.disabled = false
  }
}

let detailIds = 0

/**
 * The "Details" button of an application row and the row it opens below, read afresh each time it opens.
 * `changed` receives the record when an added interview changed it.
 */
export function applicationDetailsToggle(
  application: TrackedApplication,
  name: string,
  applicationRowOf: () => HTMLTableRowElement,
  changed: Changed,
): HTMLButtonElement {
  const id = `application-detail-${++detailIds}`
  const body = el('div', {className: 'application-detail-body'})
  const row = el(
    'tr',
    {className: 'detail-row application-detail', id},
    el('td', {colspan: 7}, el('h3', {}, name), body),
  )
  const load = async () => {
    row.setAttribute('aria-busy', 'true')
    try {
      const loaded = await apiJson<ApplicationWithHistory>('GET', `applications/${application.id}`)
      const shown: Shown = {application: loaded, name, reload: load, changed}
      body.replaceChildren(
        factList(
          DETAIL_ROWS.map(([label, value]) => [label, value(shown)]),
          `Details of ${name}`,
        ),
      )
    } catch (error) {
      body.replaceChildren(el('p', {}, 'The details could not be loaded.'))
      showError(`Could not load the details of “${application.title}”`, error)
    } finally {
      row.removeAttribute('aria-busy')
    }
  }
  const button = el('button', {type: 'button', className: 'details'}, 'Details', hiddenText(` of ${name}`))
  toggleRowBelow(button, row, applicationRowOf, () => {
    body.replaceChildren(el('p', {}, 'Loading the details…'))
    load()
  })
  return button
}
