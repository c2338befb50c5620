import {afterEach, describe, expect, it} from 'vitest'
import {checkConfig} from '../../src/app/config-schema.js'
import {silentLogger} from '../../src/core/logger.js'
import {createSources} from '../../src/sources/index.js'
import {workingNomadsBoard} from '../../src/sources/workingnomads.js'
import {type MockServer, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureText, testDeps, testHttpClient} from '../helpers/source-fixtures.js'

let server: MockServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

async function workingNomads() {
  server = await startMockServer({'/api/exposed_jobs/': serveBody(fixtureText('workingnomads.json'))})
  return workingNomadsBoard.source({type: 'workingnomads', url: server.url}, testDeps())
}

describe('Working Nomads adapter', () => {
  it('maps the captured array field by field, every job remote', async () => {
    const source = await workingNomads()
    const jobs = await fetchAll(source)

    expect(source.name).toBe('workingnomads')
    expect(server?.requests.map((request) => request.url)).toEqual(['/api/exposed_jobs/'])
    expect(jobs).toHaveLength(4)
    expect(jobs[0]).toEqual({
      title: 'AI Content Analyst (No Experience Required)',
      company: 'Peroptyx',
      location: 'Australia',
      url: 'https://www.workingnomads.com/job/go/1719512/',
      source: 'workingnomads',
      posted_date: '2026-07-10T13:24:39Z',
      description:
        'Help Shape the Future of AI — From Anywhere\n\nAI is revolutionising how we interact with technology. ' +
        'From news feeds to navigation, machine learning can tailor our di',
      salary: null,
      employment_type: null,
      remote: true,
      regions: ['Australia'],
      timezones: [],
      seniority: null,
      tags: ['Administration', 'analyst', 'english', 'media', 'researcher'],
      board_id: null,
      company_url: null,
    })
    expect(jobs[2]).toMatchObject({
      title: 'Email + SMS Marketing Strategist',
      company: 'Bebonia',
      location: 'Global',
      posted_date: '2026-07-07T16:04:59Z',
      remote: true,
      // Global is no restriction.
      regions: [],
      tags: ['Marketing', 'email marketing', 'strategic marketing', 'creative', 'ab testing', 'ecommerce'],
    })
    // `Japan - Remote` lets a candidate be in Japan.
    expect(jobs[3]).toMatchObject({location: 'Japan - Remote', regions: ['Japan'], remote: true})
  })

  it('is a keyless source that a run builds from its type alone', () => {
    const options = {http: testHttpClient(), logger: silentLogger}
    expect(createSources([{type: 'workingnomads'}], options).map((source) => source.name)).toEqual(['workingnomads'])
    expect(checkConfig({sources: [{type: 'workingnomads'}]}).ok).toBe(true)
    expect(() => createSources([{type: 'workingnomads', url: 'workingnomads.com'}], options)).toThrow(
      'sources[0].url must be an absolute http(s) URL, got "workingnomads.com"',
    )
  })
})
