import {setFlagsFromString} from 'node:v8'

/**
 * Tells V8 to collect before the heap is twice what survived the last full collection, for a process that runs
 * one batch and exits (`jobagent run`, `jobagent sweep`). A run or a sweep reads far more than it keeps: every
 * board's answer is parsed, turned into jobs and dropped, and what is kept goes to the database as each board
 * answers. On a machine with much memory V8 otherwise lets the heap grow to about four times the surviving data
 * before collecting, so the peak memory of a run is set by garbage, not by what it holds. The flag takes effect at
 * the next limit V8 sets; it is no cap, so a run holding more data still gets the heap it needs. Long-lived
 * processes (serve, the dashboard) keep V8's default.
 *
 * What a user sees: the memory a cron run needs from the machine or its container's limit, on a 2-core machine
 * with 24 GB. A run of ten boards of 1,000 jobs against 100,000 applications (bench/run.bench.js) peaks at about
 * 260 MB with the flag and about 300 MB without it (up to 390 MB). A sweep of the whole directory
 * (bench/sweep.bench.js, JOBAGENT_BENCH_SWEEP=full), whose live heap is about 45 MB, peaks at 338 MB with it and
 * about 500 MB without it.
 */
export function preferSmallHeap(): void {
  setFlagsFromString('--heap-growing-percent=100')
}
