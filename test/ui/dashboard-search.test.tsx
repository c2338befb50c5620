import {existsSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {AppContext} from '../../src/app/context.js'
import {acquireRunLock} from '../../src/app/run-lock.js'
import {type Home, job, KEYS, renderDashboard, saveRun, tempHome, track, waitFor} from './harness.js'

const REMOTEOK_BODY = JSON.stringify([
  {legal: 'x'},
  {
    id: '1',
    position: 'Dev',
    company: 'Acme',
    location: '',
    url: 'https://remoteok.com/remote-jobs/1',
    date: '2026-11-20T00:00:00+00:00',
    epoch: 1763596800,
  },
])

const FEED_TOKEN = 'feedtoken42abc'

let server: Server
let base = ''
/** Requests to /slow/api wait until the test calls this. */
let release: () => void = () => {}
let home: Home | undefined
let unmount: (() => void) | undefined

beforeEach(async () => {
  let released = new Promise<void>((resolve) => {
    release = resolve
  })
  server = createServer((request, response) => {
    const send = () => {
      response.writeHead(200, {'content-type': 'application/json'})
      response.end(REMOTEOK_BODY)
    }
    if (request.url?.startsWith('/api')) return send()
    if (request.url?.startsWith('/echo/feed')) {
      // A feed that answers with the token it was asked with, where the parser's complaint quotes it.
      response.writeHead(200, {'content-type': 'application/rss+xml'})
      response.end(`<?xml version="1.0"?><rss><channel><${FEED_TOKEN}></channel></rss>`)
      return
    }
    if (request.url?.startsWith('/slow/api')) {
      void released.then(send)
      return
    }
    response.writeHead(404).end('not here')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  released = released.then(() => undefined)
})

afterEach(async () => {
  release()
  unmount?.()
  unmount = undefined
  await home?.cleanup()
  home = undefined
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

async function dashboard(sources: Record<string, unknown>[]) {
  home = tempHome({sources})
  await saveRun(home.context, [job(1)])
  const ui = renderDashboard(home.context)
  unmount = ui.unmount
  await ui.until('row 1 of 1')
  return {ui, context: home.context, path: home.path}
}

describe('dashboard: r runs a search now', () => {
  it('shows a live line per board, then the outcome, and reloads the jobs', async () => {
    const {ui, context} = await dashboard([
      {type: 'remoteok', url: `${base}/slow/api`},
      {type: 'remoteok', name: 'broken', url: `${base}/missing/api`},
    ])
    ui.press('r')
    await ui.until(/✖ broken\s+failed: /)
    expect(ui.frame()).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] remoteok\s+\d+\.\d s/)
    release()
    await ui.until('Search done: 1 job(s), 1 new · 1/2 boards answered (failed: broken)')
    expect(ui.frame()).not.toContain('✖ broken')
    expect(ui.selected()).toMatch(/Dev\s+Acme\s+Remote\s+remoteok\s+2026-11-20\s+new/)
    expect(ui.frame()).toContain('[Jobs 1]')
    const run = await context.jobStore.lastRun()
    expect(run).toMatchObject({status: 'ok', jobs_found: 1, new_jobs: 1})
  })

  it("masks a configured secret a failed board's answer quotes back, in its live line and the outcome", async () => {
    const {ui} = await dashboard([
      {type: 'remoteok', url: `${base}/slow/api`},
      {type: 'rss', name: 'feed', url: `${base}/echo/feed?token=${FEED_TOKEN}`},
    ])
    ui.press('r')
    await ui.until(/✖ rss:feed\s+failed: malformed XML: Expected closing tag '\*\*\*'/)
    expect(ui.frame()).not.toContain(FEED_TOKEN)
    release()
    await ui.until('Search done')
    expect(ui.frame()).not.toContain(FEED_TOKEN)
  })

  it('shows changes made meanwhile by another process (cron, the API) on r', async () => {
    const {ui, path} = await dashboard([{type: 'remoteok', url: `${base}/api`}])
    const other = new AppContext({env: {JOBAGENT_HOME: path}, overrides: {sources: []}})
    await track(other, job(1), 'saved', 'from the API')
    await other.applications.changeStatus(job(1).url, 'interviewing', 'phone screen')
    await other.close()
    expect(ui.frame()).toContain('0 total')
    ui.press('r')
    await ui.until('Search done')
    ui.press(KEYS.tab)
    await ui.until('[Applications 1]')
    expect(ui.selected()).toMatch(/Engineer 1 .*interviewing .*phone s/)
    expect(ui.frame()).toContain('1 total · 1 applied · 0 pending')
  })

  it('reloads the data and says so when another run holds the lock', async () => {
    const {ui, path} = await dashboard([{type: 'remoteok', url: `${base}/api`}])
    const releaseLock = acquireRunLock(join(path, 'run.lock'))
    try {
      ui.press('r')
      await ui.until(/Error: another jobagent run is in progress \(pid \d+\) \(wait for it to finish/)
    } finally {
      releaseLock()
    }
  })

  it('stops a running search on q and leaves no run lock behind', async () => {
    const {ui, path} = await dashboard([{type: 'remoteok', url: `${base}/slow/api`}])
    ui.press('r')
    await ui.until(/remoteok\s+\d+\.\d s/)
    expect(existsSync(join(path, 'run.lock'))).toBe(true)
    ui.press('r')
    await ui.until('A search is already running')
    ui.press('q')
    await waitFor(ui.exited, () => 'the dashboard to exit')
    expect(existsSync(join(path, 'run.lock'))).toBe(false)
  })
})
