import {mkdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import Papa from 'papaparse'
import type {BrowserContext, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {runCli} from '../helpers/cli.js'
import {
  ARTIFACTS,
  eventually,
  HAS_CHROMIUM,
  type Jobagent,
  launchBrowser,
  type MockBoard,
  SCENARIO_TIMEOUT_MS,
  startJobagent,
  startMockBoard,
  type TestBrowser,
  watchProblems,
} from './web-harness.js'

const INJECTED_TITLE = 'Platform <img src=x id=injected> Engineer'
// Browser-side expressions are strings: the test project is compiled without the DOM library.
const PAGE_WIDTH = 'document.documentElement.scrollWidth'
const UNNAMED_CONTROLS = `[...document.querySelectorAll('input, select, textarea, button')]
  .filter((node) => !node.closest('[hidden]'))
  .filter((node) => !node.labels?.length && !node.getAttribute('aria-label') && !node.textContent.trim())
  .map((node) => node.outerHTML)`

describe.skipIf(!HAS_CHROMIUM)('the web page at GET /', {timeout: SCENARIO_TIMEOUT_MS}, () => {
  let board: MockBoard
  let server: Jobagent
  let browser: TestBrowser
  let context: BrowserContext
  let page: Page
  let problems: string[]

  beforeAll(async () => {
    board = await startMockBoard()
    server = await startJobagent(board)
    // A `jobagent run` (as cron does) stores the board's jobs before the page first opens.
    const run = await runCli(['run', '--quiet'], {home: server.home, timeoutMs: 60_000})
    expect(run.code, run.stderr).toBe(0)
    browser = await launchBrowser()
    context = await browser.newContext({viewport: {width: 1200, height: 800}, acceptDownloads: true})
    page = await context.newPage()
    problems = watchProblems(page)
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await board?.close()
  })

  const counts = async () => ({
    total: await page.locator('#count-total').textContent(),
    applied: await page.locator('#count-applied').textContent(),
    pending: await page.locator('#count-pending').textContent(),
    new: await page.locator('#count-new').textContent(),
  })

  const search = async () => {
    await page.getByRole('tab', {name: /Jobs/}).click()
    await page.getByRole('button', {name: 'Search now'}).click()
    await page.getByText(/Found \d+ jobs? at/).waitFor({timeout: 30_000})
  }

  it('serves the page with its own script and style to a browser', async () => {
    const response = await page.goto(server.url)
    expect(response?.headers()['content-type']).toMatch(/^text\/html/)
    await page.getByRole('heading', {name: 'jobagent'}).waitFor()
    await eventually(() => page.locator('#count-total').textContent()).toBe('0')
    // The stylesheet applied: the tab list is laid out as a row.
    expect(await page.evaluate(`getComputedStyle(document.querySelector('.tabs')).display`)).toBe('flex')
    expect(await page.getByRole('tab', {name: /Jobs/}).getAttribute('aria-selected')).toBe('true')
    expect(await page.locator('#applications-empty').textContent()).toContain('No applications yet')
  })

  it('shows the jobs stored by the last run on load, before any search', async () => {
    // The page reads the last run with its own request, after the counts the first test waited for.
    await eventually(() => page.locator('#last-run').textContent()).toMatch(
      /^last run \d{4}-\d\d-\d\d \d\d:\d\d \(ok\)$/,
    )
    await eventually(() => page.locator('#jobs-table tbody tr').count()).toBe(2)
    expect(await page.locator('#search-summary').textContent()).toBe(
      'The 2 jobs of the last run, 2 new. “Search now” asks the job boards again.',
    )
    expect(await page.locator('#search-sources li').count()).toBe(0)
    const row = page.locator('#jobs-table tbody tr', {hasText: 'Acme'})
    expect(await row.getByRole('link', {name: 'Dev'}).getAttribute('href')).toBe('https://remoteok.com/remote-jobs/1')
    expect(await row.textContent()).toContain('not tracked')
    expect(await row.locator('.badge').textContent()).toBe('new')
    expect(await page.locator('#jobs-caption').textContent()).toBe('Jobs stored by the last run')
    // No profile: the jobs carry no score, so there is no Score column.
    expect(await page.locator('#jobs-score-header').isHidden()).toBe(true)
    expect(await page.locator('#jobs-table td.score').count()).toBe(0)
    expect(await counts()).toEqual({total: '0', applied: '0', pending: '0', new: '2'})
    mkdirSync(ARTIFACTS, {recursive: true})
    await page.screenshot({path: join(ARTIFACTS, 'web-page-last-run.png'), fullPage: true})
  })

  it('runs a search, shows that it is waiting, then how each board fared', async () => {
    const release = board.hold()
    await page.getByRole('button', {name: 'Search now'}).click()
    await page.getByText('Searching the job boards…').waitFor()
    expect(await page.getByRole('button', {name: 'Search now'}).getAttribute('aria-disabled')).toBe('true')
    expect(await page.evaluate('document.activeElement.id')).toBe('search-button')
    expect(await page.locator('#search-state').getAttribute('aria-busy')).toBe('true')
    release()
    await page.getByText(/Found \d+ jobs? at/).waitFor({timeout: 30_000})
    expect(await page.getByRole('button', {name: 'Search now'}).isEnabled()).toBe(true)
    const sources = page.locator('#search-sources')
    expect(await sources.locator('li.ok').textContent()).toMatch(/remoteok: ok, 2 jobs in \d+/)
    expect(await sources.locator('li.failed').textContent()).toMatch(/remotive: failed after .*: HTTP 404/)
    expect(await page.locator('#jobs-table tbody tr').count()).toBe(2)
    expect(await page.locator('#jobs-caption').textContent()).toBe('Jobs found by the search')
    expect(await counts()).toEqual({total: '0', applied: '0', pending: '0', new: '2'})
  })

  it('shows board text as text, never as markup', async () => {
    await page.getByRole('link', {name: INJECTED_TITLE}).waitFor()
    expect(await page.locator('#injected').count()).toBe(0)
  })

  it("shows a job's salary in the list and everything the board gave in its details", async () => {
    const row = page.locator('#jobs-table tbody tr', {hasText: 'Acme'})
    await row.waitFor()
    // As the core words a salary (src/core/jobs/salary.ts formatSalary), the words of `jobagent jobs <id>` too.
    expect(await row.locator('td[data-label="Salary"]').textContent()).toMatch(/^USD 70,000 - 90,000 a year$/)
    const button = page.getByRole('button', {name: 'Details of Dev at Acme'})
    await button.click()
    const details = page.locator('.detail-row')
    await details.waitFor()
    expect(await button.getAttribute('aria-expanded')).toBe('true')
    expect(await details.locator('dt').allTextContents()).toEqual(['Salary', 'Workplace', 'Tags'])
    expect(await details.locator('.score-detail').count()).toBe(0)
    expect(await details.locator('dd').allTextContents()).toEqual([
      'USD 70,000 - 90,000 a year',
      'remote',
      'typescript, backend',
    ])
    // Plain text with its line breaks, shown as text.
    expect(await details.locator('.description').innerText()).toBe(
      'We build tools & more.\n\n- TypeScript\n- PostgreSQL',
    )
    await button.click()
    await eventually(() => details.count()).toBe(0)
    expect(await button.getAttribute('aria-expanded')).toBe('false')
  })

  it('tracks a job as applied by default', async () => {
    await page.getByRole('button', {name: 'Track Dev at Acme'}).click()
    await page.locator('#messages').getByText('Tracked “Dev” at Acme as applied.').waitFor()
    expect(await counts()).toEqual({total: '1', applied: '1', pending: '0', new: '1'})
    // The button is gone; the keyboard focus stays on the job's row rather than falling back to the page.
    await eventually(() => page.evaluate('document.activeElement.dataset.key')).toBe(
      'https://remoteok.com/remote-jobs/1',
    )
    const row = page.locator('#jobs-table tbody tr', {hasText: 'Acme'})
    expect(await row.locator('.status').textContent()).toBe('applied')
    const body = (await (await server.api('GET', '/applications')).json()) as {applications: unknown[]}
    expect(body.applications).toMatchObject([
      {title: 'Dev', company: 'Acme', url: 'https://remoteok.com/remote-jobs/1', source: 'remoteok', status: 'applied'},
    ])
    mkdirSync(ARTIFACTS, {recursive: true})
    await page.screenshot({path: join(ARTIFACTS, 'web-page.png'), fullPage: true})
  })

  it('changes the status and notes, and shows them again after a reload', async () => {
    await page.getByRole('tab', {name: /Applications/}).click()
    await page.getByLabel('Status of Dev at Acme').selectOption('interviewing')
    await page.getByLabel('Notes for Dev at Acme').fill('call on Tuesday, bring = portfolio')
    await page.getByRole('button', {name: 'Save Dev at Acme'}).click()
    await page.locator('#messages').getByText('Saved “Dev”: applied → interviewing.').waitFor()
    await page.screenshot({path: join(ARTIFACTS, 'web-page-applications.png'), fullPage: true})

    await page.reload()
    await page.getByRole('tab', {name: /Applications/}).click()
    await eventually(() => page.getByLabel('Status of Dev at Acme').inputValue()).toBe('interviewing')
    expect(await page.getByLabel('Notes for Dev at Acme').inputValue()).toBe('call on Tuesday, bring = portfolio')
  })

  it('downloads the CSV export', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', {name: 'Download CSV'}).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/\.csv$/)
    const text = readFileSync(await download.path(), 'utf8')
    const rows = Papa.parse<string[]>(text.trim()).data
    expect(rows[0]).toEqual([
      'title',
      'company',
      'location',
      'url',
      'source',
      'applied_date',
      'status',
      'notes',
      'id',
      'salary_expected',
      'salary_offered',
      'referral',
      'contacts',
    ])
    expect(rows.slice(1)).toEqual([
      [
        'Dev',
        'Acme',
        'Remote',
        'https://remoteok.com/remote-jobs/1',
        'remoteok',
        expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        'interviewing',
        'call on Tuesday, bring = portfolio',
        expect.stringMatching(/^\d+$/),
        '',
        '',
        '',
        '',
      ],
    ])
  })

  it('shows the conflict error when the job was tracked elsewhere meanwhile', async () => {
    await search()
    // Another client tracks the job after this page listed it.
    const other = await server.api('POST', '/applications', {
      title: INJECTED_TITLE,
      company: 'Globex',
      location: 'Berlin',
      url: 'https://REMOTEOK.com/remote-jobs/2/',
      source: 'remoteok',
      status: 'saved',
    })
    expect(other.status).toBe(201)
    await page.getByRole('button', {name: `Track ${INJECTED_TITLE} at Globex`}).click()
    const error = page.locator('#messages .message.error')
    await error.waitFor()
    expect(await error.textContent()).toMatch(
      /Error: Could not track “Platform <img src=x id=injected> Engineer”.*tracked/,
    )
    // The page reloaded what the server holds: the job shows as saved (tracked, still new), nothing was lost.
    const row = page.locator('#jobs-table tbody tr', {hasText: 'Globex'})
    await eventually(() => row.locator('.status').textContent()).toBe('saved')
    expect(await counts()).toEqual({total: '2', applied: '1', pending: '1', new: '1'})
    await page.screenshot({path: join(ARTIFACTS, 'web-page-error.png'), fullPage: true})
  })

  it('filters jobs and applications by text and status', async () => {
    await page.getByLabel('Filter jobs').fill('globex')
    expect(await page.locator('#jobs-table tbody tr').count()).toBe(1)
    await page.getByLabel('Filter jobs').fill('')
    await page.locator('#jobs-status').selectOption('new')
    expect(await page.locator('#jobs-table tbody tr').allTextContents()).toEqual([expect.stringContaining('Globex')])
    await page.locator('#jobs-status').selectOption('')

    await page.getByRole('tab', {name: /Applications/}).click()
    await page.locator('#applications-status').selectOption('interviewing')
    expect(await page.locator('#applications-table tbody tr').allTextContents()).toEqual([
      expect.stringContaining('Acme'),
    ])
    await page.getByLabel('Filter applications').fill('nothing like this')
    expect(await page.locator('#applications-empty').textContent()).toBe('No application matches the filters.')
    await page.getByLabel('Filter applications').fill('')
    await page.locator('#applications-status').selectOption('')
  })

  it('switches tabs with the arrow keys', async () => {
    const jobsTab = page.getByRole('tab', {name: /Jobs/})
    await jobsTab.click()
    await jobsTab.press('ArrowRight')
    const applicationsTab = page.getByRole('tab', {name: /Applications/})
    expect(await applicationsTab.getAttribute('aria-selected')).toBe('true')
    expect(await page.evaluate('document.activeElement.id')).toBe('tab-applications')
    expect(await page.locator('#panel-jobs').isHidden()).toBe(true)
    await applicationsTab.press('ArrowLeft')
    expect(await jobsTab.getAttribute('aria-selected')).toBe('true')
    expect(await page.locator('#panel-applications').isHidden()).toBe(true)
  })

  it('gives every control an accessible name', async () => {
    expect(await page.evaluate(UNNAMED_CONTROLS)).toEqual([])
  })

  it('fits a phone-sized screen without sideways scrolling', async () => {
    const phone = await browser.newPage({viewport: {width: 375, height: 740}})
    const phoneProblems = watchProblems(phone)
    await phone.goto(server.url)
    await phone.getByRole('button', {name: 'Search now'}).click()
    await phone.getByText(/Found \d+ jobs? at/).waitFor({timeout: 30_000})
    expect(await phone.evaluate(PAGE_WIDTH)).toBeLessThanOrEqual(375)
    await phone.getByRole('tab', {name: /Applications/}).click()
    expect(await phone.evaluate(PAGE_WIDTH)).toBeLessThanOrEqual(375)
    await phone.screenshot({path: join(ARTIFACTS, 'web-page-phone.png'), fullPage: true})
    await phone.close()
    expect(phoneProblems).toEqual([])
  })

  it("works under a Content-Security-Policy of default-src 'self'", async () => {
    const strict = await context.newPage()
    const strictProblems = watchProblems(strict)
    // Enforce the policy here whatever the server sends, so an inline script or style would show up as a violation.
    await strict.route(`${server.url}/`, async (route) => {
      const response = await route.fetch()
      await route.fulfill({response, headers: {...response.headers(), 'content-security-policy': "default-src 'self'"}})
    })
    await strict.goto(server.url)
    await eventually(() => strict.locator('#count-total').textContent()).toBe('2')
    await strict.getByRole('button', {name: 'Search now'}).click()
    await strict.getByText(/Found \d+ jobs? at/).waitFor({timeout: 30_000})
    await strict.close()
    expect(strictProblems).toEqual([])
  })

  it('logged no script errors or policy violations', () => {
    expect(problems).toEqual([])
  })
})
