import {afterEach, describe, expect, it} from 'vitest'
import {json, type MockBoard, mockRemoteOk, remoteOkJob, type TestApi, testApi} from '../helpers/http.js'

let api: TestApi | undefined
const boards: MockBoard[] = []

afterEach(async () => {
  await api?.cleanup()
  api = undefined
  await Promise.all(boards.splice(0).map((board) => board.close()))
})

async function board(...args: Parameters<typeof mockRemoteOk>): Promise<MockBoard> {
  const created = await mockRemoteOk(...args)
  boards.push(created)
  return created
}

describe('GET /jobs', () => {
  it('searches the configured boards and answers the jobs with each board outcome', async () => {
    const remoteok = await board([
      remoteOkJob(),
      remoteOkJob({id: '2', position: 'Ops &amp; SRE', url: 'https://remoteok.com/remote-jobs/2'}),
    ])
    api = testApi({config: {sources: [{type: 'remoteok', url: remoteok.url}]}})
    const response = await api.app.request('/jobs')
    expect(response.status).toBe(200)
    const body = await json(response)
    expect(body.count).toBe(2)
    expect(body.jobs).toContainEqual({
      title: 'Dev',
      company: 'Acme',
      location: 'Remote',
      url: 'https://remoteok.com/remote-jobs/1',
      source: 'remoteok',
      posted_date: '2026-11-20T00:00:00Z',
    })
    expect(body.jobs.map((job: {title: string}) => job.title)).toContain('Ops & SRE')
    expect(body.sources).toEqual([{name: 'remoteok', ok: true, count: 2, error: null, duration_ms: expect.any(Number)}])
    expect(body.searched_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
  })

  it('reports a failing board and still answers the others', async () => {
    const remoteok = await board()
    api = testApi({
      config: {
        sources: [
          {type: 'remoteok', url: remoteok.url},
          {type: 'remoteok', name: 'dead', url: 'http://127.0.0.1:9/', timeout_seconds: 2},
        ],
      },
    })
    const body = await json(await api.app.request('/jobs'))
    expect(body.count).toBe(1)
    const dead = body.sources.find((source: {name: string}) => source.name === 'dead')
    expect(dead).toMatchObject({ok: false, count: 0, error: expect.any(String)})
  })

  it('shares one search between concurrent requests', async () => {
    const remoteok = await board([remoteOkJob()], {delayMs: 400})
    api = testApi({config: {sources: [{type: 'remoteok', url: remoteok.url}]}})
    const app = api.app
    const [first, second] = await Promise.all([app.request('/jobs'), app.request('/jobs')])
    expect(remoteok.requests()).toBe(1)
    expect((await json(first)).count).toBe(1)
    expect((await json(second)).count).toBe(1)
    await app.request('/jobs')
    expect(remoteok.requests()).toBe(2)
  })

  it('passes ?tags= to the boards', async () => {
    const remoteok = await board()
    api = testApi({config: {sources: [{type: 'remoteok', url: remoteok.url}]}})
    const response = await api.app.request('/jobs?tags=typescript,%20node')
    expect(response.status).toBe(200)
    expect(remoteok.requests()).toBe(2)
  })
})
