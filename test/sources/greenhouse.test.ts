import {afterEach, describe, expect, it} from 'vitest'
import {greenhouseBoard} from '../../src/sources/greenhouse.js'
import {type MockServer, sendJson, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureJson, fixtureText, testDeps} from '../helpers/source-fixtures.js'

let server: MockServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('Greenhouse adapter', () => {
  it('maps one board, dating jobs by first_published in UTC', async () => {
    server = await startMockServer({'/v1/boards/gitlab/jobs': serveBody(fixtureText('greenhouse.json'))})
    const source = greenhouseBoard.source({type: 'greenhouse', url: server.url}, {slug: 'gitlab'}, testDeps())
    const jobs = await fetchAll(source)

    expect(source.name).toBe('greenhouse:gitlab')
    expect(jobs).toHaveLength(3)
    expect(jobs[0]).toMatchObject({
      title: 'Account Executive - Italy',
      company: 'GitLab',
      location: 'Remote, Italy',
      url: 'https://job-boards.greenhouse.io/gitlab/jobs/8503792002',
      source: 'greenhouse',
      posted_date: '2026-04-17T09:58:03Z',
    })
  })

  it('falls back to updated_at, then to the configured company or the board slug', async () => {
    const board = fixtureJson<{jobs: Record<string, unknown>[]}>('greenhouse.json')
    const old = {...board.jobs[1], first_published: undefined, company_name: undefined}
    server = await startMockServer({
      '/v1/boards/acme/jobs': (_req, res) => sendJson(res, {jobs: [old], meta: {total: 1}}),
      '/v1/boards/initech/jobs': (_req, res) => sendJson(res, {jobs: [old], meta: {total: 1}}),
    })
    const named = await fetchAll(
      greenhouseBoard.source({type: 'greenhouse', url: server.url}, {slug: 'acme', company: 'Acme Corp'}, testDeps()),
    )
    const bare = await fetchAll(
      greenhouseBoard.source({type: 'greenhouse', url: server.url}, {slug: 'initech'}, testDeps()),
    )

    expect(named[0]).toMatchObject({company: 'Acme Corp', posted_date: '2026-08-11T12:18:18Z'})
    expect(bare[0]?.company).toBe('initech')
  })

  it('explains a 404 as an unknown board token', async () => {
    server = await startMockServer({})
    const source = greenhouseBoard.source({type: 'greenhouse', url: server.url}, {slug: 'nope'}, testDeps())
    await expect(fetchAll(source)).rejects.toThrow('HTTP 404 Not Found: no Greenhouse board "nope"')
  })
})
