import {afterEach, describe, expect, it} from 'vitest'
import {type Home, job, KEYS, renderDashboard, saveRun, tempHome, track} from './harness.js'

let home: Home | undefined
let unmount: (() => void) | undefined

afterEach(async () => {
  unmount?.()
  unmount = undefined
  await home?.cleanup()
  home = undefined
})

/**
 * #1 with a salary, a referral, a next action, a document, two contacts and an interview, and #2 with none of them; the clock is set, so the
 * interview is upcoming whatever the day the test runs.
 */
async function dashboard(size?: {columns: number; rows: number}) {
  home = tempHome({}, {JOBAGENT_NOW: '2026-12-01T09:00:00'})
  const {context} = home
  await saveRun(context, [job(1), job(2)])
  await track(context, job(1), 'applied')
  await track(context, job(2), 'saved')
  await context.applications.edit('1', {salary_expected: '€70k', salary_offered: '€75k', referral: 'Bob Stone'})
  await context.contacts.add('1', {name: 'Ann Lee', role: 'recruiter', email: 'ann@example.org'})
  await context.contacts.add('1', {name: 'Raj Patel', link: 'https://example.org/raj'})
  await context.interviews.schedule('1', {
    starts_at: '2026-12-03 14:00',
    time_zone: 'Europe/Berlin',
    kind: 'video',
    with: 'Ann Lee',
  })
  await context.applications.setNext('1', {action: 'send portfolio', due: '2026-12-05'})
  await context.applications.recordDocuments('1', [
    {kind: 'cv', path: '/home/ann/cv.pdf', sha256: 'ab'.repeat(32), copy: null, recorded_at: '2026-12-01T09:00:00'},
  ])
  const ui = renderDashboard(context)
  unmount = ui.unmount
  if (size) ui.resize(size.columns, size.rows)
  await ui.until('row 1 of 2')
  ui.press(KEYS.tab)
  await ui.until('[Applications 2]')
  return ui
}

const lines = (frame: string) => frame.split('\n')

describe('dashboard: the application pane', () => {
  it('shows the salary, referral, contacts and interviews of the selected application', async () => {
    const ui = await dashboard()
    // Applications are listed newest first: #2 leads, #1 follows.
    ui.press(KEYS.down, KEYS.enter)
    await ui.until('Interviews: ')
    const frame = lines(ui.frame()).map((line) => line.trimEnd())
    const from = frame.findIndex((line) => line.startsWith('Salary: '))
    expect(frame.slice(from, from + 7)).toEqual([
      'Salary: expected €70k · offered €75k',
      'Referral: Bob Stone',
      'Next: send portfolio (due 2026-12-05)',
      'Documents: cv: /home/ann/cv.pdf (sha256 abababababab)',
      'Contacts: Ann Lee · recruiter · ann@example.org',
      '          Raj Patel · https://example.org/raj',
      'Interviews: 2026-12-03 14:00 Europe/Berlin · video · with Ann Lee (recruiter)',
    ])
    expect(ui.frame()).toContain('Status: interviewing')

    // An application without them leaves the rows out rather than showing empty ones.
    ui.press(KEYS.up)
    await ui.until('Status: saved')
    expect(ui.frame()).not.toMatch(/^(Salary|Referral|Next|Documents|Contacts|Interviews): /m)
  })

  it('fits them into 80x24 without a line wider than the terminal', async () => {
    const ui = await dashboard({columns: 80, rows: 24})
    ui.press(KEYS.down, KEYS.enter)
    await ui.until('Interviews: ')
    const frame = lines(ui.frame())
    expect(Math.max(...frame.map((line) => line.length))).toBeLessThanOrEqual(80)
    expect(frame.length).toBeLessThanOrEqual(24)
    expect(frame.some((line) => line.startsWith('Salary: expected €70k · offered €75k'))).toBe(true)
    expect(frame.some((line) => line.startsWith('Contacts: Ann Lee · recruiter · ann@example.org'))).toBe(true)
  })
})
