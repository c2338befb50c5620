// Settings every benchmark shares. JOBAGENT_BENCH_QUICK=1 (what `node bench/run.js --quick` sets) shrinks data sizes
// and durations so the whole harness can be checked in a couple of minutes; quick figures only show that the
// harness works and are not comparable with a full run's.
import {join, resolve} from 'node:path'

export const QUICK = process.env.JOBAGENT_BENCH_QUICK === '1'

/** The full-size value, or the quick one in quick mode. */
export const sized = (full, quick) => (QUICK ? quick : full)

/** A positive number from the environment (a knob for one-off experiments), else the fallback. */
export function envNumber(name, fallback) {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? value : fallback
}

export const ROOT = resolve(import.meta.dirname, '../..')
/** JOBAGENT_BENCH_ROOT=<dir> benchmarks another built copy of the package (a worktree of the base branch, say). */
export const PACKAGE = resolve(process.env.JOBAGENT_BENCH_ROOT ?? ROOT)
export const BIN = join(PACKAGE, 'bin/run.js')
export const DIST = resolve(process.env.JOBAGENT_BENCH_DIST ?? join(PACKAGE, 'dist'))
/** Generated data sets worth keeping between runs (git-ignored). */
export const DATA = join(ROOT, 'bench/.data')
