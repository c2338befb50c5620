// How `jobagent sweep` fares over the shipped directory (issue "Speed and scale"): a loopback mirror answers for
// every ATS (each on a port of its own) from the real captures in test/fixtures/sources, each board's jobs given URLs of their own, 100-300 ms
// after each request, with 2% of boards answering 404, 1% 429 with Retry-After (once a sweep), 1% slowly (5 s) and
// 0.5% malformed, chosen by the board's path so both sweeps meet the same faults. A first sweep, then a second one
// with nothing changed (`--force`): wall time, peak RSS and CPU time per board of each. A 3,000-board sample of the
// directory by default (an even spread over each ATS's boards), all of it with JOBAGENT_BENCH_SWEEP=full.
// The boards whose ATS gives each a host of its own (BambooHR, Breezy, Personio, Pinpoint, Recruitee, Teamtailor)
// are told apart by `{slug}` in their mirror URL (`/bamboohr/{slug}`).
import {createHash} from 'node:crypto'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:http'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {gunzipSync} from 'node:zlib'
import {figure} from './lib/figures.js'
import {listenMirror, sendWithEtag} from './lib/mirror.js'
import {ROOT, sized} from './lib/options.js'
import {measureJobagent} from './lib/processes.js'
import {seededRandom} from './lib/random.js'
import {reportBenchmark} from './lib/report.js'

const FULL = process.env.JOBAGENT_BENCH_SWEEP === 'full'
const SAMPLE = sized(3000, 300)
const CAPTURES = join(ROOT, 'test/fixtures/sources')
const NOW = '2026-11-22T05:00:00'

const capture = (file) => readFileSync(join(CAPTURES, file), 'utf8')
const json = (file) => JSON.parse(capture(file))

/** The list capture of each ATS, and what a detail request of it is answered with. */
const LISTS = {
  ashby: json('ashby.json'),
  bamboohr: json('bamboohr.json'),
  breezy: json('breezy.json'),
  greenhouse: json('greenhouse.json'),
  lever: json('lever.json'),
  personio: capture('personio.xml'),
  pinpoint: json('pinpoint.json'),
  recruitee: json('recruitee.json'),
  rippling: json('rippling.json'),
  smartrecruiters: json('smartrecruiters.json'),
  teamtailor: json('teamtailor.json'),
  workable: json('workable.json'),
  workday: json('workday.json'),
}
const DETAILS = {
  bamboohr: json('bamboohr-detail-36.json'),
  rippling: json('rippling-details.json'),
  smartrecruiters: json('smartrecruiters-posting.json'),
  workday: json('workday-detail.json'),
}

/** The directory sample in the shipped format: every k-th board of each ATS, so each keeps its share. */
function sampleDirectory(file) {
  const lines = gunzipSync(readFileSync(join(ROOT, 'data/directory.tsv.gz')))
    .toString('utf8')
    .split('\n')
  const sections = []
  for (const line of lines.slice(1)) {
    if (line.startsWith('#')) sections.push({head: line.split(' ')[0], boards: []})
    else if (line !== '') sections.at(-1).boards.push(line)
  }
  const total = sections.reduce((sum, one) => sum + one.boards.length, 0)
  const step = FULL ? 1 : total / SAMPLE
  const out = [lines[0]]
  let count = 0
  for (const section of sections) {
    const picked = []
    for (let at = 0; at < section.boards.length; at += step) picked.push(section.boards[Math.floor(at)])
    out.push(`${section.head} ${picked.length}`, ...picked)
    count += picked.length
  }
  writeFileSync(file, `${out.join('\n')}\n`)
  return count
}

/** Every URL in the answer made the board's own, so no two boards share a job. */
function vary(value, slug) {
  if (typeof value === 'string') return /^https?:\/\//.test(value) ? `${value}-${slug}` : value
  if (Array.isArray(value)) return value.map((one) => vary(one, slug))
  if (value && typeof value === 'object') {
    const out = {}
    for (const [key, one] of Object.entries(value))
      out[key] = key === 'externalPath' && typeof one === 'string' ? `${one}-${slug}` : vary(one, slug)
    return out
  }
  return value
}

/** The board named in a list request's path, or null when the ATS's path names none. */
function listedBoard(ats, parts) {
  if (ats === 'greenhouse' && parts[0] === 'v1' && parts.length === 4) return parts[2]
  if (ats === 'lever' && parts[0] === 'v0' && parts.length === 3) return parts[2]
  if (ats === 'ashby' && parts[0] === 'posting-api' && parts.length === 3) return parts[2]
  if (ats === 'smartrecruiters' && parts[0] === 'v1' && parts.length === 4) return parts[2]
  if (ats === 'workable' && parts[0] === 'api' && parts.length === 5) return parts[4]
  if (ats === 'rippling' && parts[0] === 'platform' && parts.at(-1) === 'jobs') return parts.at(-2)
  if (ats === 'workday' && parts[0] === 'wday' && parts.at(-1) === 'jobs') return `${parts[2]}/${parts[3]}`
  return undefined
}

const SINGLE_PATH = {
  bamboohr: 'careers/list',
  breezy: 'json',
  personio: 'xml',
  pinpoint: 'postings.json',
  recruitee: 'api/offers',
  teamtailor: 'jobs.json',
}

async function startMirror() {
  const random = seededRandom(20261122)
  const refused = new Set()
  const counts = {requests: 0, lists: 0, details: 0, notModified: 0}
  const handle = (req, res) => {
    counts.requests++
    const url = new URL(req.url ?? '/', 'http://mirror')
    const [ats = '', ...rest] = url.pathname.split('/').filter(Boolean).map(decodeURIComponent)
    // A board of an ATS that gives each board a host of its own is named by the mirror URL's {slug}.
    const named = ats in SINGLE_PATH
    const parts = named ? rest.slice(1) : rest
    const single = named && SINGLE_PATH[ats] === parts.join('/')
    const slug = single ? rest[0] : listedBoard(ats, parts)
    const fault = slug === undefined ? 1 : createHash('sha1').update(`${ats}/${slug}`).digest().readUInt16BE(0) / 65536
    const send = (status, body, headers = {}) =>
      setTimeout(
        () => {
          res.writeHead(status, {
            'content-type': ats === 'personio' ? 'application/xml' : 'application/json',
            ...headers,
          })
          res.end(body)
        },
        100 + Math.floor(random() * 200) + (fault >= 0.03 && fault < 0.04 ? 5000 : 0),
      )
    if (!(ats in LISTS)) return send(404, '{"error": "no such ATS"}')
    if (slug === undefined) {
      counts.details++
      if (ats === 'greenhouse') {
        const job = LISTS.greenhouse.jobs.find((one) => String(one.id) === parts.at(-1))
        return job ? send(200, JSON.stringify(job)) : send(404, '{}')
      }
      return DETAILS[ats] ? send(200, JSON.stringify(DETAILS[ats])) : send(404, '{"error": "no such path"}')
    }
    counts.lists++
    if (fault < 0.02) return send(404, '{"error": "not found"}')
    if (fault < 0.03 && !refused.has(`${ats}/${slug}`)) {
      refused.add(`${ats}/${slug}`)
      return send(429, '{"error": "slow down"}', {'retry-after': '1'})
    }
    if (fault >= 0.04 && fault < 0.045) return send(200, '{"jobs": [{"title": "cut')
    if (ats === 'personio') return send(200, LISTS.personio)
    let body = vary(LISTS[ats], slug)
    if (ats === 'greenhouse') body = {jobs: body.jobs.map(({content: _content, ...job}) => job)}
    const text = JSON.stringify(body)
    if (ats !== 'greenhouse') return send(200, text)
    return sendWithEtag(req, send, text, counts)
  }
  const reset = () => {
    refused.clear()
    Object.assign(counts, {requests: 0, lists: 0, details: 0, notModified: 0})
  }
  // Each ATS on a port of its own, as each is a host (or hosts) of its own on the internet: one host for all would
  // put every platform behind the HTTP client's limit per host.
  const servers = await Promise.all(
    Object.keys(LISTS).map(async (ats) => [ats, await listenMirror(createServer(handle), counts, reset)]),
  )
  return {
    counts,
    reset,
    urlOf: (ats) => `${Object.fromEntries(servers)[ats].url}/${ats}${ats in SINGLE_PATH ? '/{slug}' : ''}`,
    close: () => Promise.all(servers.map(([, server]) => server.close())),
  }
}

/** One `jobagent sweep --json` of `directory`, measured. */
const sweepOnce = (home, directory, extra) =>
  measureJobagent(home, ['sweep', '--directory', directory, '--json', '--quiet', ...extra], {JOBAGENT_NOW: NOW})

const home = mkdtempSync(join(tmpdir(), 'jobagent-bench-sweep-'))
const mirror = await startMirror()
try {
  const directory = join(home, 'directory.tsv')
  const boards = sampleDirectory(directory)
  const config = {
    profile: {roles: ['software engineer', 'data engineer', 'account executive']},
    sweep: {
      urls: Object.fromEntries(Object.keys(LISTS).map((ats) => [ats, mirror.urlOf(ats)])),
    },
  }
  writeFileSync(join(home, 'config.json'), JSON.stringify(config), {mode: 0o600})
  const first = await sweepOnce(home, directory, [])
  const firstCounts = {...mirror.counts}
  mirror.reset()
  const second = await sweepOnce(home, directory, ['--force'])
  const secondCounts = {...mirror.counts}
  const one = (id, name, unit, value) => figure({id: `sweep/${id}`, name, unit, better: 'lower', samples: [value]})
  const figures = [
    one('first-wall', `First sweep of ${boards} boards: wall time`, 's', first.ms / 1000),
    one('first-rss', 'First sweep: peak RSS', 'MB', first.rssKiB / 1024),
    one('first-cpu-per-board', 'First sweep: CPU time per board (user + system)', 'ms', first.cpuMs / boards),
    one('second-wall', 'Second sweep, nothing changed: wall time', 's', second.ms / 1000),
    one('second-rss', 'Second sweep: peak RSS', 'MB', second.rssKiB / 1024),
    one('second-cpu-per-board', 'Second sweep: CPU time per board (user + system)', 'ms', second.cpuMs / boards),
  ]
  const outcome = ({summary}) =>
    `${summary.answered} answered, ${summary.unchanged} unchanged, ${summary.dead} dead, ${summary.resting} resting, ` +
    `${summary.failed} failed ${JSON.stringify(summary.failed_by_reason)}, ${summary.candidates} candidates, ` +
    `${summary.matches} matches`
  reportBenchmark('sweep', {
    figures,
    notes: [
      `${FULL ? 'The whole directory' : 'A sample of the directory'}: ${boards} boards; one sweep of each kind.`,
      `First sweep: ${outcome(first)}; mirror: ${JSON.stringify(firstCounts)}.`,
      `Second sweep: ${outcome(second)}; mirror: ${JSON.stringify(secondCounts)}.`,
      'BambooHR, Breezy, Personio, Pinpoint, Recruitee and Teamtailor boards are named by `{slug}` in their ' +
        'mirror URL, so each board answers with jobs of its own, as the others do.',
    ],
  })
} finally {
  await mirror.close()
  rmSync(home, {recursive: true, force: true})
}
