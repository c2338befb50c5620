import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import {afterEach, describe, expect, it} from 'vitest'
import {HttpClient, type HttpClientOptions} from '../../src/http-client/client.js'
import {parseRetryAfter} from '../../src/http-client/http-error.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {
  closedPortUrl,
  hang,
  type MockServer,
  sendJson,
  sendText,
  sequence,
  serveBody,
  startMockServer,
} from '../helpers/mock-board.js'

const servers: MockServer[] = []
const clients: HttpClient[] = []

async function serve(routes: Parameters<typeof startMockServer>[0]): Promise<MockServer> {
  const server = await startMockServer(routes)
  servers.push(server)
  return server
}

function client(options: HttpClientOptions = {}): HttpClient {
  const http = new HttpClient({retries: 2, retryBaseDelayMs: 5, ...options})
  clients.push(http)
  return http
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
  await Promise.all(clients.splice(0).map((http) => http.close()))
})

describe('shared HTTP client', () => {
  it('identifies itself with the User-Agent it is given, else as jobagent', async () => {
    const server = await serve({'/api': (_req, res) => sendJson(res, [{id: 1}])})

    expect(await client().getJson(`${server.url}/api`)).toEqual([{id: 1}])
    expect(server.requests[0]?.headers['user-agent']).toBe('jobagent (+https://github.com/jobagent/jobagent)')
    await client({userAgent: 'jobagent/9.9.9 (+x)'}).getJson(`${server.url}/api`)
    expect(server.requests[1]?.headers['user-agent']).toBe('jobagent/9.9.9 (+x)')
    expect(server.requests[0]?.headers.accept).toBe('application/json')
  })

  it('gives the validators of an answer, and a 304 to a conditional request as an answer with no text', async () => {
    const server = await serve({
      '/board': (req, res) => {
        if (req.headers['if-none-match'] === '"v1"') {
          res.writeHead(304, {etag: '"v1"'})
          res.end()
          return
        }
        res.writeHead(200, {
          'content-type': 'application/json',
          etag: '"v1"',
          'last-modified': 'Sun, 22 Nov 2026 05:00:00 GMT',
        })
        res.end('{"jobs": []}')
      },
    })
    const http = client()
    const first = await http.request(`${server.url}/board`)
    expect(first).toMatchObject({status: 200, etag: '"v1"', lastModified: 'Sun, 22 Nov 2026 05:00:00 GMT'})
    expect(http.parseJson(`${server.url}/board`, first)).toEqual({jobs: []})
    const again = await http.request(`${server.url}/board`, {headers: {'if-none-match': '"v1"'}})
    expect(again).toEqual({status: 304, text: '', contentType: null, etag: '"v1"', lastModified: null})
  })

  it('returns text bodies decoded as UTF-8', async () => {
    const server = await serve({'/feed.rss': serveBody('<rss><title>Zürich</title></rss>', 'application/rss+xml')})
    expect(await client().getText(`${server.url}/feed.rss`)).toBe('<rss><title>Zürich</title></rss>')
  })

  it('decodes a character whose bytes arrive in two chunks, and a declared charset', async () => {
    const bytes = Buffer.from('[{"title":"Zürich – “Backend” 🚀"}]')
    const split = bytes.indexOf(0x80) // inside the en dash's three bytes
    const server = await serve({
      '/api': (_req, res) => {
        res.writeHead(200, {'content-type': 'application/json'})
        res.write(bytes.subarray(0, split))
        setTimeout(() => res.end(bytes.subarray(split)), 20)
      },
      '/latin1': serveBody(Buffer.from('Z\u00fcrich', 'latin1'), 'text/plain; charset=ISO-8859-1'),
    })
    expect(await client().getJson(`${server.url}/api`)).toEqual([{title: 'Zürich – “Backend” 🚀'}])
    expect(await client().getText(`${server.url}/latin1`)).toBe('Zürich')
  })

  it('reports a board that is down as a network error', async () => {
    const url = await closedPortUrl()
    await expect(client().getJson(`${url}/api`)).rejects.toThrow(/^network error: .*ECONNREFUSED/)
  })

  it('retries a 500 and returns the answer that follows', async () => {
    const logged = memoryLogger()
    const server = await serve({
      '/api': sequence(
        (_req, res) => sendText(res, 'oops', 500),
        (_req, res) => sendJson(res, {ok: true}),
      ),
    })

    expect(await client({logger: logged.logger}).getJson(`${server.url}/api`)).toEqual({ok: true})
    expect(server.requests).toHaveLength(2)
    expect(logged.parsed()[0]?.message).toMatch(/^HTTP 500 Internal Server Error from GET .*\/api; retrying in/)
  })

  it('gives up after the configured retries with the last status', async () => {
    const server = await serve({'/api': (_req, res) => sendText(res, 'down', 503)})
    await expect(client({retries: 2}).getJson(`${server.url}/api`)).rejects.toThrow('HTTP 503 Service Unavailable')
    expect(server.requests).toHaveLength(3)
  })

  it('does not retry once it is closed: a request waiting for its retry then fails at once, naming why', async () => {
    const server = await serve({'/api': (_req, res) => sendText(res, 'busy', 503)})
    // Not one of `clients`: this test closes it.
    const http = new HttpClient({retries: 2, retryBaseDelayMs: 300})
    const request = http.getJson(`${server.url}/api`)
    await expect.poll(() => server.requests.length).toBe(1)
    await http.close()
    const started = performance.now()
    const error = await request.then(
      () => undefined,
      (reason: unknown) => reason as Error & {attempts: number},
    )
    expect(error?.message).toBe('not sent: the HTTP client was closed')
    expect(error?.attempts).toBe(2)
    // The retry was due within the base delay; a second one would have waited twice as long again.
    expect(performance.now() - started).toBeLessThan(500)
    expect(server.requests).toHaveLength(1)
  })

  it('does not retry a 404', async () => {
    const server = await serve({})
    await expect(client().getJson(`${server.url}/missing`)).rejects.toThrow(/^HTTP 404 Not Found$/)
    expect(server.requests).toHaveLength(1)
  })

  it('waits as long as Retry-After asks before retrying a 429', async () => {
    const logged = memoryLogger()
    const times: number[] = []
    const server = await serve({
      '/api': sequence(
        (_req, res) => {
          times.push(performance.now())
          sendText(res, 'slow down', 429, {'retry-after': '1'})
        },
        (_req, res) => {
          times.push(performance.now())
          sendJson(res, [])
        },
      ),
    })

    expect(await client({logger: logged.logger}).getJson(`${server.url}/api`)).toEqual([])
    expect(server.requests).toHaveLength(2)
    // A lower bound only: however loaded the machine, the retry cannot come before the second has passed.
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(950)
    expect(logged.parsed()[0]?.message).toMatch(/^HTTP 429 Too Many Requests from GET .*; retrying in 1 s \(1 of 2\)$/)
  })

  it('fails at once when Retry-After asks for longer than the cap', async () => {
    const server = await serve({'/api': (_req, res) => sendText(res, 'later', 429, {'retry-after': '3600'})})
    await expect(client({maxRetryAfterSeconds: 60}).getJson(`${server.url}/api`)).rejects.toThrow(
      'HTTP 429 Too Many Requests (retry after 3600 s)',
    )
    expect(server.requests).toHaveLength(1)
  })

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-07-10T12:00:00Z')
    expect(parseRetryAfter('120', now)).toBe(120_000)
    expect(parseRetryAfter('Fri, 10 Jul 2026 12:00:30 GMT', now)).toBe(30_000)
    expect(parseRetryAfter('Fri, 10 Jul 2026 11:00:00 GMT', now)).toBe(0)
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter(null, now)).toBeUndefined()
  })

  it('times out a board that accepts the request and never answers, without retrying', async () => {
    const server = await serve({'/api': hang})
    await expect(client().getJson(`${server.url}/api`, {timeoutMs: 200})).rejects.toThrow('timed out after 0.2 s')
    expect(server.requests).toHaveLength(1)
  })

  it('times out a body that stops halfway', async () => {
    const server = await serve({
      '/api': (_req, res) => {
        res.writeHead(200, {'content-type': 'application/json'})
        res.write('[{"id": 1},')
      },
    })
    await expect(client().getJson(`${server.url}/api`, {timeoutMs: 300})).rejects.toThrow('timed out after 0.3 s')
  })

  it('stops when the caller aborts', async () => {
    const server = await serve({'/api': hang})
    const controller = new AbortController()
    const pending = client().getJson(`${server.url}/api`, {signal: controller.signal, timeoutMs: 30_000})
    setTimeout(() => controller.abort(), 50)
    await expect(pending).rejects.toThrow(/abort/i)
  })

  it('retries a connection dropped mid-response', async () => {
    const server = await serve({
      '/api': sequence(
        (_req, res) => {
          res.writeHead(200, {'content-type': 'application/json', 'content-length': '100'})
          res.write('[{"id"')
          res.socket?.destroy()
        },
        (_req, res) => sendJson(res, [{id: 2}]),
      ),
    })
    expect(await client().getJson(`${server.url}/api`)).toEqual([{id: 2}])
    expect(server.requests).toHaveLength(2)
  })

  it('says so when a board answers with an HTML page instead of JSON', async () => {
    const page = '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>checking</body></html>'
    const server = await serve({'/api': serveBody(page, 'text/html; charset=UTF-8')})
    await expect(client().getJson(`${server.url}/api`)).rejects.toThrow('HTML instead of JSON ("Just a moment...")')
  })

  it('reads the title of an HTML page from its start only, in linear time', async () => {
    // 1 MB of `<title` without `>`: the title pattern tried again from each one, minutes at this size.
    const hostile = `<html>${'<title'.repeat(200_000)}`
    const late = `<html><head>${' '.repeat(1_000_000)}<title>Far down</title>`
    const spaced = `<html><title>${' \n'.repeat(4_000)}Sign in</title>${'<p>'.repeat(300_000)}`
    const server = await serve({
      '/hostile': serveBody(hostile, 'text/html'),
      '/late': serveBody(late, 'text/html'),
      '/spaced': serveBody(spaced, 'text/html'),
    })
    const http = client()
    const started = performance.now()
    await expect(http.getJson(`${server.url}/hostile`)).rejects.toThrow(/^HTML instead of JSON$/)
    await expect(http.getJson(`${server.url}/late`)).rejects.toThrow(/^HTML instead of JSON$/)
    await expect(http.getJson(`${server.url}/spaced`)).rejects.toThrow('HTML instead of JSON ("Sign in")')
    expect(performance.now() - started).toBeLessThan(1000)
  }, 600_000)

  it('reports malformed JSON with the parser message', async () => {
    const server = await serve({'/api': serveBody('{"jobs": [nope]}')})
    await expect(client().getJson(`${server.url}/api`)).rejects.toThrow(/^malformed JSON: /)
  })

  it('reports truncated JSON as malformed', async () => {
    const server = await serve({'/api': serveBody('[{"id": 1}, {"id": 2')})
    await expect(client().getJson(`${server.url}/api`)).rejects.toThrow(/^malformed JSON: /)
  })

  it('reports an empty body as malformed JSON', async () => {
    const server = await serve({'/api': serveBody('')})
    await expect(client().getJson(`${server.url}/api`)).rejects.toThrow('malformed JSON: Unexpected end of JSON input')
  })

  it('stops reading a streamed body larger than the cap', async () => {
    let written = 0
    const server = await serve({
      '/api': (_req, res) => {
        res.writeHead(200, {'content-type': 'application/json'})
        const chunk = Buffer.alloc(16 * 1024, 0x20)
        const pump = () => {
          while (written < 50 * 1024 * 1024 && !res.destroyed) {
            written += chunk.length
            if (!res.write(chunk)) return void res.once('drain', pump)
          }
          res.end()
        }
        res.on('close', () => {})
        pump()
      },
    })
    await expect(client({maxBodyBytes: 64 * 1024}).getJson(`${server.url}/api`)).rejects.toThrow(
      'response larger than 64 KB',
    )
    // The client hung up long before the 50 MB were sent.
    expect(written).toBeLessThan(50 * 1024 * 1024)
  })

  it('refuses a body whose declared length is over the cap without reading it', async () => {
    const server = await serve({'/api': serveBody('x'.repeat(5000))})
    await expect(client({maxBodyBytes: 1000}).getText(`${server.url}/api`)).rejects.toThrow(
      'response larger than 1000 bytes',
    )
  })

  it('keeps at most the configured number of requests in flight per host', async () => {
    let inFlight = 0
    let most = 0
    const server = await serve({
      '/api': (_req, res) => {
        inFlight++
        most = Math.max(most, inFlight)
        setTimeout(() => {
          inFlight--
          sendJson(res, [])
        }, 30)
      },
    })
    const http = client({concurrencyPerHost: 2})
    await Promise.all(Array.from({length: 6}, () => http.getJson(`${server.url}/api`)))
    expect(server.requests).toHaveLength(6)
    expect(most).toBeLessThanOrEqual(2)
  })

  it('goes through the proxy named by HTTP_PROXY', async () => {
    const tunnels: string[] = []
    const proxy = createServer((req, res) => {
      tunnels.push(`${req.method} ${req.url}`)
      sendText(res, 'proxy says no', 502)
    })
    proxy.on('connect', (req, socket) => {
      tunnels.push(`CONNECT ${req.url}`)
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n')
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    const saved = {HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY}
    process.env.HTTP_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
    delete process.env.NO_PROXY
    try {
      const http = client({retries: 0})
      await expect(http.getJson('http://jobs.example.invalid/api')).rejects.toThrow()
      expect(tunnels.join(' ')).toContain('jobs.example.invalid')
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key]
        else process.env[key] = value
      }
      proxy.closeAllConnections()
      await new Promise((resolve) => proxy.close(resolve))
    }
  })
})
