import {createHash} from 'node:crypto'
import {writeFileSync} from 'node:fs'
import type {IncomingMessage, ServerResponse} from 'node:http'
import {join} from 'node:path'
import {type MockServer, startMockServer} from './mock-board.js'
import {fixtureJson} from './source-fixtures.js'

type Json = Record<string, unknown>

/**
 * One mirror on 127.0.0.1 answering for five ATSs (Greenhouse, Lever, Ashby, SmartRecruiters, Workday) from the
 * real captures in test/fixtures/sources, each board's jobs given URLs of their own so no two boards share a job.
 * Boards named `gone-*` answer 404, `empty-*` an empty list, `broken-*` malformed JSON, `busy-*` 429 with
 * Retry-After the first time; Greenhouse sends an ETag and answers a request that names it with 304.
 */
export interface SweepMirror extends MockServer {
  /** Requests per kind: `list`, `detail`, `304`, `conditional` (a list asked with If-None-Match or If-Modified-Since), by ATS. */
  count(kind: 'list' | 'detail' | '304' | 'conditional', ats?: string): number
  /** Greenhouse boards whose answer changes from now on (a job added). */
  change(slug: string): void
}

const GREENHOUSE = fixtureJson<{jobs: Json[]}>('greenhouse.json').jobs
const LEVER = fixtureJson<Json[]>('lever.json')
const ASHBY = fixtureJson<{jobs: Json[]}>('ashby.json').jobs
const SMART = fixtureJson<Json>('smartrecruiters.json')
const SMART_POSTING = fixtureJson<Json>('smartrecruiters-posting.json')
const WORKDAY = fixtureJson<Json>('workday.json')
const WORKDAY_DETAIL = fixtureJson<Json>('workday-detail.json')

export interface SweepMirrorOptions {
  /** Each answer is sent this long after its request arrives, as a remote ATS takes its time (0 by default). */
  latencyMs?: number
}

export async function startSweepMirror(options: SweepMirrorOptions = {}): Promise<SweepMirror> {
  const counts = new Map<string, number>()
  const changed = new Set<string>()
  const busySeen = new Set<string>()
  const bump = (kind: string, ats: string) => {
    counts.set(`${kind}:${ats}`, (counts.get(`${kind}:${ats}`) ?? 0) + 1)
    counts.set(kind, (counts.get(kind) ?? 0) + 1)
  }
  const send = (res: ServerResponse, body: string, status = 200, headers: Record<string, string> = {}) => {
    res.writeHead(status, {'content-type': 'application/json', ...headers})
    res.end(body)
  }
  const faults = (res: ServerResponse, ats: string, slug: string): boolean => {
    if (slug.startsWith('gone-')) {
      send(res, '{"error": "not found"}', 404)
      return true
    }
    if (slug.startsWith('broken-')) {
      send(res, '{"jobs": [{"title": "cut', 200)
      return true
    }
    if (slug.startsWith('busy-') && !busySeen.has(`${ats}:${slug}`)) {
      busySeen.add(`${ats}:${slug}`)
      send(res, '{"error": "slow down"}', 429, {'retry-after': '2'})
      return true
    }
    return false
  }
  const latency = options.latencyMs ?? 0
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    if (latency > 0) setTimeout(() => answer(req, res), latency)
    else answer(req, res)
  }
  const answer = (req: IncomingMessage, res: ServerResponse): unknown => {
    const url = new URL(req.url ?? '/', 'http://mirror')
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent)
    // Greenhouse: /v1/boards/{slug}/jobs and /v1/boards/{slug}/jobs/{id}
    if (parts[0] === 'v1' && parts[1] === 'boards' && parts[2]) {
      const slug = parts[2]
      if (parts[4]) {
        bump('detail', 'greenhouse')
        const job = GREENHOUSE.find((one) => String(one.id) === parts[4])
        return job ? send(res, JSON.stringify(job)) : send(res, '{}', 404)
      }
      bump('list', 'greenhouse')
      if (req.headers['if-none-match'] || req.headers['if-modified-since']) bump('conditional', 'greenhouse')
      if (faults(res, 'greenhouse', slug)) return
      const full = url.searchParams.get('content') === 'true'
      const jobs: Json[] = (slug.startsWith('empty-') ? [] : GREENHOUSE).map((job) => {
        const {content, company_name: _company, ...rest} = job
        return {...rest, ...(full ? {content} : {}), absolute_url: `${job.absolute_url}-${slug}`}
      })
      if (changed.has(slug))
        jobs.push({...jobs[0], id: 1, title: 'Staff Software Engineer', absolute_url: `https://x.org/${slug}/new`})
      const body = JSON.stringify({jobs})
      const etag = `"${createHash('sha1').update(body).digest('hex')}"`
      if (req.headers['if-none-match'] === etag) {
        bump('304', 'greenhouse')
        res.writeHead(304, {etag})
        return res.end()
      }
      return send(res, body, 200, {etag})
    }
    // Lever: /v0/postings/{slug}
    if (parts[0] === 'v0' && parts[1] === 'postings' && parts[2]) {
      const slug = parts[2]
      bump('list', 'lever')
      if (faults(res, 'lever', slug)) return
      const jobs = slug.startsWith('empty-')
        ? []
        : LEVER.map((job) => ({...job, hostedUrl: `${job.hostedUrl}-${slug}`}))
      return send(res, JSON.stringify(jobs))
    }
    // Ashby: /posting-api/job-board/{slug}
    if (parts[0] === 'posting-api' && parts[2]) {
      const slug = parts[2]
      bump('list', 'ashby')
      if (faults(res, 'ashby', slug)) return
      const jobs = ASHBY.map((job) => ({...job, jobUrl: `${job.jobUrl}-${slug}`, applyUrl: `${job.applyUrl}-${slug}`}))
      return send(res, JSON.stringify({jobs}))
    }
    // SmartRecruiters: /v1/companies/{slug}/postings[/{id}]
    if (parts[0] === 'v1' && parts[1] === 'companies' && parts[2]) {
      const slug = parts[2]
      if (parts[4]) {
        bump('detail', 'smartrecruiters')
        return send(res, JSON.stringify(SMART_POSTING))
      }
      bump('list', 'smartrecruiters')
      if (faults(res, 'smartrecruiters', slug)) return
      const content = (SMART.content as Json[]).map((job) => ({...job, id: `${job.id}${slug}`, company: {name: slug}}))
      return send(res, JSON.stringify({...SMART, content, totalFound: content.length}))
    }
    // Workday: POST /wday/cxs/{tenant}/{site}/jobs, GET /wday/cxs/{tenant}/{site}/job/...
    if (parts[0] === 'wday' && parts[1] === 'cxs' && parts[2]) {
      const site = `${parts[2]}/${parts[3]}`
      if (parts[4] === 'job') {
        bump('detail', 'workday')
        return send(res, JSON.stringify(WORKDAY_DETAIL))
      }
      bump('list', 'workday')
      if (faults(res, 'workday', parts[2])) return
      const jobPostings = (WORKDAY.jobPostings as Json[]).map((job) => ({
        ...job,
        externalPath: `${job.externalPath}-${site.replace('/', '-')}`,
      }))
      return send(res, JSON.stringify({...WORKDAY, jobPostings}))
    }
    send(res, '{"error": "no such path"}', 404)
  }
  const server = await startMockServer(handler)
  return {
    ...server,
    count: (kind, ats) => counts.get(ats ? `${kind}:${ats}` : kind) ?? 0,
    change: (slug) => {
      changed.add(slug)
    },
  }
}

/** The sweep's ATSs all pointed at the mirror, as `config set sweep.urls` writes it. */
export function mirrorUrls(mirror: MockServer): Record<string, string> {
  return Object.fromEntries(
    ['greenhouse', 'lever', 'ashby', 'smartrecruiters', 'workday'].map((ats) => [ats, mirror.url]),
  )
}

/**
 * A directory of 40 boards (39 without the busy one) over the five ATSs, in the shared directory's shape, with a 404, an empty board, a
 * malformed answer and a 429 among them; written to `dir/directory.jsonl`.
 */
export function writeTestDirectory(dir: string, options: {busy?: boolean} = {}): string {
  const lines: Json[] = []
  const add = (ats: string, slug: string, company = slug, region?: 'eu') =>
    lines.push({ats, slug, company, sources: ['test'], ...(region ? {region} : {})})
  for (let i = 1; i <= 12; i++) add('greenhouse', `gh${i}`, `Greenhouse Co ${i}`)
  add('greenhouse', 'gone-gh', 'Gone Inc')
  add('greenhouse', 'empty-gh', 'Empty Inc')
  add('greenhouse', 'broken-gh', 'Broken Inc')
  if (options.busy !== false) add('greenhouse', 'busy-gh', 'Busy Inc')
  for (let i = 1; i <= 6; i++) add('lever', `lv${i}`, `Lever Co ${i}`)
  add('lever', 'lv7', 'Lever Co 7', 'eu')
  add('lever', 'empty-lv', 'Empty Lever')
  for (let i = 1; i <= 6; i++) add('ashby', `ab${i}`, `Ashby Co ${i}`)
  for (let i = 1; i <= 5; i++) add('smartrecruiters', `sr${i}`, `Smart Co ${i}`)
  for (let i = 1; i <= 5; i++) add('workday', `wd${i}.wd5.myworkdayjobs.com/Careers`, `Workday Co ${i}`)
  const file = join(dir, 'directory.jsonl')
  writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`)
  return file
}
