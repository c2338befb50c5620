import {MockAgent} from 'undici'
import {afterEach, describe, expect, it} from 'vitest'
import {checkConfig} from '../../src/app/config-schema.js'
import {ConfigurationError} from '../../src/core/errors.js'
import {createHttpClient, HttpError} from '../../src/http-client/index.js'
import {type MockServer, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureText, oneSource, sourcesOf} from '../helpers/source-fixtures.js'

let server: MockServer | undefined
let agent: MockAgent | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
  await agent?.close()
  agent = undefined
})

describe('Breezy HR adapter', () => {
  it('maps a company: places, salary text, type, on site from is_remote', async () => {
    server = await startMockServer({'/json': serveBody(fixtureText('breezy.json'))})
    const source = oneSource([{type: 'breezy', companies: ['breezy'], url: server.url}])
    const jobs = await fetchAll(source)

    expect(source.name).toBe('breezy:breezy')
    expect(server.requests.map((request) => request.url)).toEqual(['/json'])
    expect(jobs).toHaveLength(2)
    expect(jobs[0]).toEqual({
      title: 'Employee #12',
      company: 'MS Breezy Trial',
      location: 'Chaos, FL',
      url: 'https://breezy.breezy.hr/p/98323abf2296-employee-12',
      source: 'breezy',
      posted_date: '2024-02-15T14:37:22Z',
      description: null,
      salary: {
        min: 0.05,
        max: 0.06,
        currency: 'USD',
        period: 'hour',
        annual_min: 104,
        annual_max: 124.8,
        text: '$0.05 – $0.06 / hour',
      },
      employment_type: null,
      remote: false,
      regions: [],
      timezones: [],
      seniority: null,
      tags: ['Does Not Matter'],
      board_id: '98323abf2296',
      company_url: null,
    })
    expect(jobs[1]).toMatchObject({
      title: 'Open Position',
      company: 'MS Breezy Trial',
      location: 'New York, NY',
      url: 'https://breezy.breezy.hr/p/088ac6d52139-open-position',
      posted_date: '2023-04-06T01:32:13Z',
      salary: {min: 1, max: 5, currency: 'USD', period: 'year'},
      employment_type: 'contract',
      remote: null,
      tags: ['Sporting Goods'],
      board_id: '088ac6d52139',
    })
  })

  it("asks the company's own host by default", async () => {
    // An undici MockAgent stands in for the network: nothing leaves the machine, unmatched requests fail.
    agent = new MockAgent()
    agent.disableNetConnect()
    agent
      .get('https://breezy.breezy.hr')
      .intercept({path: '/json', method: 'GET'})
      .reply(200, fixtureText('breezy.json'))
    const http = createHttpClient({dispatcher: agent, retries: 0})
    const jobs = await fetchAll(oneSource([{type: 'breezy', companies: ['breezy']}], http))
    expect(jobs.map((job) => job.board_id)).toEqual(['98323abf2296', '088ac6d52139'])
  })

  it('builds the position link on the public host, and takes the configured company, when the answer has neither', async () => {
    const positions = (JSON.parse(fixtureText('breezy.json')) as Record<string, unknown>[]).map(
      ({url: _url, company: _company, ...position}) => position,
    )
    server = await startMockServer({'/json': serveBody(JSON.stringify(positions))})
    const jobs = await fetchAll(
      oneSource([{type: 'breezy', companies: [{slug: 'breezy', company: 'Breezy Trial'}], url: server.url}]),
    )
    expect(jobs[0]).toMatchObject({
      url: 'https://breezy.breezy.hr/p/98323abf2296-employee-12',
      company: 'Breezy Trial',
    })
  })

  it('explains a 404 as an unknown company, with what to check', async () => {
    server = await startMockServer({})
    const error = await fetchAll(oneSource([{type: 'breezy', companies: ['nope'], url: server.url}])).catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).message).toBe('HTTP 404 Not Found: no Breezy HR company "nope"')
    expect((error as HttpError).hint).toBe(
      'check the company name in the companies list (the name in https://<company>.breezy.hr)',
    )
  })

  it('is accepted with a companies list and refused without one, naming the key', () => {
    expect(checkConfig({sources: [{type: 'breezy', companies: ['breezy']}]}).ok).toBe(true)
    expect(() => sourcesOf([{type: 'breezy'}])).toThrow(ConfigurationError)
    expect(() => sourcesOf([{type: 'breezy'}])).toThrow('sources[0].companies is required for breezy')
  })
})
