import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {localTimestamp} from '../../src/core/time.js'
import {runCli} from '../helpers/cli.js'
import {daysAgo} from '../helpers/tracker.js'
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

const url = (name: string) => `https://example.org/jobs/${name}`
const thisMonth = () => localTimestamp().slice(0, 7)

describe.skipIf(!HAS_CHROMIUM)('the web page: funnel statistics', {timeout: SCENARIO_TIMEOUT_MS}, () => {
  let board: MockBoard
  let server: Jobagent
  let browser: TestBrowser
  let page: Page
  let problems: string[]

  const rows = (id: string): Promise<string[][]> =>
    page.evaluate(`[...document.querySelectorAll('#${id} tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent))`)

  beforeAll(async () => {
    board = await startMockBoard()
    server = await startJobagent(board)
    // A reaches an offer through an interview, B is rejected, C is never answered, D is only saved.
    for (const [name, source, status] of [
      ['A', 'remoteok', 'applied'],
      ['B', 'remoteok', 'applied'],
      ['C', 'lever', 'applied'],
      ['D', 'lever', 'saved'],
    ] as const) {
      const body = {title: `Job ${name}`, company: 'Acme', location: '', url: url(name), source, status}
      expect((await server.api('POST', '/applications', body)).status).toBe(201)
    }
    for (const [name, status] of [
      ['A', 'interviewing'],
      ['A', 'offer'],
      ['B', 'rejected'],
    ]) {
      const path = `/applications/${encodeURIComponent(url(name ?? ''))}/status`
      expect((await server.api('PATCH', path, {status})).status).toBe(200)
    }
    browser = await launchBrowser()
    page = await browser.newPage({viewport: {width: 1200, height: 800}})
    problems = watchProblems(page)
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

  it('draws the funnel as an SVG bar chart with the counts and conversions worked out by hand', async () => {
    await page.goto(server.url)
    await page.getByRole('tab', {name: 'Stats'}).click()
    const summary = page.locator('#stats-summary')
    // Applied for: A, B, C; answered: A and B, seconds after they were sent.
    await eventually(() => summary.textContent()).toBe(
      '4 applications. Response rate 66.7% (2 of 3 applied for moved on, rejections included). ' +
        'Median time to first response: 0 days.',
    )
    const chart = page.getByRole('img', {name: /^Funnel:/})
    expect(await chart.getAttribute('aria-label')).toBe(
      'Funnel: saved 4, applied 3 (75.0%), interviewing 1 (33.3%), offer 1 (100.0%), accepted 0 (0.0%)',
    )
    expect(await page.locator('.funnel-step .funnel-value').allTextContents()).toEqual([
      '4',
      '3 (75.0%)',
      '1 (33.3%)',
      '1 (100.0%)',
      '0 (0.0%)',
    ])
    // Bars as long as their counts: 370 units for the 4 saved, 3/4 of that for applied, 1/4 for interview and offer.
    const widths = await page.evaluate(
      `[...document.querySelectorAll('.funnel-bar')].map((bar) => bar.getAttribute('width'))`,
    )
    expect(widths).toEqual(['370', '278', '93', '93', '0'])
    const drawn = await page.locator('.funnel-step.stage-saved .funnel-bar').boundingBox()
    expect(drawn?.width).toBeGreaterThan(100)
  })

  it('lists the figures per source and per month', async () => {
    expect(await rows('stats-sources')).toEqual([
      ['lever', '2', '1', '0', '0', '0', '0.0%', '–'],
      ['remoteok', '2', '2', '1', '1', '0', '100.0%', '0'],
    ])
    expect(await rows('stats-months')).toEqual([[thisMonth(), '4', '3', '1', '1', '0', '66.7%', '0']])
    await page.screenshot({path: join(ARTIFACTS, 'web-page-stats.png'), fullPage: true})
  })

  it('counts a back-dated import in its own month and leaves it out of a shorter period', async () => {
    const file = join(server.home, 'old.json')
    const applied = daysAgo(400)
    const old = {title: 'Old', company: 'Initech', location: '', url: url('E'), source: 'file', status: 'rejected'}
    writeFileSync(file, JSON.stringify([{...old, applied_date: applied}]))
    const imported = await runCli(['import', file], {home: server.home})
    expect(imported.code, imported.stderr).toBe(0)
    await page.getByLabel('Applied for').selectOption('12m')
    await eventually(() => page.locator('#stats-summary').textContent()).toMatch(
      /^4 applications\. Response rate 66\.7%/,
    )
    await page.getByLabel('Applied for').selectOption('')
    // Any time: E was applied for (rejected) and answered, so 3 of 4 applied for moved on.
    await eventually(() => page.locator('#stats-summary').textContent()).toMatch(
      /^5 applications\. Response rate 75\.0%/,
    )
    expect((await rows('stats-months')).map((row) => row.slice(0, 2))).toEqual([
      [applied.slice(0, 7), '1'],
      [thisMonth(), '4'],
    ])
  })

  it('logged no script errors or policy violations', () => {
    expect(problems).toEqual([])
  })
})
