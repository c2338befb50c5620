import {afterEach, describe, expect, it} from 'vitest'
import {weWorkRemotelyBoard} from '../../src/sources/weworkremotely.js'
import {type MockServer, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureText, testDeps} from '../helpers/source-fixtures.js'

let server: MockServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('We Work Remotely adapter', () => {
  it('maps the captured feed, splitting "Company: Title"', async () => {
    server = await startMockServer({
      '/remote-jobs.rss': serveBody(fixtureText('weworkremotely.xml'), 'application/rss+xml'),
    })
    const jobs = await fetchAll(weWorkRemotelyBoard.source({type: 'weworkremotely', url: server.url}, testDeps()))

    expect(jobs).toHaveLength(4)
    expect(jobs[0]).toMatchObject({
      title: 'Maths Coach',
      company: 'Mathmo',
      location: 'Anywhere in the World',
      url: 'https://weworkremotely.com/remote-jobs/mathmo-maths-coach',
      source: 'weworkremotely',
      posted_date: '2026-07-10T22:45:30Z',
    })
    expect(jobs[2]).toMatchObject({company: 'APEX TRADE', title: 'Entry-Level Crypto Market Specialist'})
  })

  it('adds the country to the region, without flag emoji', async () => {
    const xml = fixtureText('weworkremotely.xml').replace(
      '<country></country>',
      '<country>🇺🇸 United States, 🇨🇦 Canada</country>',
    )
    server = await startMockServer({'/remote-jobs.rss': serveBody(xml, 'application/rss+xml')})
    const jobs = await fetchAll(weWorkRemotelyBoard.source({type: 'weworkremotely', url: server.url}, testDeps()))

    expect(jobs[0]?.location).toBe('Anywhere in the World, United States, Canada')
  })

  it('reads a category feed when url names an .rss file', async () => {
    server = await startMockServer({
      '/categories/remote-programming-jobs.rss': serveBody(fixtureText('weworkremotely.xml'), 'application/rss+xml'),
    })
    const url = `${server.url}/categories/remote-programming-jobs.rss`
    const jobs = await fetchAll(weWorkRemotelyBoard.source({type: 'weworkremotely', url}, testDeps()))

    expect(jobs).toHaveLength(4)
    expect(server.requests[0]?.headers.accept).toMatch(/^application\/rss\+xml/)
  })

  it('says so when the feed URL answers with an HTML page', async () => {
    server = await startMockServer({
      '/remote-jobs.rss': serveBody('<!DOCTYPE html><html><body>Attention Required</body></html>', 'text/html'),
    })
    await expect(
      fetchAll(weWorkRemotelyBoard.source({type: 'weworkremotely', url: server.url}, testDeps())),
    ).rejects.toThrow('HTML instead of an RSS or Atom feed')
  })
})
