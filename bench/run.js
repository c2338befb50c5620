// `npm run bench`: runs every bench/*.bench.js (or only those named: `node bench/run.js cli-startup http`) one after
// another, so they never compete for the two cores, then prints one summary table of every figure and writes them,
// with the facts of the machine, to bench/results/latest.json (or --out). Each script hands its figures over as
// JSON in the file named by JOBAGENT_BENCH_REPORT (bench/lib/report.js). --quick shrinks sizes and durations to
// check the harness; --compare <file> flags figures more than 20% worse than in that earlier file.
// Exit status: 0 all good; 1 a target missed, a figure regressed or a benchmark failed (the summary says which);
// 2 usage error.
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {basename, dirname, join, relative, resolve} from 'node:path'
import {parseArgs} from 'node:util'
import {compareFigures, formatChange, REGRESSION_THRESHOLD} from './lib/compare.js'
import {formatValue} from './lib/figures.js'
import {loadAverage, machineFacts} from './lib/machine.js'
import {formatTable} from './lib/table.js'

const USAGE = 'usage: node bench/run.js [--quick] [--compare <results.json>] [--out <results.json>] [benchmark ...]'
const DIR = import.meta.dirname

function usageError(message) {
  console.error(`${message}\n${USAGE}`)
  process.exit(2)
}

function parseOptions() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        quick: {type: 'boolean', default: process.env.JOBAGENT_BENCH_QUICK === '1'},
        compare: {type: 'string'},
        out: {type: 'string', default: join(DIR, 'results/latest.json')},
        help: {type: 'boolean', short: 'h'},
      },
    })
  } catch (error) {
    return usageError(error.message)
  }
}

function selectBenchmarks(names) {
  const available = readdirSync(DIR)
    .filter((file) => file.endsWith('.bench.js'))
    .map((file) => file.replace('.bench.js', ''))
    .sort()
  const wanted = names.map((name) => basename(name).replace(/(\.bench)?\.js$/, ''))
  const unknown = wanted.filter((name) => !available.includes(name))
  if (unknown.length > 0) usageError(`unknown benchmark(s): ${unknown.join(', ')}; available: ${available.join(', ')}`)
  return wanted.length > 0 ? wanted : available
}

/** Read before anything runs, so comparing with the file this run will overwrite still works. */
function readEarlierRun(file) {
  try {
    const earlier = JSON.parse(readFileSync(file, 'utf8'))
    if (!Array.isArray(earlier.figures)) throw new Error('it has no figures array')
    return earlier
  } catch (error) {
    return usageError(`cannot compare with ${file}: ${error.message}`)
  }
}

function runBenchmark(name, quick, reports) {
  console.log(`\n== ${name}`)
  const reportFile = join(reports, `${name}.json`)
  const started = performance.now()
  const result = spawnSync(process.execPath, [join(DIR, `${name}.bench.js`)], {
    stdio: 'inherit',
    env: {...process.env, JOBAGENT_BENCH_REPORT: reportFile, JOBAGENT_BENCH_QUICK: quick ? '1' : '0'},
  })
  const seconds = Number(((performance.now() - started) / 1000).toFixed(1))
  const failure =
    result.status !== 0
      ? `exit ${result.status ?? result.signal}`
      : existsSync(reportFile)
        ? null
        : 'exited without reporting its figures'
  console.log(`(${name}: ${failure ?? 'ok'}, ${seconds} s)`)
  const report = failure ? null : JSON.parse(readFileSync(reportFile, 'utf8'))
  return {
    name,
    seconds,
    error: failure,
    notes: report?.notes ?? [],
    skipped: report?.skipped ?? [],
    details: report?.details ?? {},
    figures: report?.figures ?? [],
  }
}

/** Differences that make an earlier run's figures a different measurement, worth a warning. */
function incomparabilities(earlier, current) {
  const warnings = []
  if (Boolean(earlier.quick) !== current.quick) {
    warnings.push(`${earlier.quick ? 'it' : 'this run'} used --quick: sizes differ, so the figures do too`)
  }
  for (const fact of ['cpu_model', 'cores', 'node']) {
    const before = earlier.machine?.[fact]
    if (before !== undefined && before !== current.machine[fact]) {
      warnings.push(`${fact} differs: ${before} then, ${current.machine[fact]} now`)
    }
  }
  return warnings
}

/** A path as the user would type it: relative to the working directory when it lies below it. */
function shown(path) {
  const relativePath = relative(process.cwd(), path)
  return relativePath && !relativePath.startsWith('..') ? relativePath : path
}

function printSummary(results, comparison) {
  const {machine} = results
  console.log(`\n== Summary${results.quick ? ' (--quick: reduced sizes and durations; a harness check only)' : ''}\n`)
  console.log(
    `${machine.date}, ${machine.cpu_model} (${machine.cores} cores, ${machine.total_memory_mb} MB), ${machine.os}, ` +
      `Node ${machine.node}, commit ${machine.git_commit?.slice(0, 12) ?? 'unknown'}${machine.git_dirty ? ' + uncommitted changes' : ''}; ` +
      `load average ${machine.load_average_start.join(' ')} at the start, ${machine.load_average_end.join(' ')} at the end.\n`,
  )
  if (results.figures.length > 0) console.log(`${formatTable(results.figures, comparison)}\n`)
  for (const benchmark of results.benchmarks) {
    for (const note of benchmark.notes) console.log(`- ${benchmark.name}: ${note}`)
    for (const reason of benchmark.skipped) console.log(`- ${benchmark.name}: skipped: ${reason}`)
  }
}

/** Every reason for a non-zero exit, one line each. */
function problems(results, comparison) {
  const lines = []
  for (const benchmark of results.benchmarks) {
    if (benchmark.error) lines.push(`benchmark failed: ${benchmark.name} (${benchmark.error})`)
  }
  for (const figure of results.figures) {
    if (figure.pass === false) {
      const value =
        figure.target.of === 'ratio' ? `${figure.ratio.toFixed(2)}x` : formatValue(figure.median, figure.unit)
      lines.push(`target missed: ${figure.id} (${figure.name}): ${value}, target ${figure.target.text}`)
    }
    const change = comparison?.rows.get(figure.id)
    if (change?.regressed) {
      const [before, after] = [change.before, change.after].map((value) =>
        change.judged === 'ratio' ? `${value.toFixed(2)}x` : formatValue(value, figure.unit),
      )
      lines.push(
        `regressed: ${figure.id} (${figure.name}): ${change.judged} ${before} in ${comparison.label}, ${after} now ` +
          `(${formatChange(change).replace(' REGRESSED', '')})`,
      )
    }
  }
  return lines
}

const {values: options, positionals} = parseOptions()
if (options.help) {
  console.log(USAGE)
  process.exit(0)
}
const selected = selectBenchmarks(positionals)
const earlier = options.compare ? readEarlierRun(resolve(options.compare)) : undefined

const machine = machineFacts()
const reports = mkdtempSync(join(tmpdir(), 'jobagent-bench-reports-'))
const benchmarks = []
try {
  for (const name of selected) benchmarks.push(runBenchmark(name, options.quick, reports))
} finally {
  rmSync(reports, {recursive: true, force: true})
}
machine.load_average_end = loadAverage()

const results = {
  quick: options.quick,
  machine,
  benchmarks: benchmarks.map(({figures, ...benchmark}) => benchmark),
  figures: benchmarks.flatMap((benchmark) => benchmark.figures),
}
const out = resolve(options.out)
mkdirSync(dirname(out), {recursive: true})
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`)

let comparison
if (earlier) {
  comparison = {label: shown(resolve(options.compare)), rows: compareFigures(results.figures, earlier.figures)}
}
printSummary(results, comparison)
if (earlier) {
  for (const warning of incomparabilities(earlier, results)) console.log(`- compare: ${warning}`)
  const compared = comparison.rows.size
  console.log(
    `- compare: ${compared} figure(s) in both runs, judged on the ratio to their baseline where both have one; ` +
      `more than ${REGRESSION_THRESHOLD * 100}% worse is a regression.`,
  )
}
console.log(`\nwrote ${shown(out)}`)

const reasons = problems(results, comparison)
if (reasons.length > 0) {
  console.log(`\nFAIL:\n${reasons.map((line) => `- ${line}`).join('\n')}`)
  process.exitCode = 1
} else {
  console.log('\nPASS: every target met, nothing regressed')
}
