// The REST API under load (issue "jobagent serve"): `jobagent serve` over 10,000 tracked applications against a
// bare node:http server answering a fixed JSON body of the same shape, each in its own process, hit with autocannon
// at 32 connections. Targets: GET /applications/{url}/status at least half the bare server's rate; p99 latency under
// 10 ms for the status lookup and for POST /applications.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {figure} from './lib/figures.js'
import {CONNECTIONS, measureLoad, WINDOW_SECONDS, WINDOWS} from './lib/load.js'
import {BIN, ROOT, sized} from './lib/options.js'
import {startServer} from './lib/processes.js'
import {randomIndex, seededRandom} from './lib/random.js'
import {reportBenchmark} from './lib/report.js'
import {application, seedHome} from './lib/seed.js'

const APPLICATIONS = sized(10_000, 2000)
const WARMUP_SECONDS = sized(2, 1)
const RATIO_TARGET = 0.5
const P99_TARGET_MS = 10
const BARE_BODY = JSON.stringify({
  url: 'https://example.org/jobs/1',
  status: 'applied',
  notes: '',
  applied_date: '2026-11-01T00:00:00.000',
  updated_at: '2026-11-01T00:00:00.000',
})

// A query string with an encoded space makes the percent-encoded path segment non-trivial.
const urlOf = (n) => `https://example.org/jobs/${n}?ref=bench&q=a%20b`

const home = mkdtempSync(join(tmpdir(), 'jobagent-bench-http-'))
try {
  writeFileSync(join(home, 'config.json'), JSON.stringify({sources: []}), {mode: 0o600})
  await seedHome(home, {
    applications: Array.from({length: APPLICATIONS}, (_, n) =>
      application(n, {url: urlOf(n), status: n % 5 === 0 ? 'saved' : 'applied'}),
    ),
  })
  const bare = await startServer([join(ROOT, 'bench/shipments-server.js'), 'bare'], {JOBAGENT_BENCH_BODY: BARE_BODY})
  // With its access log on, written to a pipe that is drained, as a terminal would take it.
  const served = await startServer([BIN, 'serve', '--port', '0'], {JOBAGENT_HOME: home})
  // The bare server gets the same stream of lookups (it ignores the path), so both pay the load generator's
  // cost of building each request and the ratio measures only what the server does.
  const statusLookups = (seed) => {
    const lookups = seededRandom(seed)
    return [
      {
        method: 'GET',
        setupRequest: (request) => ({
          ...request,
          path: `/applications/${encodeURIComponent(urlOf(randomIndex(lookups, APPLICATIONS)))}/status`,
        }),
      },
    ]
  }
  let next = 0
  const samples = await measureLoad([
    {name: 'bare', url: bare.url, warmupSeconds: WARMUP_SECONDS, requests: statusLookups(2)},
    {name: 'status', url: served.url, warmupSeconds: WARMUP_SECONDS, requests: statusLookups(1)},
    {
      name: 'post',
      url: served.url,
      warmupSeconds: WARMUP_SECONDS,
      requests: [
        {
          method: 'POST',
          path: '/applications',
          headers: {'content-type': 'application/json'},
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({
              title: 'Bench Engineer',
              company: 'Acme',
              location: 'Remote',
              url: `https://example.org/new/${next++}`,
              source: 'bench',
            }),
          }),
        },
      ],
    },
  ])
  await Promise.all([bare.stop(), served.stop()])

  const rate = (id, name, options) =>
    figure({id: `http/${id}-rps`, name, unit: 'req/s', better: 'higher', samples: samples[id].rps, ...options})
  const p99 = (id, name) =>
    figure({
      id: `http/${id}-p99`,
      name,
      unit: 'ms',
      better: 'lower',
      samples: samples[id].p99,
      resolution: 1,
      target: {of: 'median', op: '<', limit: P99_TARGET_MS},
    })
  const baseline = rate('bare', 'bare node:http', {role: 'baseline'})
  reportBenchmark('http', {
    figures: [
      baseline,
      rate('status', 'GET /applications/{url}/status: req/s', {
        baseline,
        target: {of: 'ratio', op: '>=', limit: RATIO_TARGET},
      }),
      p99('status', 'GET /applications/{url}/status: p99'),
      rate('post', 'POST /applications: req/s', {baseline}),
      p99('post', 'POST /applications: p99'),
    ],
    notes: [
      `${APPLICATIONS.toLocaleString('en')} tracked applications; autocannon at ${CONNECTIONS} connections, ` +
        `${WINDOWS} windows of ${WINDOW_SECONDS} s per case after a ${WARMUP_SECONDS} s warm-up, cases interleaved.`,
      'GET looks up seeded-random tracked urls; POST records unique new urls, each a durable commit.',
    ],
  })
} finally {
  rmSync(home, {recursive: true, force: true})
}
