import {join} from 'node:path'
import Database from 'better-sqlite3'
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

// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters a terminal would act on
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

describe('dashboard: outside text is drawn escaped', () => {
  it('shows escape sequences and bidi overrides in jobs and applications as visible escapes', async () => {
    home = tempHome()
    // Stored as another writer (or an older version) left them: the dashboard must not trust the database.
    await saveRun(home.context, [job(1, {title: 'Dev\u001b]0;pwned\u0007x', company: 'Acme\u202e'}), job(2)])
    await track(home.context, job(2), 'applied', 'ok')
    const db = new Database(join(home.path, 'jobagent.db'))
    db.prepare('UPDATE applications SET title = ?, notes = ?').run(
      'Ops\u001b[2Jy',
      'see \u001b]8;;https://evil.example\u001b\\here',
    )
    db.close()

    const ui = renderDashboard(home.context)
    unmount = ui.unmount
    await ui.until('row 1 of 2')
    await ui.until('Dev\\x1b]0;pwned\\x07x')
    expect(ui.frame()).toContain('Acme\\u202e')
    expect(RAW_CONTROL.exec(ui.frame()), ui.frame()).toBeNull()

    ui.press(KEYS.tab)
    await ui.until('Ops\\x1b[2Jy')
    ui.press(KEYS.enter)
    await ui.until('Notes: ')
    expect(ui.frame()).toContain('see \\x1b]8;;https://evil.example\\x1b\\here')
    expect(RAW_CONTROL.exec(ui.frame()), ui.frame()).toBeNull()
  })
})
