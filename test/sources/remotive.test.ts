import {afterEach, describe, expect, it} from 'vitest'
import {remotiveBoard} from '../../src/sources/remotive.js'
import {type MockServer, sendJson, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureJson, fixtureText, testDeps} from '../helpers/source-fixtures.js'

let server: MockServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

async function remotive(routes: Parameters<typeof startMockServer>[0]) {
  server = await startMockServer(routes)
  return remotiveBoard.source({type: 'remotive', url: server.url}, testDeps())
}

describe('Remotive adapter', () => {
  it('maps the captured feed, taking naive publication dates as UTC', async () => {
    const source = await remotive({'/api/remote-jobs': serveBody(fixtureText('remotive.json'))})
    const jobs = await fetchAll(source)

    expect(jobs).toHaveLength(12)
    expect(jobs[0]).toMatchObject({
      title: 'Senior Graphic Designer',
      company: 'Lemon.io',
      location: 'Americas, Europe, Asia, Africa, Oceania',
      url: 'https://remotive.com/remote-jobs/design/senior-graphic-designer-2091081',
      source: 'remotive',
      posted_date: '2026-07-28T14:23:05Z',
    })
  })

  it('trims the trailing space some company names carry and keeps accents', async () => {
    const source = await remotive({'/api/remote-jobs': serveBody(fixtureText('remotive.json'))})
    const jobs = await fetchAll(source)

    expect(jobs[7]).toMatchObject({title: 'Remote Office Assistant', company: 'Coalition Technologies'})
    expect(jobs[8]?.title).toBe('Staff Software Engineer, Product (São Paulo)')
  })

  it('searches once per tag and merges the jobs on their URL', async () => {
    const feed = fixtureJson<{jobs: unknown[]}>('remotive.json')
    const source = await remotive({
      '/api/remote-jobs?search=designer': (_req, res) => sendJson(res, {...feed, jobs: feed.jobs.slice(0, 2)}),
      '/api/remote-jobs?search=devops': (_req, res) => sendJson(res, {...feed, jobs: feed.jobs.slice(1, 6)}),
    })
    const jobs = await fetchAll(source, {tags: ['designer', 'DevOps']})

    expect(server?.requests.map((request) => request.url)).toEqual([
      '/api/remote-jobs?search=designer',
      '/api/remote-jobs?search=devops',
    ])
    expect(jobs).toHaveLength(6)
    expect(new Set(jobs.map((job) => job.url)).size).toBe(6)
  })

  it('fails with the shape it expected when there is no jobs array', async () => {
    const source = await remotive({'/api/remote-jobs': (_req, res) => sendJson(res, [])})
    await expect(fetchAll(source)).rejects.toThrow('unexpected response shape: expected an object with a "jobs" array')
  })
})
