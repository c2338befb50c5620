// HTTP load with autocannon (in the benchmark's process; each server runs in a process of its own, so on 2 cores
// the load generator and the server each get one). Cases are measured in interleaved windows, bare server and app
// taking turns, so a burst of background load hits both rather than skewing the ratio between them.
import autocannon from 'autocannon'
import {envNumber, sized} from './options.js'

export const CONNECTIONS = 32
/** Timed windows per case: enough for a median and a spread. */
export const WINDOWS = envNumber('JOBAGENT_BENCH_WINDOWS', 3)
export const WINDOW_SECONDS = envNumber('JOBAGENT_BENCH_SECONDS', sized(5, 1))

function run(url, requests, duration) {
  return autocannon({url, connections: CONNECTIONS, duration, requests})
}

/**
 * `cases`: [{name, url, requests, warmupSeconds}] (autocannon request definitions). Each case is warmed up once
 * (JIT, caches, a fresh process's page faults), then measured in WINDOWS windows of WINDOW_SECONDS. Returns, per
 * case name, the samples of each window: req/s, p50 and p99 latency (ms). Any failed request is an error: a fast
 * error page is not a result.
 */
export async function measureLoad(cases) {
  for (const {url, requests, warmupSeconds} of cases) await run(url, requests, warmupSeconds)
  const samples = Object.fromEntries(cases.map(({name}) => [name, {rps: [], p50: [], p99: []}]))
  for (let window = 0; window < WINDOWS; window++) {
    for (const {name, url, requests} of cases) {
      const result = await run(url, requests, WINDOW_SECONDS)
      const failures = result.non2xx + result.errors + result.timeouts
      if (failures > 0) {
        throw new Error(`${name}: ${failures} failed requests (non-2xx ${result.non2xx}, errors ${result.errors})`)
      }
      samples[name].rps.push(result.requests.total / result.duration)
      samples[name].p50.push(result.latency.p50)
      samples[name].p99.push(result.latency.p99)
    }
  }
  return samples
}
