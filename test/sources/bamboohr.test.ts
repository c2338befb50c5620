import {MockAgent} from 'undici'
import {afterEach, describe, expect, it} from 'vitest'
import {checkConfig} from '../../src/app/config-schema.js'
import {ConfigurationError} from '../../src/core/errors.js'
import {createHttpClient, HttpError} from '../../src/http-client/index.js'
import {
  type MockRoutes,
  type MockServer,
  sendJson,
  sendText,
  serveBody,
  startMockServer,
} from '../helpers/mock-board.js'
import {fetchAll, fixtureText, oneSource, sourcesOf} from '../helpers/source-fixtures.js'

let server: MockServer | undefined
let agent: MockAgent | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
  await agent?.close()
  agent = undefined
})

const IDS = ['36', '39', '42'] as const

/** The captured Giotto.ai career site: its list and the detail of each opening. */
function giottoRoutes(): MockRoutes {
  const routes: MockRoutes = {'/careers/list': serveBody(fixtureText('bamboohr.json'))}
  for (const id of IDS) routes[`/careers/${id}/detail`] = serveBody(fixtureText(`bamboohr-detail-${id}.json`))
  return routes
}

const GIOTTO = {slug: 'giottoai', company: 'Giotto.ai'}

describe('BambooHR adapter', () => {
  it("maps a career site: the list's openings with each detail merged in", async () => {
    server = await startMockServer(giottoRoutes())
    const source = oneSource([{type: 'bamboohr', companies: [GIOTTO], url: server.url}])
    const jobs = await fetchAll(source)

    expect(source.name).toBe('bamboohr:giottoai')
    expect(server.requests[0]?.url).toBe('/careers/list')
    expect(server.requests.map((request) => request.url).sort()).toEqual([
      '/careers/36/detail',
      '/careers/39/detail',
      '/careers/42/detail',
      '/careers/list',
    ])
    expect(jobs).toHaveLength(3)
    expect(jobs[0]).toEqual({
      title: 'AI Research Scientist',
      company: 'Giotto.ai',
      location: 'Lausanne, Vaud, Switzerland',
      url: 'https://giottoai.bamboohr.com/careers/36',
      source: 'bamboohr',
      posted_date: '2026-07-21',
      description:
        'Giotto.ai is a Switzerland-based AI company building intelligence systems for Switzerland and Europe.\n\n' +
        'Expected core stack:\n\n- MLflow or Weights & Biases for experiment tracking\n- Docker',
      salary: null,
      employment_type: 'full_time',
      remote: false,
      regions: [],
      timezones: [],
      seniority: null,
      tags: ['AI'],
      board_id: '36',
      company_url: null,
    })
    // The place is in `atsLocation` only; locationType 1 is remote; the description's no-break spaces are spaces.
    expect(jobs[1]).toMatchObject({
      title: 'Machine Learning Engineer',
      location: 'Lausanne, Vaud, Switzerland',
      url: 'https://giottoai.bamboohr.com/careers/39',
      posted_date: '2026-07-02',
      description:
        'Giotto.ai is a Switzerland-based AI company building intelligence systems for Switzerland and Europe.',
      employment_type: 'contract',
      remote: true,
      tags: ['Engineering'],
      board_id: '39',
    })
    expect(jobs[2]).toMatchObject({
      title: 'Senior Research Engineer / Research Scientist - Post-Training, Reinforcement Learning & Training Systems',
      url: 'https://giottoai.bamboohr.com/careers/42',
      posted_date: '2026-07-29',
      remote: false,
      board_id: '42',
    })
  })

  it('keeps a listed opening whose detail fails, linked on the public host, and reads compensation text', async () => {
    const detail36 = JSON.parse(fixtureText('bamboohr-detail-36.json')) as {
      result: {jobOpening: Record<string, unknown>}
    }
    // The captured openings show no pay; an employer's compensation is free text.
    detail36.result.jobOpening.compensation = '$28 - $35/DOE and shift'
    server = await startMockServer({
      ...giottoRoutes(),
      '/careers/36/detail': (_req, res) => sendJson(res, detail36),
      '/careers/39/detail': (_req, res) =>
        sendJson(
          res,
          {
            type: 'not_found',
            title: 'Resource not found.',
            details: "Looks like the id you provided doesn't exist.",
            meta: [],
          },
          404,
        ),
      '/careers/42/detail': (_req, res) => sendJson(res, {meta: {}, result: []}),
    })
    const jobs = await fetchAll(oneSource([{type: 'bamboohr', companies: ['giottoai'], url: server.url}]))

    expect(jobs.map((job) => job.board_id)).toEqual(['36', '39', '42'])
    expect(jobs[0]?.salary).toMatchObject({text: '$28 - $35/DOE and shift'})
    expect(jobs[0]?.company).toBe('giottoai')
    // What the list gives: no description or date, and a link built on the company's public host, not on `url`.
    expect(jobs[1]).toMatchObject({
      title: 'Machine Learning Engineer',
      location: 'Lausanne, Vaud, Switzerland',
      url: 'https://giottoai.bamboohr.com/careers/39',
      posted_date: null,
      description: null,
      employment_type: 'contract',
      remote: true,
      tags: ['Engineering'],
    })
    expect(jobs[2]).toMatchObject({
      location: 'Lausanne, Vaud',
      url: 'https://giottoai.bamboohr.com/careers/42',
      description: null,
    })
  })

  it('asks for no detail on a site with no openings', async () => {
    server = await startMockServer({'/careers/list': serveBody('{"meta":{"totalCount":0},"result":[]}')})
    const jobs = await fetchAll(oneSource([{type: 'bamboohr', companies: ['alchemab'], url: server.url}]))
    expect(jobs).toEqual([])
    expect(server.requests.map((request) => request.url)).toEqual(['/careers/list'])
  })

  it("asks the company's own host by default, for the list and the details", async () => {
    // An undici MockAgent stands in for the network: nothing leaves the machine, unmatched requests fail.
    agent = new MockAgent()
    agent.disableNetConnect()
    const host = agent.get('https://giottoai.bamboohr.com')
    host.intercept({path: '/careers/list', method: 'GET'}).reply(200, fixtureText('bamboohr.json'))
    for (const id of IDS) {
      host
        .intercept({path: `/careers/${id}/detail`, method: 'GET'})
        .reply(200, fixtureText(`bamboohr-detail-${id}.json`))
    }
    const http = createHttpClient({dispatcher: agent, retries: 0})
    const jobs = await fetchAll(oneSource([{type: 'bamboohr', companies: ['giottoai']}], http))
    expect(jobs.map((job) => [job.board_id, job.posted_date])).toEqual([
      ['36', '2026-07-21'],
      ['39', '2026-07-02'],
      ['42', '2026-07-29'],
    ])
    agent.assertNoPendingInterceptors()
  })

  it('explains a 404 as an unknown company, with what to check', async () => {
    server = await startMockServer({})
    const error = await fetchAll(oneSource([{type: 'bamboohr', companies: ['nope'], url: server.url}])).catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).message).toBe('HTTP 404 Not Found: no BambooHR company "nope"')
    expect((error as HttpError).hint).toBe(
      'check the company name in the companies list (the name in https://<company>.bamboohr.com/careers)',
    )
  })

  it('reports the redirect of an unknown company to an HTML page as a 404', async () => {
    server = await startMockServer({
      '/careers/list': (_req, res) => sendText(res, '', 302, {location: '/'}),
      '/': (_req, res) =>
        sendText(res, '<!DOCTYPE html><html><head><title>BambooHR</title></head><body>HR software</body></html>', 200, {
          'content-type': 'text/html; charset=UTF-8',
        }),
    })
    const error = await fetchAll(oneSource([{type: 'bamboohr', companies: ['gone'], url: server.url}])).catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).message).toBe('HTML instead of JSON ("BambooHR"): no BambooHR company "gone"')
    expect((error as HttpError).status).toBe(404)
    expect((error as HttpError).hint).toMatch(/check the company name/)
    expect(server.requests.map((request) => request.url)).toEqual(['/careers/list', '/'])
  })

  it('fails on an answer of the wrong shape', async () => {
    server = await startMockServer({'/careers/list': (_req, res) => sendJson(res, {jobs: []})})
    await expect(fetchAll(oneSource([{type: 'bamboohr', companies: ['giottoai'], url: server.url}]))).rejects.toThrow(
      'unexpected response shape: expected an object with a "result" array',
    )
  })

  it('is accepted with a companies list and refused without one, naming the key', () => {
    expect(checkConfig({sources: [{type: 'bamboohr', companies: ['giottoai']}]}).ok).toBe(true)
    expect(() => sourcesOf([{type: 'bamboohr'}])).toThrow(ConfigurationError)
    expect(() => sourcesOf([{type: 'bamboohr'}])).toThrow('sources[0].companies is required for bamboohr')
  })
})
