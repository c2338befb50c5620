import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import type {Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {
  eventually,
  HAS_CHROMIUM,
  type Jobagent,
  launchBrowser,
  type MockBoard,
  SCENARIO_TIMEOUT_MS,
  startJobagent,
  type TestBrowser,
  watchProblems,
} from './web-harness.js'

const TRACKED_PLAIN = 'https://remoteok.com/remote-jobs/7'
const LATER_PLAIN = 'https://remoteok.com/remote-jobs/8'

/** A RemoteOK-shaped board whose links carry tracking parameters, as boards' feeds often do. */
async function boardWithTrackingLinks(): Promise<MockBoard> {
  const jobs = [
    {legal: 'API terms of service'},
    {id: '7', position: 'Dev', company: 'Acme', location: '', url: `${TRACKED_PLAIN}?utm_source=x`, epoch: 1763596800},
    {
      id: '8',
      position: 'Ops',
      company: 'Globex',
      location: 'Berlin',
      url: `${LATER_PLAIN}?utm_campaign=y&ref=feed`,
      epoch: 1763510400,
    },
  ]
  const server = createServer((_request, response) => {
    response.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify(jobs))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hold: () => () => {},
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

describe.skipIf(!HAS_CHROMIUM)('the web page: tracked jobs and status history', {timeout: SCENARIO_TIMEOUT_MS}, () => {
  let board: MockBoard
  let server: Jobagent
  let browser: TestBrowser
  let page: Page
  let problems: string[]

  const applications = async () =>
    ((await (await server.api('GET', '/applications')).json()) as {applications: {url: string; status: string}[]})
      .applications
  const jobRow = (company: string) => page.locator('#jobs-table tbody tr', {hasText: company})

  beforeAll(async () => {
    board = await boardWithTrackingLinks()
    server = await startJobagent(board)
    const base = {title: 'Dev', company: 'Acme', location: 'Remote', url: TRACKED_PLAIN, source: 'remoteok'}
    expect((await server.api('POST', '/applications', {...base, notes: 'sent <b id="injected">CV</b>'})).status).toBe(
      201,
    )
    const changed = await server.api('PATCH', `/applications/${encodeURIComponent(TRACKED_PLAIN)}/status`, {
      status: 'interviewing',
      notes: 'call on Monday',
    })
    expect(changed.status).toBe(200)
    browser = await launchBrowser()
    page = await browser.newPage({viewport: {width: 1200, height: 800}})
    problems = watchProblems(page)
    // Enforce the page's policy whatever the server sends: an inline script or style shows up as a problem.
    await page.route(`${server.url}/`, async (route) => {
      const response = await route.fetch()
      await route.fulfill({response, headers: {...response.headers(), 'content-security-policy': "default-src 'self'"}})
    })
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await board?.close()
  })

  it('shows a found job whose link adds utm_* to a tracked URL as tracked and not new, with no Track button', async () => {
    await page.goto(server.url)
    await eventually(() => page.locator('#count-total').textContent()).toBe('1')
    await page.getByRole('button', {name: 'Search now'}).click()
    await page.getByText(/Found 2 jobs at/).waitFor({timeout: 30_000})
    await eventually(() => jobRow('Acme').locator('.status').textContent()).toBe('interviewing')
    expect(await jobRow('Acme').locator('.badge').count()).toBe(0)
    expect(await jobRow('Acme').getByRole('button', {name: /Track/}).count()).toBe(0)
    expect(await jobRow('Globex').textContent()).toContain('not tracked')
    expect(await page.locator('#count-new').textContent()).toBe('1')
    await page.locator('#jobs-status').selectOption('new')
    expect(await page.locator('#jobs-table tbody tr').allTextContents()).toEqual([expect.stringContaining('Globex')])
    await page.locator('#jobs-status').selectOption('')
  })

  it('refuses to track a job that was tracked meanwhile under its plain URL, and makes no second application', async () => {
    // Another client tracks the job's plain URL after this page listed the job as untracked.
    const other = await server.api('POST', '/applications', {
      title: 'Ops',
      company: 'Globex',
      location: 'Berlin',
      url: LATER_PLAIN,
      source: 'remoteok',
      status: 'saved',
    })
    expect(other.status).toBe(201)
    await page.getByRole('button', {name: 'Track Ops at Globex'}).click()
    const error = page.locator('#messages .message.error')
    await error.waitFor()
    expect(await error.textContent()).toContain(`already tracked as #2 ${LATER_PLAIN} (status: saved)`)
    // The page asked the server again: the job shows the application tracked elsewhere (saved, so still new).
    await eventually(() => jobRow('Globex').locator('.status').textContent()).toBe('saved')
    expect(await jobRow('Globex').getByRole('button', {name: /Track/}).count()).toBe(0)
    expect((await applications()).map((application) => application.url).sort()).toEqual([TRACKED_PLAIN, LATER_PLAIN])
  })

  it('opens the status history of an application from its row, showing old notes as text', async () => {
    await page.getByRole('tab', {name: /Applications/}).click()
    const toggle = page.getByRole('button', {name: 'History of Dev at Acme'})
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    await toggle.click()
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    const history = page.locator(`#${await toggle.getAttribute('aria-controls')}`)
    await eventually(() => history.locator('li').allTextContents()).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d [+-]\d\d:\d\d applied → interviewing/),
    ])
    expect(await history.locator('li').textContent()).toContain('notes before: sent <b id="injected">CV</b>')
    expect(await page.locator('#injected').count()).toBe(0)
    expect(await history.getByRole('heading').textContent()).toBe('Status history of Dev at Acme')
  })

  it('adds a change saved on the page to the open history, and closes it again', async () => {
    await page.getByLabel('Status of Dev at Acme').selectOption('offer')
    await page.getByLabel('Notes for Dev at Acme').fill('offer letter due')
    await page.getByRole('button', {name: 'Save Dev at Acme'}).click()
    const toggle = page.getByRole('button', {name: 'History of Dev at Acme'})
    const history = page.locator(`#${await toggle.getAttribute('aria-controls')}`)
    await eventually(() => history.locator('li').count()).toBe(2)
    expect(await history.locator('li').nth(1).textContent()).toMatch(
      /interviewing → offer.*notes before: call on Monday/,
    )
    // The Jobs tab follows the saved status too.
    await page.getByRole('tab', {name: /Jobs/}).click()
    expect(await jobRow('Acme').locator('.status').textContent()).toBe('offer')
    await page.getByRole('tab', {name: /Applications/}).click()
    await toggle.click()
    expect(await history.count()).toBe(0)
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    expect(await page.locator('#applications-table tbody tr').count()).toBe(2)
  })

  it('shows new notes saved with the same status as a notes change, not offer → offer', async () => {
    await page.getByLabel('Notes for Dev at Acme').fill('letter came')
    await page.getByRole('button', {name: 'Save Dev at Acme'}).click()
    const toggle = page.getByRole('button', {name: 'History of Dev at Acme'})
    await toggle.click()
    const history = page.locator(`#${await toggle.getAttribute('aria-controls')}`)
    await eventually(() => history.locator('li').count()).toBe(3)
    const last = await history.locator('li').nth(2).textContent()
    expect(last).toMatch(/notes changed.*notes before: offer letter due/)
    expect(last).not.toContain('offer → offer')
    await toggle.click()
  })

  it('logged no script errors or policy violations', () => {
    expect(problems).toEqual([])
  })
})
