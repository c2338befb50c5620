import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import type {Page} from 'playwright-core'
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

// The board's Acme job is the newer one (listed first without a profile); this profile likes Globex's better.
const PROFILE = {skills: {platform: 3, engineer: 1}, avoid: ['postgresql']}
const GLOBEX_TITLE = 'Platform <img src=x id=injected> Engineer'
const PAGE_WIDTH = 'document.documentElement.scrollWidth'

interface ApiJob {
  company: string
  score: number | null
  reasons: string[]
}

describe.skipIf(!HAS_CHROMIUM)('the web page with a profile: scores', {timeout: SCENARIO_TIMEOUT_MS}, () => {
  let board: MockBoard
  let server: Jobagent
  let browser: TestBrowser
  let page: Page
  let problems: string[]
  let stored: ApiJob[]

  beforeAll(async () => {
    board = await startMockBoard()
    server = await startJobagent(board, {profile: PROFILE})
    const run = await runCli(['run', '--quiet'], {home: server.home, timeoutMs: 60_000})
    expect(run.code, run.stderr).toBe(0)
    stored = ((await (await server.api('GET', '/jobs/last')).json()) as {jobs: ApiJob[]}).jobs
    browser = await launchBrowser()
    page = await browser.newPage({viewport: {width: 1200, height: 800}})
    problems = watchProblems(page)
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await board?.close()
  })

  const companies = () => page.locator('#jobs-table tbody tr td[data-label="Company"]').allTextContents()
  const scores = () => page.locator('#jobs-table tbody tr td.score').allTextContents()

  it('shows a Score column with the API’s scores, best first as the API lists them', async () => {
    // The API's own answer: scored, and Globex ahead although Acme's posting is newer.
    expect(stored.map((job) => job.company)).toEqual(['Globex', 'Acme'])
    expect(stored[0]!.score).toBeGreaterThan(stored[1]!.score!)
    await page.goto(server.url)
    await eventually(() => page.locator('#jobs-table tbody tr').count()).toBe(2)
    const header = page.locator('#jobs-score-header')
    expect(await header.isVisible()).toBe(true)
    expect(await header.getAttribute('aria-sort')).toBe('descending')
    expect(await page.locator('#jobs-table thead th').first().textContent()).toMatch(/^\s*Score/)
    expect(await companies()).toEqual(['Globex', 'Acme'])
    expect(await scores()).toEqual(stored.map((job) => String(job.score)))
  })

  it('sorts by score both ways from the column header', async () => {
    const sort = page.getByRole('button', {name: /^Score/})
    await sort.click()
    expect(await page.locator('#jobs-score-header').getAttribute('aria-sort')).toBe('ascending')
    expect(await companies()).toEqual(['Acme', 'Globex'])
    expect(await scores()).toEqual([String(stored[1]!.score), String(stored[0]!.score)])
    // The order holds while filtering, which renders the table again.
    await page.getByLabel('Filter jobs').fill('e')
    expect(await companies()).toEqual(['Acme', 'Globex'])
    await page.getByLabel('Filter jobs').fill('')
    await sort.click()
    expect(await page.locator('#jobs-score-header').getAttribute('aria-sort')).toBe('descending')
    expect(await companies()).toEqual(['Globex', 'Acme'])
  })

  it('shows the score and its reasons, as text, in a job’s details', async () => {
    const globex = stored[0]!
    expect(globex.reasons).toContain('+ platform, engineer (title)')
    await page.getByRole('button', {name: `Details of ${GLOBEX_TITLE} at Globex`}).click()
    const details = page.locator('.detail-row')
    await details.waitFor()
    expect(await details.locator('.score-detail p').textContent()).toBe(`Score: ${globex.score} of 100`)
    expect(await details.locator('.reasons li').allTextContents()).toEqual(globex.reasons)
    // The detail row spans every column, the Score column included.
    expect(await details.locator('td').getAttribute('colspan')).toBe('9')
    await page.getByRole('button', {name: 'Details of Dev at Acme'}).click()
    const acme = page.locator('.detail-row', {hasText: 'Dev at Acme'})
    expect(await acme.locator('.reasons li.against').allTextContents()).toEqual([
      'gate: postgresql in the description (x0.5)',
    ])
    expect(await page.locator('#injected').count()).toBe(0)
    mkdirSync(ARTIFACTS, {recursive: true})
    await page.screenshot({path: join(ARTIFACTS, 'web-page-scores.png'), fullPage: true})
  })

  it('keeps the scores on a phone-sized screen without sideways scrolling', async () => {
    const phone = await browser.newPage({viewport: {width: 375, height: 740}})
    const phoneProblems = watchProblems(phone)
    await phone.goto(server.url)
    await eventually(() => phone.locator('#jobs-table tbody tr').count()).toBe(2)
    expect(await phone.locator('#jobs-table tbody td.score').first().isVisible()).toBe(true)
    await phone.getByRole('button', {name: `Details of ${GLOBEX_TITLE} at Globex`}).click()
    await phone.locator('.detail-row .reasons').waitFor()
    expect(await phone.evaluate(PAGE_WIDTH)).toBeLessThanOrEqual(375)
    await phone.screenshot({path: join(ARTIFACTS, 'web-page-scores-phone.png'), fullPage: true})
    await phone.close()
    expect(phoneProblems).toEqual([])
  })

  it('logged no script errors or policy violations', () => {
    expect(problems).toEqual([])
  })
})
