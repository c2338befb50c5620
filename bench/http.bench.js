// The REST API under load (issue "jobagent serve"): `jobagent serve` over 10,000 tracked applications against a
// bare node:http server answering a fixed JSON body, each in its own process, measured in the same run with
// autocannon at 32 connections. Targets: GET /applications/{url}/status at least half the bare server's rate,
// and its p99 latency under 10 ms.
// JOBAGENT_BENCH_ROOT=<dir> benchmarks another built copy of the package; JOBAGENT_BENCH_SECONDS shortens runs.
import {spawn} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import autocannon from 'autocannon'

const ROOT = resolve(import.meta.dirname, '..')
const PACKAGE = resolve(process.env.JOBAGENT_BENCH_ROOT ?? ROOT)
const BIN = join(PACKAGE, 'bin/run.js')
const APPLICATIONS = 10_000
const CONNECTIONS = 32
const SECONDS = Number(process.env.JOBAGENT_BENCH_SECONDS ?? 10)
const WARMUP_SECONDS = 2

const BARE_SERVER = `
const body = JSON.stringify({url: 'https://example.org/jobs/1', status: 'applied', notes: '', applied_date: '2026-11-01T00:00:00.000', updated_at: '2026-11-01T00:00:00.000'})
require('node:http').createServer((req, res) => {
  res.writeHead(200, {'content-type': 'application/json', 'content-length': Buffer.byteLength(body)}).end(body)
}).listen(0, '127.0.0.1', function () { console.error('Listening on http://127.0.0.1:' + this.address().port) })
`

const urlOf = (n) => `https://example.org/jobs/${n}?ref=bench&q=a%20b`

/** Starts a server process and resolves with its base URL once it logs its start line. */
function startProcess(args, env) {
  const child = spawn(process.execPath, args, {
    env: {...process.env, NO_COLOR: '1', ...env},
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  return new Promise((resolveStart, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk
      const match = /Listening on (http:\/\/[\d.:]+)/.exec(stderr)
      if (match) {
        // The access log goes on being written, to a pipe nobody reads but drains, as a terminal would.
        child.stderr.removeAllListeners('data')
        child.stderr.resume()
        resolveStart({url: match[1], child})
      }
    })
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before listening: ${stderr}`)))
  })
}

async function stop(child) {
  const exited = new Promise((done) => child.once('exit', done))
  child.kill('SIGTERM')
  await exited
}

function load(url, options) {
  return new Promise((done, reject) => {
    autocannon({url, connections: CONNECTIONS, ...options}, (error, result) => (error ? reject(error) : done(result)))
  })
}

/** A warm-up (JIT, caches), then the measured run. */
async function measure(url, requests) {
  await load(url, {duration: WARMUP_SECONDS, requests})
  const result = await load(url, {duration: SECONDS, requests})
  const failures = result.non2xx + result.errors + result.timeouts
  if (failures > 0) throw new Error(`${failures} failed requests against ${url} (non-2xx ${result.non2xx})`)
  return {rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total}
}

function seed(home) {
  const records = Array.from({length: APPLICATIONS}, (_, n) => ({
    title: `Engineer ${n}`,
    company: `Company ${n % 500}`,
    location: 'Remote',
    url: urlOf(n),
    source: 'bench',
    applied_date: '2026-11-01T00:00:00.000',
    status: n % 5 === 0 ? 'saved' : 'applied',
    notes: '',
  }))
  const file = join(home, 'applications.json')
  writeFileSync(file, JSON.stringify(records))
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [BIN, 'import', file, '--quiet'], {
      env: {...process.env, JOBAGENT_HOME: home},
    })
    child.on('exit', (code) => (code === 0 ? done() : reject(new Error(`jobagent import exited ${code}`))))
  })
}

const home = mkdtempSync(join(tmpdir(), 'jobagent-bench-http-'))
const children = []
try {
  writeFileSync(join(home, 'config.json'), JSON.stringify({sources: []}), {mode: 0o600})
  await seed(home)

  const bare = await startProcess(['-e', BARE_SERVER], {})
  children.push(bare.child)
  const bareResult = await measure(bare.url, [{method: 'GET', path: '/'}])
  await stop(bare.child)

  const served = await startProcess([BIN, 'serve', '--port', '0'], {JOBAGENT_HOME: home})
  children.push(served.child)
  const statusResult = await measure(served.url, [
    {
      method: 'GET',
      setupRequest: (request) => ({
        ...request,
        path: `/applications/${encodeURIComponent(urlOf(Math.floor(Math.random() * APPLICATIONS)))}/status`,
      }),
    },
  ])
  let next = 0
  const postResult = await measure(served.url, [
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
          url: `https://example.org/new/${process.pid}/${next++}`,
          source: 'bench',
        }),
      }),
    },
  ])
  await stop(served.child)

  const ratio = statusResult.rps / bareResult.rps
  const rateOk = ratio >= 0.5
  const p99Ok = statusResult.p99 < 10
  const row = (name, r, target = '') =>
    `| ${name} | ${Math.round(r.rps).toLocaleString('en')} | ${r.p50} ms | ${r.p99} ms | ${(r.rps / bareResult.rps).toFixed(2)} | ${target} |`
  const lines = [
    '# jobagent serve under load',
    '',
    `${APPLICATIONS.toLocaleString('en')} tracked applications, autocannon with ${CONNECTIONS} connections for ${SECONDS} s`,
    `per case after a ${WARMUP_SECONDS} s warm-up; the server and autocannon each in their own process (2 cores).`,
    'jobagent runs as `jobagent serve` with its access log on, the bare server is node:http with a fixed JSON body.',
    '',
    '| case | req/s | p50 | p99 | / bare | target |',
    '|---|---|---|---|---|---|',
    row('bare node:http, fixed JSON', bareResult),
    row(
      'GET /applications/{url}/status (random urls)',
      statusResult,
      `>= 0.50 x bare ${rateOk ? 'PASS' : 'FAIL'}, p99 < 10 ms ${p99Ok ? 'PASS' : 'FAIL'}`,
    ),
    row('POST /applications (unique urls, durable commit)', postResult),
  ]
  const report = lines.join('\n')
  writeFileSync(join(ROOT, 'bench/results/http.md'), `${report}\n`)
  console.log(report)
  if (!rateOk || !p99Ok) process.exitCode = 1
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  rmSync(home, {recursive: true, force: true})
}
