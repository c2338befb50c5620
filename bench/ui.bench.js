// The dashboard at scale (issue "jobagent ui"): `jobagent ui` over 1,000 jobs and 1,000 applications in a real
// terminal (a detached tmux session, 120x40). Measures the time from spawning the command to the first frame with
// data in capture-pane (polled every 20 ms), and the time until 50 `j` presses sent at once are reflected (the
// selection reaches row 51). Targets: first frame within 1 s; moving the selection without visible lag.
import {execFileSync, spawnSync} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {figure} from './lib/figures.js'
import {BIN, ROOT, sized} from './lib/options.js'
import {timeNode} from './lib/processes.js'
import {reportBenchmark} from './lib/report.js'
import {seedTrackerAndLastRun} from './lib/seed.js'

const RECORDS = 1000
const RUNS = sized(5, 3)
const PRESSES = 50
const POLL_MS = 20
const FIRST_FRAME_TARGET_MS = 1000
// 50 keys within one frame budget each (Ink draws at most 30 frames per second) is well below visible lag.
const KEYS_TARGET_MS = 1000

if (spawnSync('sh', ['-c', 'command -v tmux']).status !== 0) {
  reportBenchmark('ui', {
    figures: [],
    skipped: ['tmux is not installed (apt-get install tmux); the dashboard needs a real terminal'],
  })
  process.exit(0)
}

const home = mkdtempSync(join(tmpdir(), 'jobagent-bench-ui-'))
// A tmux server of our own, its socket in the temporary directory.
const socket = join(home, 'tmux.sock')
const tmux = (...args) => execFileSync('tmux', ['-S', socket, ...args], {encoding: 'utf8'})
const sleep = (ms) => new Promise((done) => setTimeout(done, ms))

async function until(check, what, timeoutMs = 30_000) {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const pane = tmux('capture-pane', '-p', '-t', 'ui')
    if (check(pane)) return pane
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}; the pane:\n${pane}`)
    await sleep(POLL_MS)
  }
}

async function measure() {
  const env = `env JOBAGENT_HOME=${home} TERM=xterm-256color`
  const started = performance.now()
  tmux('new-session', '-d', '-x', '120', '-y', '40', '-s', 'ui', '-c', ROOT, `${env} ${process.execPath} ${BIN} ui`)
  // The counts read from the database are on screen too, so this is the first frame with data.
  await until((pane) => pane.includes('new jobs') && pane.includes('Engineer'), 'the first frame')
  const firstFrame = performance.now() - started
  const keysStarted = performance.now()
  tmux('send-keys', '-t', 'ui', ...Array.from({length: PRESSES}, () => 'j'))
  await until((pane) => pane.includes(`row ${PRESSES + 1} of ${RECORDS}`), `row ${PRESSES + 1}`)
  const keys = performance.now() - keysStarted
  // The session is the dashboard itself: it ends when q has closed it.
  tmux('send-keys', '-t', 'ui', 'q')
  const deadline = performance.now() + 10_000
  while (spawnSync('tmux', ['-S', socket, 'has-session', '-t', 'ui']).status === 0) {
    if (performance.now() > deadline) throw new Error('jobagent ui did not quit on q')
    await sleep(POLL_MS)
  }
  return {firstFrame, keys}
}

try {
  await seedTrackerAndLastRun(home, RECORDS)
  const samples = {'first-frame': [], keys: [], version: [], ink: []}
  for (let run = 0; run < RUNS; run++) {
    const {firstFrame, keys} = await measure()
    samples['first-frame'].push(firstFrame)
    samples.keys.push(keys)
    // Timed alongside, so background load shows in all: the floor every command pays (Node and oclif starting),
    // and what loading Ink and React alone costs. They explain the first frame; they are not its baseline.
    samples.version.push(timeNode([BIN, '--version']).ms)
    samples.ink.push(timeNode(['--input-type=module', '-e', "await import('ink'); await import('react')"]).ms)
  }
  const time = (id, name, options) =>
    figure({id: `ui/${id}`, name, unit: 'ms', better: 'lower', samples: samples[id], ...options})
  const records = RECORDS.toLocaleString('en')
  reportBenchmark('ui', {
    figures: [
      time('first-frame', `\`jobagent ui\` spawn to first frame (${records} jobs, ${records} applications)`, {
        target: {of: 'median', op: '<', limit: FIRST_FRAME_TARGET_MS},
      }),
      time('keys', `\`jobagent ui\`: ${PRESSES} \`j\` presses reflected`, {
        target: {of: 'median', op: '<', limit: KEYS_TARGET_MS},
      }),
      time('version', '`jobagent --version` (for comparison)'),
      time('ink', '`node` importing ink and react only (for comparison)'),
    ],
    notes: [`tmux 120x40, ${RUNS} runs; the times include the ${POLL_MS} ms polling granularity of capture-pane.`],
  })
} finally {
  spawnSync('tmux', ['-S', socket, 'kill-server'])
  rmSync(home, {recursive: true, force: true})
}
