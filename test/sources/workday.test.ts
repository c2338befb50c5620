import type {IncomingMessage} from 'node:http'
import {MockAgent} from 'undici'
import {afterEach, describe, expect, it} from 'vitest'
import {checkConfig} from '../../src/app/config-schema.js'
import {ConfigurationError} from '../../src/core/errors.js'
import {createHttpClient, HttpError} from '../../src/http-client/index.js'
import {type MockHandler, type MockServer, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureText, oneSource, sourcesOf} from '../helpers/source-fixtures.js'

let server: MockServer | undefined
let agent: MockAgent | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
  await agent?.close()
  agent = undefined
})

const SITE = 'nvidia.wd5/NVIDIAExternalCareerSite'
const API = '/wday/cxs/nvidia/NVIDIAExternalCareerSite'
const LIST = `POST ${API}/jobs`
const FIRST_PATH = '/job/China-Shanghai/Custom-SOC-Intern---2027_JR2024692'
const SECOND_PATH =
  '/job/US-CA-Santa-Clara/Applied-Deep-Learning-PhD-Research-Intern--Reinforcement-Learning-for-LLMs---Fall-2026_JR2012398'
const THIRD_PATH = '/job/US-CA-Santa-Clara/PhD-Software-Engineering-Intern--Decision-Intelligence---Fall-2026_JR2017522'

async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return JSON.parse(Buffer.concat(chunks).toString('utf8'))
}

/** Answers each list request with the next page in turn (the last repeats), keeping the JSON bodies it was sent. */
function listPages(bodies: unknown[], ...pages: string[]): MockHandler {
  return async (req, res) => {
    bodies.push(await jsonBody(req))
    serveBody(pages[Math.min(bodies.length - 1, pages.length - 1)] ?? '')(req, res)
  }
}

/** A full page of 20: the capture's three jobs over and over, so the board is asked for the next one. */
function fullPage(): string {
  const capture = JSON.parse(fixtureText('workday.json')) as {jobPostings: unknown[]}
  return JSON.stringify({...capture, jobPostings: Array.from({length: 20}, (_, i) => capture.jobPostings[i % 3])})
}

describe('Workday adapter', () => {
  it("posts the search, merges each job's detail, and keeps a job whose detail fails as listed", async () => {
    const bodies: unknown[] = []
    server = await startMockServer({
      [LIST]: listPages(bodies, fixtureText('workday.json')),
      [`GET ${API}${FIRST_PATH}`]: serveBody(fixtureText('workday-detail.json')),
    })
    const source = oneSource([{type: 'workday', sites: [SITE], url: server.url}])
    const jobs = await fetchAll(source)

    expect(source.name).toBe(`workday:${SITE}`)
    expect(bodies).toEqual([{appliedFacets: {}, limit: 20, offset: 0, searchText: ''}])
    expect(server.requests[0]).toMatchObject({method: 'POST', url: `${API}/jobs`})
    expect(server.requests[0]?.headers['content-type']).toBe('application/json')
    expect(server.requests.map((request) => `${request.method} ${request.url}`).sort()).toEqual(
      [LIST, `GET ${API}${FIRST_PATH}`, `GET ${API}${SECOND_PATH}`, `GET ${API}${THIRD_PATH}`].sort(),
    )
    expect(jobs).toHaveLength(3)
    expect(jobs[0]).toEqual({
      title: 'Custom SOC Intern - 2027',
      company: 'CN05 NVIDIA Shanghai WFOE',
      location: 'China, Shanghai',
      url: `https://nvidia.wd5.myworkdayjobs.com/NVIDIAExternalCareerSite${FIRST_PATH}`,
      source: 'workday',
      posted_date: '2026-09-16',
      description: expect.stringMatching(
        /^NVIDIA NVLink™ Fusion delivers .*\n- Basic C\/C\+\+ knowledge is a must\n.*- Basic digital circuit\/ve$/s,
      ),
      salary: null,
      employment_type: 'full_time',
      remote: null,
      regions: [],
      timezones: [],
      seniority: null,
      tags: [],
      board_id: 'JR2024692',
      company_url: null,
    })
    // The other two details answer 404: the jobs stay as the list gave them, linked on the site's public host.
    expect(jobs[1]).toEqual({
      title: 'Applied Deep Learning PhD Research Intern, Reinforcement Learning for LLMs - Fall 2026',
      company: 'nvidia',
      location: 'US, CA, Santa Clara',
      url: `https://nvidia.wd5.myworkdayjobs.com/NVIDIAExternalCareerSite${SECOND_PATH}`,
      source: 'workday',
      posted_date: null,
      description: null,
      salary: null,
      employment_type: null,
      remote: null,
      regions: [],
      timezones: [],
      seniority: null,
      tags: [],
      board_id: null,
      company_url: null,
    })
    expect(jobs[2]).toMatchObject({
      title: 'PhD Software Engineering Intern, Decision Intelligence - Fall 2026',
      url: `https://nvidia.wd5.myworkdayjobs.com/NVIDIAExternalCareerSite${THIRD_PATH}`,
      posted_date: null,
    })
  })

  it('takes every place, the workplace and the configured company from a detail that has them', async () => {
    server = await startMockServer({
      [LIST]: listPages([], fixtureText('workday.json')),
      [`GET ${API}${FIRST_PATH}`]: serveBody(fixtureText('workday-detail-hybrid.json')),
    })
    const [plain] = await fetchAll(oneSource([{type: 'workday', sites: [SITE], url: server.url}]))
    expect(plain).toMatchObject({
      title: '2027 Future Talent Program - Manufacturing Strategy, Business Development and Alliances (MSBDA) Intern',
      company: '1000 Merck Sharp & Dohme LLC',
      location: 'USA - Pennsylvania - West Point; USA - New Jersey - Rahway',
      url: 'https://msd.wd5.myworkdayjobs.com/SearchJobs/job/USA---Pennsylvania---West-Point/XMLNAME-2027-Future-Talent-Program---Manufacturing-Strategy--Business-Development-and-Alliances--MSBDA--Intern_R418677',
      posted_date: '2026-09-23',
      remote: false,
      board_id: 'R418677',
    })

    const named = await fetchAll(
      oneSource([{type: 'workday', sites: [{slug: SITE, company: 'NVIDIA'}], url: server.url}]),
    )
    expect(named.map((job) => job.company)).toEqual(['NVIDIA', 'NVIDIA', 'NVIDIA'])
  })

  it('asks no detail and builds no link at a path the URL parser would move: %2e%2e, .%2E, a backslash', async () => {
    const capture = JSON.parse(fixtureText('workday.json')) as {jobPostings: Record<string, unknown>[]}
    const hostile = ['/job/%2e%2e/%2e%2e/%2e%2e/%2e%2e/admin', '/job/.%2E/%2E./x/%2e', '/job/..\\..\\..\\admin']
    const jobPostings = [
      capture.jobPostings[0],
      ...hostile.map((externalPath, index) => ({...capture.jobPostings[1], title: `Hostile ${index}`, externalPath})),
    ]
    server = await startMockServer({
      [LIST]: listPages([], JSON.stringify({...capture, jobPostings})),
      [`GET ${API}${FIRST_PATH}`]: serveBody(fixtureText('workday-detail.json')),
    })
    const jobs = await fetchAll(oneSource([{type: 'workday', sites: [SITE], url: server.url}]))
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      LIST,
      `GET ${API}${FIRST_PATH}`,
    ])
    // Without a path of its own a listed job has no link, so it is not kept.
    expect(jobs.map((job) => job.title)).toEqual(['Custom SOC Intern - 2027'])
  })

  it("takes the list's remoteType when the detail is missing, and the detail's when it has one", async () => {
    const capture = JSON.parse(fixtureText('workday.json')) as {jobPostings: Record<string, unknown>[]}
    const remoteTypes = ['Remote', 'On-site', 'Remote']
    const jobPostings = capture.jobPostings.map((job, index) => ({...job, remoteType: remoteTypes[index]}))
    server = await startMockServer({
      [LIST]: listPages([], JSON.stringify({...capture, jobPostings})),
      // The list says remote, the detail hybrid: the detail is the posting as written.
      [`GET ${API}${FIRST_PATH}`]: serveBody(fixtureText('workday-detail-hybrid.json')),
    })
    const jobs = await fetchAll(oneSource([{type: 'workday', sites: [SITE], url: server.url}]))
    expect(jobs.map((job) => job.remote)).toEqual([false, false, true])
  })

  it('asks for the next 20 by offset while a page is full, up to max_pages, and searches once per tag', async () => {
    const bodies: unknown[] = []
    server = await startMockServer({[LIST]: listPages(bodies, fullPage(), fixtureText('workday.json'))})
    const jobs = await fetchAll(oneSource([{type: 'workday', sites: [SITE], url: server.url}]))
    expect(bodies.map((body) => (body as {offset: number}).offset)).toEqual([0, 20])
    expect(jobs).toHaveLength(23)

    const capped: unknown[] = []
    await server.close()
    server = await startMockServer({[LIST]: listPages(capped, fullPage())})
    await fetchAll(oneSource([{type: 'workday', sites: [SITE], url: server.url, max_pages: 1}]))
    expect(capped).toEqual([{appliedFacets: {}, limit: 20, offset: 0, searchText: ''}])

    const searched: unknown[] = []
    await server.close()
    server = await startMockServer({[LIST]: listPages(searched, fixtureText('workday.json'))})
    const found = await fetchAll(oneSource([{type: 'workday', sites: [SITE], url: server.url}]), {
      tags: ['CUDA', 'rust'],
    })
    expect(searched).toEqual([
      {appliedFacets: {}, limit: 20, offset: 0, searchText: 'cuda'},
      {appliedFacets: {}, limit: 20, offset: 0, searchText: 'rust'},
    ])
    // The same jobs from both searches are one each.
    expect(found).toHaveLength(3)
  })

  it("asks the site's own host by default, for the list and the details", async () => {
    // An undici MockAgent stands in for the network: nothing leaves the machine, unmatched requests fail.
    agent = new MockAgent()
    agent.disableNetConnect()
    const host = agent.get('https://nvidia.wd5.myworkdayjobs.com')
    host.intercept({path: `${API}/jobs`, method: 'POST'}).reply(200, fixtureText('workday.json'))
    host.intercept({path: `${API}${FIRST_PATH}`, method: 'GET'}).reply(200, fixtureText('workday-detail.json'))
    host.intercept({path: `${API}${SECOND_PATH}`, method: 'GET'}).reply(404, '{}')
    host.intercept({path: `${API}${THIRD_PATH}`, method: 'GET'}).reply(404, '{}')
    const http = createHttpClient({dispatcher: agent, retries: 0})
    const jobs = await fetchAll(oneSource([{type: 'workday', sites: [SITE]}], http))
    expect(jobs.map((job) => [job.board_id, job.posted_date])).toEqual([
      ['JR2024692', '2026-09-16'],
      [null, null],
      [null, null],
    ])
    agent.assertNoPendingInterceptors()
  })

  it('explains a 404 as an unknown site, with what to check', async () => {
    server = await startMockServer({})
    const error = await fetchAll(oneSource([{type: 'workday', sites: ['acme.wd1/Careers'], url: server.url}])).catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).message).toBe('HTTP 404 Not Found: no Workday site "acme.wd1/Careers"')
    expect((error as HttpError).hint).toBe(
      'check the site in the sites list: "{tenant}.{wdN}/{site}", as in https://{tenant}.{wdN}.myworkdayjobs.com/{site}',
    )
    expect(server.requests).toMatchObject([{method: 'POST', url: '/wday/cxs/acme/Careers/jobs'}])
  })

  it('refuses an answer of the wrong shape', async () => {
    server = await startMockServer({[LIST]: serveBody('{"jobs": []}')})
    await expect(fetchAll(oneSource([{type: 'workday', sites: [SITE], url: server.url}]))).rejects.toThrow(
      'unexpected response shape: expected an object with a "jobPostings" array',
    )
  })

  it('is accepted with a sites list and refuses a missing list or a site not written tenant.wdN/site', () => {
    expect(checkConfig({sources: [{type: 'workday', sites: [SITE]}]}).ok).toBe(true)
    expect(() => sourcesOf([{type: 'workday'}])).toThrow('sources[0].sites is required for workday')
    const malformed = () =>
      sourcesOf([
        {type: 'remoteok'},
        {type: 'workday', sites: [SITE, 'nvidia', {slug: 'https://nvidia.wd5.myworkdayjobs.com/X', company: 'N'}]},
      ])
    expect(malformed).toThrow(ConfigurationError)
    expect(malformed).toThrow(
      'sources[1].sites[1] "nvidia" is not a Workday site: write it as "{tenant}.{wdN}/{site}", as in https://{tenant}.{wdN}.myworkdayjobs.com/{site} (e.g. "nvidia.wd5/NVIDIAExternalCareerSite"); sources[1].sites[2] "https://nvidia.wd5.myworkdayjobs.com/X" is not a Workday site',
    )
  })
})
