import {chmodSync, existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {tempDir} from '../helpers/cli.js'
import {type Home, job, KEYS, renderDashboard, saveRun, tempHome, track, waitFor} from './harness.js'

let home: Home | undefined
let unmount: (() => void) | undefined

afterEach(async () => {
  unmount?.()
  unmount = undefined
  await home?.cleanup()
  home = undefined
})

/** Three jobs (1 is tracked as applied with notes), shown in a dashboard over a real tracker. */
async function dashboard(options: {env?: NodeJS.ProcessEnv} = {}) {
  home = tempHome()
  await saveRun(home.context, [job(1), job(2), job(3)])
  await track(home.context, job(1), 'applied', 'sent CV')
  const ui = renderDashboard(home.context, options)
  unmount = ui.unmount
  await ui.until('row 1 of 3')
  return {ui, context: home.context}
}

describe('dashboard: changes go through the services at once', () => {
  it('tracks the selected job with a, a status from the picker and notes', async () => {
    const {ui, context} = await dashboard()
    expect(ui.selected()).toContain('Engineer 3 ')
    ui.press('a')
    await ui.until('Track Engineer 3 at Company 3 as:')
    expect(ui.frame()).toMatch(/› 2 applied/)
    ui.press('k')
    await ui.until('› 1 saved')
    ui.press(KEYS.enter)
    await ui.until('Notes (tracking as saved): █')
    ui.press('ask Ann about ', 'remote')
    await ui.until('ask Ann about remote█')
    ui.press(KEYS.enter)
    await ui.until('Tracked Engineer 3 at Company 3 as saved')
    const {application, history} = await context.applications.get(job(3).url)
    expect(application).toMatchObject({status: 'saved', notes: 'ask Ann about remote', company: 'Company 3'})
    expect(history).toEqual([])
    expect(ui.frame()).toContain('2 total · 1 applied · 1 pending · 2 new jobs')
    expect(ui.frame()).toMatch(/Engineer 3 .* saved/)
  })

  it('reads the data again when a job it shows as new was tracked elsewhere meanwhile', async () => {
    const {ui, context} = await dashboard()
    expect(ui.selected()).toContain('Engineer 3 ')
    await track(context, job(3), 'interviewing', 'by the API')
    ui.press('a')
    await ui.until('Track Engineer 3 at Company 3 as:')
    ui.press(KEYS.enter)
    await ui.until('Notes (tracking as applied): █')
    ui.press(KEYS.enter)
    await ui.until(`Error: ${job(3).url} is already tracked as`)
    expect(ui.frame()).not.toContain('change it with: jobagent status')
    await ui.until(/Engineer 3 .* interviewing/)
    expect((await context.applications.get(job(3).url)).application).toMatchObject({notes: 'by the API'})
  })

  it('cancels tracking with escape and writes nothing', async () => {
    const {ui, context} = await dashboard()
    ui.press('a')
    await ui.until('as:')
    ui.press(KEYS.enter)
    await ui.until('Notes (tracking as applied)')
    ui.press('x', KEYS.escape)
    await ui.until('Cancelled')
    expect((await context.applications.counts()).total).toBe(1)
  })

  it('cancels the status picker on Esc even when the next key comes in the same read', async () => {
    const {ui, context} = await dashboard()
    ui.press(KEYS.tab, 's')
    await ui.until('New status for Engineer 1')
    ui.press(`${KEYS.escape}${KEYS.tab}`, KEYS.end, KEYS.enter)
    await ui.until('[Jobs 3]')
    await ui.until('─ Job ─')
    expect((await context.applications.get(job(1).url)).application.status).toBe('applied')
  })

  it('says a job is already tracked instead of tracking it twice', async () => {
    const {ui, context} = await dashboard()
    ui.press(KEYS.end, 'a')
    await ui.until('Already tracked as #1 (status: applied); s changes its status')
    expect((await context.applications.counts()).total).toBe(1)
  })

  it('changes the status of the selected application with s and the notes typed for it, the old ones to the history', async () => {
    const {ui, context} = await dashboard()
    ui.press(KEYS.tab, 's')
    await ui.until('New status for Engineer 1 at Company 1:')
    expect(ui.frame()).toContain('› 2 applied (current)')
    ui.press('j', 'j')
    await ui.until('› 4 offer')
    ui.press(KEYS.enter)
    // As on the command line, a new status comes with its own notes.
    await ui.until('Notes for offer (the current ones go to the history): █')
    ui.press('call Tue')
    await ui.until('call Tue█')
    ui.press(KEYS.enter)
    await ui.until('Engineer 1 at Company 1: applied → offer')
    const {application, history} = await context.applications.get(job(1).url)
    expect(application).toMatchObject({status: 'offer', notes: 'call Tue'})
    expect(history).toMatchObject([{old_status: 'applied', new_status: 'offer', old_notes: 'sent CV'}])
    expect(ui.selected()).toMatch(/offer\s+\S+\s+call Tue/)
  })

  it('changes the status of a tracked job from the Jobs view with s and a digit, its notes empty unless typed', async () => {
    const {ui, context} = await dashboard()
    ui.press(KEYS.end, 's')
    await ui.until('New status for Engineer 1')
    ui.press('3')
    await ui.until('Notes for interviewing')
    ui.press(KEYS.enter)
    await ui.until('applied → interviewing')
    // The rule of `jobagent status <url> interviewing`: the notes are replaced, by none; the history keeps them.
    const {application, history} = await context.applications.get(job(1).url)
    expect(application).toMatchObject({status: 'interviewing', notes: ''})
    expect(history).toMatchObject([{old_status: 'applied', new_status: 'interviewing', old_notes: 'sent CV'}])
    expect(ui.selected()).toMatch(/interviewing\s*$/)
    ui.press(KEYS.home, 's')
    await ui.until('This job is not tracked; a tracks it')
  })

  it('edits the notes of the selected application with n, keeping its status', async () => {
    const {ui, context} = await dashboard()
    ui.press(KEYS.tab, 'n')
    await ui.until('Notes: sent CV█')
    ui.press(KEYS.backspace, 'V to Ann')
    await ui.until('Notes: sent CV to Ann█')
    ui.press(KEYS.enter)
    await ui.until('Notes saved for Engineer 1 at Company 1')
    const {application, history} = await context.applications.get(job(1).url)
    expect(application).toMatchObject({status: 'applied', notes: 'sent CV to Ann'})
    expect(history).toMatchObject([{old_status: 'applied', new_status: 'applied', old_notes: 'sent CV'}])
    // The details show the entry as a notes change, not as applied → applied.
    ui.press(KEYS.enter)
    await ui.until('notes changed (notes were: sent CV)')
    expect(ui.frame()).not.toContain('applied → applied')
    ui.press(KEYS.enter)
    ui.press('n', KEYS.enter)
    await ui.until('Notes unchanged')
    expect((await context.applications.get(job(1).url)).history).toHaveLength(1)
  })

  it('keeps a status or notes another process wrote after the dashboard read them', async () => {
    const {ui, context} = await dashboard()
    // The API (or the CLI) changes both while the dashboard still shows applied / sent CV.
    await context.applications.changeStatus(job(1).url, 'rejected', 'rejection email')
    ui.press(KEYS.tab, 'n', KEYS.backspace, 'V to Ann', KEYS.enter)
    await ui.until('Notes saved for Engineer 1 at Company 1')
    expect((await context.applications.get(job(1).url)).application).toMatchObject({
      status: 'rejected',
      notes: 'sent CV to Ann',
    })
    // A status change replaces the notes with its own; those written elsewhere meanwhile go to the history.
    await context.applications.changeStatus(job(1).url, 'rejected', 'second email')
    ui.press('s', '4', 'call back', KEYS.enter)
    await ui.until('→ offer')
    const {application, history} = await context.applications.get(job(1).url)
    expect(application).toMatchObject({status: 'offer', notes: 'call back'})
    expect(history.at(-1)).toMatchObject({old_status: 'rejected', new_status: 'offer', old_notes: 'second email'})
  })

  it('says nothing is selected for s and n on empty lists, and that a selected job is untracked', async () => {
    home = tempHome()
    const ui = renderDashboard(home.context)
    unmount = ui.unmount
    await ui.until('0 total')
    for (const key of ['s', 'n']) {
      ui.press(key)
      await ui.until('No job selected')
      ui.press(KEYS.escape)
      await ui.gone('No job selected')
    }
    ui.press(KEYS.tab, 's')
    await ui.until('No application selected')
  })

  it('exports every application to CSV with e and shows the path', async () => {
    const {ui} = await dashboard()
    ui.press('e')
    await ui.until(/Exported 1 application\(s\) to \S+\.csv/)
    const path = /to (\S+\.csv)/.exec(ui.frame())?.[1] ?? ''
    expect(path.startsWith(home?.path ?? '?')).toBe(true)
    const lines = readFileSync(path, 'utf8').trim().split(/\r?\n/)
    expect(lines[0]).toBe(
      'title,company,location,url,source,applied_date,status,notes,id,salary_expected,salary_offered,referral,contacts',
    )
    expect(lines[1]).toContain('Engineer 1,Company 1,Remote,https://board.example/jobs/1,remoteok,')
  })

  it('opens the posting with o through the desktop opener', async () => {
    const dir = tempDir('jobagent-ui-bin-')
    const bin = dir.path
    const record = join(bin, 'opened.txt')
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${record}'\n`)
    chmodSync(join(bin, 'xdg-open'), 0o755)
    const {ui} = await dashboard({env: {PATH: bin, DISPLAY: ':0'}})
    ui.press('o')
    await ui.until('Opened in the browser: https://board.example/jobs/3')
    await waitFor(
      () => existsSync(record) && readFileSync(record, 'utf8').length > 0,
      () => 'xdg-open to be called',
    )
    expect(readFileSync(record, 'utf8')).toBe('https://board.example/jobs/3')
    dir.cleanup()
  })

  it('shows the URL with o when no browser can be opened', async () => {
    const {ui} = await dashboard({env: {PATH: '/nonexistent'}})
    ui.press(KEYS.tab, 'o')
    await ui.until('https://board.example/jobs/1  (cannot open a browser: no graphical display)')
  })
})
