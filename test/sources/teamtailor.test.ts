import {MockAgent} from 'undici'
import {afterEach, describe, expect, it} from 'vitest'
import {checkConfig} from '../../src/app/config-schema.js'
import {silentLogger} from '../../src/core/logger.js'
import {createHttpClient, HttpError} from '../../src/http-client/index.js'
import {createSources} from '../../src/sources/index.js'
import {teamtailorBoard} from '../../src/sources/teamtailor.js'
import {type MockServer, sendJson, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureJson, fixtureText, testDeps, testHttpClient} from '../helpers/source-fixtures.js'

let server: MockServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('Teamtailor adapter', () => {
  it('maps the captured career site feed field by field', async () => {
    server = await startMockServer({'/jobs.json': serveBody(fixtureText('teamtailor.json'))})
    const source = teamtailorBoard.source({type: 'teamtailor', url: server.url}, {slug: 'upcloud'}, testDeps())
    const jobs = await fetchAll(source)

    expect(source.name).toBe('teamtailor:upcloud')
    expect(server.requests.map((request) => request.url)).toEqual(['/jobs.json'])
    expect(jobs).toHaveLength(3)
    expect(jobs[0]).toEqual({
      title: 'Business Intelligence Analyst',
      company: 'UpCloud',
      location: 'Helsinki, FI',
      url: 'https://upcloud.teamtailor.com/jobs/8323453-business-intelligence-analyst',
      source: 'teamtailor',
      posted_date: '2026-09-04T11:50:13Z',
      description:
        'We are looking for a Business Intelligence Analyst to join UpCloud’s Finance team and help us make better ' +
        'use of data across the company.\n\nThis is an opportunity for someone early in their career who enjoys ' +
        'working with data and wants to develop their skills in business intelligence and analytics. You don’t ' +
        'need years of experience. An internship, relevant consulting project work, or previous similar hands-on ' +
        'experience with BI can be enough.',
      salary: null,
      employment_type: null,
      remote: null,
      regions: [],
      timezones: [],
      seniority: null,
      tags: [],
      board_id: '8323453',
      company_url: null,
    })
    // Two places in the same city are one location.
    expect(jobs[2]).toMatchObject({
      title: 'Growth Engineer, Lifecycle Marketing',
      company: 'UpCloud',
      location: 'Helsinki, FI',
      url: 'https://upcloud.teamtailor.com/jobs/7929083-growth-engineer-lifecycle-marketing',
      posted_date: '2026-06-17T09:51:10Z',
      board_id: '7929083',
    })
    expect(jobs[2]?.description).toMatch(/^UpCloud is on a mission to be the number #1 European cloud platform/)
  })

  it('names the company from the configured name, else the slug, when the posting names no employer', async () => {
    const feed = fixtureJson<{items: {_jobposting: Record<string, unknown>}[]}>('teamtailor.json')
    const item = feed.items[1]
    const anonymous = {...item, _jobposting: {...item?._jobposting, hiringOrganization: undefined}}
    server = await startMockServer({'/jobs.json': (_req, res) => sendJson(res, {...feed, items: [anonymous]})})
    const named = await fetchAll(
      teamtailorBoard.source(
        {type: 'teamtailor', url: server.url},
        {slug: 'upcloud', company: 'UpCloud Ltd'},
        testDeps(),
      ),
    )
    const bare = await fetchAll(
      teamtailorBoard.source({type: 'teamtailor', url: server.url}, {slug: 'upcloud'}, testDeps()),
    )

    expect(named[0]).toMatchObject({title: 'Full Stack Developer', company: 'UpCloud Ltd'})
    expect(bare[0]?.company).toBe('upcloud')
  })

  it('explains a 404 as an unknown company, with what to check', async () => {
    server = await startMockServer({})
    const source = teamtailorBoard.source({type: 'teamtailor', url: server.url}, {slug: 'nope'}, testDeps())
    const error = await fetchAll(source).catch((caught: unknown) => caught)

    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).message).toBe('HTTP 404 Not Found: no Teamtailor career site "nope"')
    expect((error as HttpError).hint).toBe(
      'check the company name in the companies list (the name in https://<company>.teamtailor.com/jobs)',
    )
  })

  it('asks each company on its own host by default, one source per company, a host given as the slug itself', async () => {
    // An undici MockAgent stands in for the network: nothing leaves the machine, unmatched requests fail.
    const agent = new MockAgent()
    agent.disableNetConnect()
    agent
      .get('https://upcloud.teamtailor.com')
      .intercept({path: '/jobs.json'})
      .reply(200, fixtureText('teamtailor.json'))
    agent.get('https://polestar.teamtailor.com').intercept({path: '/jobs.json'}).reply(200, {items: []})
    // A site on the company's own domain, or in the North American region, is named by its host.
    agent.get('https://careers.acme.com').intercept({path: '/jobs.json'}).reply(200, {items: []})
    agent.get('https://acme.na.teamtailor.com').intercept({path: '/jobs.json'}).reply(200, {items: []})
    try {
      const sources = createSources(
        [
          {
            type: 'teamtailor',
            companies: [
              'upcloud',
              {slug: 'polestar', company: 'Polestar'},
              'careers.acme.com',
              'acme.na.teamtailor.com',
            ],
          },
        ],
        {http: createHttpClient({dispatcher: agent, retries: 0}), logger: silentLogger},
      )
      const counts = await Promise.all(sources.map(async (source) => [source.name, (await fetchAll(source)).length]))
      expect(counts).toEqual([
        ['teamtailor:upcloud', 3],
        ['teamtailor:polestar', 0],
        ['teamtailor:careers.acme.com', 0],
        ['teamtailor:acme.na.teamtailor.com', 0],
      ])
    } finally {
      await agent.close()
    }
  })

  it('requires the companies list', () => {
    const options = {http: testHttpClient(), logger: silentLogger}
    expect(checkConfig({sources: [{type: 'teamtailor', companies: ['upcloud']}]}).ok).toBe(true)
    expect(() => createSources([{type: 'teamtailor'}], options)).toThrow(
      'sources[0].companies is required for teamtailor',
    )
    expect(() => createSources([{type: 'teamtailor', companies: []}], options)).toThrow(
      'sources[0].companies is required for teamtailor',
    )
  })
})
