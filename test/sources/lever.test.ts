import {afterEach, describe, expect, it} from 'vitest'
import {leverBoard} from '../../src/sources/lever.js'
import {type MockServer, sendJson, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureText, testDeps} from '../helpers/source-fixtures.js'

let server: MockServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('Lever adapter', () => {
  it('maps a site, with createdAt in milliseconds and the slug as company', async () => {
    server = await startMockServer({'/v0/postings/people-ai?mode=json': serveBody(fixtureText('lever.json'))})
    const source = leverBoard.source({type: 'lever', url: server.url}, {slug: 'people-ai'}, testDeps())
    const jobs = await fetchAll(source)

    expect(source.name).toBe('lever:people-ai')
    expect(jobs).toHaveLength(4)
    expect(jobs[0]).toMatchObject({
      title: 'Director of IT',
      company: 'people-ai',
      location: 'United States',
      url: 'https://jobs.lever.co/people-ai/d6d4ddcc-1d05-433f-8777-e803665e219a',
      source: 'lever',
      posted_date: '2026-04-28T21:11:16Z',
    })
    expect(jobs[3]?.title).toBe('Senior Software Engineer — XCore (Europe)')
  })

  it('uses the configured company name', async () => {
    server = await startMockServer({'/v0/postings/people-ai': serveBody(fixtureText('lever.json'))})
    const source = leverBoard.source(
      {type: 'lever', url: server.url},
      {slug: 'people-ai', company: 'Backstory'},
      testDeps(),
    )
    expect((await fetchAll(source)).every((job) => job.company === 'Backstory')).toBe(true)
  })

  it('reports the "Document not found" answer of an unknown site', async () => {
    server = await startMockServer({
      '/v0/postings/nope': (_req, res) => sendJson(res, {ok: false, error: 'Document not found'}),
    })
    const source = leverBoard.source({type: 'lever', url: server.url}, {slug: 'nope'}, testDeps())
    await expect(fetchAll(source)).rejects.toThrow('Lever answered "Document not found": no Lever site "nope"')
    // Counted like a 404 towards a dead board.
    await expect(fetchAll(source)).rejects.toMatchObject({status: 404})
  })
})
