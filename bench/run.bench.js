// The main job at scale: ten local mock boards of 1,000 jobs each against 100,000 tracked applications.
// Targets (issue "jobagent run"): whole run under 2 s wall time and under 300 MB peak memory on 2 cores.
import {spawn} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:http'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import Database from 'better-sqlite3'

const ROOT = resolve(import.meta.dirname, '..')
const BIN = join(ROOT, 'bin/run.js')
const BOARDS = 10
const JOBS_PER_BOARD = 1000
const APPLICATIONS = 100_000
const RUNS = 5

function boardBody(board) {
  const jobs = [{last_updated: 1763596800, legal: 'API Terms of Service'}]
  for (let n = 0; n < JOBS_PER_BOARD; n++) {
    jobs.push({
      id: String(board * 100_000 + n),
      slug: `job-${board}-${n}`,
      epoch: 1763596800 - n * 60,
      date: '2026-11-20T00:00:00+00:00',
      company: `Company ${board}-${n % 400}`,
      position: `Engineer ${n}`,
      tags: ['dev'],
      location: n % 3 === 0 ? '' : 'Remote - EU',
      url: `https://remoteOK.com/remote-jobs/job-${board}-${n}`,
    })
  }
  return JSON.stringify(jobs)
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/** Spawned asynchronously: the mock boards live in this process and must keep answering meanwhile. */
async function timed(args, env) {
  const rssFile = join(env.JOBAGENT_HOME, `rss-${Math.random()}`)
  const started = performance.now()
  const child = spawn(process.execPath, ['--import', join(ROOT, 'bench/report-peak-memory.js'), BIN, ...args], {
    env: {...process.env, ...env, JOBAGENT_BENCH_RSS_FILE: rssFile, NO_COLOR: '1'},
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  const code = await new Promise((done) => child.on('close', done))
  const ms = performance.now() - started
  if (code !== 0) throw new Error(`jobagent ${args.join(' ')} exited ${code}: ${stderr}`)
  return {ms, rssMb: Number(readFileSync(rssFile, 'utf8')) / 1024, stdout}
}

const bodies = Array.from({length: BOARDS}, (_, board) => boardBody(board))
const server = createServer((req, res) => {
  const board = Number(/^\/b(\d+)\/api/.exec(req.url ?? '')?.[1])
  if (!Number.isInteger(board) || board >= BOARDS) return res.writeHead(404).end()
  res.writeHead(200, {'content-type': 'application/json'}).end(bodies[board])
})
await new Promise((done) => server.listen(0, '127.0.0.1', done))
const port = server.address().port

const home = mkdtempSync(join(tmpdir(), 'jobagent-bench-run-'))
try {
  const env = {JOBAGENT_HOME: home}
  const sources = Array.from({length: BOARDS}, (_, board) => ({
    type: 'remoteok',
    name: `board-${board}`,
    url: `http://127.0.0.1:${port}/b${board}`,
  }))
  writeFileSync(join(home, 'config.json'), JSON.stringify({sources}), {mode: 0o600})
  await timed(['status', '--json'], env)
  const db = new Database(join(home, 'jobagent.db'))
  const insert = db.prepare(
    `INSERT INTO applications (url_key, url, title, company, location, source, applied_date, status, notes, updated_at)
     VALUES (?, ?, 'Engineer', 'Company', '', 'bench', '2026-11-01T00:00:00.000', ?, '', '2026-11-01T00:00:00.000')`,
  )
  db.transaction(() => {
    for (let n = 0; n < APPLICATIONS; n++) {
      // Every 10th board job is tracked so matching has real hits.
      const url = n < 1000 ? `https://remoteok.com/remote-jobs/job-${n % BOARDS}-${n}` : `https://example.org/jobs/${n}`
      insert.run(url.toLowerCase(), url, n % 5 === 0 ? 'saved' : 'applied')
    }
  })()
  db.close()

  const baseline = []
  const runs = []
  for (let i = 0; i < RUNS; i++) {
    baseline.push(await timed(['--version'], env))
    runs.push(await timed(['run', '--json', '--quiet'], env))
  }
  const summary = JSON.parse(runs.at(-1).stdout)
  const runMs = median(runs.map((r) => r.ms))
  const runRss = Math.max(...runs.map((r) => r.rssMb))
  const versionMs = median(baseline.map((r) => r.ms))
  const lines = [
    '# jobagent run at scale',
    '',
    `${BOARDS} local boards x ${JOBS_PER_BOARD} jobs, ${APPLICATIONS.toLocaleString('en')} tracked applications, median of ${RUNS} runs.`,
    '',
    '| measure | value | target |',
    '|---|---|---|',
    `| jobs found / new | ${summary.jobs_found} / ${summary.new_jobs} | |`,
    `| run wall time | ${runMs.toFixed(0)} ms | < 2000 ms ${runMs < 2000 ? 'PASS' : 'FAIL'} |`,
    `| run peak RSS | ${runRss.toFixed(0)} MB | < 300 MB ${runRss < 300 ? 'PASS' : 'FAIL'} |`,
    `| jobagent --version (baseline) | ${versionMs.toFixed(0)} ms | |`,
    `| run / --version | ${(runMs / versionMs).toFixed(2)}x | |`,
  ]
  const report = lines.join('\n')
  writeFileSync(join(ROOT, 'bench/results/run.md'), `${report}\n`)
  console.log(report)
} finally {
  server.close()
  rmSync(home, {recursive: true, force: true})
}
