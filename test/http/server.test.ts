import {type ChildProcess, spawn} from 'node:child_process'
import {writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join, resolve} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {UnavailableError} from '../../src/core/errors.js'
import {silentLogger} from '../../src/core/logger.js'
import type {HttpAppOptions} from '../../src/http/app.js'
import {type RunningServer, startServer} from '../../src/http/server.js'
import {importShipments} from '../../src/shipments/app/shipment-import.js'
import {BIN, ROOT, tempDir} from '../helpers/cli.js'
import {
  applicationBody,
  json,
  jsonBody,
  type MockBoard,
  mockRemoteOk,
  statusPath,
  type TestApi,
  testApi,
} from '../helpers/http.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {shipmentsConfig} from '../helpers/shipments.js'
import {openEventStream} from '../helpers/sse.js'

const FIXTURES = resolve(import.meta.dirname, 'fixtures')

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function serving(api: TestApi, options: {shutdownTimeoutMs?: number} = {}): Promise<RunningServer> {
  const log = memoryLogger()
  const running = await startServer(api.app, {host: '127.0.0.1', port: 0, logger: log.logger, ...options})
  cleanups.push(() => running.close())
  return running
}

function api(config?: object, app?: Partial<HttpAppOptions>): TestApi {
  const created = testApi({...(config ? {config} : {}), ...(app ? {app} : {})})
  cleanups.push(() => created.cleanup())
  return created
}

async function board(delayMs: number): Promise<MockBoard> {
  const created = await mockRemoteOk(undefined, {delayMs})
  cleanups.push(() => created.close())
  return created
}

async function occupiedPort(): Promise<number> {
  const server: Server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  cleanups.push(() => new Promise<void>((done) => server.close(() => done())))
  return (server.address() as AddressInfo).port
}

interface Child {
  process: ChildProcess
  stderr: () => string
  exit: Promise<number | null>
  /** Resolves with the base URL once the start line is logged. */
  listening: Promise<string>
}

/** `jobagent serve` in its own process: the built CLI, as a user starts it. */
function serveProcess(home: string, args: string[], env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    env: {PATH: process.env.PATH, HOME: home, JOBAGENT_HOME: home, NO_COLOR: '1', ...env},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  let onListening: (url: string) => void = () => {}
  const listening = new Promise<string>((resolveUrl) => {
    onListening = resolveUrl
  })
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
    const match = /Listening on (http:\/\/\S+)/.exec(stderr)
    if (match?.[1]) onListening(match[1])
  })
  child.stdout?.resume()
  const exit = new Promise<number | null>((done) => child.on('close', (code) => done(code)))
  cleanups.push(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  return {process: child, stderr: () => stderr, exit, listening}
}

describe('startServer', () => {
  it('serves the app on an ephemeral port, percent-encoded URLs included', async () => {
    const running = await serving(api())
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const url = 'https://example.org/jobs/100%25 remote?a=1&b=c+d#top'
    const created = await fetch(`${running.url}/applications`, jsonBody(applicationBody({url})))
    expect(created.status).toBe(201)
    const shown = await fetch(`${running.url}${statusPath(url)}`)
    expect(await json(shown)).toMatchObject({url, status: 'applied'})
    const health = await fetch(`${running.url}/health`)
    expect(health.headers.get('content-type')).toBe('application/health+json')
  })

  it('sends the API security headers with every answer, and a page policy of this origin only with pages', async () => {
    // A page of its own: the shipped one is built (dist/src/web), and its headers are the same for any page.
    const web = tempDir('jobagent-web-')
    cleanups.push(() => web.cleanup())
    writeFileSync(join(web.path, 'index.html'), '<!doctype html><title>jobagent</title>')
    writeFileSync(join(web.path, 'app.js'), 'console.log(1)')
    const running = await serving(api(undefined, {webDir: web.path}))
    for (const path of ['/applications', '/nope', '/health']) {
      const response = await fetch(`${running.url}${path}`)
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'")
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('x-frame-options')).toBe('DENY')
      expect(response.headers.get('referrer-policy')).toBe('no-referrer')
      expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin')
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(response.headers.get('cross-origin-opener-policy')).toBeNull()
      await response.arrayBuffer()
    }
    for (const [path, accept] of [
      ['/', 'text/html'],
      ['/docs', 'text/html'],
      ['/app.js', '*/*'],
    ] as const) {
      const response = await fetch(`${running.url}${path}`, {headers: {accept}})
      expect(response.status, path).toBe(200)
      const csp = response.headers.get('content-security-policy') ?? ''
      expect(csp).toContain("default-src 'self'")
      expect(csp).toContain("script-src 'self'")
      expect(csp).toContain("frame-ancestors 'none'")
      expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('x-frame-options')).toBe('DENY')
      await response.arrayBuffer()
    }
  })

  it('turns a port in use into a clear UnavailableError', async () => {
    const port = await occupiedPort()
    const attempt = startServer(api().app, {host: '127.0.0.1', port, logger: memoryLogger().logger})
    await expect(attempt).rejects.toThrow(UnavailableError)
    await expect(attempt).rejects.toThrow(`port ${port} on 127.0.0.1 is already in use; choose another with --port`)
  })

  it('lets a request in flight finish when closed, then refuses new connections', async () => {
    const slow = await board(1000)
    const running = await serving(api({sources: [{type: 'remoteok', url: slow.url}]}))
    const inFlight = fetch(`${running.url}/jobs`)
    await slow.received()
    expect(running.inFlight()).toBe(1)
    const closed = running.close()
    const response = await inFlight
    expect(response.status).toBe(200)
    expect((await json(response)).count).toBe(1)
    await closed
    await expect(fetch(`${running.url}/health`)).rejects.toThrow()
  })

  it('closes requests still in flight after the shutdown bound', async () => {
    const slow = await board(20_000)
    const running = await serving(api({sources: [{type: 'remoteok', url: slow.url, timeout_seconds: 60}]}), {
      shutdownTimeoutMs: 200,
    })
    const inFlight = fetch(`${running.url}/jobs`).then(
      (response) => response.status,
      () => 'connection closed',
    )
    await slow.received()
    await running.close()
    expect(await inFlight).toBe('connection closed')
    // The search itself still waits for the board; closing it lets the context close without waiting 20 s.
    await slow.close()
  })
})

describe('jobagent serve', () => {
  it('finishes a request in flight on SIGTERM, closes the database and exits 0', async () => {
    const home = tempDir('jobagent-serve-')
    cleanups.push(home.cleanup)
    const slow = await board(1500)
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({sources: [{type: 'remoteok', url: slow.url}]}))
    const child = serveProcess(home.path, ['--port', '0'])
    const url = await child.listening
    expect(child.stderr()).toMatch(
      /\| INFO \| jobagent\.server \| Listening on http:\/\/127\.0\.0\.1:\d+ \(docs: http:\/\/127\.0\.0\.1:\d+\/docs\)/,
    )
    expect((await fetch(`${url}/applications`)).status).toBe(200)
    const inFlight = fetch(`${url}/jobs`)
    await slow.received()
    child.process.kill('SIGTERM')
    const response = await inFlight
    expect(response.status).toBe(200)
    expect((await json(response)).count).toBe(1)
    expect(await child.exit).toBe(0)
    const stderr = child.stderr()
    expect(stderr).toContain('SIGTERM received: shutting down, 1 request(s) in flight')
    expect(stderr).toMatch(/jobagent\.http \| GET \/jobs 200 \d+\.\d ms/)
    expect(stderr).toContain('| jobagent.server | Stopped')
  })

  it('ends open shipment event streams on SIGTERM instead of waiting for the shutdown bound, and exits 0', async () => {
    const home = tempDir('jobagent-serve-')
    cleanups.push(home.cleanup)
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({sources: []}))
    const shipments = shipmentsConfig(`sqlite://${join(home.path, 'shipments.db')}`)
    await importShipments(shipments, {metadataFile: join(ROOT, 'examples/shipments/metadata.csv')}, silentLogger)
    const child = serveProcess(home.path, ['--port', '0'])
    const events = await openEventStream(`${await child.listening}/shipments/SHP-1001/unified/events`)
    cleanups.push(() => events.close())
    expect((await events.next()).event).toBe('unified')
    const started = Date.now()
    child.process.kill('SIGTERM')
    expect(await events.ended(5000)).toBe(true)
    expect(await child.exit).toBe(0)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(child.stderr()).toContain('| jobagent.server | Stopped')
  })

  it("takes the event streams' interval and limit from shipments.events in the config", async () => {
    const home = tempDir('jobagent-serve-')
    cleanups.push(home.cleanup)
    const config = {sources: [], shipments: {events: {interval_ms: 200, max_streams: 1}}}
    writeFileSync(join(home.path, 'config.json'), JSON.stringify(config))
    const shipments = shipmentsConfig(`sqlite://${join(home.path, 'shipments.db')}`)
    await importShipments(shipments, {metadataFile: join(ROOT, 'examples/shipments/metadata.csv')}, silentLogger)
    const child = serveProcess(home.path, ['--port', '0'])
    const url = `${await child.listening}/shipments/SHP-1001/unified/events`
    const first = await openEventStream(url)
    cleanups.push(() => first.close())
    expect((await first.next()).event).toBe('unified')
    const second = await openEventStream(url)
    cleanups.push(() => second.close())
    expect(second.response.status).toBe(503)
    expect(second.response.headers.get('retry-after')).toBe('5')
    const docs = (await (await fetch(`${await child.listening}/openapi.json`)).json()) as {
      paths: Record<string, {get?: {description?: string}}>
    }
    expect(docs.paths['/shipments/{shipment_id}/unified/events']?.get?.description).toContain('every 200 ms')
  })

  it('reports a port in use clearly and exits 1', async () => {
    const home = tempDir('jobagent-serve-')
    cleanups.push(home.cleanup)
    const port = await occupiedPort()
    const child = serveProcess(home.path, ['--port', String(port)])
    expect(await child.exit).toBe(1)
    expect(child.stderr()).toContain(`Error: port ${port} on 127.0.0.1 is already in use; choose another with --port`)
    expect(child.stderr()).not.toMatch(/\n\s+at /)
  })

  it('refuses a non-loopback host without JOBAGENT_API_TOKEN and exits 2', async () => {
    const home = tempDir('jobagent-serve-')
    cleanups.push(home.cleanup)
    const child = serveProcess(home.path, ['--host', '0.0.0.0', '--port', '0'])
    expect(await child.exit).toBe(2)
    expect(child.stderr()).toContain('refusing to listen on 0.0.0.0 without an API token')
    expect(child.stderr()).toContain('JOBAGENT_API_TOKEN')
  })

  it('requires the token from JOBAGENT_API_TOKEN and takes the address from the environment', async () => {
    const home = tempDir('jobagent-serve-')
    cleanups.push(home.cleanup)
    const token = 'test-token-0123456789abcdef'
    const child = serveProcess(home.path, [], {JOBAGENT_API_TOKEN: token, JOBAGENT_HOST: '0.0.0.0', JOBAGENT_PORT: '0'})
    const url = (await child.listening).replace('0.0.0.0', '127.0.0.1')
    expect((await fetch(`${url}/applications`)).status).toBe(401)
    expect((await fetch(`${url}/applications`, {headers: {authorization: `Bearer ${token}`}})).status).toBe(200)
    expect((await fetch(`${url}/health`)).status).not.toBe(401)
    expect(child.stderr()).not.toContain(token)
    child.process.kill('SIGINT')
    expect(await child.exit).toBe(0)
  })
})

describe('concurrent writers', () => {
  it('loses no update when the API and another process write to the same database', async () => {
    const writes = 50
    const server = api()
    for (let n = 0; n < writes; n++) {
      await server.context.applications.record(applicationBody({url: `https://example.org/api/${n}`}))
      await server.context.applications.record(applicationBody({url: `https://example.org/cli/${n}`}))
    }
    const running = await serving(server)
    const writer = spawn(process.execPath, ['--import', 'tsx', join(FIXTURES, 'tracker-writer.ts'), String(writes)], {
      env: {PATH: process.env.PATH, JOBAGENT_HOME: server.home},
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let writerErrors = ''
    writer.stderr.on('data', (chunk) => {
      writerErrors += chunk
    })
    const writerExit = new Promise<number | null>((done) => writer.on('close', done))
    const statuses = await Promise.all(
      Array.from({length: writes}, async (_, n) => {
        const patched = await fetch(
          `${running.url}${statusPath(`https://example.org/api/${n}`)}`,
          jsonBody({status: 'interviewing', notes: `api ${n}`}, {method: 'PATCH'}),
        )
        const posted = await fetch(
          `${running.url}/applications`,
          jsonBody(applicationBody({url: `https://example.org/api-new/${n}`})),
        )
        return [patched.status, posted.status]
      }),
    )
    expect(await writerExit).toBe(0)
    expect(writerErrors).toBe('')
    expect(statuses.flat().filter((status) => status !== 200 && status !== 201)).toEqual([])

    const tracker = server.context.applications
    expect(await tracker.counts()).toEqual({total: 4 * writes, applied: 4 * writes, pending: 0})
    for (let n = 0; n < writes; n++) {
      const viaApi = await tracker.get(`https://example.org/api/${n}`)
      expect(viaApi.application).toMatchObject({status: 'interviewing', notes: `api ${n}`})
      expect(viaApi.history).toHaveLength(1)
      const viaCli = await tracker.get(`https://example.org/cli/${n}`)
      expect(viaCli.application.status).toBe('accepted')
      expect(viaCli.history.map((change) => change.new_status)).toEqual(['offer', 'accepted'])
    }
  }, 120_000)
})
