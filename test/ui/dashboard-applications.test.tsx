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

const TRACKED = 'https://board.example/jobs/5'

/**
 * A run whose job 5 links with `?utm_source=feed` to the application tracked without it (#1), and a second
 * application (#2, Engineer 2); the dashboard opens on the Applications view when `applications` says so.
 */
async function dashboard(options: {applications?: boolean} = {}) {
  home = tempHome()
  await saveRun(home.context, [job(5, {url: `${TRACKED}?utm_source=feed`}), job(2), job(3)])
  await track(home.context, job(5, {url: TRACKED}), 'applied', 'sent CV')
  await track(home.context, job(2), 'saved')
  const ui = renderDashboard(home.context)
  unmount = ui.unmount
  await ui.until('row 1 of 3')
  if (options.applications) {
    ui.press(KEYS.tab)
    await ui.until('[Applications 2]')
  }
  return {ui, context: home.context}
}

describe('dashboard: applications by id, edit and remove', () => {
  it('shows the short id first in the Applications view', async () => {
    const {ui} = await dashboard({applications: true})
    const lines = ui.frame().split('\n')
    expect(lines.find((line) => line.includes('TITLE'))).toMatch(/^ {2}ID +TITLE +COMPANY/)
    expect(lines.filter((line) => /^. #\d/.test(line)).map((line) => line.slice(0, 16))).toEqual([
      '› #2 Engineer 2 ',
      '  #1 Engineer 5 ',
    ])
  })

  it('shows a job whose link adds ?utm_source= to a tracked URL as tracked, and a says it is tracked as #1', async () => {
    const {ui, context} = await dashboard()
    const row = ui
      .frame()
      .split('\n')
      .find((line) => line.includes('Engineer 5'))
    expect(row).toMatch(/applied$/)
    // Tracked and not new, the job is listed last.
    ui.press(KEYS.end, 'a')
    await ui.until('Already tracked as #1 (status: applied); s changes its status')
    expect((await context.applications.counts()).total).toBe(2)
  })

  it('says already tracked as #N when the job was tracked elsewhere under its plain link after the dashboard read it', async () => {
    home = tempHome()
    const plain = 'https://board.example/jobs/9'
    await saveRun(home.context, [job(9, {url: `${plain}?utm_campaign=x&ref=feed`})])
    const ui = renderDashboard(home.context)
    unmount = ui.unmount
    await ui.until('row 1 of 1')
    await track(home.context, job(9, {url: plain}), 'saved')
    ui.press('a')
    await ui.until('as:')
    ui.press(KEYS.enter, KEYS.enter)
    await ui.until(/is already tracked as #1\s+https:\/\/board\.example\/jobs\/9 \(status: saved\)/)
    expect((await home.context.applications.list()).applications.map((application) => application.url)).toEqual([plain])
  })

  it('edits an application field by field with E, only the changed fields, and shows the edit in its history', async () => {
    const {ui, context} = await dashboard({applications: true})
    ui.press('j', 'E')
    await ui.until('Edit #1 Engineer 5 at Company 5 · Title (1/8): Engineer 5█')
    ui.press('\u0015', 'Staff Engineer', KEYS.enter)
    await ui.until('Company (2/8): Company 5█')
    ui.press(KEYS.enter, KEYS.enter, KEYS.enter)
    await ui.until(`URL (5/8): ${TRACKED}█`)
    ui.press(KEYS.up)
    await ui.until('Source (4/8): remoteok█')
    ui.press(KEYS.enter, KEYS.enter, '€80k', KEYS.enter)
    await ui.until('Salary offered (7/8): █')
    ui.press(KEYS.enter)
    await ui.until('Referral (8/8): █')
    ui.press('Ana Silva', KEYS.enter)
    await ui.until('Edited #1 Engineer 5 at Company 5: title, salary expected, referral')
    const {application, history} = await context.applications.get('1')
    expect(application).toMatchObject({
      title: 'Staff Engineer',
      salary_expected: '€80k',
      referral: 'Ana Silva',
      url: TRACKED,
      notes: 'sent CV',
    })
    expect(history).toMatchObject([
      {
        change: 'edit',
        details: {
          title: {from: 'Engineer 5', to: 'Staff Engineer'},
          salary_expected: {to: '€80k'},
          referral: {to: 'Ana Silva'},
        },
      },
    ])
    expect(ui.selected()).toMatch(/^› #1 +Staff Engineer/)
    ui.press(KEYS.enter)
    await ui.until('History: 1 change(s)')
    expect(ui.frame()).toContain('edited title "Engineer 5" → "Staff Engineer", salary_expected "" → "€80k')
  })

  it('refuses a URL tracked as another application with the conflict in the message line, and cancels on Esc', async () => {
    const {ui, context} = await dashboard({applications: true})
    ui.press('E', KEYS.enter, KEYS.enter, KEYS.enter, KEYS.enter)
    await ui.until('URL (5/8): https://board.example/jobs/2█')
    ui.press('\u0015', `${TRACKED}/?utm_source=x`, KEYS.enter, KEYS.enter, KEYS.enter, KEYS.enter)
    await ui.until(`Error: already tracked as #1 ${TRACKED} (status: applied)`)
    expect((await context.applications.get('2')).application.url).toBe(job(2).url)

    ui.press('E', 'x', KEYS.escape)
    await ui.until('Edit cancelled')
    ui.press('E', KEYS.enter, KEYS.enter, KEYS.enter, KEYS.enter, KEYS.enter, KEYS.enter, KEYS.enter, KEYS.enter)
    await ui.until('Nothing changed for #2 Engineer 2 at Company 2')
    expect((await context.applications.get('2')).history).toEqual([])
  })

  it('removes an application with x after y, brings it back with u, and both are in its history', async () => {
    const {ui, context} = await dashboard({applications: true})
    ui.press('x')
    await ui.until('Remove #2 Engineer 2 at Company 2 from lists and stats? y removes · any other key keeps it')
    ui.press('n')
    await ui.until('Kept #2 Engineer 2 at Company 2')
    expect((await context.applications.get('2')).application.removed_at).toBeNull()

    ui.press('x', 'y')
    await ui.until('Removed #2 Engineer 2 at Company 2 from lists and stats; u brings it back')
    await ui.until('[Applications 1]')
    expect(ui.frame()).not.toMatch(/^. #2 /m)
    expect((await context.applications.get('2')).application.removed_at).not.toBeNull()

    ui.press('u')
    await ui.until('Restored #2 Engineer 2 at Company 2')
    await ui.until('[Applications 2]')
    const {application, history} = await context.applications.get('2')
    expect(application.removed_at).toBeNull()
    expect(history.map((change) => change.change)).toEqual(['removed', 'restored'])
    ui.press(KEYS.home, KEYS.enter)
    await ui.until('History: 2 change(s)')
    expect(ui.frame()).toMatch(/restored to lists and stats\n.*removed from lists and stats/)
  })

  it('says E and x act on the Applications view', async () => {
    const {ui} = await dashboard()
    ui.press('E')
    await ui.until('E acts on the Applications view (Tab switches views)')
    ui.press('x')
    await ui.until('x acts on the Applications view (Tab switches views)')
  })
})
