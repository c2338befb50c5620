// How a benchmark script hands its figures to bench/run.js: as JSON written to the file named by
// JOBAGENT_BENCH_REPORT, so the runner never parses a table. Run on its own (`node bench/http.bench.js`), a script
// prints its figures as a table instead and exits 1 when one misses its target.
import {writeFileSync} from 'node:fs'
import {QUICK} from './options.js'
import {formatTable} from './table.js'

/**
 * `notes`: what a reader needs to interpret the figures (data sizes, which app was served, packages loaded);
 * `skipped`: parts that could not run here and why (no tmux, no PostgreSQL server); `details`: longer facts kept in
 * the JSON only (which packages a command loaded).
 */
export function reportBenchmark(benchmark, {figures, notes = [], skipped = [], details = {}}) {
  const report = {
    benchmark,
    quick: QUICK,
    figures: figures.map((figure) => ({benchmark, ...figure})),
    notes,
    skipped,
    details,
  }
  const file = process.env.JOBAGENT_BENCH_REPORT
  if (file) {
    writeFileSync(file, JSON.stringify(report, null, 2))
    return
  }
  console.log(`\n${formatTable(report.figures)}\n`)
  for (const note of notes) console.log(`- ${note}`)
  for (const reason of skipped) console.log(`- skipped: ${reason}`)
  if (report.figures.some((figure) => figure.pass === false)) process.exitCode = 1
}
