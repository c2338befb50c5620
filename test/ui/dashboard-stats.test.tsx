import {afterEach, describe, expect, it} from 'vitest'
import {type Home, job, renderDashboard, saveRun, tempHome, track} from './harness.js'

let home: Home | undefined
let unmount: (() => void) | undefined

afterEach(async () => {
  unmount?.()
  unmount = undefined
  await home?.cleanup()
  home = undefined
})

describe('dashboard: statistics', () => {
  it('shows the funnel worked out by hand on t and closes it on the next key', async () => {
    home = tempHome()
    const jobs = [job(1), job(2, {source: 'lever'}), job(3)]
    await saveRun(home.context, jobs)
    const [first, second, third] = jobs as [ReturnType<typeof job>, ReturnType<typeof job>, ReturnType<typeof job>]
    await track(home.context, first, 'applied')
    await track(home.context, second, 'applied')
    await track(home.context, third, 'saved')
    await home.context.applications.changeStatus(first.url, 'interviewing')
    await home.context.applications.changeStatus(second.url, 'rejected')
    const ui = renderDashboard(home.context)
    unmount = ui.unmount
    await ui.until('row 1 of')

    ui.press('t')
    await ui.until('Funnel of 3 application(s)')
    // Reached: saved 3; applied 1 and 2; interviewing 1. Both applied for were answered, seconds later.
    const lines = ui.frame().split('\n')
    const bar = (stage: string) => lines.find((line) => line.startsWith(`  ${stage} `)) ?? ''
    expect(bar('saved')).toMatch(/^ {2}saved +█+ 3$/)
    expect(bar('applied')).toMatch(/^ {2}applied +█+ 2 \(66\.7%\)$/)
    expect(bar('interviewing')).toMatch(/^ {2}interviewing +█+ 1 \(50\.0%\)$/)
    expect(bar('offer')).toMatch(/^ {2}offer +0 \(0\.0%\)$/)
    // After a stage nobody reached there is no conversion to show.
    expect(bar('accepted')).toMatch(/^ {2}accepted +0$/)
    const blocks = (stage: string) => (bar(stage).match(/█/g) ?? []).length
    expect(blocks('applied')).toBe(Math.round((blocks('saved') * 2) / 3))
    expect(ui.frame()).toContain('Response rate 100.0% (2 of 2 applied for moved on)')
    expect(ui.frame()).toContain('Median time to first response: 0 days')
    expect(ui.frame()).toContain('By source: lever 1 applied, 100.0% answered · remoteok 1 applied, 100.0% answered')
    expect(ui.frame()).toContain('any key closes the statistics')

    ui.press('j')
    await ui.gone('Funnel of')
    // The key only closes the statistics, as it only closes the help.
    expect(ui.frame()).toContain('row 1 of 3')
  })
})
