import {MockAgent} from 'undici'
import {afterEach, describe, expect, it} from 'vitest'
import {checkConfig} from '../../src/app/config-schema.js'
import {ConfigurationError} from '../../src/core/errors.js'
import {createHttpClient, HttpError} from '../../src/http-client/index.js'
import {type MockServer, sendJson, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureJson, fixtureText, oneSource, sourcesOf} from '../helpers/source-fixtures.js'

interface PostingsPage {
  offset: number
  limit: number
  totalFound: number
  content: unknown[]
}

const LIST = '/v1/companies/Nexity/postings'
const FIRST = '744000153698949'
const SECOND = '744000153108379'
/** What SmartRecruiters answers past the last posting: the page's numbers and no content. */
const PAST_THE_END = {offset: 2, limit: 100, totalFound: 5, content: []}

/** The capture's job ad as text: each section under its title, paragraphs apart by a blank line. */
const DESCRIPTION = [
  "Description de l'entreprise",
  "Aménageur-promoteur et promoteur-exploitant au service de tous, Nexity accompagne la transformation des villes et répond aux besoins de logement, de services et d'immobilier de nos clients.\nNexity est l’entreprise des passionnés d'immobilier, mais pas que.",
  'Nous sommes aussi des passionnés de la société.',
  'Employeur précurseur, Nexity invente la ville durable pour tous en s’appuyant sur des équipes entreprenantes et audacieuses.',
  "Travailler chez Nexity, c'est rejoindre…",
  'Description du poste',
  'Le Service Contrôle de Gestion recrute un Contrôleur de Gestion H/F à La Madeleine (59110).',
  'Dans le cadre de la bonne gestion de l’entreprise, vous assurez le suivi de l’activité et du budget de plusieurs filiales opérationnelles réparties sur l’ensemble du territoire national.',
  'Vous êtes l’interlocuteur privilégié des dirigeants de filiales et participez aux réunions périodiques organisés par la direction générale du pôle.',
  'Vos missions…',
  'Qualifications',
  'De formation Bac+4/5 Ecole de commerce ou de Formation universitaire (finance, Contrôle de gestion) vous disposez d’une expérience réussie minimum de 4 ans dans le domaine.',
  "Rigueur et sens de l'organisation sont des qualités indispensables pour réussir à ce poste.",
  'Donnez un nouvel élan à votre carrière, rejoignez-nous !',
  'Notre processus de recrutement',
  'Pour vous offrir une expérience claire, transparente et efficace, votre candidature…',
  'Informations supplémentaires',
  'En rejoignant Nexity, vous intégrez un Groupe solide, engagé et reconnu pour la qualité de ses réalisations. Leader de la promotion immobilière en France, Nexity se distingue par la performance de ses résultats et son ancrage durable sur le marché.',
  '- 13 % de part de marché sur la promotion résidentielle, confirmant notre position de premier opérateur urbain. Des projets ambitieux variés et porteurs de sens :',
].join('\n\n')

let server: MockServer | undefined
let agent: MockAgent | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
  await agent?.close()
  agent = undefined
})

const listRequests = (requests: readonly {url: string}[]) =>
  requests.map((request) => request.url).filter((url) => url.startsWith(`${LIST}?`))

describe('SmartRecruiters adapter', () => {
  it("merges each posting's detail into the listed posting, and keeps a posting whose detail fails as listed", async () => {
    // The capture's page 1 holds two postings of five; the second posting's detail is missing (404).
    server = await startMockServer({
      [`${LIST}?limit=100&offset=0`]: serveBody(fixtureText('smartrecruiters.json')),
      [`${LIST}?limit=100&offset=2`]: (_req, res) => sendJson(res, PAST_THE_END),
      [`${LIST}/${FIRST}`]: serveBody(fixtureText('smartrecruiters-posting.json')),
    })
    const source = oneSource([{type: 'smartrecruiters', companies: ['Nexity'], url: server.url}])
    const jobs = await fetchAll(source)

    expect(source.name).toBe('smartrecruiters:Nexity')
    expect(server.requests.map((request) => request.url).sort()).toEqual([
      `${LIST}/${SECOND}`,
      `${LIST}/${FIRST}`,
      `${LIST}?limit=100&offset=0`,
      `${LIST}?limit=100&offset=2`,
    ])
    expect(listRequests(server.requests)).toEqual([`${LIST}?limit=100&offset=0`, `${LIST}?limit=100&offset=2`])
    expect(jobs).toHaveLength(2)
    expect(jobs[0]).toEqual({
      title: 'Contrôleur de Gestion H/F - CDI',
      company: 'Nexity',
      location: 'La Madeleine, Hauts-de-France, France',
      url: 'https://jobs.smartrecruiters.com/Nexity/744000153698949',
      source: 'smartrecruiters',
      posted_date: '2026-10-06T08:51:43Z',
      description: DESCRIPTION,
      salary: null,
      employment_type: 'full_time',
      remote: false,
      regions: [],
      timezones: [],
      seniority: null,
      tags: ['Finance'],
      board_id: FIRST,
      company_url: null,
    })

    expect(jobs[1]).toMatchObject({
      title: 'Chef de projet Growth Marketing Acquisition & Data',
      company: 'Nexity',
      location: "Nice, Provence-Alpes-Côte d'Azur, France",
      // No detail: the posting's page on the public host, whatever the configured url.
      url: 'https://jobs.smartrecruiters.com/Nexity/744000153108379',
      posted_date: '2026-10-02T07:17:47Z',
      description: null,
      employment_type: 'full_time',
      remote: false,
      seniority: 'Mid-Senior Level',
      tags: ['Marketing'],
      board_id: SECOND,
    })
  })

  it('asks no detail for a posting id that is a dot segment in a URL (.., .)', async () => {
    const page = fixtureJson<PostingsPage>('smartrecruiters.json')
    const [first] = page.content as Record<string, unknown>[]
    const content = ['..', '.'].map((id, index) => ({...first, id, name: `Hostile ${index}`}))
    server = await startMockServer({
      [`${LIST}?limit=100&offset=0`]: (_req, res) => sendJson(res, {...page, totalFound: 2, content}),
      '/v1/companies/Nexity/': (_req, res) => sendJson(res, {secret: 'the company record'}),
    })
    const jobs = await fetchAll(oneSource([{type: 'smartrecruiters', companies: ['Nexity'], url: server.url}]))
    expect(server.requests.map((request) => request.url)).toEqual([`${LIST}?limit=100&offset=0`])
    // No id, no page by id: such a posting has no link of its own, and is not kept.
    expect(jobs).toEqual([])
  })

  it('reads the pay a detail states under compensation (min, max, currency, period)', async () => {
    const posting = fixtureJson<Record<string, unknown>>('smartrecruiters-posting.json')
    const compensation = {min: 68500, max: 87500, currency: 'GBP', period: 'YEARLY'}
    server = await startMockServer({
      [`${LIST}?limit=100&offset=0`]: serveBody(fixtureText('smartrecruiters.json')),
      [`${LIST}?limit=100&offset=2`]: (_req, res) => sendJson(res, PAST_THE_END),
      [`${LIST}/${FIRST}`]: (_req, res) => sendJson(res, {...posting, compensation}),
    })
    const [job] = await fetchAll(oneSource([{type: 'smartrecruiters', companies: ['Nexity'], url: server.url}]))
    expect(job?.salary).toEqual({
      min: 68500,
      max: 87500,
      currency: 'GBP',
      period: 'year',
      annual_min: 68500,
      annual_max: 87500,
      text: null,
    })
  })

  it('pages by offset until totalFound is reached, and no further than max_pages', async () => {
    const capture = fixtureJson<PostingsPage>('smartrecruiters.json')
    const pageOf = (offset: number) => ({
      ...capture,
      offset,
      limit: 1,
      totalFound: 2,
      content: capture.content.slice(offset, offset + 1),
    })
    const routes = {
      [`${LIST}?limit=100&offset=0`]: serveBody(JSON.stringify(pageOf(0))),
      [`${LIST}?limit=100&offset=1`]: serveBody(JSON.stringify(pageOf(1))),
    }
    server = await startMockServer(routes)
    const jobs = await fetchAll(oneSource([{type: 'smartrecruiters', companies: ['Nexity'], url: server.url}]))
    expect(listRequests(server.requests)).toEqual([`${LIST}?limit=100&offset=0`, `${LIST}?limit=100&offset=1`])
    expect(jobs.map((job) => job.board_id)).toEqual([FIRST, SECOND])

    server.requests.length = 0
    const one = await fetchAll(
      oneSource([{type: 'smartrecruiters', companies: ['Nexity'], url: server.url, max_pages: 1}]),
    )
    expect(listRequests(server.requests)).toEqual([`${LIST}?limit=100&offset=0`])
    expect(one.map((job) => job.board_id)).toEqual([FIRST])
  })

  it('asks api.smartrecruiters.com by default, for the list and the details', async () => {
    // An undici MockAgent stands in for the network: nothing leaves the machine, unmatched requests fail.
    agent = new MockAgent()
    agent.disableNetConnect()
    const api = agent.get('https://api.smartrecruiters.com')
    api.intercept({path: `${LIST}?limit=100&offset=0`, method: 'GET'}).reply(200, fixtureText('smartrecruiters.json'))
    api.intercept({path: `${LIST}?limit=100&offset=2`, method: 'GET'}).reply(200, JSON.stringify(PAST_THE_END))
    api.intercept({path: `${LIST}/${FIRST}`, method: 'GET'}).reply(200, fixtureText('smartrecruiters-posting.json'))
    api.intercept({path: `${LIST}/${SECOND}`, method: 'GET'}).reply(404, '{"httpCode":404}')
    const http = createHttpClient({dispatcher: agent, retries: 0})
    const jobs = await fetchAll(oneSource([{type: 'smartrecruiters', companies: ['Nexity']}], http))
    expect(jobs.map((job) => job.url)).toEqual([
      'https://jobs.smartrecruiters.com/Nexity/744000153698949',
      'https://jobs.smartrecruiters.com/Nexity/744000153108379',
    ])
    agent.assertNoPendingInterceptors()
  })

  it('takes the configured company, else the slug, when the postings name none', async () => {
    const capture = fixtureJson<PostingsPage>('smartrecruiters.json')
    const nameless = {
      ...capture,
      totalFound: 2,
      content: capture.content.map((posting) => ({...(posting as object), company: undefined})),
    }
    server = await startMockServer({[`${LIST}?limit=100&offset=0`]: serveBody(JSON.stringify(nameless))})
    const [named] = await fetchAll(
      oneSource([{type: 'smartrecruiters', companies: [{slug: 'Nexity', company: 'Nexity SA'}], url: server.url}]),
    )
    expect(named).toMatchObject({company: 'Nexity SA', url: 'https://jobs.smartrecruiters.com/Nexity/744000153698949'})
    const [bare] = await fetchAll(oneSource([{type: 'smartrecruiters', companies: ['Nexity'], url: server.url}]))
    expect(bare?.company).toBe('Nexity')
  })

  it('explains a 404 as an unknown company, with what to check', async () => {
    server = await startMockServer({})
    const error = await fetchAll(oneSource([{type: 'smartrecruiters', companies: ['nope'], url: server.url}])).catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).message).toBe('HTTP 404 Not Found: no SmartRecruiters company "nope"')
    expect((error as HttpError).hint).toBe(
      'check the company identifier in the companies list (the name in https://jobs.smartrecruiters.com/<company>, with its capitals)',
    )
  })

  it('refuses an answer of another shape', async () => {
    server = await startMockServer({[`${LIST}?limit=100&offset=0`]: (_req, res) => sendJson(res, {postings: []})})
    await expect(
      fetchAll(oneSource([{type: 'smartrecruiters', companies: ['Nexity'], url: server.url}])),
    ).rejects.toThrow('unexpected response shape: expected an object with a "content" array')
  })

  it('is accepted with a companies list and refused without one, naming the key', () => {
    expect(checkConfig({sources: [{type: 'smartrecruiters', companies: ['Nexity']}]}).ok).toBe(true)
    expect(() => sourcesOf([{type: 'smartrecruiters'}])).toThrow(ConfigurationError)
    expect(() => sourcesOf([{type: 'smartrecruiters'}])).toThrow('sources[0].companies is required for smartrecruiters')
  })
})
