import {afterEach, describe, expect, it} from 'vitest'
import {ashbyBoard} from '../../src/sources/ashby.js'
import {type MockServer, sendJson, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureJson, fixtureText, testDeps} from '../helpers/source-fixtures.js'

let server: MockServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('Ashby adapter', () => {
  it('maps a board with the slug as company and secondary locations added', async () => {
    server = await startMockServer({'/posting-api/job-board/notion': serveBody(fixtureText('ashby.json'))})
    const source = ashbyBoard.source({type: 'ashby', url: server.url}, {slug: 'notion'}, testDeps())
    const jobs = await fetchAll(source)

    expect(source.name).toBe('ashby:notion')
    expect(jobs).toHaveLength(3)
    expect(jobs[0]).toMatchObject({
      title: 'Business Development Representative, New York',
      company: 'notion',
      location: 'New York, New York',
      url: 'https://jobs.ashbyhq.com/notion/05e14247-17c4-4e98-9a13-53828a4e2f13',
      source: 'ashby',
      posted_date: '2026-04-02T21:00:55Z',
    })
    expect(jobs[2]).toMatchObject({
      title: 'Product Designer',
      location: 'San Francisco, California; New York, New York',
    })
  })

  it('stores a hybrid job with remote secondary locations as remote, with their countries as regions', async () => {
    // The captured Product Designer (isRemote true, workplaceType Hybrid, an office elsewhere) with two more
    // secondary locations in the shape Ashby gives its locations.
    const board = fixtureJson<{jobs: Record<string, unknown>[]}>('ashby.json')
    const designer = board.jobs[2] as {secondaryLocations: unknown[]}
    const remoteFrom = (location: string, addressCountry: string) => ({
      location,
      address: {postalAddress: {addressCountry}},
    })
    const open = {
      ...designer,
      secondaryLocations: [
        ...designer.secondaryLocations,
        remoteFrom('Remote (US)', 'United States'),
        remoteFrom('Remote (Canada)', 'Canada'),
      ],
    }
    expect(open).toMatchObject({isRemote: true, workplaceType: 'Hybrid'})
    server = await startMockServer({
      '/posting-api/job-board/notion': (_req, res) => sendJson(res, {jobs: [board.jobs[0], open]}),
    })
    const [office, remote] = await fetchAll(
      ashbyBoard.source({type: 'ashby', url: server.url}, {slug: 'notion'}, testDeps()),
    )

    expect(remote).toMatchObject({
      title: 'Product Designer',
      location: 'San Francisco, California; New York, New York; Remote (US); Remote (Canada)',
      remote: true,
      regions: ['US', 'Canada'],
    })
    // A hybrid job at offices only stays on site, whatever isRemote says.
    expect(office).toMatchObject({remote: false, regions: []})
  })

  it('skips unlisted jobs, trims titles and uses the configured company', async () => {
    const board = fixtureJson<{jobs: Record<string, unknown>[]}>('ashby.json')
    const jobs = [
      {...board.jobs[0], title: ' Security Engineer, Cloud '},
      {...board.jobs[1], isListed: false},
      board.jobs[2],
    ]
    server = await startMockServer({
      '/posting-api/job-board/notion': (_req, res) => sendJson(res, {apiVersion: '1', jobs}),
    })
    const source = ashbyBoard.source({type: 'ashby', url: server.url}, {slug: 'notion', company: 'Notion'}, testDeps())
    const mapped = await fetchAll(source)

    expect(mapped.map((job) => job.title)).toEqual(['Security Engineer, Cloud', 'Product Designer'])
    expect(mapped.every((job) => job.company === 'Notion')).toBe(true)
  })
})
