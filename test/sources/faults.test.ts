import {afterEach, describe, expect, it} from 'vitest'
import type {HttpClientOptions} from '../../src/http-client/client.js'
import {remotiveBoard} from '../../src/sources/remotive.js'
import {
  closedPortUrl,
  hang,
  type MockHandler,
  type MockServer,
  sendJson,
  sendText,
  sequence,
  serveBody,
  startMockServer,
} from '../helpers/mock-board.js'
import {fetchAll, fixtureText, testDeps, testHttpClient} from '../helpers/source-fixtures.js'

// Every fault the shared client handles, seen through one adapter as the run sees it: fetchJobs rejects with
// a message naming the cause, or recovers and maps the jobs.

const PATH = '/api/remote-jobs'
let server: MockServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

async function remotiveAgainst(handler: MockHandler, clientOptions: HttpClientOptions = {}, timeoutSeconds = 5) {
  server = await startMockServer({[PATH]: handler})
  return remotiveBoard.source(
    {type: 'remotive', url: server.url, timeout_seconds: timeoutSeconds},
    testDeps(testHttpClient(clientOptions)),
  )
}

describe('a board adapter facing a faulty board', () => {
  it('sends a jobagent User-Agent', async () => {
    const source = await remotiveAgainst(serveBody(fixtureText('remotive.json')))
    await fetchAll(source)
    expect(server?.requests[0]?.headers['user-agent']).toMatch(
      /^jobagent\b.*\(\+https:\/\/github\.com\/jobagent\/jobagent\)$/,
    )
  })

  it('reports a board that is down', async () => {
    const url = await closedPortUrl()
    const source = remotiveBoard.source({type: 'remotive', url}, testDeps())
    await expect(fetchAll(source)).rejects.toThrow(/^network error: .*ECONNREFUSED/)
  })

  it('recovers from a 500 by retrying', async () => {
    const source = await remotiveAgainst(
      sequence((_req, res) => sendText(res, 'oops', 500), serveBody(fixtureText('remotive.json'))),
    )
    expect(await fetchAll(source)).toHaveLength(12)
    expect(server?.requests).toHaveLength(2)
  })

  it('waits for Retry-After on a 429, then succeeds', async () => {
    const times: number[] = []
    const source = await remotiveAgainst(
      sequence(
        (_req, res) => {
          times.push(performance.now())
          sendText(res, 'too many', 429, {'retry-after': '1'})
        },
        (req, res) => {
          times.push(performance.now())
          serveBody(fixtureText('remotive.json'))(req, res)
        },
      ),
    )
    expect(await fetchAll(source)).toHaveLength(12)
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(950)
  })

  it('times out a board that never answers', async () => {
    const source = await remotiveAgainst(hang, {}, 0.25)
    await expect(fetchAll(source)).rejects.toThrow('timed out after 0.25 s')
  })

  it('reports an HTML page', async () => {
    const source = await remotiveAgainst(serveBody('<html><head><title>Blocked</title></head></html>', 'text/html'))
    await expect(fetchAll(source)).rejects.toThrow('HTML instead of JSON ("Blocked")')
  })

  it('reports malformed JSON', async () => {
    const source = await remotiveAgainst(serveBody("{'jobs': []}"))
    await expect(fetchAll(source)).rejects.toThrow(/^malformed JSON: /)
  })

  it('reports truncated JSON', async () => {
    const text = fixtureText('remotive.json')
    const source = await remotiveAgainst(serveBody(text.slice(0, text.length / 2)))
    await expect(fetchAll(source)).rejects.toThrow(/^malformed JSON: /)
  })

  it('reports an unexpected shape', async () => {
    const source = await remotiveAgainst((_req, res) => sendJson(res, {jobs: {count: 0}}))
    await expect(fetchAll(source)).rejects.toThrow('unexpected response shape: expected an object with a "jobs" array')
  })

  it('refuses a body over the size cap', async () => {
    const source = await remotiveAgainst(serveBody(fixtureText('remotive.json')), {maxBodyBytes: 16 * 1024})
    await expect(fetchAll(source)).rejects.toThrow('response larger than 16 KB')
  })
})
