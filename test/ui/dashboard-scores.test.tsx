import {afterEach, describe, expect, it} from 'vitest'
import {type Home, job, KEYS, renderDashboard, saveRun, tempHome} from './harness.js'

let home: Home | undefined
let unmount: (() => void) | undefined

afterEach(async () => {
  unmount?.()
  unmount = undefined
  await home?.cleanup()
  home = undefined
})

const PROFILE = {skills: {rust: 3}, avoid: ['php']}

// Posted 2026-11-02, -03 and -04: the store lists them 3, 2, 1 (newest first); the profile likes 1 best, then 3.
const JOBS = [
  job(1, {title: 'Rust Engineer 1', tags: ['rust']}),
  job(2, {description: 'Plain work.'}),
  job(3, {description: 'Some Rust, and php too.'}),
]

async function dashboard(profile: Record<string, unknown> | null, size?: {columns: number; rows: number}) {
  home = tempHome(profile ? {profile} : {})
  await saveRun(home.context, JOBS)
  const ui = renderDashboard(home.context)
  unmount = ui.unmount
  if (size) ui.resize(size.columns, size.rows)
  await ui.until('row 1 of 3')
  return ui
}

const header = (frame: string) => frame.split('\n').find((line) => line.includes('TITLE')) ?? ''
const rows = (frame: string) => frame.split('\n').filter((line) => /^[› ]\s+(\d+\s+)?(Rust )?Engineer \d/.test(line))

describe('dashboard: scores from the profile', () => {
  it('shows a SCORE column and lists the jobs best first when a profile is configured', async () => {
    const ui = await dashboard(PROFILE)
    expect(header(ui.frame())).toMatch(/^\s+SCORE\s+TITLE\s+COMPANY/)
    const listed = rows(ui.frame()).map((line) => {
      const [, score, title] = /^[› ]\s+(\d+)\s+(.*?Engineer \d)/.exec(line) ?? []
      return {score: Number(score), title}
    })
    expect(listed.map((row) => row.title)).toEqual(['Rust Engineer 1', 'Engineer 3', 'Engineer 2'])
    expect(listed[0]!.score).toBeGreaterThan(listed[1]!.score)
    expect(listed[1]!.score).toBeGreaterThan(listed[2]!.score)
  })

  it('keeps the SCORE column on an 80-column terminal, leaving out SOURCE instead', async () => {
    const ui = await dashboard(PROFILE, {columns: 80, rows: 24})
    await ui.until(/SCORE\s+TITLE\s+COMPANY\s+LOCATION\s+POSTED\s+STATUS/)
    expect(header(ui.frame())).not.toContain('SOURCE')
    for (const line of ui.frame().split('\n')) expect(line.length).toBeLessThanOrEqual(80)
  })

  it('shows the score and its reasons in the job details, before the description', async () => {
    const ui = await dashboard(PROFILE)
    ui.press('j', KEYS.enter)
    await ui.until(/Score: \d+ of 100/)
    const frame = ui.frame()
    expect(frame).toContain('Engineer 3 · Company 3 · Remote')
    expect(frame).toMatch(/^ {2}\+ rust \(description\) {3}gate: php in the description \(x0\.5\)/m)
    expect(frame.indexOf('Score:')).toBeLessThan(frame.indexOf('Some Rust, and php too.'))
    expect(frame.indexOf('gate: php in the description')).toBeLessThan(frame.indexOf('Some Rust, and php too.'))
  })

  it('shows no SCORE column and no score in the details without a profile', async () => {
    const ui = await dashboard(null)
    expect(header(ui.frame())).toMatch(/^\s+TITLE\s+COMPANY/)
    expect(header(ui.frame())).not.toContain('SCORE')
    // The store's order, newest posting first, as without scores.
    expect(rows(ui.frame()).map((line) => /Engineer \d/.exec(line)?.[0])).toEqual([
      'Engineer 3',
      'Engineer 2',
      'Engineer 1',
    ])
    ui.press(KEYS.enter)
    await ui.until('First seen:')
    expect(ui.frame()).not.toContain('Score:')
  })
})
