import {afterEach, describe, expect, it} from 'vitest'
import type {HttpAppOptions} from '../../src/http/app.js'
import {checkBinding} from '../../src/http/serve.js'
import {type RunningServer, startServer} from '../../src/http/server.js'
import {tempDir} from '../helpers/cli.js'
import {applicationBody, statusPath, testApi} from '../helpers/http.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {startMockServer} from '../helpers/mock-board.js'
import {rawGet, rawRequest} from '../helpers/raw-http.js'
import {runCommandLine} from '../helpers/run-command.js'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const TOKEN = 'client-errors-token-0d9e8f7a'
const TRACKED = 'https://example.org/jobs/1'

async function serving(app: Partial<HttpAppOptions> = {}): Promise<RunningServer> {
  const api = testApi({app})
  cleanups.push(() => api.cleanup())
  await api.context.applications.record(applicationBody({url: TRACKED}) as never)
  const server = await startServer(api.app, {
    host: '127.0.0.1',
    port: 0,
    logger: memoryLogger().logger,
  })
  cleanups.push(() => server.close())
  return server
}

describe("requests node's HTTP parser refuses", () => {
  it.each([
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n', 400, 'bad_request'],
    [
      'a header without a colon',
      'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nbroken header\r\n\r\n',
      400,
      'bad_request',
    ],
    [
      'headers larger than 16 KiB',
      `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'request_header_fields_too_large',
    ],
  ])('answers %s with the JSON error body', async (_name, text, status, code) => {
    const server = await serving()
    const answer = await rawRequest(server.port, text)
    expect(answer.status).toBe(status)
    expect(answer.headers['content-type']).toBe('application/json')
    expect(answer.headers['x-content-type-options']).toBe('nosniff')
    expect(JSON.parse(answer.body)).toEqual({error: {code, message: expect.any(String), details: []}})
    // The server goes on answering.
    expect((await fetch(`${server.url}/health`)).status).toBe(200)
  })
})

describe('a request body that breaks off', () => {
  it('is a bad request of the client, logged without a stack trace and counted as 400, not a failure of the server', async () => {
    const api = testApi()
    cleanups.push(() => api.cleanup())
    const server = await startServer(api.app, {host: '127.0.0.1', port: 0, logger: memoryLogger().logger})
    cleanups.push(() => server.close())
    const answer = await rawRequest(
      server.port,
      'POST /applications HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    )
    expect(answer.status).toBe(400)
    // The access log line follows the answer.
    for (let wait = 0; wait < 100 && !api.logLines.some((line) => line.includes('POST /applications 400')); wait++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(api.logLines.filter((line) => line.includes('POST /applications'))).toEqual([
      expect.stringContaining('POST /applications 400'),
    ])
    expect(api.logLines.filter((line) => / \| ERROR \| /.test(line))).toEqual([])
    expect(api.logLines.join('\n')).not.toContain('    at ')
    expect((await fetch(`${server.url}/health`)).status).toBe(200)
  })
})

describe('repeated Authorization headers', () => {
  it.each([
    ['the token twice', [`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]],
    ['the token, then a wrong one', [`Bearer ${TOKEN}`, 'Bearer wrong-token']],
    ['a wrong one, then the token', ['Bearer wrong-token', `Bearer ${TOKEN}`]],
  ])('get 401 on every protected route: %s', async (_name, values) => {
    const server = await serving({apiToken: TOKEN})
    const lines = ['Host: 127.0.0.1', ...values.map((value) => `Authorization: ${value}`)]
    for (const path of [statusPath(TRACKED), '/applications', `/applications/${encodeURIComponent(TRACKED)}`]) {
      const answer = await rawGet(server.port, path, lines)
      expect([path, answer.status]).toEqual([path, 401])
      expect(JSON.parse(answer.body).error.code).toBe('unauthorized')
    }
    // One header with the token is let in on the same routes.
    const single = await rawGet(server.port, statusPath(TRACKED), ['Host: 127.0.0.1', `Authorization: Bearer ${TOKEN}`])
    expect(single.status).toBe(200)
  })
})

describe('the API token on an address other machines can reach', () => {
  it('refuses a token shorter than 16 characters with exit 2 and the reason, before listening', async () => {
    const dir = tempDir('jobagent-token-')
    cleanups.push(dir.cleanup)
    const result = await runCommandLine(['serve', '--host', '0.0.0.0', '--port', '0'], {
      home: dir.path,
      env: {JOBAGENT_API_TOKEN: 'fifteen-chars!!'},
    })
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toContain('refusing to listen on 0.0.0.0 with a JOBAGENT_API_TOKEN of 15 characters')
    expect(result.stderr).not.toContain('Listening on')
    expect(result.stderr).not.toContain('fifteen-chars')
  })

  it('accepts 16 characters on any address, and any token on loopback', () => {
    expect(() => checkBinding('0.0.0.0', 'sixteen-chars!!!')).not.toThrow()
    expect(() => checkBinding('127.0.0.1', 'short')).not.toThrow()
    expect(() => checkBinding('192.168.1.5', 'short')).toThrow(/at least 16/)
  })
})

describe('a shutdown while GET /jobs waits for a board that never answers', () => {
  it('stops the search when the wait for requests in flight is over, so nothing holds the process', async () => {
    // A board that takes the request and never answers.
    const hanging = await startMockServer(() => {})
    cleanups.push(() => hanging.close())
    const board = hanging.url
    const forced = new AbortController()
    const api = testApi({config: {sources: [{type: 'remoteok', url: board}]}, app: {stopping: forced.signal}})
    cleanups.push(() => api.cleanup())
    const server = await startServer(api.app, {
      host: '127.0.0.1',
      port: 0,
      logger: memoryLogger().logger,
      shutdownTimeoutMs: 300,
      onForce: () => forced.abort(),
    })
    const answer = fetch(`${server.url}/jobs`).catch((error: unknown) => error)
    for (let wait = 0; wait < 500 && hanging.requests.length === 0; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(hanging.requests).toHaveLength(1)
    const started = performance.now()
    await server.close()
    expect(performance.now() - started).toBeLessThan(2000)
    // The connection was closed with the wait; the search itself ends with it, and says why.
    await answer
    for (let wait = 0; wait < 200 && !api.logLines.some((line) => line.includes('GET /jobs 503')); wait++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(api.logLines.filter((line) => line.includes('GET /jobs'))).toEqual([
      expect.stringContaining(
        'WARNING | jobagent.http | GET /jobs: the server is shutting down; the search was stopped',
      ),
      expect.stringContaining('GET /jobs 503'),
    ])
  })
})
