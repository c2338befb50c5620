import {afterEach, describe, expect, it} from 'vitest'
import {himalayasBoard} from '../../src/sources/himalayas.js'
import {type MockServer, sendJson, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureJson, fixtureText, testDeps} from '../helpers/source-fixtures.js'

interface Page {
  jobs: Record<string, unknown>[]
  nextCursor?: string | null
}

let server: MockServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('Himalayas adapter', () => {
  it('maps the captured browse response (no nextCursor: one page)', async () => {
    server = await startMockServer({'/jobs/api': serveBody(fixtureText('himalayas.json'))})
    const jobs = await fetchAll(himalayasBoard.source({type: 'himalayas', url: server.url}, testDeps()))

    expect(server.requests.map((request) => request.url)).toEqual(['/jobs/api?limit=20'])
    expect(jobs).toHaveLength(4)
    expect(jobs[0]).toMatchObject({
      title: 'Content & Marcom Specialist',
      company: 'Ceragon Networks',
      location: 'United States',
      url: 'https://himalayas.app/companies/ceragon-networks/jobs/content-marcom-specialist',
      source: 'himalayas',
      posted_date: '2026-07-11T00:58:52Z',
    })
    expect(jobs[1]?.location).toBe('Hong Kong, Singapore, Taiwan')
  })

  it('takes the company from companySlug when the name is the "name" placeholder, and [] as Worldwide', async () => {
    const page = fixtureJson<Page>('himalayas.json')
    const odd = {...page.jobs[2], companyName: 'name', companyLogo: 'thumbnail_url', locationRestrictions: []}
    server = await startMockServer({'/jobs/api': (_req, res) => sendJson(res, {...page, jobs: [odd]})})
    const jobs = await fetchAll(himalayasBoard.source({type: 'himalayas', url: server.url}, testDeps()))

    expect(jobs[0]).toMatchObject({company: 'mindrift', location: 'Worldwide'})
  })

  it('follows nextCursor up to max_pages', async () => {
    const page = fixtureJson<Page>('himalayas.json')
    server = await startMockServer({
      '/jobs/api': (req, res) => {
        const cursor = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('cursor') ?? '0')
        sendJson(res, {...page, jobs: [page.jobs[cursor % 4]], nextCursor: String(cursor + 1)})
      },
    })
    const jobs = await fetchAll(himalayasBoard.source({type: 'himalayas', url: server.url, max_pages: 3}, testDeps()))

    expect(server.requests.map((request) => request.url)).toEqual([
      '/jobs/api?limit=20',
      '/jobs/api?limit=20&cursor=1',
      '/jobs/api?limit=20&cursor=2',
    ])
    expect(jobs.map((job) => job.company)).toEqual(['Ceragon Networks', 'Binance', 'Mindrift'])
  })

  it('stops when nextCursor is null', async () => {
    const page = fixtureJson<Page>('himalayas.json')
    server = await startMockServer({'/jobs/api': (_req, res) => sendJson(res, {...page, nextCursor: null})})
    await fetchAll(himalayasBoard.source({type: 'himalayas', url: server.url}, testDeps()))
    expect(server.requests).toHaveLength(1)
  })
})
