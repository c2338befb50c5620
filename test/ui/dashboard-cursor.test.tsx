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

/** Jobs list new ones first: Engineer 3 (saved, so new), Engineer 2, then Engineer 1 (applied). */
async function dashboard() {
  home = tempHome()
  await saveRun(home.context, [job(1), job(2), job(3)])
  await track(home.context, job(1), 'applied', 'sent CV')
  await track(home.context, job(3), 'saved')
  const ui = renderDashboard(home.context)
  unmount = ui.unmount
  await ui.until('row 1 of 3')
  return {ui, context: home.context}
}

describe('dashboard: the cursor follows the item it is on after a change', () => {
  it('stays on a job whose new status moves it down the list', async () => {
    const {ui, context} = await dashboard()
    expect(ui.selected()).toMatch(/Engineer 3 .* saved/)
    ui.press('s')
    await ui.until('New status for Engineer 3')
    ui.press('2')
    await ui.until('Notes for applied')
    ui.press(KEYS.enter)
    await ui.until('saved → applied')
    // No longer new, Engineer 3 now sorts after Engineer 2; the cursor went with it.
    await ui.until(/ {2}Engineer 2 .*\n› Engineer 3 .* applied/)
    expect((await context.applications.get(job(3).url)).application.status).toBe('applied')
    ui.press('n')
    await ui.until('Notes: █')
    ui.press('call back Friday', KEYS.enter)
    await ui.until('Notes saved for Engineer 3 at Company 3')
    expect(ui.selected()).toMatch(/Engineer 3 .* applied/)
  })

  it('stays on an application when a change puts another one above it', async () => {
    const {ui} = await dashboard()
    ui.press(KEYS.tab, KEYS.end)
    await ui.until('[Applications 2]')
    expect(ui.selected()).toContain('Engineer 1')
    // Tracked from the Jobs view, Engineer 2 becomes the newest application, at the top of the list.
    ui.press(KEYS.tab)
    await ui.until('[Jobs 3]')
    ui.press('j', 'a')
    await ui.until('Track Engineer 2 at Company 2 as:')
    ui.press(KEYS.enter, KEYS.enter)
    await ui.until('Tracked Engineer 2 at Company 2 as applied')
    expect(ui.selected()).toContain('Engineer 2')
    ui.press(KEYS.tab)
    await ui.until('[Applications 3]')
    await ui.until(/Engineer 2 .*\n.*Engineer 3 .*\n› #1 +Engineer 1 /)
  })
})
