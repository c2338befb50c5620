import {afterEach, describe, expect, it} from 'vitest'
import type {AppContext} from '../../src/app/context.js'
import {salaryFromAmounts} from '../../src/core/jobs/salary.js'
import type {DashboardServices} from '../../src/ui/services.js'
import {daysAgo} from '../helpers/tracker.js'
import {type Home, job, KEYS, renderDashboard, saveRun, tempHome, track, waitFor} from './harness.js'

let home: Home | undefined
let unmount: (() => void) | undefined

afterEach(async () => {
  unmount?.()
  unmount = undefined
  await home?.cleanup()
  home = undefined
})

interface Setup {
  wrap?: (services: DashboardServices) => DashboardServices
  /** Changes made before the dashboard starts. */
  before?: (context: AppContext) => Promise<unknown>
}

async function dashboard(jobs: number, options: Setup = {}) {
  home = tempHome()
  await saveRun(
    home.context,
    Array.from({length: jobs}, (_, index) => job(index + 1, {posted_date: null})),
  )
  await options.before?.(home.context)
  const ui = renderDashboard(home.context, options)
  unmount = ui.unmount
  await ui.until('row 1 of')
  return {ui, context: home.context}
}

const rowLines = (frame: string) => frame.split('\n').filter((line) => /^[› ] Engineer \d+/.test(line))

describe('dashboard: browsing', () => {
  it('shows the counts and the last run’s jobs with new ones first', async () => {
    home = tempHome()
    await saveRun(home.context, [job(1), job(2), job(3)])
    await track(home.context, job(1), 'interviewing')
    await track(home.context, job(2), 'saved', 'maybe')
    await track(home.context, {...job(9), url: 'https://elsewhere.example/9'}, 'applied')
    const ui = renderDashboard(home.context)
    unmount = ui.unmount
    await ui.until('new jobs')
    expect(ui.frame()).toContain('3 total · 2 applied · 1 pending · 2 new jobs')
    expect(ui.frame()).toContain('[Jobs 3]')
    expect(ui.frame()).toContain('Applications 3')
    const order = rowLines(ui.frame()).map((line) => line.match(/Engineer \d+/)?.[0])
    expect(order).toEqual(['Engineer 3', 'Engineer 2', 'Engineer 1'])
    expect(rowLines(ui.frame())[1]).toMatch(/saved\s*$/)
    expect(rowLines(ui.frame())[2]).toMatch(/interviewing\s*$/)
  })

  it('moves the selection with j, k and the arrow keys without reading the data again', async () => {
    let loads = 0
    const {ui} = await dashboard(30, {
      wrap: (services) => ({
        ...services,
        load: () => {
          loads++
          return services.load()
        },
      }),
    })
    expect(ui.selected()).toContain('Engineer 1 ')
    ui.press('j', 'j', KEYS.down)
    await ui.until('row 4 of 30')
    expect(ui.selected()).toContain('Engineer 4 ')
    ui.press('k', KEYS.up)
    await ui.until('row 2 of 30')
    expect(ui.selected()).toContain('Engineer 2 ')
    ui.press('k', 'k', 'k')
    await ui.until('row 1 of 30')
    expect(loads).toBe(1)
  })

  it('applies keys that arrive in one read (a paste, tmux send-keys) one after the other', async () => {
    const {ui} = await dashboard(30)
    ui.press('jjj')
    await ui.until('row 4 of 30')
    ui.press('/Company 2\rj')
    await ui.until('row 2 of 11 (filtered from 30)')
    expect(ui.selected()).toContain('Engineer 20 ')
  })

  it('pages and jumps to the ends, drawing only the rows that fit', async () => {
    const {ui} = await dashboard(1000)
    const visible = rowLines(ui.frame()).length
    expect(visible).toBeGreaterThan(5)
    expect(visible).toBeLessThan(30)
    ui.press(KEYS.pageDown)
    await ui.until(`row ${visible + 1} of 1000`)
    expect(ui.selected()).toContain(`Engineer ${visible + 1} `)
    ui.press(KEYS.end)
    await ui.until('row 1000 of 1000')
    expect(ui.selected()).toContain('Engineer 1000 ')
    expect(rowLines(ui.frame())).toHaveLength(visible)
    ui.press(KEYS.pageUp)
    await ui.until(`row ${1000 - visible} of 1000`)
    ui.press(KEYS.home)
    await ui.until('row 1 of 1000')
    expect(ui.selected()).toContain('Engineer 1 ')
  })

  it('switches between the Jobs and Applications views with tab', async () => {
    const {ui} = await dashboard(2, {before: (context) => track(context, job(50), 'offer', 'salary talk')})
    ui.press(KEYS.tab)
    await ui.until('[Applications 1]')
    expect(ui.frame()).toContain('NOTES')
    expect(ui.selected()).toMatch(/Engineer 50 .*offer .*salary talk/)
    ui.press(KEYS.tab)
    await ui.until('[Jobs 2]')
  })

  it('filters by text with /, keeps it on enter and clears it on escape', async () => {
    const {ui} = await dashboard(30)
    ui.press('/', 'Company 2')
    await ui.until('/Company 2█')
    await ui.until('/Company 2 (11)')
    expect(rowLines(ui.frame())).toHaveLength(11)
    expect(rowLines(ui.frame()).every((line) => /Company 2\d?\b/.test(line))).toBe(true)
    ui.press(KEYS.backspace, '21')
    await ui.until('/Company 21 (1)')
    ui.press(KEYS.enter)
    await ui.until('row 1 of 1 (filtered from 30)')
    expect(ui.selected()).toContain('Engineer 21 ')
    ui.press(KEYS.escape)
    await ui.until('row 1 of 30')
    expect(ui.frame()).not.toContain('/Company')
  })

  it('cycles the status filter with f in both views', async () => {
    const {ui} = await dashboard(4, {
      before: async (context) => {
        await track(context, job(1), 'saved')
        await track(context, job(2), 'rejected')
      },
    })
    ui.press('f')
    await ui.until('status: new (3)')
    ui.press('f')
    await ui.until('status: untracked (2)')
    ui.press('f')
    await ui.until('status: saved (1)')
    expect(ui.selected()).toContain('Engineer 1 ')
    ui.press('F', 'F', 'F')
    await ui.until('row 1 of 4')
    ui.press(KEYS.tab, 'f', 'f', 'f', 'f', 'f', 'f')
    await ui.until('status: rejected (1)')
    expect(ui.selected()).toContain('Engineer 2 ')
  })

  it('shows every field of the selected job on enter and hides them again', async () => {
    const {ui} = await dashboard(3, {before: (context) => track(context, job(2), 'interviewing', 'second round')})
    ui.press(KEYS.enter)
    await ui.until('─ Job ─')
    const frame = ui.frame()
    expect(frame).toContain('URL: https://board.example/jobs')
    expect(frame).toContain('Source: remoteok')
    expect(frame).toContain('First seen: 2026-11-22 08:00')
    expect(frame).toContain('Notified: not yet')
    ui.press(KEYS.end)
    await ui.until('Tracked: interviewing · notes: second round')
    ui.press(KEYS.enter)
    await ui.gone('─ Job ─')
  })

  it('shows what the board gave about a job in its details: salary, type, workplace, tags, the description', async () => {
    home = tempHome()
    const salary = salaryFromAmounts({min: 70000, max: 90000, currency: 'EUR', period: 'year'})
    const description = ['About us', '', ...Array.from({length: 40}, (_, n) => `- duty ${n + 1}`)].join('\n')
    await saveRun(home.context, [
      job(1, {salary, employment_type: 'full_time', remote: true, regions: ['Europe'], tags: ['node'], description}),
    ])
    const ui = renderDashboard(home.context)
    unmount = ui.unmount
    await ui.until('row 1 of 1')
    ui.press(KEYS.enter)
    await ui.until('Salary: EUR 70,000 - 90,000 a year')
    const frame = ui.frame()
    expect(frame).toContain('Type: full time')
    expect(frame).toContain('Workplace: remote (Europe)')
    expect(frame).toContain('Tags: node')
    expect(frame).toContain('About us')
    expect(frame).toContain('- duty 1')
    // The rest of a long description is a command away.
    expect(frame).toMatch(/… \(jobagent jobs \d+ shows it all\)/)
    expect(frame).not.toContain('- duty 40')
  })

  it('marks an application due for a follow-up with the days it has waited', async () => {
    const {ui} = await dashboard(1, {
      before: async (context) => {
        await track(context, job(7), 'applied', '')
        await track(context, job(8), 'applied', '')
        const tenDaysAgo = daysAgo(10)
        context.trackerDb.prepare('UPDATE applications SET updated_at = ? WHERE url = ?').run(tenDaysAgo, job(7).url)
      },
    })
    ui.press(KEYS.tab)
    await ui.until('Engineer 8')
    const rows = ui.frame().split('\n')
    expect(rows.find((row) => row.includes('Engineer 7'))).toMatch(/applied · 10d/)
    expect(rows.find((row) => row.includes('Engineer 8'))).not.toMatch(/applied · \d+d/)
  })

  it('marks an application whose posting closed, in the table and the details', async () => {
    const {ui} = await dashboard(1, {
      before: async (context) => {
        await track(context, job(7), 'applied', '')
        await track(context, job(8), 'applied', '')
        context.trackerDb
          .prepare('UPDATE applications SET posting_closed_at = ? WHERE url = ?')
          .run(daysAgo(3), job(7).url)
      },
    })
    ui.press(KEYS.tab)
    await ui.until('Engineer 8')
    const rows = ui.frame().split('\n')
    expect(rows.find((row) => row.includes('Engineer 7'))).toMatch(/applied · closed/)
    expect(rows.find((row) => row.includes('Engineer 8'))).not.toMatch(/closed/)
  })

  it('lists closed jobs after the open ones, marked closed, and leaves them out of the new jobs', async () => {
    const {ui} = await dashboard(3, {
      before: async (context) => {
        context.trackerDb
          .prepare("UPDATE jobs SET closed_at = '2026-11-21T08:00:00.000', last_run_id = NULL WHERE url = ?")
          .run(job(1).url)
      },
    })
    await ui.until('Engineer 1')
    const rows = ui.frame().split('\n')
    const closedRow = rows.findIndex((row) => row.includes('Engineer 1'))
    expect(rows[closedRow]).toMatch(/\bclosed\b/)
    expect(closedRow).toBeGreaterThan(rows.findIndex((row) => row.includes('Engineer 2')))
    expect(ui.frame()).toContain('2 new jobs')
  })

  it('shows the status history of an application in the details', async () => {
    const {ui} = await dashboard(1, {
      before: async (context) => {
        await track(context, job(7), 'saved', 'looks good')
        await context.applications.changeStatus(job(7).url, 'applied', 'sent CV')
        await context.applications.changeStatus(job(7).url, 'interviewing', 'call Tue')
      },
    })
    ui.press(KEYS.tab, KEYS.enter)
    await ui.until('History: 2 change(s)')
    expect(ui.frame()).toContain('Status: interviewing')
    expect(ui.frame()).toContain('Notes: call Tue')
    expect(ui.frame()).toMatch(/applied → interviewing\s+\(notes were: sent CV\)/)
    expect(ui.frame()).toMatch(/saved → applied\s+\(notes were: looks good\)/)
    ui.press(KEYS.escape)
    await ui.gone('History:')
  })

  it('lists every key on ? and closes the list on the next key', async () => {
    const {ui} = await dashboard(2)
    expect(ui.frame()).toContain('? help')
    expect(ui.frame()).toContain('q quit')
    ui.press('?')
    await ui.until('Keys')
    for (const text of ['PgUp PgDn', 'Home End', 'Tab', 'Ctrl-C', 'Export all applications to CSV']) {
      expect(ui.frame()).toContain(text)
    }
    ui.press('j')
    await ui.gone('Home End')
    expect(ui.frame()).toContain('row 1 of 2')
  })

  it('fits 80x24 and follows resizes, truncating long text instead of wrapping', async () => {
    home = tempHome()
    const long = 'Principal Distributed Systems Engineer, Payments Infrastructure and Reliability'
    const first = job(1, {title: long, company: 'A Very Long Company Name Incorporated', posted_date: '2026-11-21'})
    await saveRun(home.context, [first, job(2)])
    const ui = renderDashboard(home.context)
    unmount = ui.unmount
    await ui.until('row 1 of 2')
    ui.resize(80, 24)
    const widest = () =>
      Math.max(
        ...ui
          .frame()
          .split('\n')
          .map((line) => line.length),
      )
    await waitFor(
      () => ui.frame().split('\n').length === 23 && widest() <= 80,
      () => ui.frame(),
    )
    const lines = ui.frame().split('\n')
    // Every column of the Jobs view fits 80 columns; long text is cut with an ellipsis.
    expect(lines.find((line) => line.includes('TITLE'))).toMatch(
      /TITLE\s+COMPANY\s+LOCATION\s+SOURCE\s+POSTED\s+STATUS/,
    )
    expect(ui.selected()).toMatch(
      /^› Principal Distribut\S*…\s+A Very Long\S*…\s+Remote\s+remoteok\s+2026-11-21\s+new$/,
    )
    ui.resize(60, 24)
    await waitFor(
      () => !ui.frame().includes('SOURCE'),
      () => ui.frame(),
    )
    ui.resize(120, 40)
    await waitFor(
      () => ui.frame().split('\n').length === 39 && ui.frame().includes('SOURCE'),
      () => ui.frame(),
    )
    expect(
      Math.max(
        ...ui
          .frame()
          .split('\n')
          .map((line) => line.length),
      ),
    ).toBeLessThanOrEqual(120)
    ui.resize(30, 10)
    await ui.until('Terminal too small')
  })

  it('quits on q and on Ctrl-C', async () => {
    const first = await dashboard(2)
    first.ui.press('q')
    await waitFor(first.ui.exited, () => 'the dashboard to exit on q')
    await home?.cleanup()
    home = undefined
    const second = await dashboard(2)
    second.ui.press('/', 'abc', KEYS.ctrlC)
    await waitFor(second.ui.exited, () => 'the dashboard to exit on Ctrl-C')
  })
})
