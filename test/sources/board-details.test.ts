import {afterEach, describe, expect, it} from 'vitest'
import {z} from 'zod'
import {type BoardSpec, boardSource} from '../../src/sources/board-source.js'
import {EMPTY_CRITERIA} from '../helpers/criteria.js'
import {warningsInto} from '../helpers/memory-log.js'
import {type MockServer, sendJson, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, testDeps, testHttpClient} from '../helpers/source-fixtures.js'

/**
 * The detail step of boardSource, on a spec made for the test: a list of three items under `items`, each naming its
 * detail by `id`. The boards that use the step (SmartRecruiters, Workday, BambooHR, Rippling) are tested over their
 * real captures in their own files.
 */
const SPEC: BoardSpec = {
  type: 'listed',
  defaultUrl: () => 'https://unused.invalid',
  path: () => '/list',
  page: z.object({items: z.array(z.unknown())}).transform(({items}) => ({items})),
  expected: 'an object with an "items" array',
  detail: {
    path: (item) => (typeof item.id === 'string' ? `/detail/${item.id}` : undefined),
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

const LIST = {
  items: [{id: 'a', title: 'First'}, {id: 'b', title: 'Second'}, {id: 'c', title: 'Third'}, {title: 'No detail'}],
}

let server: MockServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('board detail requests', () => {
  it("merges each item's detail, asks nothing for an item without one, and keeps a failed one as listed", async () => {
    let inFlight = 0
    let most = 0
    server = await startMockServer(async (req, res) => {
      if (req.url === '/list') return sendJson(res, LIST)
      inFlight++
      most = Math.max(most, inFlight)
      await new Promise((resolve) => setTimeout(resolve, 20))
      inFlight--
      if (req.url === '/detail/b') return sendJson(res, {error: 'gone'}, 404)
      sendJson(res, {body: `<p>About ${req.url}</p>`})
    })
    const warnings: string[] = []
    const source = boardSource(SPEC, {type: 'file', url: server.url}, {...testDeps(), logger: warningsInto(warnings)})
    const jobs = await fetchAll(source)

    expect(jobs.map((job) => [job.title, job.description])).toEqual([
      ['First', 'About /detail/a'],
      ['Second', null],
      ['Third', 'About /detail/c'],
      ['No detail', null],
    ])
    expect(server.requests.map((request) => request.url).sort()).toEqual([
      '/detail/a',
      '/detail/b',
      '/detail/c',
      '/list',
    ])
    expect(warnings).toEqual([
      '1 of 4 job details could not be read (HTTP 404 Not Found); those jobs keep what the list gave',
    ])
    expect(most).toBeLessThanOrEqual(4)
  })

  it('asks no detail at a path the URL parser would lead elsewhere, and keeps that job as listed', async () => {
    server = await startMockServer((req, res) => {
      if (req.url === '/list')
        return sendJson(res, {
          items: [
            {id: '..', title: 'Up'},
            {id: 'a', title: 'Fine'},
          ],
        })
      sendJson(res, {body: `<p>About ${req.url}</p>`})
    })
    const warnings: string[] = []
    const deps = {...testDeps(), logger: warningsInto(warnings)}
    const jobs = await fetchAll(boardSource(SPEC, {type: 'file', url: server.url}, deps))
    expect(server.requests.map((request) => request.url)).toEqual(['/list', '/detail/a'])
    expect(jobs.map((job) => [job.title, job.description])).toEqual([
      ['Up', null],
      ['Fine', 'About /detail/a'],
    ])
    expect(warnings).toEqual([
      '1 of 2 job details could not be read (its detail path names another path once read as a URL); those jobs keep what the list gave',
    ])
  })

  it('runs at most four details at a time', async () => {
    const many = {items: Array.from({length: 12}, (_, index) => ({id: `j${index}`, title: `Job ${index}`}))}
    let inFlight = 0
    let most = 0
    server = await startMockServer(async (req, res) => {
      if (req.url === '/list') return sendJson(res, many)
      inFlight++
      most = Math.max(most, inFlight)
      await new Promise((resolve) => setTimeout(resolve, 30))
      inFlight--
      sendJson(res, {body: 'text'})
    })
    // A client allowing more per host than the step does, so the step's own bound is what is measured.
    const http = testHttpClient({concurrencyPerHost: 16})
    const jobs = await fetchAll(boardSource(SPEC, {type: 'file', url: server.url}, testDeps(http)))
    expect(jobs).toHaveLength(12)
    expect(most).toBe(4)
  })

  it('keeps a job whose detail is not an object, and a stopped run stops the board', async () => {
    server = await startMockServer((req, res) => {
      if (req.url === '/list') return sendJson(res, LIST)
      sendJson(res, ['not', 'an', 'object'])
    })
    const warnings: string[] = []
    const deps = {...testDeps(), logger: warningsInto(warnings)}
    const jobs = await fetchAll(boardSource(SPEC, {type: 'file', url: server.url}, deps))
    expect(jobs.map((job) => job.description)).toEqual([null, null, null, null])
    expect(warnings).toEqual([
      '3 of 4 job details could not be read (unexpected response shape: expected an object); those jobs keep what the list gave',
    ])

    const stopped = new AbortController()
    server.requests.length = 0
    const slow = await startMockServer(async (req, res) => {
      if (req.url === '/list') return sendJson(res, LIST)
      stopped.abort(new Error('run stopped'))
      await new Promise((resolve) => setTimeout(resolve, 50))
      sendJson(res, {body: 'late'})
    })
    try {
      const source = boardSource(SPEC, {type: 'file', url: slow.url}, testDeps())
      await expect(source.fetchJobs(EMPTY_CRITERIA, stopped.signal)).rejects.toThrow()
    } finally {
      await slow.close()
    }
  })

  it('asks for no detail when the source is built with details off, as a probe is, and keeps what the list gave', async () => {
    server = await startMockServer((req, res) => {
      if (req.url === '/list') return sendJson(res, LIST)
      sendJson(res, {body: 'detail'})
    })
    const jobs = await fetchAll(boardSource(SPEC, {type: 'file', url: server.url}, {...testDeps(), details: false}))
    expect(jobs.map((job) => [job.title, job.description])).toEqual([
      ['First', null],
      ['Second', null],
      ['Third', null],
      ['No detail', null],
    ])
    expect(server.requests.map((request) => request.url)).toEqual(['/list'])
  })
})
