import {encode} from 'html-entities'
import {afterEach, describe, expect, it} from 'vitest'
import {htmlToText} from '../../src/core/jobs/description.js'
import {arbeitnowBoard} from '../../src/sources/arbeitnow.js'
import {type MockServer, sendJson, sendText, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureJson, fixtureText, testDeps} from '../helpers/source-fixtures.js'

interface Envelope {
  data: unknown[]
  links: Record<string, string | null>
  meta: Record<string, unknown>
}

let server: MockServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

/** Pages of the documented envelope, built from the captured jobs, with `links.next` set while pages remain. */
function pagedBoard(pageCount: number, perPage = 3) {
  const envelope = fixtureJson<Envelope>('arbeitnow.json')
  const jobs = fixtureJson<Envelope>('arbeitnow-data-only.json').data
  return (req: {url?: string}, res: Parameters<typeof sendJson>[0]) => {
    const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1')
    const next = page < pageCount ? `https://www.arbeitnow.com/api/job-board-api?page=${page + 1}` : null
    sendJson(res, {
      data: jobs.slice((page - 1) * perPage, page * perPage),
      links: {...envelope.links, next},
      meta: {...envelope.meta, current_page: page},
    })
  }
}

describe('Arbeitnow adapter', () => {
  it('maps the captured envelope and stops when links.next is null', async () => {
    server = await startMockServer({'/api/job-board-api': serveBody(fixtureText('arbeitnow.json'))})
    const jobs = await fetchAll(arbeitnowBoard.source({type: 'arbeitnow', url: server.url}, testDeps()))

    expect(server.requests.map((request) => request.url)).toEqual(['/api/job-board-api?page=1'])
    expect(jobs).toHaveLength(3)
    expect(jobs[0]).toMatchObject({
      title: 'Senior Talent Acquisition Partner',
      company: 'SumUp',
      location: 'Berlin, Berlin, Germany',
      url: 'https://www.arbeitnow.com/jobs/companies/sumup/senior-talent-acquisition-partner-berlin-209617',
      source: 'arbeitnow',
      posted_date: '2026-05-13T20:45:23Z',
    })
  })

  it('marks remote jobs in the location', async () => {
    server = await startMockServer({'/api/job-board-api': serveBody(fixtureText('arbeitnow-data-only.json'))})
    const jobs = await fetchAll(arbeitnowBoard.source({type: 'arbeitnow', url: server.url}, testDeps()))

    expect(jobs[0]).toMatchObject({
      title: 'Recruiting Partner (m/w/d) - Projektbasis (Remote)',
      company: 'Global Treats GmbH',
      location: 'Wutöschingen (Remote)',
      posted_date: '2026-02-15T13:31:25Z',
    })
    expect(jobs.find((job) => job.company === 'Sendcloud')?.location).toBe('Munich, Bavaria, Germany')
  })

  it('follows pages on its own host while links.next is set', async () => {
    server = await startMockServer({'/api/job-board-api': pagedBoard(3)})
    const jobs = await fetchAll(arbeitnowBoard.source({type: 'arbeitnow', url: server.url}, testDeps()))

    // links.next names www.arbeitnow.com; the adapter asks its configured host for the next page instead.
    expect(server.requests.map((request) => request.url)).toEqual([
      '/api/job-board-api?page=1',
      '/api/job-board-api?page=2',
      '/api/job-board-api?page=3',
    ])
    expect(jobs).toHaveLength(9)
  })

  it('stops at max_pages even when more pages are announced', async () => {
    server = await startMockServer({'/api/job-board-api': pagedBoard(100, 1)})
    const jobs = await fetchAll(arbeitnowBoard.source({type: 'arbeitnow', url: server.url, max_pages: 2}, testDeps()))

    expect(server.requests).toHaveLength(2)
    expect(jobs).toHaveLength(2)
  })

  it('stops at a page that holds no job it has not read, as from a board that ignores the page it is asked', async () => {
    const envelope = fixtureJson<Envelope>('arbeitnow.json')
    // Every page answers with the first page and names a next one.
    server = await startMockServer({
      '/api/job-board-api': (_req, res) =>
        sendJson(res, {
          ...envelope,
          links: {...envelope.links, next: 'https://www.arbeitnow.com/api/job-board-api?page=2'},
        }),
    })
    const jobs = await fetchAll(arbeitnowBoard.source({type: 'arbeitnow', url: server.url, max_pages: 5}, testDeps()))

    expect(server.requests).toHaveLength(2)
    expect(new Set(jobs.map((job) => job.url)).size).toBe(envelope.data.length)
  })

  it('stops at an empty page', async () => {
    server = await startMockServer({'/api/job-board-api': pagedBoard(100, 20)})
    const jobs = await fetchAll(arbeitnowBoard.source({type: 'arbeitnow', url: server.url}, testDeps()))

    // The data-only capture has 12 jobs: page 1 holds them, page 2 is empty.
    expect(server.requests).toHaveLength(2)
    expect(jobs).toHaveLength(12)
  })

  it.each([
    ['escaped as a whole', (html: string) => encode(html, {mode: 'specialChars'})],
    ['escaped inside a paragraph', (html: string) => `<p>${encode(html, {mode: 'specialChars'})}</p>`],
  ])('reads a description of HTML %s as the same plain text', async (_name, escapeHtml) => {
    // The captured answer, with the first job's description in the form some employers' feeds send through
    // Arbeitnow (seen from Greenhouse boards): its HTML, in a content-intro div, entity-escaped once more.
    const envelope = fixtureJson<Envelope>('arbeitnow.json')
    const [first, ...rest] = envelope.data as Record<string, unknown>[]
    const html = `<div class="content-intro">${first?.description}</div>`
    const escaped = {...first, description: escapeHtml(html)}
    expect(escaped.description).toMatch(/^(<p>)?&lt;div class=&quot;content-intro&quot;&gt;&lt;p&gt;/)
    server = await startMockServer({
      '/api/job-board-api': (_req, res) => sendJson(res, {...envelope, data: [escaped, ...rest]}),
    })
    const [read] = await fetchAll(arbeitnowBoard.source({type: 'arbeitnow', url: server.url}, testDeps()))
    const plain = htmlToText(first?.description)

    expect(plain).toMatch(/^About the role\n\nYou have probably used our card readers/)
    expect(read?.description).toBe(plain)
    expect(read?.description).not.toMatch(/<\/?[a-z][^>]*>|&[a-z]+;|&#/i)
  })

  it('fails when a later page fails, naming the status', async () => {
    const paged = pagedBoard(3)
    server = await startMockServer({
      '/api/job-board-api?page=2': (_req, res) => sendText(res, 'gone', 410),
      '/api/job-board-api': paged,
    })
    await expect(fetchAll(arbeitnowBoard.source({type: 'arbeitnow', url: server.url}, testDeps()))).rejects.toThrow(
      'HTTP 410 Gone',
    )
  })
})
