import {Agent, MockAgent} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {UnavailableError} from '../../src/core/errors.js'
import {type HttpClient, MAX_REDIRECTS} from '../../src/http-client/client.js'
import {type MockServer, sendJson, sendText, startMockServer} from '../helpers/mock-board.js'
import {testHttpClient} from '../helpers/source-fixtures.js'

// Boards are followed through redirects by hand: at most five hops, only to http(s), and never from a board on the
// internet to this machine or a private network. Every server here is on 127.0.0.1; the "public" board is an
// address of the documentation range (203.0.113.0/24) answered by undici's mock agent, so nothing leaves the machine.

const JOBS = [{id: 1, title: 'Engineer'}]
let server: MockServer
let client: HttpClient

function redirect(location: string, status = 302) {
  return (_req: unknown, res: Parameters<typeof sendText>[0]) =>
    sendText(res, '', status, {location, 'content-type': 'text/plain'})
}

beforeAll(async () => {
  server = await startMockServer((req, res) => {
    const url = req.url ?? '/'
    const hops = /^\/hops\/(\d+)$/.exec(url)
    if (hops) {
      const left = Number(hops[1])
      // Relative and absolute locations, and every redirect status, along the way.
      if (left === 0) return sendJson(res, JOBS)
      const status = [301, 302, 303, 307, 308][left % 5] ?? 302
      return redirect(left % 2 ? `/hops/${left - 1}` : `${server.url}/hops/${left - 1}`, status)(req, res)
    }
    if (url === '/to-ftp') return redirect('ftp://files.example.org/jobs.json')(req, res)
    if (url === '/to-file') return redirect('file:///etc/passwd')(req, res)
    if (url === '/to-javascript') return redirect('javascript:alert(1)')(req, res)
    if (url === '/private') return sendJson(res, [{secret: 'only this machine may read this'}])
    return sendJson(res, {error: 'no route'}, 404)
  })
  client = testHttpClient({dispatcher: new Agent()})
})
afterAll(async () => {
  await client.close()
  await server.close()
})

/**
 * Addresses that are no host on the internet: benchmarking (198.18/15), multicast (224/4), reserved (240/4) and
 * broadcast, IETF protocol assignments (192.0.0/24), IPv6 site-local (fec0::/10), and IPv6 forms that carry a
 * private IPv4 address (IPv4-compatible `::a.b.c.d`, NAT64 64:ff9b::/96, 6to4 2002::/16).
 */
const RESERVED_TARGETS = [
  ['/to-benchmarking', 'http://198.18.0.1/admin'],
  ['/to-benchmarking-top', 'http://198.19.255.254/admin'],
  ['/to-multicast', 'http://224.0.0.1/admin'],
  ['/to-multicast-top', 'http://239.255.255.250/admin'],
  ['/to-reserved', 'http://240.0.0.1/admin'],
  ['/to-broadcast', 'http://255.255.255.255/admin'],
  ['/to-ietf', 'http://192.0.0.8/admin'],
  ['/to-site-local', 'http://[fec0::1]/admin'],
  ['/to-compatible', 'http://[::127.0.0.1]/private'],
  ['/to-compatible-private', 'http://[::10.1.2.3]/admin'],
  ['/to-nat64-loopback', 'http://[64:ff9b::127.0.0.1]/private'],
  ['/to-nat64-metadata', 'http://[64:ff9b::169.254.169.254]/latest/meta-data/'],
  ['/to-6to4-private', 'http://[2002:c0a8:101::1]/admin'],
] as const
/** 64:ff9b::203.0.113.9, the NAT64 form of a public (documentation) address. */
const NAT64_PUBLIC = '64:ff9b::cb00:7109'

const failure = (work: Promise<unknown>) => work.then(() => undefined).catch((error: unknown) => error)

describe('board redirects', () => {
  it(`follows up to ${MAX_REDIRECTS} redirects, relative or absolute, with every redirect status`, async () => {
    expect(await client.getJson(`${server.url}/hops/${MAX_REDIRECTS}`)).toEqual(JOBS)
  })

  it(`refuses a chain of ${MAX_REDIRECTS + 1} and stops asking`, async () => {
    const before = server.requests.length
    const error = await failure(client.getJson(`${server.url}/hops/${MAX_REDIRECTS + 1}`))
    expect(error).toBeInstanceOf(UnavailableError)
    expect((error as Error).message).toBe(`more than ${MAX_REDIRECTS} redirects`)
    // The first request and five redirects followed, once: the failure is not retried.
    expect(server.requests.length - before).toBe(MAX_REDIRECTS + 1)
  })

  it.each([
    ['/to-ftp', 'ftp:'],
    ['/to-file', 'file:'],
    ['/to-javascript', 'javascript:'],
  ])('refuses a redirect from %s to a URL that is not http(s)', async (path, protocol) => {
    const error = await failure(client.getJson(`${server.url}${path}`))
    expect(error).toBeInstanceOf(UnavailableError)
    expect((error as Error).message).toBe(`redirect to a URL that is not http(s) (${protocol})`)
  })

  describe('from a public host', () => {
    const PUBLIC = 'http://203.0.113.7'
    let agent: MockAgent
    let publicClient: HttpClient

    beforeAll(() => {
      agent = new MockAgent()
      // Requests to 127.0.0.1 go through to the real loopback server, as they would without the guard.
      agent.enableNetConnect(/^127\.0\.0\.1(:\d+)?$/)
      const board = agent.get(PUBLIC)
      const location = (path: string, target: string) =>
        board
          .intercept({path, method: 'GET'})
          .reply(302, '', {headers: {location: target}})
          .persist()
      location('/to-loopback', `${server.url}/private`)
      location('/to-localhost', `${server.url.replace('127.0.0.1', 'localhost')}/private`)
      location('/to-private', 'http://10.1.2.3/admin')
      location('/to-link-local', 'http://169.254.169.254/latest/meta-data/')
      location('/to-mapped', `http://[::ffff:127.0.0.1]:${new URL(server.url).port}/private`)
      for (const [path, target] of RESERVED_TARGETS) location(path, target)
      location('/to-public', `${PUBLIC}/jobs`)
      location('/to-public-nat64', `http://[${NAT64_PUBLIC}]/jobs`)
      board.intercept({path: '/jobs', method: 'GET'}).reply(200, JOBS).persist()
      agent.get(`http://[${NAT64_PUBLIC}]`).intercept({path: '/jobs', method: 'GET'}).reply(200, JOBS).persist()
      publicClient = testHttpClient({dispatcher: agent})
    })
    afterAll(() => agent.close())

    it.each(['/to-loopback', '/to-localhost', '/to-private', '/to-link-local', '/to-mapped'])(
      'never follows %s to this machine or a private network',
      async (path) => {
        const before = server.requests.filter((request) => request.url === '/private').length
        const error = await failure(publicClient.getJson(`${PUBLIC}${path}`))
        expect(error).toBeInstanceOf(UnavailableError)
        expect((error as Error).message).toMatch(/^redirect from 203\.0\.113\.7 to a private address \(.+\) refused$/)
        expect(server.requests.filter((request) => request.url === '/private').length).toBe(before)
      },
    )

    it.each(RESERVED_TARGETS)('never follows %s to an address that is no public host (%s)', async (path) => {
      const error = await failure(publicClient.getJson(`${PUBLIC}${path}`))
      expect(error).toBeInstanceOf(UnavailableError)
      expect((error as Error).message).toMatch(/^redirect from 203\.0\.113\.7 to a private address \(.+\) refused$/)
    })

    it('follows a redirect to another public address', async () => {
      expect(await publicClient.getJson(`${PUBLIC}/to-public`)).toEqual(JOBS)
    })

    it('follows a redirect to the NAT64 address of a public host, judged by the IPv4 address it embeds', async () => {
      expect(await publicClient.getJson(`${PUBLIC}/to-public-nat64`)).toEqual(JOBS)
    })
  })
})
