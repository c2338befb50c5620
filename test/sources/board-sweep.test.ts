import {afterEach, describe, expect, it} from 'vitest'
import {htmlToText} from '../../src/core/jobs/description.js'
import {silentLogger} from '../../src/core/logger.js'
import {sweepReader} from '../../src/sources/board-sweep.js'
import {createSources} from '../../src/sources/index.js'
import {type MockServer, sendJson, sendText, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureJson, fixtureText, testDeps, testHttpClient} from '../helpers/source-fixtures.js'

let server: MockServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe("a sweep's list of a board", () => {
  it("asks a board's searches at once, one per role word, and merges them in the order of the words", async () => {
    const page = fixtureJson<{content: {id: string; name: string}[]}>('smartrecruiters.json')
    let open = 0
    let most = 0
    server = await startMockServer(async (req, res) => {
      open++
      most = Math.max(most, open)
      const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q') ?? ''
      // The first word's search answers last.
      await new Promise((resolve) => setTimeout(resolve, q === 'first' ? 150 : 10))
      open--
      const content = page.content.map((one) => ({...one, id: `${one.id}-${q}`, name: `${one.name} ${q}`}))
      sendJson(res, {...page, offset: 0, content, totalFound: content.length})
    })
    const reader = sweepReader('smartrecruiters', {http: testHttpClient(), logger: silentLogger, toText: htmlToText})
    const listed = await reader?.list({
      config: {type: 'smartrecruiters', companies: ['acme'], url: server.url},
      board: {slug: 'acme'},
      roleWords: ['first', 'second', 'third'],
      previous: null,
      signal: new AbortController().signal,
    })
    expect(most).toBe(3)
    const titles = listed?.kind === 'listed' ? listed.jobs.map((one) => one.job.title) : []
    expect(titles.map((title) => title.split(' ').at(-1))).toEqual(
      ['first', 'second', 'third'].flatMap((word) => page.content.map(() => word)),
    )
  })

  it('ends a search at a page that holds no job it has not read, as from a board that ignores the offset', async () => {
    const page = fixtureJson<{content: unknown[]}>('smartrecruiters.json')
    // Every request answers the first page and announces a thousand postings.
    server = await startMockServer((_req, res) => sendJson(res, {...page, offset: 0, totalFound: 1000}))
    const reader = sweepReader('smartrecruiters', {http: testHttpClient(), logger: silentLogger, toText: htmlToText})
    const listed = await reader?.list({
      config: {type: 'smartrecruiters', companies: ['acme'], url: server.url, max_pages: 5},
      board: {slug: 'acme'},
      roleWords: ['software engineer', 'account executive'],
      previous: null,
      signal: new AbortController().signal,
    })

    // Each role word's search ends at its second page, which repeats its first (without the rule: 5 pages each);
    // the two searches list the same postings, kept once.
    expect(server.requests).toHaveLength(4)
    expect(listed?.kind === 'listed' ? listed.jobs : []).toHaveLength(page.content.length)
  })
})

describe("a sweep's reading of a list that carries descriptions", () => {
  it('lists the jobs without their descriptions and gives each candidate the description its list carries', async () => {
    const lever = fixtureJson<{text: string}[]>('lever.json')
    server = await startMockServer((_req, res) => sendJson(res, lever))
    let converted = 0
    const toText = (html: unknown) => {
      converted++
      return htmlToText(html)
    }
    const reader = sweepReader('lever', {http: testHttpClient(), logger: silentLogger, toText})
    const request = {
      config: {type: 'lever' as const, companies: ['acme'], url: server.url},
      board: {slug: 'acme'},
      roleWords: [],
      signal: new AbortController().signal,
    }
    const listed = await reader?.list({...request, previous: null})
    const jobs = listed?.kind === 'listed' ? listed.jobs : []
    expect(jobs.map((one) => one.job.title)).toEqual(lever.map((one) => one.text))
    expect(jobs.map((one) => one.job.description)).toEqual(lever.map(() => null))
    expect(converted).toBe(0)

    const [candidate] = (await reader?.details(request, jobs.slice(0, 1))) ?? []
    expect(candidate?.title).toBe(lever[0]?.text)
    expect(candidate?.description).toMatch(/^About Backstory/)
    expect(converted).toBe(1)
    // A run reads the same list whole: every job with its description.
    const run = sweepReader('lever', {http: testHttpClient(), logger: silentLogger, toText: htmlToText}, 'run')
    const whole = await run?.list({...request, previous: null})
    expect((whole?.kind === 'listed' ? whole.jobs : []).every((one) => (one.job.description ?? '') !== '')).toBe(true)
  })
})

describe('{slug} in a configured url', () => {
  const bamboo = fixtureJson('bamboohr.json')

  it("names each board of an ATS whose boards have hosts of their own, in a sweep's mirror URL", async () => {
    server = await startMockServer((_req, res) => sendJson(res, bamboo))
    const reader = sweepReader('bamboohr', {http: testHttpClient(), logger: silentLogger, toText: htmlToText})
    for (const slug of ['acme', 'beta co']) {
      await reader?.list({
        config: {type: 'bamboohr', companies: [slug], url: `${server.url}/bamboohr/{slug}`},
        board: {slug},
        roleWords: [],
        previous: null,
        signal: new AbortController().signal,
      })
    }
    expect(server.requests.map((one) => one.url)).toEqual([
      '/bamboohr/acme/careers/list',
      '/bamboohr/beta%20co/careers/list',
    ])
  })

  it("names each board of a run's entry, so one mirror serves many companies", async () => {
    server = await startMockServer((_req, res) => sendJson(res, {result: []}))
    const sources = createSources(
      [{type: 'bamboohr', companies: ['acme', 'beta'], url: `${server.url}/{slug}`}],
      testDeps(),
    )
    for (const source of sources) await fetchAll(source)
    expect(server.requests.map((one) => one.url).sort()).toEqual(['/acme/careers/list', '/beta/careers/list'])
  })
})

describe("a sweep's list of a board read through its source (Personio's XML)", () => {
  it('is unchanged when it gives the same jobs as the answer before, and listed again when a job changes', async () => {
    let xml = fixtureText('personio.xml')
    server = await startMockServer((_req, res) => sendText(res, xml, 200, {'content-type': 'application/xml'}))
    const reader = sweepReader('personio', {http: testHttpClient(), logger: silentLogger, toText: htmlToText})
    const ask = (previous: {etag: null; last_modified: null; answer_hash: string | null} | null) =>
      reader?.list({
        config: {type: 'personio', companies: ['acme'], url: server?.url ?? ''},
        board: {slug: 'acme'},
        roleWords: [],
        previous,
        signal: new AbortController().signal,
      })
    const first = await ask(null)
    expect(first?.kind).toBe('listed')
    const again = await ask({etag: null, last_modified: null, answer_hash: first?.answer_hash ?? null})
    expect(again?.kind).toBe('unchanged')
    xml = xml.replace('<name>', '<name>Senior ')
    const changed = await ask({etag: null, last_modified: null, answer_hash: first?.answer_hash ?? null})
    expect(changed?.kind).toBe('listed')
  })
})
