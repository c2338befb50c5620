import {MockAgent} from 'undici'
import {afterEach, describe, expect, it} from 'vitest'
import {checkConfig} from '../../src/app/config-schema.js'
import {silentLogger} from '../../src/core/logger.js'
import {createHttpClient, HttpError} from '../../src/http-client/index.js'
import {createSources} from '../../src/sources/index.js'
import {pinpointBoard} from '../../src/sources/pinpoint.js'
import {type MockServer, sendJson, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureJson, fixtureText, testDeps, testHttpClient} from '../helpers/source-fixtures.js'

let server: MockServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('Pinpoint adapter', () => {
  it('maps the captured postings field by field, with pay where the employer shows it', async () => {
    server = await startMockServer({'/postings.json': serveBody(fixtureText('pinpoint.json'))})
    const source = pinpointBoard.source({type: 'pinpoint', url: server.url}, {slug: 'workwithus'}, testDeps())
    const jobs = await fetchAll(source)

    expect(source.name).toBe('pinpoint:workwithus')
    expect(server.requests.map((request) => request.url)).toEqual(['/postings.json'])
    expect(jobs).toHaveLength(2)
    expect(jobs[0]).toMatchObject({
      title: 'Founding Legal Counsel',
      company: 'workwithus',
      location: 'London, Remote',
      url: 'https://workwithus.pinpointhq.com/en/postings/ce6c9e5c-a2d3-42b0-a01e-9edeae315b04',
      source: 'pinpoint',
      posted_date: null,
      // compensation_visible is false: no pay.
      salary: null,
      employment_type: 'full_time',
      remote: true,
      regions: [],
      timezones: [],
      seniority: null,
      tags: ['Operations'],
      board_id: '559663',
      company_url: null,
    })
    // The description, then each section under its heading.
    expect(jobs[0]?.description).toMatch(/^Hi 👋 I'm Ellis, COO at Pinpoint\.\n/)
    expect(jobs[0]?.description).toContain("What you'll do\n\nSales legal (35%)")
    expect(jobs[0]?.description).toContain("What you'll bring\n\n- 4+ years as a qualified lawyer")
    // The capture cut each HTML field short: the skills end inside a broken comment (`<li><!--...`), which takes
    // the benefits' heading with it; their text still shows.
    expect(jobs[0]?.description).toContain('We want Pinpoint to be the best place')
    expect(jobs[1]).toMatchObject({
      title: 'Enterprise Implementation Manager',
      location: 'London, United Kingdom',
      url: 'https://workwithus.pinpointhq.com/en/postings/8fa6a0e0-0beb-4233-8ab0-409fe6bfccb1',
      salary: {
        min: 70000,
        max: 90000,
        currency: 'GBP',
        period: 'year',
        annual_min: 70000,
        annual_max: 90000,
        text: '£70,000 - £90,000 / year',
      },
      employment_type: 'full_time',
      remote: true,
      tags: ['Implementation'],
      board_id: '567495',
    })
  })

  it('uses the configured company, and builds a missing link from the path on the public host', async () => {
    const board = fixtureJson<{data: Record<string, unknown>[]}>('pinpoint.json')
    const linkless = {...board.data[1], url: undefined, workplace_type: 'hybrid'}
    server = await startMockServer({'/postings.json': (_req, res) => sendJson(res, {data: [linkless]})})
    const [job] = await fetchAll(
      pinpointBoard.source({type: 'pinpoint', url: server.url}, {slug: 'workwithus', company: 'Pinpoint'}, testDeps()),
    )

    expect(job).toMatchObject({
      company: 'Pinpoint',
      url: 'https://workwithus.pinpointhq.com/en/postings/8fa6a0e0-0beb-4233-8ab0-409fe6bfccb1',
      remote: false,
    })
  })

  it('explains a 404 as an unknown company, with what to check', async () => {
    server = await startMockServer({})
    const source = pinpointBoard.source({type: 'pinpoint', url: server.url}, {slug: 'nope'}, testDeps())
    const error = await fetchAll(source).catch((caught: unknown) => caught)

    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).message).toBe('HTTP 404 Not Found: no Pinpoint career site "nope"')
    expect((error as HttpError).hint).toBe(
      'check the company name in the companies list (the name in https://<company>.pinpointhq.com)',
    )
  })

  it('asks each company on its own host by default, one source per company', async () => {
    // An undici MockAgent stands in for the network: nothing leaves the machine, unmatched requests fail.
    const agent = new MockAgent()
    agent.disableNetConnect()
    agent
      .get('https://workwithus.pinpointhq.com')
      .intercept({path: '/postings.json'})
      .reply(200, fixtureText('pinpoint.json'))
    agent.get('https://acme.pinpointhq.com').intercept({path: '/postings.json'}).reply(200, {data: []})
    try {
      const sources = createSources([{type: 'pinpoint', companies: ['workwithus', {slug: 'acme', company: 'Acme'}]}], {
        http: createHttpClient({dispatcher: agent, retries: 0}),
        logger: silentLogger,
      })
      const counts = await Promise.all(sources.map(async (source) => [source.name, (await fetchAll(source)).length]))
      expect(counts).toEqual([
        ['pinpoint:workwithus', 2],
        ['pinpoint:acme', 0],
      ])
    } finally {
      await agent.close()
    }
  })

  it('requires the companies list', () => {
    const options = {http: testHttpClient(), logger: silentLogger}
    expect(checkConfig({sources: [{type: 'pinpoint', companies: ['workwithus']}]}).ok).toBe(true)
    expect(() => createSources([{type: 'pinpoint'}], options)).toThrow('sources[0].companies is required for pinpoint')
  })
})
