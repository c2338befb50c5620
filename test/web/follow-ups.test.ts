import {join} from 'node:path'
import Database from 'better-sqlite3'
import type {Browser, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {
  HAS_CHROMIUM,
  type Jobagent,
  launchBrowser,
  type MockBoard,
  SCENARIO_TIMEOUT_MS,
  startJobagent,
  startMockBoard,
  watchProblems,
} from './web-harness.js'

const WAITING = 'https://example.org/jobs/waiting'
const FRESH = 'https://example.org/jobs/fresh'

describe.skipIf(!HAS_CHROMIUM)('follow-ups on the web page', {timeout: SCENARIO_TIMEOUT_MS}, () => {
  let board: MockBoard
  let server: Jobagent
  let browser: Browser
  let page: Page
  let problems: string[]

  beforeAll(async () => {
    board = await startMockBoard()
    server = await startJobagent(board)
    for (const url of [WAITING, FRESH]) {
      const body = {title: 'Platform Engineer', company: 'Initech', location: '', url, source: 'referral'}
      expect((await server.api('POST', '/applications', body)).status).toBe(201)
    }
    // The first has waited since long before the default seven days.
    const db = new Database(join(server.home, 'jobagent.db'))
    db.prepare("UPDATE applications SET updated_at = '2020-01-01T09:00:00.000' WHERE url = ?").run(WAITING)
    db.close()
    browser = await launchBrowser()
    page = await (await browser.newContext({viewport: {width: 1200, height: 800}})).newPage()
    problems = watchProblems(page)
    await page.goto(server.url, {waitUntil: 'networkidle'})
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await board?.close()
  })

  it('marks the application due for a follow-up with how long it has waited, and no other', async () => {
    await page.getByRole('tab', {name: /Applications/}).click()
    const waiting = page.locator('#applications-table tbody tr', {has: page.locator(`a[href="${WAITING}"]`)})
    await waiting.waitFor()
    expect(await waiting.locator('.follow-up').textContent()).toMatch(/^follow up: \d+ days without news$/)
    const fresh = page.locator('#applications-table tbody tr', {has: page.locator(`a[href="${FRESH}"]`)})
    expect(await fresh.locator('.follow-up').count()).toBe(0)
    expect(problems).toEqual([])
  })
})
