import {writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {AppContext} from '../../src/app/context.js'
import {createHttpServices, loadSliceHttp} from '../../src/app/http-services.js'
import {createHttpApp, type HttpAppOptions} from '../../src/http/app.js'
import {tempDir} from './cli.js'
import {memoryLogger} from './memory-log.js'

export interface TestApi {
  home: string
  context: AppContext
  app: ReturnType<typeof createHttpApp>
  logLines: string[]
  cleanup(): Promise<void>
}

/** The slices' HTTP halves, loaded once for every test app, as `jobagent serve` loads them before it listens. */
const SLICE_HTTP = await loadSliceHttp()

/** The real API on a real AppContext in a temporary JOBAGENT_HOME (config.json written from `config`). */
export function testApi(
  options: {config?: object; app?: Partial<HttpAppOptions>; env?: Record<string, string>} = {},
): TestApi {
  const home = tempDir('jobagent-http-')
  writeFileSync(join(home.path, 'config.json'), JSON.stringify(options.config ?? {sources: []}), {mode: 0o600})
  const context = new AppContext({env: {JOBAGENT_HOME: home.path, ...options.env}})
  const log = memoryLogger('INFO')
  const app = createHttpApp(createHttpServices(context, SLICE_HTTP), {logger: log.logger, ...options.app})
  return {
    home: home.path,
    context,
    app,
    logLines: log.lines,
    cleanup: async () => {
      await context.close()
      home.cleanup()
    },
  }
}

// biome-ignore lint/suspicious/noExplicitAny: tests read response bodies by path and assert on what they find
export type JsonValue = any

/** The parsed JSON body of a response, for assertions. */
export function json(response: Response): Promise<JsonValue> {
  return response.json()
}

export function jsonBody(body: unknown, init: RequestInit = {}): RequestInit {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  return {
    method: 'POST',
    ...init,
    body: text,
    headers: {
      'content-type': 'application/json',
      ...(init.headers as Record<string, string>),
    },
  }
}

export function applicationBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Backend Engineer',
    company: 'Acme',
    location: 'Berlin',
    url: 'https://example.org/jobs/1',
    source: 'remoteok',
    ...overrides,
  }
}

export function statusPath(url: string): string {
  return `/applications/${encodeURIComponent(url)}/status`
}

export interface MockBoard {
  /** Base URL for a source entry: `{type: "remoteok", url}`. */
  url: string
  requests: () => number
  /** Resolves when the board has received `count` requests. */
  received: (count?: number) => Promise<void>
  close: () => Promise<void>
}

/** A local RemoteOK-shaped board: the legal notice, then the jobs; optionally slow. */
export async function mockRemoteOk(
  jobs: Record<string, unknown>[] = [remoteOkJob()],
  options: {delayMs?: number} = {},
): Promise<MockBoard> {
  let count = 0
  const waiters: {count: number; resolve: () => void}[] = []
  const body = JSON.stringify([{legal: 'API Terms of Service'}, ...jobs])
  const server: Server = createServer((_request, response) => {
    count++
    for (const waiter of waiters.filter((w) => w.count <= count)) waiter.resolve()
    setTimeout(() => response.writeHead(200, {'content-type': 'application/json'}).end(body), options.delayMs ?? 0)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    received: (wanted = 1) =>
      new Promise((resolve) => (count >= wanted ? resolve() : waiters.push({count: wanted, resolve}))),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export function remoteOkJob(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: '1',
    position: 'Dev',
    company: 'Acme',
    location: '',
    url: 'https://remoteok.com/remote-jobs/1',
    date: '2026-11-20T00:00:00+00:00',
    epoch: 1763596800,
    ...overrides,
  }
}
