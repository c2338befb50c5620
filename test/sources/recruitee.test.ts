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

describe('Recruitee adapter', () => {
  it('maps a company with salary, hybrid as not remote, description and requirements together', async () => {
    server = await startMockServer({'/api/offers/': serveBody(fixtureText('recruitee.json'))})
    const source = oneSource([{type: 'recruitee', companies: ['channable'], url: server.url}])
    const jobs = await fetchAll(source)

    expect(source.name).toBe('recruitee:channable')
    expect(server.requests.map((request) => request.url)).toEqual(['/api/offers/'])
    expect(jobs).toHaveLength(2)
    expect(jobs[0]).toMatchObject({
      title: 'Customer Success Manager Benelux - Dutch speaking',
      company: 'Channable',
      location: 'Utrecht, Netherlands',
      url: 'https://jobs.channable.com/o/customer-success-manager-benelux-dutch-speaking-3',
      source: 'recruitee',
      posted_date: '2026-09-18T13:27:28Z',
      salary: {min: 3750, max: 5250, currency: 'EUR', period: 'month', annual_min: 45000, annual_max: 63000},
      employment_type: 'full_time',
      remote: false,
      tags: ['Customer Success'],
      board_id: '2751915',
    })
    expect(jobs[0]?.description).toMatch(/^Channable is a fast-growing B2B SaaS platform/)
    expect(jobs[0]?.description).toContain('Your role\n\n- Portfolio & client management')
    expect(jobs[1]).toMatchObject({
      title: 'Head of People & Culture',
      company: 'Channable',
      url: 'https://jobs.channable.com/o/head-of-people-culture',
      posted_date: '2026-09-11T15:16:33Z',
      salary: {min: 115000, max: 130000, currency: 'EUR', period: 'year'},
      employment_type: 'full_time',
      remote: false,
      tags: ['Operations'],
      board_id: '2743511',
    })
  })

  it("asks the company's own host by default", async () => {
    // An undici MockAgent stands in for the network: nothing leaves the machine, unmatched requests fail.
    agent = new MockAgent()
    agent.disableNetConnect()
    agent
      .get('https://channable.recruitee.com')
      .intercept({path: '/api/offers/', method: 'GET'})
      .reply(200, fixtureText('recruitee.json'))
    const http = createHttpClient({dispatcher: agent, retries: 0})
    const jobs = await fetchAll(oneSource([{type: 'recruitee', companies: ['channable']}], http))
    expect(jobs.map((job) => job.board_id)).toEqual(['2751915', '2743511'])
  })

  it('builds the offer link on the public careers host when the answer has none', async () => {
    const body = JSON.parse(fixtureText('recruitee.json')) as {offers: Record<string, unknown>[]}
    const offers = body.offers.map(({careers_url: _dropped, ...offer}) => ({...offer, company_name: ''}))
    server = await startMockServer({'/api/offers/': serveBody(JSON.stringify({offers}))})
    const jobs = await fetchAll(oneSource([{type: 'recruitee', companies: ['channable'], url: server.url}]))
    expect(jobs[1]).toMatchObject({
      url: 'https://channable.recruitee.com/o/head-of-people-culture',
      company: 'channable',
    })
  })

  it('explains a 404 as an unknown company, with what to check', async () => {
    server = await startMockServer({})
    const error = await fetchAll(oneSource([{type: 'recruitee', companies: ['nope'], url: server.url}])).catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).message).toBe('HTTP 404 Not Found: no Recruitee company "nope"')
    expect((error as HttpError).hint).toBe(
      'check the company name in the companies list (the name in https://<company>.recruitee.com)',
    )
  })

  it('is accepted with a companies list and refused without one, naming the key', () => {
    expect(checkConfig({sources: [{type: 'recruitee', companies: ['channable']}]}).ok).toBe(true)
    expect(() => sourcesOf([{type: 'recruitee'}])).toThrow(ConfigurationError)
    expect(() => sourcesOf([{type: 'recruitee'}])).toThrow('sources[0].companies is required for recruitee')
  })
})
