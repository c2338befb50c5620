import {MockAgent} from 'undici'
import {afterEach, describe, expect, it} from 'vitest'
import {ConfigurationError} from '../../src/core/errors.js'
import {silentLogger} from '../../src/core/logger.js'
import {createHttpClient, HttpError} from '../../src/http-client/index.js'
import {createSources} from '../../src/sources/index.js'
import {personioBoard} from '../../src/sources/personio.js'
import {type MockServer, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureText, testDeps, testHttpClient} from '../helpers/source-fixtures.js'

let server: MockServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('Personio adapter', () => {
  it('maps a position of the XML feed field by field, with its page on the company host', async () => {
    server = await startMockServer({'/xml': serveBody(fixtureText('personio.xml'))})
    const source = personioBoard.source({type: 'personio', url: server.url}, {slug: 'personio'}, testDeps())
    const jobs = await fetchAll(source)

    expect(source.name).toBe('personio:personio')
    expect(server.requests.map((request) => request.url)).toEqual(['/xml'])
    expect(jobs).toHaveLength(1)
    const [job] = jobs
    expect(job).toMatchObject({
      title: 'Staff Software Engineer, Data Platform',
      company: 'Personio SE & Co. KG',
      location: 'Munich; Berlin',
      url: 'https://personio.jobs.personio.de/job/1834171',
      source: 'personio',
      posted_date: '2024-11-13T14:10:41Z',
      salary: null,
      employment_type: 'full_time',
      remote: null,
      seniority: 'experienced',
      tags: ['Product and Tech', 'Engineering'],
      board_id: '1834171',
    })
    // Every section, under its name, as text: entities of names and HTML of values read.
    expect(job?.description).toContain("The Role: How you'll make an impact at Personio")
    expect(job?.description).toContain('This position is hybrid based in either Dublin or Munich locations')
    expect(job?.description).toContain('Role Requirements: What you need to succeed')
    expect(job?.description).toContain('Engage in a high-impact working environment')
    expect(job?.description).not.toMatch(/<|&amp;|CDATA/)
  })

  it("builds each company's posting URLs on its own host, never on the configured url", async () => {
    server = await startMockServer({'/xml': serveBody(fixtureText('personio.xml'))})
    const sources = createSources([{type: 'personio', url: server.url, companies: ['acme', {slug: 'initech'}]}], {
      http: testHttpClient(),
      logger: silentLogger,
    })
    const [acme, initech] = await Promise.all(sources.map((source) => fetchAll(source)))

    expect(sources.map((source) => source.name)).toEqual(['personio:acme', 'personio:initech'])
    expect(acme?.[0]?.url).toBe('https://acme.jobs.personio.de/job/1834171')
    expect(initech?.[0]?.url).toBe('https://initech.jobs.personio.de/job/1834171')
  })

  it("asks the company's own host when no url is set", async () => {
    // An undici MockAgent stands in for the network: nothing leaves the machine, unmatched requests fail.
    const agent = new MockAgent()
    agent.disableNetConnect()
    agent
      .get('https://acme.jobs.personio.de')
      .intercept({path: '/xml', method: 'GET'})
      .reply(200, fixtureText('personio.xml'))
    try {
      const http = createHttpClient({dispatcher: agent, retries: 0})
      const jobs = await fetchAll(personioBoard.source({type: 'personio'}, {slug: 'acme'}, testDeps(http)))
      expect(jobs.map((job) => job.url)).toEqual(['https://acme.jobs.personio.de/job/1834171'])
    } finally {
      await agent.close()
    }
  })

  it.each(['__proto__', 'constructor', 'prototype'])(
    'skips a position holding an element named %s and keeps the rest, with one warning',
    async (name) => {
      const position = (id: string, extra = '') =>
        `<position><id>${id}</id><name>Engineer ${id}</name><office>Berlin</office>${extra}</position>`
      const feed = `<?xml version="1.0" encoding="UTF-8"?><workzag-jobs>${[
        position('1'),
        position(
          '2',
          `<jobDescriptions><jobDescription><${name}><polluted>yes</polluted></${name}></jobDescription></jobDescriptions>`,
        ),
        position('3'),
      ].join('')}</workzag-jobs>`
      server = await startMockServer({'/xml': serveBody(feed, 'application/xml')})
      const warnings: string[] = []
      const logger = {...silentLogger, warning: (message: string) => warnings.push(message)}
      const jobs = await fetchAll(
        personioBoard.source({type: 'personio', url: server.url}, {slug: 'acme'}, {...testDeps(), logger}),
      )
      expect(jobs.map((job) => job.board_id)).toEqual(['1', '3'])
      expect(warnings).toEqual([`1 position skipped: it holds an element named ${name}`])
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    },
  )

  it('reads an employer with no open position as no jobs', async () => {
    server = await startMockServer({'/xml': serveBody(fixtureText('personio-empty.xml'))})
    const source = personioBoard.source({type: 'personio', url: server.url}, {slug: 'quiet'}, testDeps())
    expect(await fetchAll(source)).toEqual([])
  })

  it('explains a 404 as an unknown company, with what to check', async () => {
    server = await startMockServer({})
    const source = personioBoard.source({type: 'personio', url: server.url}, {slug: 'nope'}, testDeps())
    const error = await fetchAll(source).catch((caught: unknown) => caught)

    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).message).toBe('HTTP 404 Not Found: no Personio company "nope"')
    expect((error as HttpError).hint).toBe(
      'check the company name in the companies list (the name in https://<company>.jobs.personio.de)',
    )
  })

  it("explains personio's HTML page for an unknown company the same way", async () => {
    server = await startMockServer({
      '/xml': serveBody('<!DOCTYPE html><html><body>Personio</body></html>', 'text/html'),
    })
    const source = personioBoard.source({type: 'personio', url: server.url}, {slug: 'gone'}, testDeps())
    await expect(fetchAll(source)).rejects.toThrow('HTML instead of the XML feed: no Personio company "gone"')
    await expect(fetchAll(source)).rejects.toMatchObject({status: 404})
  })

  it('is refused in the config without its companies list, naming the key', () => {
    const options = {http: testHttpClient(), logger: silentLogger}
    expect(() => createSources([{type: 'personio'}], options)).toThrow(ConfigurationError)
    expect(() => createSources([{type: 'personio'}], options)).toThrow('sources[0].companies is required for personio')
    expect(() => createSources([{type: 'personio', companies: []}], options)).toThrow(
      'sources[0].companies is required for personio',
    )
    expect(createSources([{type: 'personio', companies: ['acme']}], options)).toHaveLength(1)
  })
})
