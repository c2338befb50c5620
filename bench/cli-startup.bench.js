// How fast the tracker commands start, against the floor of starting Node itself (issue "Foundation"):
// `node -e 0`, `jobagent --version`, `jobagent status` over 1,000 tracked applications and `jobagent jobs` over a
// last run of 1,000 jobs, timed in the same run and interleaved so background load hits all of them alike.
// Target: each at most 3x `node -e 0`. Also checks that `jobagent status` loads none of the front-end packages
// (ink, react, hono): tracker commands must not pay for the dashboard or the server.
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {figure} from './lib/figures.js'
import {BIN, ROOT, sized} from './lib/options.js'
import {timeNode} from './lib/processes.js'
import {reportBenchmark} from './lib/report.js'
import {seedTrackerAndLastRun} from './lib/seed.js'

const RECORDS = 1000
const WARMUPS = sized(2, 1)
const RUNS = sized(15, 5)
const RATIO_TARGET = 3
const FORBIDDEN = ['ink', 'react', 'react-dom', 'react-reconciler', 'hono', '@hono/node-server', '@hono/zod-openapi']

/** Package names (with scope) of every module under node_modules that `jobagent status` loaded. */
function loadedPackages(env, home) {
  const file = join(home, 'modules.txt')
  timeNode(['--import', join(ROOT, 'bench/module-recorder.js'), BIN, 'status'], {
    env: {...env, JOBAGENT_BENCH_MODULES_FILE: file},
  })
  const packages = new Set()
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line)
    if (match?.[1]) packages.add(match[1])
  }
  // A recorder that saw nothing would make the check pass vacuously.
  if (!packages.has('@oclif/core') || !packages.has('better-sqlite3')) {
    throw new Error('the module recorder saw neither @oclif/core nor better-sqlite3; the check did not run')
  }
  return packages
}

const home = mkdtempSync(join(tmpdir(), 'jobagent-bench-startup-'))
try {
  const env = {JOBAGENT_HOME: home}
  await seedTrackerAndLastRun(home, RECORDS)
  const listed = JSON.parse(timeNode([BIN, 'status', '--json'], {env}).stdout)
  const jobs = JSON.parse(timeNode([BIN, 'jobs', '--json'], {env}).stdout)
  if (listed.length !== RECORDS || jobs.length !== RECORDS) {
    throw new Error(`seeded ${RECORDS} of each, found ${listed.length} applications and ${jobs.length} jobs`)
  }
  const packages = loadedPackages(env, home)
  const loadedForbidden = FORBIDDEN.filter((name) => packages.has(name))

  const records = RECORDS.toLocaleString('en')
  const commands = [
    {id: 'node', name: '`node -e 0`', args: ['-e', '0']},
    {id: 'version', name: '`jobagent --version`', args: [BIN, '--version']},
    {id: 'status', name: `\`jobagent status\` (${records} applications)`, args: [BIN, 'status']},
    {id: 'jobs', name: `\`jobagent jobs\` (${records} jobs)`, args: [BIN, 'jobs']},
  ]
  const samples = commands.map(() => [])
  for (let round = 0; round < WARMUPS + RUNS; round++) {
    commands.forEach((command, index) => {
      const {ms} = timeNode(command.args, {env})
      if (round >= WARMUPS) samples[index].push(ms)
    })
  }

  const timed = (index, options) =>
    figure({
      id: `cli-startup/${commands[index].id}`,
      name: commands[index].name,
      unit: 'ms',
      better: 'lower',
      samples: samples[index],
      ...options,
    })
  const baseline = timed(0, {role: 'baseline'})
  const target = {of: 'ratio', op: '<=', limit: RATIO_TARGET}
  reportBenchmark('cli-startup', {
    figures: [
      baseline,
      timed(1, {baseline, target}),
      timed(2, {baseline, target}),
      timed(3, {baseline, target}),
      figure({
        id: 'cli-startup/status-front-end-packages',
        name: 'front-end packages loaded by `jobagent status`',
        unit: 'count',
        better: 'lower',
        samples: [loadedForbidden.length],
        target: {of: 'median', op: '<=', limit: 0},
      }),
    ],
    notes: [
      `Wall time of the whole process, ${RUNS} runs of each command after ${WARMUPS} warm-up(s), interleaved.`,
      `Front-end packages checked: ${FORBIDDEN.join(', ')}.`,
      ...(loadedForbidden.length > 0 ? [`\`jobagent status\` loaded ${loadedForbidden.join(', ')}.`] : []),
    ],
    details: {status_packages: [...packages].sort()},
  })
} finally {
  rmSync(home, {recursive: true, force: true})
}
