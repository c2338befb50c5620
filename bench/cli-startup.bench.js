// How fast the tracker commands start, against the floor of starting Node itself (issue "Foundation"):
// `node -e 0`, `jobagent --version` and `jobagent status` over 1,000 tracked applications, timed in the same
// run, interleaved so background load hits all three alike. Also checks that `jobagent status` loads none of
// the front-end packages (ink, react, hono): tracker commands must not pay for the dashboard or the server.
import {spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {cpus, tmpdir} from 'node:os'
import {join, resolve} from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')
const BIN = join(ROOT, 'bin/run.js')
const APPLICATIONS = 1000
const WARMUPS = 2
const RUNS = 15
const FORBIDDEN = ['ink', 'react', 'react-dom', 'react-reconciler', 'hono', '@hono/node-server', '@hono/zod-openapi']

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]
}

function run(args, env, extraNodeArgs = []) {
  const started = performance.now()
  const result = spawnSync(process.execPath, [...extraNodeArgs, ...args], {
    cwd: ROOT,
    env: {...process.env, ...env, NO_COLOR: '1'},
    encoding: 'utf8',
  })
  const ms = performance.now() - started
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`)
  return {ms, stdout: result.stdout}
}

function seed(home) {
  const records = Array.from({length: APPLICATIONS}, (_, n) => ({
    title: `Engineer ${n}`,
    company: `Company ${n % 97}`,
    location: n % 3 === 0 ? '' : 'Remote',
    url: `https://example.org/jobs/${n}`,
    source: 'bench',
    applied_date: `2026-${String(1 + (n % 12)).padStart(2, '0')}-01T09:00:00.000`,
    status: n % 4 === 0 ? 'saved' : 'applied',
    notes: n % 10 === 0 ? 'a note, with "quotes"' : '',
  }))
  const file = join(home, 'seed.json')
  writeFileSync(file, JSON.stringify(records))
  run([BIN, 'import', file, '--quiet'], {JOBAGENT_HOME: home})
  const listed = JSON.parse(run([BIN, 'status', '--json'], {JOBAGENT_HOME: home}).stdout)
  if (listed.length !== APPLICATIONS) throw new Error(`expected ${APPLICATIONS} applications, found ${listed.length}`)
}

/** Package names (with scope) of every module under node_modules that `jobagent status` loaded. */
function loadedPackages(home) {
  const file = join(home, 'modules.txt')
  run([BIN, 'status'], {JOBAGENT_HOME: home, JOBAGENT_BENCH_MODULES_FILE: file}, [
    '--import',
    join(ROOT, 'bench/module-recorder.js'),
  ])
  const packages = new Set()
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line)
    if (match?.[1]) packages.add(match[1])
  }
  return packages
}

const home = mkdtempSync(join(tmpdir(), 'jobagent-bench-startup-'))
try {
  const env = {JOBAGENT_HOME: home}
  seed(home)
  const commands = [
    {label: '`node -e 0`', args: ['-e', '0']},
    {label: '`jobagent --version`', args: [BIN, '--version']},
    {label: `\`jobagent status\` (${APPLICATIONS.toLocaleString('en')} applications)`, args: [BIN, 'status']},
  ]
  const samples = commands.map(() => [])
  for (let round = 0; round < WARMUPS + RUNS; round++) {
    commands.forEach((command, index) => {
      const {ms} = run(command.args, env)
      if (round >= WARMUPS) samples[index].push(ms)
    })
  }
  const baseline = quantile(samples[0], 0.5)

  const packages = loadedPackages(home)
  const recorderWorks = packages.has('@oclif/core') && packages.has('better-sqlite3')
  const loadedForbidden = FORBIDDEN.filter((name) => packages.has(name))
  const pass = recorderWorks && loadedForbidden.length === 0
  const verdict = !recorderWorks
    ? 'FAIL (the module recorder saw neither @oclif/core nor better-sqlite3; the check did not run)'
    : pass
      ? 'PASS'
      : `FAIL (loaded ${loadedForbidden.join(', ')})`

  const lines = [
    '# CLI start-up',
    '',
    `Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), ${new Date().toISOString()}.`,
    `Wall time of the whole process, ${RUNS} runs each after ${WARMUPS} warm-ups, the three commands interleaved.`,
    '',
    '| command | median | p90 | median / `node -e 0` |',
    '|---|---|---|---|',
    ...commands.map((command, index) => {
      const median = quantile(samples[index], 0.5)
      const p90 = quantile(samples[index], 0.9)
      return `| ${command.label} | ${median.toFixed(0)} ms | ${p90.toFixed(0)} ms | ${(median / baseline).toFixed(2)}x |`
    }),
    '',
    `\`jobagent status\` loads none of ${FORBIDDEN.join(', ')}: **${verdict}**`,
    '',
    `Packages it loads: ${[...packages].sort().join(', ')}.`,
  ]
  const report = lines.join('\n')
  writeFileSync(join(ROOT, 'bench/results/cli-startup.md'), `${report}\n`)
  console.log(report)
  if (!pass) process.exitCode = 1
} finally {
  rmSync(home, {recursive: true, force: true})
}
