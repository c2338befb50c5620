import {MockAgent} from 'undici'
import {afterEach, describe, expect, it} from 'vitest'
import {DEFAULT_SOURCES} from '../../src/app/config-schema.js'
import {ConfigurationError} from '../../src/core/errors.js'
import type {SourceConfig} from '../../src/core/jobs/source-config.js'
import {silentLogger} from '../../src/core/logger.js'
import {createHttpClient} from '../../src/http-client/index.js'
import {createSources} from '../../src/sources/index.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {sendText, sequence, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureText, testHttpClient} from '../helpers/source-fixtures.js'

const http = testHttpClient()
const options = {http, logger: silentLogger}

function configError(configs: SourceConfig[]): ConfigurationError {
  try {
    createSources(configs, options)
  } catch (error) {
    if (error instanceof ConfigurationError) return error
    throw error
  }
  throw new Error('expected a ConfigurationError')
}

describe('createSources', () => {
  it('builds the default keyless boards', () => {
    expect(createSources(DEFAULT_SOURCES, options).map((source) => source.name)).toEqual([
      'remoteok',
      'remotive',
      'arbeitnow',
      'jobicy',
      'himalayas',
      'weworkremotely',
    ])
  })

  it('gives every Greenhouse board, Lever site and Ashby board its own source', () => {
    const sources = createSources(
      [
        {type: 'greenhouse', boards: ['gitlab', {slug: 'stripe', company: 'Stripe'}]},
        {type: 'lever', sites: ['people-ai'], region: 'eu'},
        {type: 'ashby', boards: ['notion']},
        {type: 'hackernews'},
        {type: 'rss', url: 'https://jobs.example.org/feed.xml'},
        {type: 'file', path: './jobs.json', name: 'mine'},
      ],
      options,
    )
    expect(sources.map((source) => source.name)).toEqual([
      'greenhouse:gitlab',
      'greenhouse:stripe',
      'lever:people-ai',
      'ashby:notion',
      'hackernews',
      'rss:jobs.example.org',
      'file:mine',
    ])
  })

  it('leaves out disabled entries', () => {
    const sources = createSources([{type: 'remoteok', enabled: false}, {type: 'jobicy'}], options)
    expect(sources.map((source) => source.name)).toEqual(['jobicy'])
  })

  it('names the entry and key of a misconfigured source', () => {
    expect(configError([{type: 'remoteok'}, {type: 'greenhouse'}]).message).toBe(
      'sources[1].boards is required for greenhouse',
    )
    expect(configError([{type: 'ashby', boards: []}]).message).toBe('sources[0].boards is required for ashby')
    expect(configError([{type: 'lever'}]).message).toBe('sources[0].sites is required for lever')
    expect(configError([{type: 'rss'}]).message).toBe("sources[0].url is required for rss (the feed's URL)")
    expect(configError([{type: 'file'}]).message).toBe('sources[0].path is required for file')
    expect(configError([{type: 'monster' as 'rss'}]).message).toMatch(
      /^sources\[0\]\.type "monster" is not a source type \(one of remoteok, /,
    )
    expect(configError([{type: 'remoteok', url: 'remoteok.com'}]).message).toBe(
      'sources[0].url must be an absolute http(s) URL, got "remoteok.com"',
    )
    expect(configError([{type: 'remoteok', timeout_seconds: 0}]).message).toBe(
      'sources[0].timeout_seconds must be a positive number of seconds',
    )
  })

  it('refuses the same board twice', () => {
    const error = configError([
      {type: 'greenhouse', boards: ['gitlab']},
      {type: 'greenhouse', boards: ['gitlab']},
    ])
    expect(error.message).toBe('sources[1] repeats the source greenhouse:gitlab of sources[0]')
    expect(error.hint).toMatch(/distinct "name"/)
  })
})

describe('source logging', () => {
  it('reports retries under the source name', async () => {
    const logged = memoryLogger()
    const server = await startMockServer({
      '/v1/boards/gitlab/jobs': sequence(
        (_req, res) => sendText(res, 'busy', 503),
        serveBody(fixtureText('greenhouse.json')),
      ),
    })
    try {
      const [source] = createSources([{type: 'greenhouse', boards: ['gitlab'], url: server.url}], {
        http,
        logger: logged.logger,
      })
      expect(await fetchAll(source!)).toHaveLength(3)
      expect(logged.parsed()).toMatchObject([
        {level: 'INFO', name: 'jobagent.sources.greenhouse:gitlab', message: expect.stringMatching(/^HTTP 503 /)},
        {level: 'DEBUG', name: 'jobagent.sources.greenhouse:gitlab', message: expect.stringMatching(/: HTTP 200, /)},
      ])
    } finally {
      await server.close()
    }
  })
})

describe('default board addresses', () => {
  let agent: MockAgent | undefined

  afterEach(async () => {
    await agent?.close()
  })

  it('point every adapter at the public endpoint documented for its board', async () => {
    // An undici MockAgent stands in for the network: nothing leaves the machine, unmatched requests fail.
    agent = new MockAgent()
    agent.disableNetConnect()
    const reply = (origin: string, path: string, fixture: string) =>
      agent?.get(origin).intercept({path, method: 'GET'}).reply(200, fixtureText(fixture))
    reply('https://remoteok.com', '/api', 'remoteok.json')
    reply('https://remotive.com', '/api/remote-jobs', 'remotive.json')
    reply('https://www.arbeitnow.com', '/api/job-board-api?page=1', 'arbeitnow.json')
    reply('https://jobicy.com', '/api/v2/remote-jobs?count=50', 'jobicy.json')
    reply('https://himalayas.app', '/jobs/api?limit=20', 'himalayas.json')
    reply('https://weworkremotely.com', '/remote-jobs.rss', 'weworkremotely.xml')
    reply('https://boards-api.greenhouse.io', '/v1/boards/gitlab/jobs?content=true', 'greenhouse.json')
    reply('https://api.lever.co', '/v0/postings/people-ai?mode=json', 'lever.json')
    reply('https://api.eu.lever.co', '/v0/postings/people-eu?mode=json', 'lever.json')
    reply('https://api.ashbyhq.com', '/posting-api/job-board/notion?includeCompensation=true', 'ashby.json')
    // Algolia HN has no capture: an empty thread list in the documented search response shape.
    agent
      .get('https://hn.algolia.com')
      .intercept({path: '/api/v1/search_by_date?tags=story,author_whoishiring&query=who%20is%20hiring&hitsPerPage=5'})
      .reply(200, {hits: [], nbHits: 0, page: 0, nbPages: 0, hitsPerPage: 5})

    const sources = createSources(
      [
        ...DEFAULT_SOURCES,
        {type: 'greenhouse', boards: ['gitlab']},
        {type: 'lever', sites: ['people-ai']},
        {type: 'lever', sites: ['people-eu'], region: 'eu'},
        {type: 'ashby', boards: ['notion']},
      ],
      {http: createHttpClient({dispatcher: agent, retries: 0}), logger: silentLogger},
    )
    const counts = await Promise.all(sources.map(async (source) => [source.name, (await fetchAll(source)).length]))
    const hackerNews = createSources([{type: 'hackernews'}], {
      http: createHttpClient({dispatcher: agent, retries: 0}),
      logger: silentLogger,
    })[0]

    expect(Object.fromEntries(counts)).toEqual({
      remoteok: 13,
      remotive: 12,
      arbeitnow: 3,
      jobicy: 10,
      himalayas: 4,
      weworkremotely: 4,
      'greenhouse:gitlab': 3,
      'lever:people-ai': 4,
      'lever:people-eu': 4,
      'ashby:notion': 3,
    })
    await expect(fetchAll(hackerNews!)).rejects.toThrow('no "Ask HN: Who is hiring?" thread by whoishiring found')
  })
})
