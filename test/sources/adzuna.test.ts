import {afterEach, describe, expect, it} from 'vitest'
import {ConfigurationError} from '../../src/core/errors.js'
import type {SourceConfig} from '../../src/core/jobs/source-config.js'
import {silentLogger} from '../../src/core/logger.js'
import {HttpError} from '../../src/http-client/index.js'
import {adzunaBoard} from '../../src/sources/adzuna.js'
import {createSources} from '../../src/sources/index.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {type MockServer, sendJson, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureJson, fixtureText, testDeps, testHttpClient} from '../helpers/source-fixtures.js'

let server: MockServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

const KEYS = {app_id: 'ID-SECRET-1', app_key: 'KEY-SECRET-2'}
const entry = (url: string, more: Partial<SourceConfig> = {}): SourceConfig => ({
  type: 'adzuna',
  url,
  country: 'gb',
  ...KEYS,
  ...more,
})

describe('Adzuna adapter', () => {
  it('maps a search page field by field, asking with the tag and the credentials', async () => {
    server = await startMockServer({'/v1/api/jobs/gb/search/1': serveBody(fixtureText('adzuna.json'))})
    const source = adzunaBoard.source(entry(server.url), testDeps())
    const jobs = await fetchAll(source, {tags: ['Engineer']})

    expect(source.name).toBe('adzuna:gb')
    expect(server.requests.map((request) => request.url)).toEqual([
      '/v1/api/jobs/gb/search/1?app_id=ID-SECRET-1&app_key=KEY-SECRET-2&results_per_page=50&what=engineer',
    ])
    expect(jobs).toHaveLength(3)
    expect(jobs[0]).toMatchObject({
      title: 'Senior Reliability Maintenance Engineering Technician',
      company: 'Amazon UK Services Ltd.',
      location: 'Coventry, West Midlands',
      url: 'https://www.adzuna.co.uk/jobs/land/ad/3204540421?se=Ogrt8LMS7RGGYIvKLWvHqQ&utm_medium=api&utm_source=edc56392&v=58EBE1A4368B4582539080F1E4A5675FFE722F18',
      source: 'adzuna',
      posted_date: '2022-06-07T04:14:28Z',
      // salary_is_predicted "1": Adzuna's estimate, not the employer's.
      salary: null,
      employment_type: 'full_time',
      remote: null,
      tags: ['IT Jobs'],
      board_id: '3204540421',
    })
    expect(jobs[0]?.description).toMatch(/^Job summary Amazon Operations sits at the heart/)
    expect(jobs[2]).toMatchObject({
      title: 'HGV Class 1 Driver | Must have a right to work in UK | £38,000 - £41,800 PA',
      company: 'EUROLINK LTD',
      location: 'Baldock, Hertfordshire',
      employment_type: 'full_time',
      tags: ['Logistics & Warehouse Jobs'],
      board_id: '3363576820',
    })
  })

  it("takes a salary the employer stated as yearly amounts in the country's currency", async () => {
    // The captured Eurolink ad as Adzuna sends an employer's own salary: salary_is_predicted "0".
    const page = fixtureJson<{results: Record<string, unknown>[]}>('adzuna.json')
    const stated = {...page.results[2], salary_is_predicted: '0', salary_min: 38000, salary_max: 41800}
    server = await startMockServer({
      '/v1/api/jobs/gb/search/1': (_req, res) => sendJson(res, {...page, results: [stated]}),
    })
    const [job] = await fetchAll(adzunaBoard.source(entry(server.url), testDeps()))

    expect(job?.salary).toMatchObject({min: 38000, max: 41800, currency: 'GBP', period: 'year'})
  })

  it('reads the next page while a page is full, up to max_pages', async () => {
    const page = fixtureJson<{results: Record<string, unknown>[]}>('adzuna.json')
    const full = Array.from({length: 50}, (_, index) => ({
      ...page.results[index % 3],
      id: String(index),
      redirect_url: `https://www.adzuna.co.uk/jobs/land/ad/${index}`,
    }))
    server = await startMockServer((_req, res) => sendJson(res, {...page, results: full}))
    const jobs = await fetchAll(adzunaBoard.source(entry(server.url, {max_pages: 2}), testDeps()))

    expect(server.requests.map((request) => new URL(request.url, server?.url).pathname)).toEqual([
      '/v1/api/jobs/gb/search/1',
      '/v1/api/jobs/gb/search/2',
    ])
    expect(jobs).toHaveLength(100)
  })

  it('never shows app_id or app_key in logs or errors', async () => {
    server = await startMockServer({
      '/v1/api/jobs/gb/search/1': (_req, res) => sendJson(res, {exception: 'AUTH_FAIL'}, 401),
    })
    const logger = memoryLogger('DEBUG')
    const sources = createSources([entry(server.url)], {http: testHttpClient(), logger: logger.logger})
    expect(sources).toHaveLength(1)
    const error = (await fetchAll(sources[0] as (typeof sources)[number]).catch(
      (caught: unknown) => caught,
    )) as HttpError

    expect(error).toBeInstanceOf(HttpError)
    expect(error.message).toBe('HTTP 401 Unauthorized')
    expect(error.url).toContain('app_id=***&app_key=***')
    expect(JSON.stringify({...error, message: error.message, url: error.url})).not.toMatch(/SECRET/)
    expect(logger.lines.join('\n')).not.toMatch(/SECRET/)
    expect(logger.lines.join('\n')).toContain('app_key=***')
  })

  it('is refused in the config without its country, app_id or app_key, each named, no credential quoted', () => {
    const options = {http: testHttpClient(), logger: silentLogger}
    const refusal = (config: SourceConfig) => {
      try {
        createSources([config], options)
      } catch (error) {
        if (error instanceof ConfigurationError) return error.message
        throw error
      }
      throw new Error('expected a ConfigurationError')
    }
    expect(refusal({type: 'adzuna'})).toBe(
      'sources[0].country is required for adzuna (one of at, au, be, br, ca, ch, de, es, fr, gb, in, it, mx, nl, nz, pl, sg, us, za); ' +
        'sources[0].app_id is required for adzuna (from developer.adzuna.com); ' +
        'sources[0].app_key is required for adzuna (from developer.adzuna.com)',
    )
    expect(refusal({type: 'adzuna', country: 'gb', app_id: 'ID-SECRET-1'})).toBe(
      'sources[0].app_key is required for adzuna (from developer.adzuna.com)',
    )
    expect(refusal({type: 'adzuna', country: 'uk', ...KEYS})).toMatch(
      /^sources\[0\]\.country "uk" is not an Adzuna country \(one of at, /,
    )
    expect(createSources([{type: 'adzuna', country: 'de', ...KEYS}], options).map((source) => source.name)).toEqual([
      'adzuna:de',
    ])
  })
})
