// `jobagent serve --workers 2` against the single process (issue 46): GET /shipments/{id}/unified on the embedded
// SQLite store, the built CLI as an operator starts it (access log on), autocannon at 32 connections for
// seeded-random existing ids, the two servers measured in interleaved windows. On a 2-core machine the load
// generator shares the cores with the workers, so two workers give less than twice the rate. Also the CPU time per
// request of one worker (user + system from /proc/<pid>/stat over a window, divided by the requests the workers
// answered) beside the single process's, and the primary's share (it accepts and hands over the connections).
// Sizes: JOBAGENT_BENCH_SHIPMENTS, JOBAGENT_BENCH_DOCS_PER_SHIPMENT (the store is shared with shipments.bench.js).
import {spawn} from 'node:child_process'
import {mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import autocannon from 'autocannon'
import {figure} from './lib/figures.js'
import {CONNECTIONS, measureLoad, WINDOW_SECONDS, WINDOWS} from './lib/load.js'
import {BIN, envNumber, ROOT, sized} from './lib/options.js'
import {randomIndex, seededRandom} from './lib/random.js'
import {reportBenchmark} from './lib/report.js'
import {shipmentId, sqliteStore} from './lib/shipment-stores.js'

const SHIPMENTS = envNumber('JOBAGENT_BENCH_SHIPMENTS', sized(1_000_000, 20_000))
const DOCS = envNumber('JOBAGENT_BENCH_DOCS_PER_SHIPMENT', 10)
const WARMUP_SECONDS = sized(10, 1)
/** Linux counts process CPU time in clock ticks of 10 ms (USER_HZ). */
const TICK_MS = 10

const running = new Set()
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/** `jobagent serve [--workers n]` over the store; resolves once every worker listens: {url, pids, primary, stop}. */
function serve(file, workers) {
  const home = mkdtempSync(join(tmpdir(), 'jobagent-bench-workers-'))
  const args = [BIN, 'serve', '--port', '0', ...(workers > 1 ? ['--workers', String(workers)] : [])]
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      NO_COLOR: '1',
      JOBAGENT_HOME: home,
      JOBAGENT_SHIPMENT_METADATA_URL: `sqlite://${file}`,
      JOBAGENT_SHIPMENT_TELEMETRY_URL: `sqlite://${file}`,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  running.add(child)
  const ready = workers > 1 ? /\d+ workers listening on (http:\/\/\S+)/ : /Listening on (http:\/\/\S+)/
  let output = ''
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk
      const match = ready.exec(output)
      if (!match) return
      // From now on the access log is drained unread, as a terminal would take it.
      child.stderr.off('data', onData)
      child.stderr.resume()
      child.off('exit', onExit)
      const pids = [...output.matchAll(/worker \d+ \(pid (\d+)\) listening/g)].map((m) => Number(m[1]))
      const stop = () =>
        new Promise((done) => {
          child.once('exit', done)
          child.kill('SIGTERM')
        })
      resolve({url: match[1], pids: workers > 1 ? pids : [child.pid], primary: child.pid, stop})
    }
    const onExit = (code) => reject(new Error(`jobagent serve exited ${code}: ${output}`))
    child.stderr.on('data', onData)
    child.on('exit', onExit)
  })
}

/** User + system CPU time of `pid` so far, in ms. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  // utime and stime are fields 14 and 15 of the line; the split drops the first two.
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS
}

const randomIds = (seed) => {
  const random = seededRandom(seed)
  return [
    {
      setupRequest: (request) => ({
        ...request,
        path: `/shipments/${shipmentId(1 + randomIndex(random, SHIPMENTS))}/unified`,
      }),
    },
  ]
}

/** One window of load on `server` with the CPU time its processes used: ms per request, workers and primary. */
async function cpuPerRequest(server, seed) {
  const before = server.pids.map(cpuMs)
  const primaryBefore = cpuMs(server.primary)
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: WINDOW_SECONDS,
    requests: randomIds(seed),
  })
  const workers = server.pids.map((pid, i) => cpuMs(pid) - before[i]).reduce((sum, ms) => sum + ms, 0)
  const requests = result.requests.total
  return {worker: workers / requests, primary: (cpuMs(server.primary) - primaryBefore) / requests}
}

const count = (n) => n.toLocaleString('en')
console.log(`SQLite store: ${count(SHIPMENTS)} shipments, ${count(SHIPMENTS * DOCS)} documents ...`)
const store = await sqliteStore(SHIPMENTS, DOCS)
const single = await serve(store.file, 1)
const two = await serve(store.file, 2)
const cpu = {single: [], two: [], primary: []}
let samples
try {
  samples = await measureLoad([
    {name: 'single', url: single.url, warmupSeconds: WARMUP_SECONDS, requests: randomIds(1)},
    {name: 'two', url: two.url, warmupSeconds: WARMUP_SECONDS, requests: randomIds(2)},
  ])
  for (let window = 0; window < WINDOWS; window++) {
    cpu.single.push((await cpuPerRequest(single, 10 + window)).worker)
    const shares = await cpuPerRequest(two, 20 + window)
    cpu.two.push(shares.worker)
    cpu.primary.push(shares.primary)
  }
} finally {
  await Promise.all([single.stop(), two.stop()])
}

const baseline = figure({
  id: 'workers/single-rps',
  name: 'GET /shipments/{id}/unified, SQLite, jobagent serve (one process): req/s',
  unit: 'req/s',
  better: 'higher',
  samples: samples.single.rps,
})
const figures = [
  baseline,
  figure({
    id: 'workers/two-rps',
    name: 'GET /shipments/{id}/unified, SQLite, jobagent serve --workers 2: req/s against one process',
    unit: 'req/s',
    better: 'higher',
    samples: samples.two.rps,
    baseline,
  }),
  figure({
    id: 'workers/single-p99',
    name: 'GET /shipments/{id}/unified, SQLite, one process: p99',
    unit: 'ms',
    better: 'lower',
    samples: samples.single.p99,
    resolution: 1,
  }),
  figure({
    id: 'workers/two-p99',
    name: 'GET /shipments/{id}/unified, SQLite, --workers 2: p99',
    unit: 'ms',
    better: 'lower',
    samples: samples.two.p99,
    resolution: 1,
  }),
  figure({
    id: 'workers/single-cpu-per-request',
    name: 'CPU time per request, one process',
    unit: 'ms',
    better: 'lower',
    samples: cpu.single,
    resolution: 0.01,
  }),
  figure({
    id: 'workers/worker-cpu-per-request',
    name: 'CPU time per request of one worker, --workers 2',
    unit: 'ms',
    better: 'lower',
    samples: cpu.two,
    resolution: 0.01,
  }),
  figure({
    id: 'workers/primary-cpu-per-request',
    name: 'CPU time per request of the primary, --workers 2 (keep-alive connections)',
    unit: 'ms',
    better: 'lower',
    samples: cpu.primary,
    resolution: 0.01,
  }),
]
reportBenchmark('workers', {
  figures,
  notes: [
    `autocannon at ${CONNECTIONS} connections, ${WINDOWS} windows of ${WINDOW_SECONDS} s per server after a ` +
      `${WARMUP_SECONDS} s warm-up, servers interleaved; then ${WINDOWS} windows each for the CPU time.`,
    `SQLite: ${count(SHIPMENTS)} shipments, ${count(SHIPMENTS * DOCS)} telemetry documents (generated: ${store.generated}); ` +
      'the built CLI, access log on; the load generator shares the two cores with the servers.',
  ],
})
