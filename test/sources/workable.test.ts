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

describe('Workable adapter', () => {
  it('maps an account, the company from its name, remote from telecommuting', async () => {
    server = await startMockServer({'/api/v1/widget/accounts/vasion': serveBody(fixtureText('workable.json'))})
    const source = oneSource([{type: 'workable', accounts: ['vasion'], url: server.url}])
    const jobs = await fetchAll(source)

    expect(source.name).toBe('workable:vasion')
    expect(server.requests.map((request) => request.url)).toEqual(['/api/v1/widget/accounts/vasion?details=true'])
    expect(jobs).toHaveLength(2)
    expect(jobs[0]).toMatchObject({
      title: 'Account Executive (Partner First) - APAC',
      company: 'Vasion',
      location: 'New South Wales, Australia',
      url: 'https://apply.workable.com/j/74172297A5',
      source: 'workable',
      posted_date: '2026-08-05',
      salary: null,
      employment_type: 'full_time',
      remote: true,
      seniority: 'Associate',
      tags: ['Sales - International', 'Sales'],
      board_id: '74172297A5',
    })
    expect(jobs[0]?.description).toMatch(
      /^Vasion is a cloud-native SaaS platform .*\n\nThe Opportunity\n\nWe're looking/s,
    )
    expect(jobs[1]).toMatchObject({
      title: 'Account Executive - UK&I / Northern Europe',
      company: 'Vasion',
      location: 'London, England, United Kingdom',
      url: 'https://apply.workable.com/j/15F16B8D99',
      posted_date: '2026-08-10',
      employment_type: 'full_time',
      remote: false,
      board_id: '15F16B8D99',
    })
    expect(jobs[1]?.description).toContain('across UK&I a')
  })

  it("reads the careers page API's answer too ({total, results, nextPage}), as a mirror may keep it", async () => {
    // The shape of `POST https://apply.workable.com/api/v3/accounts/{account}/jobs`, which the account's careers
    // page reads: no account name and no description; places, workplace, type and departments per job.
    const place = (city: string, region: string, country: string, countryCode: string) => ({
      country,
      countryCode,
      city,
      region,
    })
    const careersPage = {
      total: 2,
      results: [
        {
          id: 4521012,
          shortcode: '8F3C2A1B7D',
          title: 'Senior Backend Engineer',
          remote: false,
          location: place('London', 'England', 'United Kingdom', 'GB'),
          locations: [
            {...place('London', 'England', 'United Kingdom', 'GB'), hidden: false},
            {...place('Leeds', 'England', 'United Kingdom', 'GB'), hidden: true},
          ],
          state: 'published',
          isInternal: false,
          code: '',
          published: '2026-08-05T00:00:00.000Z',
          type: 'full',
          language: 'en',
          department: ['Engineering'],
          accountUid: 'a1b2c3',
          approvalStatus: 'approved',
          workplace: 'hybrid',
        },
        {
          id: 4521013,
          shortcode: '1A2B3C4D5E',
          title: 'Support Specialist',
          remote: true,
          location: place('', '', 'Germany', 'DE'),
          locations: [{...place('', '', 'Germany', 'DE'), hidden: false}],
          state: 'published',
          published: '2026-08-10T09:30:00.000Z',
          type: 'part',
          department: ['Customer Success', 'Support'],
          workplace: 'remote',
        },
      ],
      nextPage: 'WzE3NTQzNTIwMDAwMDAsNDUyMTAxM10=',
    }
    server = await startMockServer({'/api/v1/widget/accounts/acme': serveBody(JSON.stringify(careersPage))})
    const jobs = await fetchAll(oneSource([{type: 'workable', accounts: ['acme'], url: server.url}]))
    expect(jobs).toHaveLength(2)
    expect(jobs[0]).toMatchObject({
      title: 'Senior Backend Engineer',
      company: 'acme',
      location: 'London, England, United Kingdom',
      url: 'https://apply.workable.com/j/8F3C2A1B7D',
      source: 'workable',
      posted_date: '2026-08-05T00:00:00Z',
      description: null,
      employment_type: 'full_time',
      remote: false,
      tags: ['Engineering'],
      board_id: '8F3C2A1B7D',
    })
    expect(jobs[1]).toMatchObject({
      title: 'Support Specialist',
      location: 'Germany',
      url: 'https://apply.workable.com/j/1A2B3C4D5E',
      posted_date: '2026-08-10T09:30:00Z',
      employment_type: 'part_time',
      remote: true,
      tags: ['Customer Success', 'Support'],
    })
  })

  it('asks apply.workable.com by default', async () => {
    // An undici MockAgent stands in for the network: nothing leaves the machine, unmatched requests fail.
    agent = new MockAgent()
    agent.disableNetConnect()
    agent
      .get('https://apply.workable.com')
      .intercept({path: '/api/v1/widget/accounts/vasion?details=true', method: 'GET'})
      .reply(200, fixtureText('workable.json'))
    const http = createHttpClient({dispatcher: agent, retries: 0})
    const jobs = await fetchAll(oneSource([{type: 'workable', accounts: ['vasion']}], http))
    expect(jobs.map((job) => job.board_id)).toEqual(['74172297A5', '15F16B8D99'])
  })

  it('uses the configured company, else the slug, when the account has no name', async () => {
    const body = JSON.parse(fixtureText('workable.json')) as {name?: string}
    delete body.name
    server = await startMockServer({
      '/api/v1/widget/accounts/vasion': serveBody(JSON.stringify(body)),
      '/api/v1/widget/accounts/other': serveBody(JSON.stringify(body)),
    })
    const named = oneSource([{type: 'workable', accounts: [{slug: 'vasion', company: 'Vasion Inc'}], url: server.url}])
    const bare = oneSource([{type: 'workable', accounts: ['other'], url: server.url}])
    expect((await fetchAll(named))[0]?.company).toBe('Vasion Inc')
    expect((await fetchAll(bare))[0]?.company).toBe('other')
  })

  it('builds the job link on apply.workable.com when the answer has none, whatever the url', async () => {
    const body = JSON.parse(fixtureText('workable.json')) as {jobs: Record<string, unknown>[]}
    const jobs = body.jobs.map(({url: _url, shortlink: _shortlink, ...job}) => job)
    server = await startMockServer({'/api/v1/widget/accounts/vasion': serveBody(JSON.stringify({...body, jobs}))})
    const mapped = await fetchAll(oneSource([{type: 'workable', accounts: ['vasion'], url: server.url}]))
    expect(mapped.map((job) => job.url)).toEqual([
      'https://apply.workable.com/j/74172297A5',
      'https://apply.workable.com/j/15F16B8D99',
    ])
  })

  it('explains a 404 as an unknown account, with what to check', async () => {
    server = await startMockServer({})
    const error = await fetchAll(oneSource([{type: 'workable', accounts: ['nope'], url: server.url}])).catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).message).toBe('HTTP 404 Not Found: no Workable account "nope"')
    expect((error as HttpError).hint).toBe(
      'check the account name in the accounts list (the name in https://apply.workable.com/<account>)',
    )
  })

  it('is accepted with an accounts list and refused without one, naming the key', () => {
    expect(checkConfig({sources: [{type: 'workable', accounts: ['vasion']}]}).ok).toBe(true)
    expect(() => sourcesOf([{type: 'workable'}])).toThrow(ConfigurationError)
    expect(() => sourcesOf([{type: 'workable'}])).toThrow('sources[0].accounts is required for workable')
    expect(() => sourcesOf([{type: 'workable', accounts: []}])).toThrow('sources[0].accounts is required for workable')
  })
})
