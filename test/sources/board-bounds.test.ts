import {setFlagsFromString} from 'node:v8'
import {runInNewContext} from 'node:vm'
import {afterEach, describe, expect, it} from 'vitest'
import {z} from 'zod'
import {checkConfig} from '../../src/app/config-schema.js'
import {JobSearch} from '../../src/core/jobs/job-search.js'
import type {SourceConfig} from '../../src/core/jobs/source-config.js'
import type {Logger} from '../../src/core/logger.js'
import {type BoardSpec, boardSource} from '../../src/sources/board-source.js'
import {createSources} from '../../src/sources/index.js'
import {EMPTY_CRITERIA} from '../helpers/criteria.js'
import {memoryLogger, warningsInto} from '../helpers/memory-log.js'
import {hang, type MockHandler, type MockServer, sendJson, sendText, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, testDeps, testHttpClient} from '../helpers/source-fixtures.js'

/**
 * What one board may cost however it answers: a bounded number of details, each a bounded body of which only the
 * mapped fields are kept, and one deadline for the whole board.
 */

setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void

/** A paged list of `pages` pages of `perPage` items under `items`, each naming its detail by `id`. */
const PAGED: BoardSpec = {
  type: 'listed',
  defaultUrl: () => 'https://unused.invalid',
  path: () => '/list',
  query: ({page}) => ({page}),
  paged: true,
  page: z
    .object({items: z.array(z.unknown()), more: z.boolean()})
    .transform(({items, more}) => ({items, ...(more ? {next: 'more'} : {})})),
  expected: 'an object with an "items" array',
  detail: {
    path: (item) => `/detail/${String(item.id)}`,
    merge: (item, detail) => ({...item, body: detail.body}),
  },
  job: (item) => ({
    title: item.title,
    company: 'Acme',
    location: '',
    url: `https://acme.example/jobs/${String(item.id)}`,
    posted_date: undefined,
    description: item.body,
  }),
}

let servers: MockServer[] = []
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()))
  servers = []
})

async function serve(...args: Parameters<typeof startMockServer>): Promise<MockServer> {
  const server = await startMockServer(...args)
  servers.push(server)
  return server
}

/** A list of `pages` pages of `perPage` items, and a detail for each that `detail` answers. */
async function pagedBoard(pages: number, perPage: number, detail: MockHandler) {
  return serve(async (req, res) => {
    const page = /^\/list\?page=(\d+)$/.exec(req.url ?? '')
    if (!page) return detail(req, res)
    const number = Number(page[1])
    const items = Array.from({length: perPage}, (_, index) => {
      const id = `p${number}-${index}`
      return {id, title: `Job ${id}`}
    })
    sendJson(res, {items, more: number < pages})
  })
}

const detailRequests = (server: MockServer) => server.requests.filter((request) => request.url.startsWith('/detail/'))

describe('board details, bounded', () => {
  it('asks at most 100 details a board, across its pages, and keeps the others as listed with one warning', async () => {
    const server = await pagedBoard(2, 70, (_req, res) => sendJson(res, {body: '<p>In detail</p>'}))
    const warnings: string[] = []
    const deps = {...testDeps(testHttpClient({concurrencyPerHost: 16})), logger: warningsInto(warnings)}
    const jobs = await fetchAll(boardSource(PAGED, {type: 'file', url: server.url}, deps))

    expect(jobs).toHaveLength(140)
    expect(detailRequests(server)).toHaveLength(100)
    expect(jobs.filter((job) => job.description === 'In detail')).toHaveLength(100)
    // The first 100 in the board's order have their details; the rest are as the list gave them.
    expect(jobs.slice(100).map((job) => job.description)).toEqual(Array(40).fill(null))
    expect(warnings).toEqual([
      'details read for 100 of 140 jobs (at most 100 a board); the others keep what the list gave',
    ])
  })

  it('reads no detail past 1 MB and keeps that job as listed, while the list may be larger', async () => {
    const big = JSON.stringify({body: `<p>${'x'.repeat(3 * 1024 * 1024)}</p>`})
    const server = await pagedBoard(1, 2, (req, res) => {
      if (req.url === '/detail/p1-0') return sendText(res, big, 200, {'content-type': 'application/json'})
      sendJson(res, {body: '<p>Small</p>'})
    })
    const warnings: string[] = []
    const deps = {...testDeps(), logger: warningsInto(warnings)}
    const jobs = await fetchAll(boardSource(PAGED, {type: 'file', url: server.url}, deps))
    expect(jobs.map((job) => job.description)).toEqual([null, 'Small'])
    expect(warnings).toEqual([
      '1 of 2 job details could not be read (response larger than 1 MB); those jobs keep what the list gave',
    ])

    // A list answer of the same size is read: only a detail has the smaller cap.
    const items = [{id: 'a', title: `Job ${'y'.repeat(2 * 1024 * 1024)}`}]
    const list = await serve((req, res) => {
      if (req.url?.startsWith('/list')) return sendJson(res, {items, more: false})
      sendJson(res, {body: 'ok'})
    })
    expect(await fetchAll(boardSource(PAGED, {type: 'file', url: list.url}, testDeps()))).toHaveLength(1)
  })

  // Each board that asks details, answered with 60 details of 600 KB that the mapping never reads, or of a 600 KB
  // description it cuts to 20,000 characters: while the board is read, and after, the heap holds the jobs' fields,
  // not the answers (36 MB before).
  const DETAIL_BYTES = 600 * 1024
  const filler = 'x'.repeat(DETAIL_BYTES)
  const boards: {
    name: string
    config: (url: string) => SourceConfig
    list: (count: number) => unknown
    detail: (id: string, big: {junk?: string; description?: string}) => unknown
  }[] = [
    {
      name: 'rippling',
      config: (url) => ({type: 'rippling', companies: ['acme'], url}),
      list: (count) =>
        Array.from({length: count}, (_, i) => ({uuid: `u${i}`, name: `Job ${i}`, workLocation: {label: 'Berlin'}})),
      detail: (id, big) => ({
        name: `Job ${id}`,
        description: {role: big.description ?? `<p>Role ${id}</p>`},
        junk: big.junk,
      }),
    },
    {
      name: 'bamboohr',
      config: (url) => ({type: 'bamboohr', companies: ['acme'], url}),
      list: (count) => ({result: Array.from({length: count}, (_, i) => ({id: `${i}`, jobOpeningName: `Job ${i}`}))}),
      detail: (id, big) => ({
        result: {jobOpening: {description: big.description ?? `<p>Opening ${id}</p>`, junk: big.junk}},
      }),
    },
    {
      name: 'smartrecruiters',
      config: (url) => ({type: 'smartrecruiters', companies: ['acme'], url, max_pages: 1}),
      list: (count) => ({
        offset: 0,
        limit: 100,
        totalFound: count,
        content: Array.from({length: count}, (_, i) => ({id: `${i}`, name: `Job ${i}`})),
      }),
      detail: (id, big) => ({
        jobAd: {sections: {jobDescription: {title: 'Job', text: big.description ?? `<p>Posting ${id}</p>`}}},
        junk: big.junk,
      }),
    },
  ]
  const shapes = [
    ['fields it never reads', {junk: filler}],
    ['a description it cuts', {description: `<p>${filler}</p>`}],
  ] as const

  for (const board of boards) {
    for (const [what, big] of shapes) {
      it(`keeps of each ${board.name} detail only what its jobs hold: 60 details of 600 KB of ${what}`, async () => {
        const count = 60
        let served = 0
        let whileRead: number | undefined
        const server = await serve((req, res) => {
          const url = req.url ?? ''
          const id = /\/(?:jobs|postings|careers)\/([^/?]+)(?:\/detail)?$/.exec(url)?.[1]
          if (id === undefined || url === '/careers/list') return sendJson(res, board.list(count))
          served++
          // The last detail asked: every other one has been answered and is held in whatever form the board keeps.
          if (served === count) {
            collect()
            whileRead = process.memoryUsage().heapUsed
          }
          sendJson(res, board.detail(id, big))
        })
        collect()
        const before = process.memoryUsage().heapUsed
        const [source] = createSources([board.config(server.url)], {http: testHttpClient(), logger: silentLog()})
        const jobs = await fetchAll(source!)
        collect()
        const after = process.memoryUsage().heapUsed
        expect(jobs).toHaveLength(count)
        expect(jobs.every((job) => job.description !== null)).toBe(true)
        expect((whileRead ?? Number.POSITIVE_INFINITY) - before).toBeLessThan(12 * 1024 * 1024)
        expect(after - before).toBeLessThan(6 * 1024 * 1024)
      })
    }
  }
})

describe('board deadline', () => {
  it('ends a board whose details never answer within its deadline, however many, keeping the jobs as listed', async () => {
    const server = await pagedBoard(1, 64, hang)
    const warnings: string[] = []
    const deps = {...testDeps(testHttpClient({concurrencyPerHost: 16})), logger: warningsInto(warnings)}
    const config: SourceConfig = {type: 'file', url: server.url, timeout_seconds: 0.2, deadline_seconds: 1}
    const started = performance.now()
    const jobs = await fetchAll(boardSource(PAGED, config, deps))
    const took = performance.now() - started

    // Before the deadline: 64 stalled details, 4 at a time, 0.2 s each, were 3.2 s; the details end at 0.8 s.
    expect(took).toBeLessThan(1500)
    expect(jobs).toHaveLength(64)
    expect(jobs.every((job) => job.description === null)).toBe(true)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^64 of 64 job details could not be read \(.+\); those jobs keep what the list gave$/)
  })

  it('fails a board that outlasts its deadline, and the search goes on with the others', async () => {
    // Every page answers in time and names another: the pages alone would take 15 s.
    const slow = await serve(async (req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 150))
      sendJson(res, {data: [{title: `Job ${req.url}`, url: `https://acme.example${req.url}`}], links: {next: 'more'}})
    })
    const healthy = await serve((_req, res) => sendJson(res, {jobs: [{title: 'Fine', url: 'https://ok.example/1'}]}))
    const log = memoryLogger()
    const sources = createSources(
      [
        {type: 'arbeitnow', url: slow.url, max_pages: 100, timeout_seconds: 0.5, deadline_seconds: 0.6},
        {type: 'remotive', url: healthy.url},
      ],
      {http: testHttpClient(), logger: log.logger},
    )
    const started = performance.now()
    const result = await new JobSearch(sources, log.logger).search(EMPTY_CRITERIA)
    const took = performance.now() - started

    expect(took).toBeLessThan(1500)
    expect(result.sources.map(({name, ok, error}) => ({name, ok, error}))).toEqual([
      {name: 'arbeitnow', ok: false, error: 'board deadline of 0.6 s passed'},
      {name: 'remotive', ok: true, error: null},
    ])
    expect(result.jobs.map((job) => job.title)).toEqual(['Fine'])
    // The board's requests stop at the deadline instead of running on unseen.
    const asked = slow.requests.length
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(slow.requests.length).toBe(asked)
  })

  it('is set per entry with deadline_seconds, and refused out of range, naming the key', () => {
    expect(checkConfig({sources: [{type: 'remoteok', deadline_seconds: 30}]}).ok).toBe(true)
    const refused = checkConfig({sources: [{type: 'remoteok', deadline_seconds: 0}]})
    expect(refused.ok ? [] : refused.problems.map((problem) => problem.message)).toEqual([
      'sources[0].deadline_seconds must be > 0',
    ])
  })
})

function silentLog(): Logger {
  return warningsInto([])
}
