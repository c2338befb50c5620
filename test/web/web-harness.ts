import {type ChildProcess, spawn} from 'node:child_process'
import {existsSync, writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page} from 'playwright-core'
import {expect} from 'vitest'
import {BIN, ROOT, tempDir} from '../helpers/cli.js'

export const CHROMIUM = '/usr/bin/chromium'
export const HAS_CHROMIUM = existsSync(CHROMIUM)
export const ARTIFACTS = join(ROOT, 'test-artifacts')

if (!HAS_CHROMIUM)
  console.log(`Skipping the web page browser tests: ${CHROMIUM} does not exist (apt-get install chromium)`)

/** Two RemoteOK-shaped jobs, one with markup in its title to prove the page shows API text as text. */
export const BOARD_JOBS = [
  {legal: 'API terms of service'},
  {
    id: '1',
    position: 'Dev',
    company: 'Acme',
    location: '',
    url: 'https://remoteok.com/remote-jobs/1',
    date: '2026-11-20T00:00:00+00:00',
    epoch: 1763596800,
    description: '<p>We build tools &amp; more.</p><ul><li>TypeScript</li><li>PostgreSQL</li></ul>',
    salary_min: 70000,
    salary_max: 90000,
    tags: ['typescript', 'backend'],
  },
  {
    id: '2',
    position: 'Platform <img src=x id=injected> Engineer',
    company: 'Globex',
    location: 'Berlin',
    url: 'https://remoteok.com/remote-jobs/2',
    date: '2026-11-19T00:00:00+00:00',
    epoch: 1763510400,
  },
]

/** Browser tests: a whole scenario may take a while on a loaded 2-core machine. */
export const SCENARIO_TIMEOUT_MS = 120_000

/** Polls what the page shows until it matches; generous, because the page updates after its API calls. */
export function eventually<T>(read: () => Promise<T>) {
  return expect.poll(read, {timeout: 20_000, interval: 100})
}

export interface MockBoard {
  url: string
  /** Holds every answer until the returned function is called, so a test can see the page while it waits. */
  hold: () => () => void
  close: () => Promise<void>
}

/** A local board: RemoteOK's JSON at /api, and 404 under /broken so a second source fails. */
export async function startMockBoard(): Promise<MockBoard> {
  let gate: Promise<void> = Promise.resolve()
  const server = createServer(async (request, response) => {
    await gate
    if (request.url?.startsWith('/broken')) {
      response.writeHead(404, {'content-type': 'text/plain'}).end('not here')
      return
    }
    response.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify(BOARD_JOBS))
  })
  const port = await listen(server)
  const hold = () => {
    let release = () => {}
    gate = new Promise<void>((resolve) => {
      release = resolve
    })
    return () => {
      gate = Promise.resolve()
      release()
    }
  }
  return {url: `http://127.0.0.1:${port}`, hold, close: () => closeServer(server)}
}

export interface Jobagent {
  url: string
  home: string
  api: (method: string, path: string, body?: unknown) => Promise<Response>
  stop: () => Promise<void>
}

/**
 * Spawns the built CLI's `serve --port 0` with a temporary JOBAGENT_HOME whose config points at the mock board
 * (or lists `sources`), and holds `profile` when given (the jobs are scored then); `now` sets its clock (JOBAGENT_NOW).
 */
export async function startJobagent(
  board: MockBoard,
  options: {token?: string; profile?: Record<string, unknown>; sources?: Record<string, unknown>[]; now?: string} = {},
): Promise<Jobagent> {
  const home = tempDir('jobagent-web-')
  const config = {
    sources: options.sources ?? [
      {type: 'remoteok', url: board.url},
      {type: 'remotive', url: `${board.url}/broken`},
    ],
    ...(options.profile ? {profile: options.profile} : {}),
  }
  writeFileSync(join(home.path, 'config.json'), JSON.stringify(config), {mode: 0o600})
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: home.path,
      JOBAGENT_HOME: home.path,
      NO_COLOR: '1',
      ...(options.token ? {JOBAGENT_API_TOKEN: options.token} : {}),
      ...(options.now ? {JOBAGENT_NOW: options.now} : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const url = await listeningUrl(child)
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${url}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : {'content-type': 'application/json'}),
        ...(options.token ? {authorization: `Bearer ${options.token}`} : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    }
    home.cleanup()
  }
  return {url, home: home.path, api, stop}
}

/** Waits for the start log line (`Listening on http://127.0.0.1:PORT`) on stderr. */
function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => fail(new Error('jobagent serve did not start within 30 s')), 30_000)
    const fail = (error: Error) => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(new Error(`${error.message}\n--- output ---\n${output}`))
    }
    const read = (chunk: Buffer) => {
      output += chunk
      const match = /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (!match?.[1]) return
      clearTimeout(timer)
      child.stderr?.off('data', read)
      child.stdout?.off('data', read)
      // Keep draining the pipes so a chatty server never blocks on a full buffer.
      child.stderr?.resume()
      child.stdout?.resume()
      resolve(match[1])
    }
    child.stderr?.on('data', read)
    child.stdout?.on('data', read)
    child.once('exit', (code) => fail(new Error(`jobagent serve exited with ${code} before listening`)))
  })
}

/**
 * A test file's browser: its own contexts (cookies, storage, pages) in Chromium shared by the files of one test
 * worker. A launch costs more than most of a file's tests (a browser, its GPU and zygote processes), and twelve
 * files launched twelve; `close` closes the file's contexts, and the browser ends with its worker.
 */
export interface TestBrowser {
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>
  /** A page in a context of its own, as Browser.newPage gives. */
  newPage(options?: BrowserContextOptions): Promise<Page>
  close(): Promise<void>
}

let shared: Promise<Browser> | undefined

export async function launchBrowser(): Promise<TestBrowser> {
  if (!shared) {
    shared = chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
    // A browser that failed to start is launched again by the next file, not handed on broken.
    shared.catch(() => {
      shared = undefined
    })
  }
  const browser = await shared
  const contexts = new Set<BrowserContext>()
  const newContext = async (options?: BrowserContextOptions) => {
    const context = await browser.newContext(options)
    contexts.add(context)
    return context
  }
  return {
    newContext,
    newPage: async (options) => (await newContext(options)).newPage(),
    close: async () => {
      await Promise.all([...contexts].map((context) => context.close()))
      contexts.clear()
    },
  }
}

/**
 * Collects console errors and uncaught exceptions (CSP violations arrive as console errors). Chromium also logs
 * every HTTP error answer ("Failed to load resource"); the tests provoke 401 and 409 on purpose, so those are left out.
 */
export function watchProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console: ${message.text()}`)
    }
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  return problems
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)))
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
}
