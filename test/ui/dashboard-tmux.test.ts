import {execFileSync, spawnSync} from 'node:child_process'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {AppContext} from '../../src/app/context.js'
import {BIN, ROOT, runCli, tempDir} from '../helpers/cli.js'
import {job, saveRun, waitFor} from './harness.js'

// End to end: the built CLI (bin/run.js over dist/) in a real terminal, a detached tmux session of 80x24.
const hasTmux = spawnSync('sh', ['-c', 'command -v tmux']).status === 0
if (!hasTmux) console.warn('skipping the tmux tests of jobagent ui: tmux is not installed (apt-get install tmux)')

// A server of our own, its socket in the test's directory: nothing is shared with the user's tmux or left behind.
const socket = () => join(home.path, 'tmux.sock')
const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket(), ...args], {encoding: 'utf8'})
const capture = (options: string[] = []) => tmux('capture-pane', '-p', ...options, '-t', 'ui')
const display = (format: string) => tmux('display-message', '-p', '-t', 'ui', format).trim()
const paneUntil = (text: string | RegExp) =>
  waitFor(
    () => (typeof text === 'string' ? capture().includes(text) : text.test(capture())),
    () => `${String(text)} in the pane:\n${capture()}`,
    20_000,
  )

let home: ReturnType<typeof tempDir>

/** A shell in a fresh 80x24 terminal, with JOBAGENT_HOME set and a plain prompt, once it shows that prompt. */
async function startShell(env: Record<string, string> = {}) {
  const variables = {
    PATH: process.env.PATH ?? '',
    HOME: home.path,
    JOBAGENT_HOME: home.path,
    TERM: 'xterm-256color',
    PS1: 'shell$ ',
    ...env,
  }
  const assignments = Object.entries(variables).map(([name, value]) => `${name}=${JSON.stringify(value)}`)
  tmux('new-session', '-d', '-x', '80', '-y', '24', '-s', 'ui', '-c', ROOT, `env -i ${assignments.join(' ')} sh`)
  // Keys typed before the shell has started are echoed before its prompt, which the tests look for later.
  await paneUntil('shell$')
}

function send(...keys: string[]) {
  tmux('send-keys', '-t', 'ui', ...keys)
}

beforeEach(async () => {
  home = tempDir('jobagent-ui-e2e-')
  const context = new AppContext({env: {JOBAGENT_HOME: home.path}})
  await saveRun(context, [job(1), job(2, {title: 'Site Reliability Engineer', company: 'Globex'}), job(3)])
  await context.close()
})

afterEach(() => {
  if (hasTmux) spawnSync('tmux', ['-S', socket(), 'kill-server'])
  home.cleanup()
})

describe.skipIf(!hasTmux)('jobagent ui in a terminal (built CLI, tmux)', () => {
  it('tracks a job, changes its status, quits and restores the terminal', async () => {
    await startShell()
    send('-l', `node ${BIN} ui; echo "exit=$?"`)
    send('Enter')
    await paneUntil('3 new jobs')
    expect(display('#{alternate_on}')).toBe('1')
    // The whole frame is on screen: the header on the first line, the keys on the last but one.
    const lines = capture().split('\n')
    expect(lines[0]).toMatch(/^ Jobs 3 {2,}Applications 0 +last run 2026-11-22 08:00 \(ok\)$/)
    expect(lines[22]).toMatch(/^Tab view .* q quit$/)

    send('/')
    send('-l', 'Globex')
    send('Enter')
    await paneUntil('/Globex (1)')
    send('a')
    await paneUntil('Track Site Reliability Engineer at Globex as:')
    send('Enter')
    await paneUntil('Notes (tracking as applied)')
    send('-l', 'via tmux')
    send('Enter')
    await paneUntil('Tracked Site Reliability Engineer at Globex as applied')
    await paneUntil('1 total · 1 applied · 0 pending · 2 new jobs')

    send('Tab')
    await paneUntil(/TITLE .* STATUS .* NOTES/)
    send('s')
    await paneUntil('New status for Site Reliability Engineer at Globex:')
    send('j', 'j')
    await paneUntil('› 4 offer')
    send('Enter')
    await paneUntil('Notes for offer (the current ones go to the history):')
    send('-l', 'offer call')
    send('Enter')
    await paneUntil('Site Reliability Engineer at Globex: applied → offer')

    send('q')
    await paneUntil('exit=0')
    const after = capture()
    expect(after).not.toContain('TITLE')
    expect(after).not.toContain('new jobs')
    expect(after).toContain('shell$ ')
    expect(display('#{alternate_on}')).toBe('0')
    expect(display('#{cursor_flag}')).toBe('1')

    const context = new AppContext({env: {JOBAGENT_HOME: home.path}})
    const {application, history} = await context.applications.get(job(2).url)
    expect(application).toMatchObject({title: 'Site Reliability Engineer', status: 'offer', notes: 'offer call'})
    expect(history).toMatchObject([{old_status: 'applied', new_status: 'offer', old_notes: 'via tmux'}])
    await context.close()
  })

  it('dismisses a job with a reason, takes the dismissal back, then likes it', async () => {
    await startShell({NO_COLOR: '1'})
    send('-l', `node ${BIN} ui; echo "exit=$?"`)
    send('Enter')
    await paneUntil('3 new jobs')
    send('j', 'd')
    await paneUntil('Why dismiss Site Reliability Engineer at Globex? (Enter skips): █')
    send('-l', 'on call')
    send('Enter')
    await paneUntil('Dismissed Site Reliability Engineer at Globex as "on call"; u undoes')
    await paneUntil('[Jobs 2]')
    expect(capture()).not.toMatch(/^. Site Reliability/m)

    const context = new AppContext({env: {JOBAGENT_HOME: home.path}})
    const dismissed = await (await context.openJobCatalog()).lastRun({dismissed: true})
    expect(dismissed.jobs.map((found) => found.url)).toEqual([job(2).url])
    expect(await context.verdictStore.verdicts()).toMatchObject([{verdict: 'dismiss', reason: 'on call'}])

    send('u')
    await paneUntil('Took back the dismissal of Site Reliability Engineer at Globex')
    await paneUntil(/^› Site Reliability Eng… +Globex/m)
    send('l')
    await paneUntil('Liked Site Reliability Engineer at Globex; u undoes')
    await paneUntil(/^› Site Reliability Eng… .* new · liked$/m)
    send('q')
    await paneUntil('exit=0')
    expect(await context.verdictStore.verdicts()).toMatchObject([
      {verdict: 'like', reason: null, given_by: 'user', title: 'Site Reliability Engineer', company: 'Globex'},
    ])
    await context.close()
  })

  it('edits an application with E, removes it with x and y, and brings it back with u', async () => {
    const context = new AppContext({env: {JOBAGENT_HOME: home.path}})
    await context.applications.record({...job(2, {title: 'Site Reliability Engineer', company: 'Globex'})})
    await context.close()
    await startShell({NO_COLOR: '1'})
    send('-l', `node ${BIN} ui; echo "exit=$?"`)
    send('Enter')
    await paneUntil('1 total · 1 applied')
    send('Tab')
    await paneUntil(/^ {2}ID TITLE/m)
    await paneUntil(/^› #1 Site Reliability Eng/m)
    send('E')
    await paneUntil('Title (1/8): Site Reliability Engineer█')
    send('C-u')
    send('-l', 'SRE')
    send('Enter')
    await paneUntil('Company (2/8): Globex█')
    send('Enter', 'Enter', 'Enter', 'Enter', 'Enter', 'Enter', 'Enter')
    await paneUntil('Edited #1 Site Reliability Engineer at Globex: title')
    await paneUntil(/^› #1 SRE /m)

    send('x')
    await paneUntil('Remove #1 SRE at Globex from lists and stats? y removes')
    send('y')
    await paneUntil('Removed #1 SRE at Globex from lists and stats; u brings it back')
    await paneUntil('No applications tracked yet')
    send('u')
    await paneUntil('Restored #1 SRE at Globex')
    await paneUntil(/^› #1 SRE /m)
    send('q')
    await paneUntil('exit=0')

    const after = new AppContext({env: {JOBAGENT_HOME: home.path}})
    const {application, history} = await after.applications.get('1')
    expect(application).toMatchObject({title: 'SRE', removed_at: null})
    expect(history.map((change) => change.change)).toEqual(['edit', 'removed', 'restored'])
    await after.close()
  })

  it('draws in colour on a terminal and without any colour under NO_COLOR', async () => {
    await startShell()
    send('-l', `node ${BIN} ui`)
    send('Enter')
    await paneUntil('3 new jobs')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: an SGR colour sequence (ESC [ ... m) is the point
    expect(capture(['-e'])).toMatch(/\u001B\[[\d;]*(3\d|4\d|9\d)[\d;]*m/)
    send('C-c')
    await paneUntil(/^shell\$\s*$/m)
    expect(display('#{alternate_on}')).toBe('0')

    send('-l', `NO_COLOR=1 node ${BIN} ui`)
    send('Enter')
    await paneUntil('3 new jobs')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no SGR sequence (ESC [ ... m) at all
    expect(capture(['-e'])).not.toMatch(/\u001B\[[\d;]*m/)
    send('q')
    await waitFor(
      () => display('#{alternate_on}') === '0',
      () => 'the dashboard to close',
    )
  })
})

describe('jobagent ui without a terminal', () => {
  it('refuses to start with exit 2 and points to jobagent status and jobagent jobs', async () => {
    const result = await runCli(['ui'], {home: home.path})
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('Error: jobagent ui needs an interactive terminal, and stdout is not one')
    expect(result.stderr).toContain('jobagent status')
    expect(result.stderr).toContain('jobagent jobs')
  })
})
