import {execFileSync} from 'node:child_process'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {BIN, ROOT, tempDir} from '../helpers/cli.js'
import {type MockServer, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fixtureText} from '../helpers/source-fixtures.js'

const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V'])
    return true
  } catch {
    console.warn('skipping the live progress test: tmux is not installed (apt-get install tmux)')
    return false
  }
})()

let board: MockServer
let release: () => void = () => {}
const home = tempDir()
const session = `jobagent-progress-${process.pid}`
const tmux = (...args: string[]) => execFileSync('tmux', args, {encoding: 'utf8'})
const screen = () => tmux('capture-pane', '-p', '-t', session)

async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out; screen was:\n${screen()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

beforeAll(async () => {
  // The board holds its answer until the test has seen the live line.
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  const body = fixtureText('remoteok.json')
  board = await startMockServer({'/api': async (_req, res) => held.then(() => serveBody(body)(_req, res))})
  writeFileSync(join(home.path, 'config.json'), JSON.stringify({sources: [{type: 'remoteok', url: board.url}]}))
})

afterAll(async () => {
  release()
  if (hasTmux) execFileSync('tmux', ['kill-session', '-t', session], {stdio: 'ignore'})
  await board.close()
  home.cleanup()
})

describe.skipIf(!hasTmux)('jobagent run on a terminal', () => {
  it('shows a live line per source while fetching, then only the log lines', async () => {
    const command = `cd ${ROOT} && JOBAGENT_HOME=${home.path} NO_COLOR=1 ${process.execPath} ${BIN} run; echo EXIT=$?; sleep 60`
    tmux('new-session', '-d', '-s', session, '-x', '120', '-y', '30', command)
    await waitFor(() => /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] remoteok {2}\d+\.\d s/.test(screen()))
    release()
    await waitFor(() => screen().includes('EXIT=0'))
    const final = screen()
    expect(final).toMatch(/INFO \| jobagent\.sources\.remoteok \| remoteok: 13 jobs in/)
    expect(final).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏✔]/)
  })
})
