import {afterEach, describe, expect, it} from 'vitest'
import type {HttpAppOptions} from '../../src/http/app.js'
import {type RunningServer, startServer} from '../../src/http/server.js'
import {applicationBody, json, jsonBody, type MockBoard, mockRemoteOk, statusPath, testApi} from '../helpers/http.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {type RawAnswer, rawGet, rawRequest} from '../helpers/raw-http.js'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const TOKEN = 'origin-test-token-5f2a9c'
const TRACKED = 'https://example.org/jobs/1'

/** The real API on 127.0.0.1, with one tracked application and a local board. */
async function serving(
  app: Partial<HttpAppOptions> = {},
): Promise<{server: RunningServer; board: MockBoard; logLines: string[]}> {
  const board = await mockRemoteOk()
  cleanups.push(() => board.close())
  const api = testApi({config: {sources: [{type: 'remoteok', url: board.url}]}, app})
  cleanups.push(() => api.cleanup())
  await api.context.applications.record(applicationBody({url: TRACKED}) as never)
  const server = await startServer(api.app, {
    host: '127.0.0.1',
    port: 0,
    logger: memoryLogger().logger,
  })
  cleanups.push(() => server.close())
  return {server, board, logLines: api.logLines}
}

function errorOf(answer: RawAnswer): {code: string; message: string; details: unknown[]} {
  expect(answer.headers['content-type']).toMatch(/^application\/json/)
  return JSON.parse(answer.body).error
}

describe('a server without a token and a foreign Host (DNS rebinding)', () => {
  it.each([
    ['a rebound domain', 'evil.example'],
    ['a rebound domain with the port', 'evil.example:8080'],
    ['a LAN address', '192.168.1.20:8080'],
    ['a subdomain of localhost lookalike', 'localhost.evil.example'],
  ])('answers 421 with the error body for %s, on every route, and changes nothing', async (_name, host) => {
    const {server} = await serving()
    const port = server.port
    const paths = ['/applications', statusPath(TRACKED), '/health', '/', '/shipments/SHP-1/unified']
    for (const path of paths) {
      const answer = await rawGet(port, path, [`Host: ${host}`])
      expect([path, answer.status]).toEqual([path, 421])
      expect(errorOf(answer)).toMatchObject({code: 'misdirected_request'})
      expect(errorOf(answer).message).toContain(host)
    }
    const patch = await rawGet(port, `${statusPath(TRACKED)}?status=offer&notes=rebound`, [`Host: ${host}`], 'PATCH')
    expect(patch.status).toBe(421)
    const stored = await fetch(`${server.url}${statusPath(TRACKED)}`)
    expect(await json(stored)).toMatchObject({status: 'applied', notes: ''})
  })

  it.each([
    ['127.0.0.1 with the port', (port: number) => `127.0.0.1:${port}`],
    ['127.0.0.1 without the port', () => '127.0.0.1'],
    ['localhost with the port', (port: number) => `localhost:${port}`],
    ['LOCALHOST without the port', () => 'LOCALHOST'],
    ['[::1] with the port', (port: number) => `[::1]:${port}`],
  ])('answers requests for %s', async (_name, host) => {
    const {server} = await serving()
    for (const path of ['/applications', statusPath(TRACKED)]) {
      const answer = await rawGet(server.port, path, [`Host: ${host(server.port)}`])
      expect([path, answer.status]).toEqual([path, 200])
    }
  })

  it('answers the names of server.allowed_hosts, with or without the port, and no others', async () => {
    const {server} = await serving({allowedHosts: ['jobagent.lan', '[fd00::5]']})
    for (const host of ['jobagent.lan', `JobAgent.lan:${server.port}`, '[fd00::5]:8080']) {
      expect([host, (await rawGet(server.port, statusPath(TRACKED), [`Host: ${host}`])).status]).toEqual([host, 200])
    }
    expect((await rawGet(server.port, '/applications', ['Host: other.lan'])).status).toBe(421)
  })

  it('leaves the Host to the token when the server has one', async () => {
    const {server} = await serving({apiToken: TOKEN})
    const answer = await rawGet(server.port, statusPath(TRACKED), [
      'Host: jobagent.example.org',
      `Authorization: Bearer ${TOKEN}`,
    ])
    expect(answer.status).toBe(200)
  })
})

describe('a Host header the server cannot take as it is, or none', () => {
  it.each([
    ['an IPv4 address in short form', 'GET /applications HTTP/1.1\r\nHost: 127.1\r\nConnection: close\r\n\r\n'],
    ['an IPv6 address without brackets', 'GET /applications HTTP/1.1\r\nHost: ::1\r\nConnection: close\r\n\r\n'],
    ['an IPv4 address as one number', 'GET /applications HTTP/1.1\r\nHost: 2130706433\r\nConnection: close\r\n\r\n'],
    ['a port that is no number', 'GET /applications HTTP/1.1\r\nHost: 127.0.0.1:abc\r\nConnection: close\r\n\r\n'],
    ['no Host in HTTP/1.0', 'GET /applications HTTP/1.0\r\n\r\n'],
    ['no Host in HTTP/1.1', 'GET /applications HTTP/1.1\r\nConnection: close\r\n\r\n'],
  ])(
    'is refused for %s with 400, the error body and an access log line, with or without a token',
    async (_name, text) => {
      for (const app of [{}, {apiToken: TOKEN}]) {
        const {server, logLines} = await serving(app)
        const answer = await rawRequest(server.port, text)
        expect(answer.status).toBe(400)
        expect(answer.headers['x-content-type-options']).toBe('nosniff')
        const error = errorOf(answer)
        expect(error).toMatchObject({code: 'bad_request', details: [{field: 'Host'}]})
        expect(error.message).toMatch(/Host/)
        await new Promise((resolve) => setImmediate(resolve))
        expect(logLines.some((line) => line.includes('| GET /applications 400 '))).toBe(true)
        // The server goes on answering.
        expect((await fetch(`${server.url}/health`)).status).toBe(200)
      }
    },
  )
})

describe('requests a page of another origin makes a browser send', () => {
  it('refuses state-changing requests from a foreign Origin with 403 and stores nothing', async () => {
    const {server} = await serving()
    const foreign = {origin: 'http://evil.example', 'sec-fetch-site': 'cross-site'}
    const post = await fetch(
      `${server.url}/applications`,
      jsonBody(applicationBody({url: 'https://example.org/jobs/2'}), {headers: {origin: 'http://evil.example'}}),
    )
    expect(post.status).toBe(403)
    expect((await json(post)).error.code).toBe('forbidden')
    const patch = await fetch(`${server.url}${statusPath(TRACKED)}?status=offer`, {method: 'PATCH', headers: foreign})
    expect(patch.status).toBe(403)
    // Another port of this machine is another origin too.
    const otherPort = await fetch(`${server.url}${statusPath(TRACKED)}?status=offer`, {
      method: 'PATCH',
      headers: {origin: 'http://127.0.0.1:1', 'sec-fetch-site': 'same-site'},
    })
    expect(otherPort.status).toBe(403)
    const list = await json(await fetch(`${server.url}/applications`))
    expect(list.applications.map((a: {url: string; status: string}) => [a.url, a.status])).toEqual([
      [TRACKED, 'applied'],
    ])
  })

  it('accepts them from its own origin, from origins allowed by CORS and from clients that send no Origin', async () => {
    const {server} = await serving({corsOrigins: ['http://localhost:5173']})
    const own = await fetch(`${server.url}${statusPath(TRACKED)}?status=interviewing`, {
      method: 'PATCH',
      headers: {origin: server.url, 'sec-fetch-site': 'same-origin'},
    })
    expect(own.status).toBe(200)
    const allowed = await fetch(`${server.url}${statusPath(TRACKED)}?status=offer`, {
      method: 'PATCH',
      headers: {origin: 'http://localhost:5173', 'sec-fetch-site': 'same-site'},
    })
    expect(allowed.status).toBe(200)
    const plain = await fetch(
      `${server.url}/applications`,
      jsonBody(applicationBody({url: 'https://example.org/jobs/3'})),
    )
    expect(plain.status).toBe(201)
  })

  it.each([
    ['a foreign Origin', {origin: 'http://evil.example'}],
    ['Sec-Fetch-Site: cross-site (an image or script tag)', {'sec-fetch-site': 'cross-site'}],
    ['Sec-Fetch-Site: same-site from another port', {'sec-fetch-site': 'same-site'}],
  ])('refuses GET /jobs with %s before any board is asked', async (_name, headers) => {
    const {server, board} = await serving()
    const refused = await fetch(`${server.url}/jobs`, {headers})
    expect(refused.status).toBe(403)
    expect((await json(refused)).error.code).toBe('forbidden')
    expect(board.requests()).toBe(0)
    const own = await fetch(`${server.url}/jobs`, {headers: {'sec-fetch-site': 'same-origin', origin: server.url}})
    expect(own.status).toBe(200)
    expect(board.requests()).toBe(1)
  })
})
