import {afterEach, describe, expect, it} from 'vitest'
import {remoteOkBoard} from '../../src/sources/remoteok.js'
import {type MockServer, sendJson, sendText, sequence, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureText, testDeps, testHttpClient} from '../helpers/source-fixtures.js'

let server: MockServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

async function remoteOk(routes: Parameters<typeof startMockServer>[0]) {
  server = await startMockServer(routes)
  return remoteOkBoard.source({type: 'remoteok', url: server.url}, testDeps())
}

describe('RemoteOK adapter', () => {
  it('maps the captured API array, skipping the legal notice and the blank element', async () => {
    const source = await remoteOk({'/api': serveBody(fixtureText('remoteok.json'))})
    const jobs = await fetchAll(source)

    // 15 elements: the legal notice and the blank id 1057180 are left out.
    expect(jobs).toHaveLength(13)
    expect(jobs.some((job) => job.url.endsWith('remote-1057180'))).toBe(false)
    expect(jobs[1]).toMatchObject({
      title: 'Job 19004 Junior Quality Assurance Engineer Brazil',
      company: 'CI&T',
      location: 'Campinas, SP',
      url: 'https://remoteok.com/remote-jobs/remote-job-19004-junior-quality-assurance-engineer-brazil-ciampt-1059247',
      source: 'remoteok',
      posted_date: '2024-12-03T21:00:10Z',
    })
    expect(jobs.find((job) => job.company === 'CloudWalk')).toMatchObject({
      location: 'São Paulo',
      posted_date: '2024-11-26T19:00:05Z',
    })
    expect(jobs.find((job) => job.company === 'Recorded Future')?.location).toBe('Gothenburg, Västra Götaland, Sweden')
  })

  it('accepts the full endpoint as its url as well as the base', async () => {
    server = await startMockServer({'/api': serveBody(fixtureText('remoteok.json'))})
    const source = remoteOkBoard.source({type: 'remoteok', url: `${server.url}/api`}, testDeps())
    expect(await fetchAll(source)).toHaveLength(13)
  })

  it('shows an empty location as Remote and keeps URLs off remoteOK.com as they are', async () => {
    const source = await remoteOk({'/api': serveBody(fixtureText('remoteok.json'))})
    const jobs = await fetchAll(source)

    expect(jobs[0]).toMatchObject({company: 'Mailgun', location: 'Remote'})
    expect(jobs[2]?.url).toBe('https://applicantai.com/jump/software-engineer/3439?ref=remoteok#apply')
    expect(jobs.every((job) => !job.url.includes('remoteOK.com'))).toBe(true)
  })

  it('asks the board for each tag and merges the answers', async () => {
    const all = JSON.parse(fixtureText('remoteok.json')) as {id?: string}[]
    const source = await remoteOk({
      '/api?tags=golang': (_req, res) => sendJson(res, [all[0], all[1], all[2]]),
      '/api?tags=qa': (_req, res) => sendJson(res, [all[0], all[2], all[3]]),
    })
    const jobs = await fetchAll(source, {tags: ['golang', ' QA ']})

    expect(server?.requests.map((request) => request.url)).toEqual(['/api?tags=golang', '/api?tags=qa'])
    expect(jobs.map((job) => job.company)).toEqual(['Mailgun', 'CI&T', 'Jump'])
    expect(source.serverSideFilters).toEqual(['tags'])
  })

  it('retries a 503 from the board, then maps the answer', async () => {
    const source = await remoteOk({
      '/api': sequence((_req, res) => sendText(res, 'maintenance', 503), serveBody(fixtureText('remoteok.json'))),
    })
    expect(await fetchAll(source)).toHaveLength(13)
    expect(server?.requests).toHaveLength(2)
  })

  it('fails with the shape it expected when the answer is not an array', async () => {
    const source = await remoteOk({'/api': (_req, res) => sendJson(res, {jobs: []})})
    await expect(fetchAll(source)).rejects.toThrow('unexpected response shape: expected an array')
  })

  it('honours the timeout configured for the source', async () => {
    server = await startMockServer({'/api': () => {}})
    const source = remoteOkBoard.source(
      {type: 'remoteok', url: server.url, timeout_seconds: 0.2},
      testDeps(testHttpClient()),
    )
    await expect(fetchAll(source)).rejects.toThrow('timed out after 0.2 s')
  })
})
