import {afterEach, describe, expect, it} from 'vitest'
import {jobicyBoard} from '../../src/sources/jobicy.js'
import {type MockServer, sendJson, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureJson, fixtureText, testDeps} from '../helpers/source-fixtures.js'

let server: MockServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

async function jobicy(routes: Parameters<typeof startMockServer>[0]) {
  server = await startMockServer(routes)
  return jobicyBoard.source({type: 'jobicy', url: server.url}, testDeps())
}

describe('Jobicy adapter', () => {
  it('maps the captured 2024 response (body starting with a newline, naive pubDate)', async () => {
    const source = await jobicy({'/api/v2/remote-jobs': serveBody(fixtureText('jobicy.json'))})
    const jobs = await fetchAll(source)

    expect(server?.requests[0]?.url).toBe('/api/v2/remote-jobs?count=50')
    expect(jobs).toHaveLength(10)
    expect(jobs[0]).toMatchObject({
      title: 'Chat Support Specialist (Part-Time)',
      company: 'Confidential Company',
      location: 'LATAM, Canada, Europe, USA',
      url: 'https://jobicy.com/jobs/113624-chat-support-specialist-part-time',
      source: 'jobicy',
      posted_date: '2024-12-07T15:33:17Z',
    })
  })

  it('reads the 2026 pubDate format with an offset as well', async () => {
    // The 2026 shape from sources.md: ISO pubDate with +00:00 and numeric salaryMin/salaryMax.
    const feed = fixtureJson<{jobs: Record<string, unknown>[]}>('jobicy.json')
    const job = {...feed.jobs[1], pubDate: '2026-08-15T15:28:49+00:00', jobType: ['Full-Time'], salaryMin: 105000}
    const source = await jobicy({'/api/v2/remote-jobs': (_req, res) => sendJson(res, {...feed, jobs: [job]})})

    expect(await fetchAll(source)).toMatchObject([
      {
        title: 'Customer Success Manager',
        company: 'Zendesk',
        location: 'USA',
        url: 'https://jobicy.com/jobs/113573-customer-success-manager-12',
        source: 'jobicy',
        posted_date: '2026-08-15T15:28:49Z',
      },
    ])
  })

  it('passes each tag as the tag parameter', async () => {
    const source = await jobicy({'/api/v2/remote-jobs': serveBody(fixtureText('jobicy.json'))})
    await fetchAll(source, {tags: ['support']})
    expect(server?.requests[0]?.url).toBe('/api/v2/remote-jobs?count=50&tag=support')
  })
})
