import {MockAgent} from 'undici'
import {afterEach, describe, expect, it} from 'vitest'
import {checkConfig} from '../../src/app/config-schema.js'
import {ConfigurationError} from '../../src/core/errors.js'
import {createHttpClient, HttpError} from '../../src/http-client/index.js'
import {createSources} from '../../src/sources/index.js'
import {warningsInto} from '../helpers/memory-log.js'
import {type MockHandler, type MockServer, sendJson, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureJson, fixtureText, oneSource, sourcesOf, testHttpClient} from '../helpers/source-fixtures.js'

const ATLAS = '/platform/api/ats/v1/board/atlas-data-storage/jobs'
const FIRST = '787eb126-aeb3-4077-a1ab-ee76ebdb8bab'
const DETAILS = fixtureJson<Record<string, unknown>>('rippling-details.json')

/** Atlas's board: the captured list, and the captured detail of the jobs there is one of (the others answer 404). */
const atlasBoard: MockHandler = (req, res) => {
  if (req.url === ATLAS) return serveBody(fixtureText('rippling.json'))(req, res)
  const detail = req.url?.startsWith(`${ATLAS}/`) ? DETAILS[req.url.slice(ATLAS.length + 1)] : undefined
  if (detail === undefined) return sendJson(res, {error_code: 'RESOURCE_NOT_FOUND'}, 404)
  sendJson(res, detail)
}

let server: MockServer | undefined
let agent: MockAgent | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
  await agent?.close()
  agent = undefined
})

describe('Rippling adapter', () => {
  it("maps a board with each job's detail: employer, places, date, pay range, type, department", async () => {
    server = await startMockServer(atlasBoard)
    const warnings: string[] = []
    const [source] = createSources([{type: 'rippling', companies: ['atlas-data-storage'], url: server.url}], {
      http: testHttpClient(),
      logger: warningsInto(warnings),
    })
    if (!source) throw new Error('no source built')
    const jobs = await fetchAll(source)

    expect(source.name).toBe('rippling:atlas-data-storage')
    expect(server.requests.map((request) => request.url).sort()).toEqual([
      ATLAS,
      `${ATLAS}/199e4ea1-1c96-4cff-936f-50510faf0a4d`,
      `${ATLAS}/1a026856-87ac-433e-83cc-7d48912b77a4`,
      `${ATLAS}/${FIRST}`,
      `${ATLAS}/8c373b84-e444-48d6-8e3c-dae8204ef844`,
      `${ATLAS}/9f16744f-5a23-41a0-a8f2-3dce66bb7194`,
    ])
    expect(jobs).toHaveLength(5)
    expect(jobs[0]).toEqual({
      title: 'Financial Controller',
      company: 'AtlasBase',
      location: 'South San Francisco, CA',
      url: `https://ats.rippling.com/atlas-data-storage/jobs/${FIRST}`,
      source: 'rippling',
      posted_date: '2025-11-20T03:31:54Z',
      // The capture's prose is filler words (see PROVENANCE.md); its markup, lists and both parts are as sent.
      description: expect.stringMatching(/^reproduced synthetic\n\nsynthetic is py the and in sample fixture/),
      salary: {
        min: 230000,
        max: 260000,
        currency: 'USD',
        period: 'year',
        annual_min: 230000,
        annual_max: 260000,
        text: null,
      },
      employment_type: 'full_time',
      remote: false,
      regions: [],
      timezones: [],
      seniority: null,
      tags: ['General & Administrative'],
      board_id: FIRST,
      company_url: null,
    })
    // The role part follows the company part, its lists as lists, without markup.
    expect(jobs[0]?.description).toContain('\n\nthis placeholder\n\nall reproduced scrub py')
    expect(jobs[0]?.description).toContain('\n- at fixture sample\n')
    expect(jobs[0]?.description).not.toMatch(/<|&nbsp;|&amp;/)
    // A job whose detail fails keeps what the list gave; the board says so once.
    expect(jobs[1]).toEqual({
      title: 'Head of HR',
      company: 'atlas-data-storage',
      location: 'South San Francisco, CA',
      url: 'https://ats.rippling.com/atlas-data-storage/jobs/199e4ea1-1c96-4cff-936f-50510faf0a4d',
      source: 'rippling',
      posted_date: null,
      description: null,
      salary: null,
      employment_type: null,
      remote: null,
      regions: [],
      timezones: [],
      seniority: null,
      tags: ['General & Administrative'],
      board_id: '199e4ea1-1c96-4cff-936f-50510faf0a4d',
      company_url: null,
    })
    expect(jobs.map((job) => job.title)).toEqual([
      'Financial Controller',
      'Head of HR',
      'Lab Manager',
      'Research Associate, Protein Engineering',
      'Research Associate, Supervisor Synthesis Production',
    ])
    expect(warnings).toEqual([
      '4 of 5 job details could not be read (HTTP 404 Not Found); those jobs keep what the list gave',
    ])
  })

  it('makes one job of the rows a job has per place, with one detail request', async () => {
    const board = '/platform/api/ats/v1/board/rippling/jobs'
    server = await startMockServer((req, res) => {
      if (req.url === board) return serveBody(fixtureText('rippling-locations.json'))(req, res)
      sendJson(res, {error_code: 'RESOURCE_NOT_FOUND'}, 404)
    })
    const jobs = await fetchAll(
      oneSource([{type: 'rippling', companies: [{slug: 'rippling', company: 'Rippling'}], url: server.url}]),
    )

    expect(server.requests.map((request) => request.url).sort()).toEqual([
      board,
      `${board}/2f0674e6-f01f-4ecd-b459-e947241c211f`,
      `${board}/75ad50c6-778f-42ee-9c63-70d1cd687202`,
      `${board}/94486f41-6474-446a-b67a-c164e11354ea`,
      `${board}/94ac7084-9b63-4e9f-9e2a-fd5da349172d`,
    ])
    expect(jobs.map((job) => [job.title, job.location, job.remote, job.regions])).toEqual([
      [
        'Account Executive - Accountants Channel (East Coast)',
        'Remote (Connecticut, US); Remote (Massachusetts, US); New York, NY; Remote (New Jersey, US)',
        true,
        ['Connecticut', 'US', 'Massachusetts', 'New Jersey'],
      ],
      [
        'Account Executive, Broker Channel (Atlanta)',
        'Remote (Atlanta, Georgia, US)',
        true,
        ['Atlanta', 'Georgia', 'US'],
      ],
      ['Account Executive, Broker Channel (Austin & San Antonio)', 'Austin, TX', null, []],
      ['Account Executive, Broker Channel (Pittsburgh / Cleveland)', 'Cleveland, OH; Pittsburgh, PA', null, []],
    ])
    expect(jobs[0]).toMatchObject({
      company: 'Rippling',
      url: 'https://ats.rippling.com/rippling/jobs/2f0674e6-f01f-4ecd-b459-e947241c211f',
      tags: ['Sales'],
      board_id: '2f0674e6-f01f-4ecd-b459-e947241c211f',
    })
  })

  it('asks api.rippling.com by default, the list and each detail', async () => {
    // An undici MockAgent stands in for the network: nothing leaves the machine, unmatched requests fail.
    agent = new MockAgent()
    agent.disableNetConnect()
    const api = agent.get('https://api.rippling.com')
    api.intercept({path: ATLAS, method: 'GET'}).reply(200, fixtureText('rippling.json'))
    api.intercept({path: `${ATLAS}/${FIRST}`, method: 'GET'}).reply(200, JSON.stringify(DETAILS[FIRST]))
    api
      .intercept({path: (path) => path.startsWith(`${ATLAS}/`), method: 'GET'})
      .reply(404, '{}')
      .times(4)
    const http = createHttpClient({dispatcher: agent, retries: 0})
    const jobs = await fetchAll(oneSource([{type: 'rippling', companies: ['atlas-data-storage']}], http))
    expect(jobs.map((job) => job.board_id)).toEqual([
      FIRST,
      '199e4ea1-1c96-4cff-936f-50510faf0a4d',
      '1a026856-87ac-433e-83cc-7d48912b77a4',
      '9f16744f-5a23-41a0-a8f2-3dce66bb7194',
      '8c373b84-e444-48d6-8e3c-dae8204ef844',
    ])
    expect(jobs[0]?.salary).toMatchObject({min: 230000, max: 260000, currency: 'USD'})
    agent.assertNoPendingInterceptors()
  })

  it('builds the job link on ats.rippling.com when the answers leave it out, whatever url the source names', async () => {
    const rows = (JSON.parse(fixtureText('rippling.json')) as Record<string, unknown>[]).map(
      ({url: _url, ...row}) => row,
    )
    const {url: _url, ...detail} = DETAILS[FIRST] as Record<string, unknown>
    server = await startMockServer({
      [ATLAS]: serveBody(JSON.stringify(rows)),
      [`${ATLAS}/${FIRST}`]: serveBody(JSON.stringify(detail)),
    })
    const jobs = await fetchAll(oneSource([{type: 'rippling', companies: ['atlas-data-storage'], url: server.url}]))
    expect(jobs[0]).toMatchObject({
      url: `https://ats.rippling.com/atlas-data-storage/jobs/${FIRST}`,
      company: 'AtlasBase',
    })
    expect(jobs[2]?.url).toBe('https://ats.rippling.com/atlas-data-storage/jobs/1a026856-87ac-433e-83cc-7d48912b77a4')
  })

  it('explains a 404 as an unknown job board, with what to check', async () => {
    server = await startMockServer({})
    const error = await fetchAll(oneSource([{type: 'rippling', companies: ['Nope'], url: server.url}])).catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).message).toBe('HTTP 404 Not Found: no Rippling job board "Nope"')
    expect((error as HttpError).hint).toBe(
      'check the company name in the companies list (the name in https://ats.rippling.com/<company>/jobs, with its case)',
    )
    expect(server.requests.map((request) => request.url)).toEqual(['/platform/api/ats/v1/board/Nope/jobs'])
  })

  it('fails an answer of the wrong shape', async () => {
    server = await startMockServer({[ATLAS]: serveBody('{"items": []}')})
    await expect(
      fetchAll(oneSource([{type: 'rippling', companies: ['atlas-data-storage'], url: server.url}])),
    ).rejects.toThrow('unexpected response shape: expected an array')
  })

  it('is accepted with a companies list and refused without one, naming the key', () => {
    expect(checkConfig({sources: [{type: 'rippling', companies: ['atlas-data-storage']}]}).ok).toBe(true)
    expect(() => sourcesOf([{type: 'rippling'}])).toThrow(ConfigurationError)
    expect(() => sourcesOf([{type: 'rippling'}])).toThrow('sources[0].companies is required for rippling')
  })
})
