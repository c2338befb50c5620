// The single executable of `npm run package` (issue "A single binary"): its size, how fast it starts against
// `node -e 0` (`--version`, and `status` over 1,000 tracked applications), how long its first run takes, when it
// writes better-sqlite3's library to the cache directory, and what V8's code cache in the executable saves.
// Targets: under 120 MB; `--version` and `status` at most 3x `node -e 0`, as for the npm install.
// The executables are built here, into a temporary directory, from the build `npm run bench` has just made.
import {spawnSync} from 'node:child_process'
import {mkdtempSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {figure} from './lib/figures.js'
import {ROOT, sized} from './lib/options.js'
import {timeNode, timeProgram} from './lib/processes.js'
import {reportBenchmark} from './lib/report.js'
import {application, seedHome} from './lib/seed.js'
import {interleavedSamples, startUpFigure} from './lib/start-up.js'

const RECORDS = 1000
const WARMUPS = sized(2, 1)
const RUNS = sized(15, 5)
const RATIO_TARGET = 3
const SIZE_TARGET_MB = 120

function buildExecutable(output, extra = []) {
  const started = performance.now()
  const result = spawnSync(process.execPath, ['scripts/package.js', '--output', output, ...extra], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`scripts/package.js failed: ${result.stdout}${result.stderr}`)
  return (performance.now() - started) / 1000
}

const work = mkdtempSync(join(tmpdir(), 'jobagent-bench-binary-'))
try {
  const executable = join(work, 'jobagent')
  const withoutCodeCache = join(work, 'jobagent-without-code-cache')
  const buildSeconds = buildExecutable(executable)
  buildExecutable(withoutCodeCache, ['--without-code-cache'])

  const home = join(work, 'home')
  const cache = join(work, 'cache')
  await seedHome(home, {applications: Array.from({length: RECORDS}, (_, n) => application(n + 1))})
  // The executable's own cache directory, so a first run can be made again by removing it.
  const env = {JOBAGENT_HOME: home, XDG_CACHE_HOME: cache}
  const listed = timeProgram(executable, ['status', '--json'], {env, cwd: work}).stdout
  if (JSON.parse(listed).length !== RECORDS)
    throw new Error(`seeded ${RECORDS} applications, the executable lists others`)

  const records = RECORDS.toLocaleString('en')
  const commands = [
    {id: 'node', name: '`node -e 0`', run: () => timeNode(['-e', '0'])},
    {
      id: 'version',
      name: 'executable `--version`',
      run: () => timeProgram(executable, ['--version'], {env, cwd: work}),
    },
    {
      id: 'status',
      name: `executable \`status\` (${records} applications)`,
      run: () => timeProgram(executable, ['status'], {env, cwd: work}),
    },
    {
      id: 'first-run',
      name: `first run: \`status\` writing the library to an empty cache`,
      run: () => {
        rmSync(cache, {recursive: true, force: true})
        return timeProgram(executable, ['status'], {env, cwd: work})
      },
    },
    {
      id: 'version-without-code-cache',
      name: 'executable `--version` without the code cache',
      run: () => timeProgram(withoutCodeCache, ['--version'], {env, cwd: work}),
    },
  ]
  const samples = interleavedSamples(commands, {warmups: WARMUPS, runs: RUNS})
  const timed = (index, options) => startUpFigure('single-binary', commands[index], samples[index], options)
  const baseline = timed(0, {role: 'baseline'})
  const target = {of: 'ratio', op: '<=', limit: RATIO_TARGET}
  const megabytes = (file) => statSync(file).size / 1024 / 1024
  reportBenchmark('single-binary', {
    figures: [
      figure({
        id: 'single-binary/size',
        name: 'executable size',
        unit: 'MB',
        better: 'lower',
        samples: [megabytes(executable)],
        target: {of: 'median', op: '<', limit: SIZE_TARGET_MB},
      }),
      baseline,
      timed(1, {baseline, target}),
      timed(2, {baseline, target}),
      timed(3, {baseline}),
      timed(4, {baseline}),
    ],
    notes: [
      `Wall time of the whole process, ${RUNS} runs of each command after ${WARMUPS} warm-up(s), interleaved.`,
      'The first run removes the cache directory before each sample: the library (about 2 MB) is written, fsynced ' +
        'and checked against its hash; every other run checks the cached file against the hash before loading it.',
      `Building the executable took ${buildSeconds.toFixed(1)} s (after \`npm run build\`).`,
    ],
    details: {without_code_cache_mb: Number(megabytes(withoutCodeCache).toFixed(1))},
  })
} finally {
  rmSync(work, {recursive: true, force: true})
}
