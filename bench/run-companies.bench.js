// How the daily `jobagent run` fares following 300 companies through one `boards_file` entry (issue "the daily run
// can watch many companies"): a loopback mirror answers every Greenhouse board from the real capture in
// test/fixtures/sources, each board's jobs given URLs of their own, 100-300 ms after each request, with an ETag and a
// 304 for a request that names it; 2% of the boards answer 404, 1% 429 with Retry-After: 1 (once), 0.5% malformed,
// chosen by the slug so both runs meet the same faults. A first run, then a second one a day later with nothing
// changed: wall time, peak RSS, CPU time per board, and the requests the mirror saw.
import {createHash} from 'node:crypto'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:http'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {figure} from './lib/figures.js'
import {listenMirror, sendWithEtag} from './lib/mirror.js'
import {ROOT, sized} from './lib/options.js'
import {measureJobagent} from './lib/processes.js'
import {seededRandom} from './lib/random.js'
import {reportBenchmark} from './lib/report.js'

const COMPANIES = sized(300, 60)
const CAPTURE = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/sources/greenhouse.json'), 'utf8'))

function startMirror() {
  const random = seededRandom(20261122)
  const refused = new Set()
  const counts = {lists: 0, conditional: 0, notModified: 0}
  const server = createServer((req, res) => {
    const parts = new URL(req.url ?? '/', 'http://mirror').pathname.split('/').filter(Boolean)
    const slug = parts[2] ?? ''
    const fault = createHash('sha1').update(slug).digest().readUInt16BE(0) / 65536
    const send = (status, body, headers = {}) =>
      setTimeout(
        () => {
          res.writeHead(status, {'content-type': 'application/json', ...headers})
          res.end(body)
        },
        100 + Math.floor(random() * 200),
      )
    counts.lists++
    if (req.headers['if-none-match']) counts.conditional++
    if (fault < 0.02) return send(404, '{"error": "not found"}')
    if (fault < 0.03 && !refused.has(slug)) {
      refused.add(slug)
      return send(429, '{"error": "slow down"}', {'retry-after': '1'})
    }
    if (fault < 0.035) return send(200, '{"jobs": [{"title": "cut')
    const jobs = CAPTURE.jobs.map((job) => ({...job, company_name: slug, absolute_url: `${job.absolute_url}-${slug}`}))
    const text = JSON.stringify({jobs})
    return sendWithEtag(req, send, text, counts)
  })
  return listenMirror(server, counts, () => Object.assign(counts, {lists: 0, conditional: 0, notModified: 0}))
}

/** One `jobagent run --json` at `now`, measured. */
const runOnce = (home, now) => measureJobagent(home, ['run', '--json', '--quiet'], {JOBAGENT_NOW: now})

const home = mkdtempSync(join(tmpdir(), 'jobagent-bench-run-companies-'))
const mirror = await startMirror()
try {
  const slugs = Array.from({length: COMPANIES}, (_, index) => `company-${index + 1}`)
  writeFileSync(join(home, 'companies.txt'), `${slugs.join('\n')}\n`)
  const config = {sources: [{type: 'greenhouse', boards_file: 'companies.txt', url: mirror.url}]}
  writeFileSync(join(home, 'config.json'), JSON.stringify(config), {mode: 0o600})
  const first = await runOnce(home, '2026-11-22T05:00:00')
  const firstCounts = {...mirror.counts}
  mirror.reset()
  const second = await runOnce(home, '2026-11-23T05:00:00')
  const secondCounts = {...mirror.counts}
  const one = (id, name, unit, value) =>
    figure({id: `run-companies/${id}`, name, unit, better: 'lower', samples: [value]})
  const figures = [
    one('first-wall', `First run of ${COMPANIES} companies: wall time`, 's', first.ms / 1000),
    one('first-rss', 'First run: peak RSS', 'MB', first.rssKiB / 1024),
    one('first-cpu-per-board', 'First run: CPU time per board (user + system)', 'ms', first.cpuMs / COMPANIES),
    one('second-wall', 'Second run, nothing changed: wall time', 's', second.ms / 1000),
    one('second-rss', 'Second run: peak RSS', 'MB', second.rssKiB / 1024),
    one('second-cpu-per-board', 'Second run: CPU time per board (user + system)', 'ms', second.cpuMs / COMPANIES),
  ]
  const outcome = ({summary}) => {
    const source = summary.sources[0]
    return `${JSON.stringify(source.boards)} ${source.error ?? ''}; ${summary.jobs_found} jobs found`
  }
  reportBenchmark('run-companies', {
    figures,
    notes: [
      `One greenhouse entry with boards_file of ${COMPANIES} companies, default sweep limits (per_ats 8, concurrency 48).`,
      `First run: ${outcome(first)}; mirror: ${JSON.stringify(firstCounts)}.`,
      `Second run: ${outcome(second)}; mirror: ${JSON.stringify(secondCounts)}.`,
    ],
  })
} finally {
  await mirror.close()
  rmSync(home, {recursive: true, force: true})
}
