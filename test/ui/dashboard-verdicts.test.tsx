import {afterEach, describe, expect, it} from 'vitest'
import type {AppContext} from '../../src/app/context.js'
import {type Home, job, KEYS, renderDashboard, saveRun, tempHome} from './harness.js'

let home: Home | undefined
let unmount: (() => void) | undefined

afterEach(async () => {
  unmount?.()
  unmount = undefined
  await home?.cleanup()
  home = undefined
})

/** Three jobs of the last run, listed newest first without a profile: Engineer 3, 2, 1. */
async function dashboard(overrides: Record<string, unknown> = {}, jobs = [job(1), job(2), job(3)]) {
  home = tempHome(overrides)
  await saveRun(home.context, jobs)
  const ui = renderDashboard(home.context)
  unmount = ui.unmount
  await ui.until(`row 1 of ${jobs.length}`)
  return {ui, context: home.context}
}

/** The verdicts kept in jobagent.db, with the URL of the job each is about. */
async function verdicts(context: AppContext) {
  const catalog = await context.openJobCatalog()
  const kept = await context.verdictStore.verdicts()
  return Promise.all(
    kept.map(async ({job_id, verdict, reason, given_by}) => ({
      url: (await catalog.find(job_id)).url,
      verdict,
      reason,
      given_by,
    })),
  )
}

/** The titles of the listed rows, top to bottom. */
const listed = (frame: string) =>
  frame
    .split('\n')
    .filter((line) => /^[› ] +(\d+ +)?\S.* Company \d/.test(line))
    .map((line) => /(?:Rust |Go )?Engineer \d/.exec(line)?.[0])

describe('dashboard: liking and dismissing jobs', () => {
  it('dismisses the selected job with d and a reason: it leaves the list and the dismissal is kept', async () => {
    const {ui, context} = await dashboard()
    expect(ui.selected()).toContain('Engineer 3 ')
    ui.press('d')
    await ui.until('Why dismiss Engineer 3 at Company 3? (Enter skips): █')
    expect(ui.frame()).toContain('Enter dismiss')
    ui.press('too senior')
    await ui.until('(Enter skips): too senior█')
    ui.press(KEYS.enter)
    await ui.until('Dismissed Engineer 3 at Company 3 as "too senior"; u undoes')
    expect(listed(ui.frame())).toEqual(['Engineer 2', 'Engineer 1'])
    expect(ui.frame()).toContain('[Jobs 2]')
    // The cursor stays where it was, on the job that took the dismissed one's place.
    expect(ui.selected()).toContain('Engineer 2 ')
    expect(await verdicts(context)).toEqual([
      {url: job(3).url, verdict: 'dismiss', reason: 'too senior', given_by: 'user'},
    ])
    const {jobs} = await (await context.openJobCatalog()).lastRun({dismissed: true})
    expect(jobs.map((listedJob) => listedJob.url)).toEqual([job(3).url])
  })

  it('dismisses without a reason when Enter skips the question, and keeps the job on Esc', async () => {
    const {ui, context} = await dashboard()
    ui.press('d')
    await ui.until('Why dismiss Engineer 3')
    ui.press('x', KEYS.escape)
    await ui.until('Cancelled')
    expect(listed(ui.frame())).toEqual(['Engineer 3', 'Engineer 2', 'Engineer 1'])
    expect(await verdicts(context)).toEqual([])
    ui.press('j', 'd')
    await ui.until('Why dismiss Engineer 2 at Company 2?')
    ui.press(KEYS.enter)
    await ui.until('Dismissed Engineer 2 at Company 2; u undoes')
    expect(listed(ui.frame())).toEqual(['Engineer 3', 'Engineer 1'])
    expect(await verdicts(context)).toEqual([{url: job(2).url, verdict: 'dismiss', reason: null, given_by: 'user'}])
  })

  it('likes the selected job with l, shows it as liked and does not like it twice', async () => {
    const {ui, context} = await dashboard()
    ui.press('j', 'l')
    await ui.until('Liked Engineer 2 at Company 2; u undoes')
    expect(await verdicts(context)).toEqual([{url: job(2).url, verdict: 'like', reason: null, given_by: 'user'}])
    expect(ui.selected()).toMatch(/Engineer 2 .* new · liked\s*$/)
    expect(listed(ui.frame())).toEqual(['Engineer 3', 'Engineer 2', 'Engineer 1'])
    ui.press(KEYS.enter)
    await ui.until(/Liked: \d{4}-\d\d-\d\d \d\d:\d\d/)
    ui.press(KEYS.escape, 'l')
    await ui.until('Already liked: Engineer 2 at Company 2')
    expect(await verdicts(context)).toHaveLength(1)
  })

  it('takes back a dismissal with u: the job is listed and selected again, and no verdict is left', async () => {
    const {ui, context} = await dashboard()
    ui.press('j', 'd', KEYS.enter)
    await ui.until('Dismissed Engineer 2 at Company 2; u undoes')
    ui.press(KEYS.home)
    await ui.until(/› Engineer 3 /)
    ui.press('u')
    await ui.until('Took back the dismissal of Engineer 2 at Company 2')
    expect(listed(ui.frame())).toEqual(['Engineer 3', 'Engineer 2', 'Engineer 1'])
    expect(ui.selected()).toContain('Engineer 2 ')
    expect(await verdicts(context)).toEqual([])
    // Nothing given here is left to take back; the selected job has no like.
    ui.press('u')
    await ui.until('Nothing to undo: Engineer 2 at Company 2 is not liked')
  })

  it('takes back a like with u', async () => {
    const {ui, context} = await dashboard()
    ui.press('l')
    await ui.until('Liked Engineer 3 at Company 3; u undoes')
    ui.press('u')
    await ui.until('Took back the like of Engineer 3 at Company 3')
    expect(await verdicts(context)).toEqual([])
    expect(ui.selected()).not.toContain('liked')
  })

  it('takes back the like of the selected job with u when none was given here (jobs <id> --like)', async () => {
    home = tempHome()
    const context = home.context
    await saveRun(context, [job(1), job(2), job(3)])
    const catalog = await context.openJobCatalog()
    const {jobs} = await catalog.lastRun()
    await catalog.giveVerdict(jobs.find((listedJob) => listedJob.url === job(1).url)!.id, 'like')
    const ui = renderDashboard(context)
    unmount = ui.unmount
    await ui.until('row 1 of 3')
    ui.press(KEYS.end)
    await ui.until(/› Engineer 1 .* new · liked/)
    ui.press('u')
    await ui.until('Took back the like of Engineer 1 at Company 1')
    expect(await verdicts(context)).toEqual([])
  })

  it('ranks with a like at once when a profile scores the jobs', async () => {
    const jobs = [
      job(1, {title: 'Rust Engineer 1', tags: ['rust']}),
      job(2, {title: 'Go Engineer 2', tags: ['go']}),
      job(3, {title: 'Go Engineer 3', tags: ['go']}),
    ]
    const {ui} = await dashboard({profile: {skills: {rust: 3, go: 1}}}, jobs)
    expect(listed(ui.frame())[0]).toBe('Rust Engineer 1')
    const goRow = listed(ui.frame()).indexOf('Go Engineer 2')
    ui.press(...Array.from({length: goRow}, () => 'j'), 'l')
    await ui.until('Liked Go Engineer 2 at Company 2; u undoes')
    // The other Go job shares what was liked: its reasons say so.
    const other = listed(ui.frame()).indexOf('Go Engineer 3')
    ui.press(KEYS.home, ...Array.from({length: other}, () => 'j'), KEYS.enter)
    await ui.until('Go Engineer 3 · Company 3')
    await ui.until('+ like a job you liked: Go Engineer 2 at Company 2')
  })

  it('says l, d and u act on the Jobs view', async () => {
    const {ui} = await dashboard()
    ui.press(KEYS.tab, 'l')
    await ui.until('l likes a job of the Jobs view (Tab switches views)')
    ui.press('d')
    await ui.until('d dismisses a job of the Jobs view (Tab switches views)')
    ui.press('u')
    await ui.until('Nothing to undo: u takes back a like of the Jobs view (Tab switches views)')
  })

  it('lists the keys in the help, and like and dismiss in a wide enough footer', async () => {
    const {ui} = await dashboard()
    expect(ui.frame()).toContain('a track  l like  d dismiss  s status')
    ui.press('?')
    await ui.until('Keys')
    expect(ui.frame()).toContain('l d u')
    expect(ui.frame()).toContain('Like or dismiss (hide) the job; u takes the last one back')
    // Every key fits an 80x24 terminal's help, the last one included.
    ui.resize(80, 24)
    await ui.until(/q {2}Ctrl-C +Quit/)
  })
})
