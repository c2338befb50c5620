import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import type {Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
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

const WAITING = 'https://example.org/jobs/waiting'
const FRESH = 'https://example.org/jobs/fresh'
const OVERFLOW = '({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})'

describe.skipIf(!HAS_CHROMIUM)('follow-ups on the web page', {timeout: SCENARIO_TIMEOUT_MS}, () => {
  let board: MockBoard
  let server: Jobagent
  let browser: TestBrowser
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

  it.each([390, 1280])(
    'shows the Snooze button of a due follow-up at %i px without scrolling sideways',
    async (width) => {
      await page.setViewportSize({width, height: 800})
      await page.getByRole('tab', {name: /Follow-ups/}).click()
      const snooze = page.getByRole('button', {name: /^Snooze a week #1 /})
      await snooze.waitFor()
      expect(await snooze.isVisible()).toBe(true)
      mkdirSync(ARTIFACTS, {recursive: true})
      await page.screenshot({path: join(ARTIFACTS, `web-follow-ups-snooze-${width}.png`), fullPage: true})
      const seen = (await page.evaluate(OVERFLOW)) as {scroll: number; inner: number}
      expect(seen.scroll).toBeLessThanOrEqual(seen.inner)
    },
  )

  it('snoozes a due follow-up for a week from its button, as POST /applications/{url}/snooze does', async () => {
    await page.setViewportSize({width: 1280, height: 800})
    await page.getByRole('tab', {name: /Follow-ups/}).click()
    await page.getByRole('button', {name: /^Snooze a week #1 /}).click()
    await eventually(() => page.locator('#follow-ups-empty').isVisible()).toBe(true)
    expect(await page.locator('.message').last().textContent()).toMatch(/^Snoozed #1 “Platform Engineer” until \d{4}-/)
    const db = new Database(join(server.home, 'jobagent.db'), {readonly: true})
    const snoozed = db.prepare('SELECT snoozed_until FROM applications WHERE url = ?').pluck().get(WAITING)
    db.close()
    expect(snoozed).toEqual(expect.any(String))
    const due = (await (await server.api('GET', '/applications/followups')).json()) as {count: number}
    expect(due.count).toBe(0)
    expect(problems).toEqual([])
  })

  it.each([390, 1280])('removes an interview from the details of its application at %i px', async (width) => {
    // Marked past, so the test holds on any day: a past mark lets a future time in too.
    const body = {starts_at: '2026-12-02 10:00', time_zone: 'UTC', kind: 'phone', past: true}
    const added = await server.api('POST', '/applications/2/interviews', body)
    expect(added.status).toBe(201)
    const {interview} = (await added.json()) as {interview: {id: number}}
    await page.setViewportSize({width, height: 800})
    await page.goto(server.url, {waitUntil: 'networkidle'})
    await page.getByRole('tab', {name: /Applications/}).click()
    const row = page.locator('#applications-table tbody tr[data-id="2"]')
    await row.getByRole('button', {name: /^Details/}).click()
    const listed = page.locator('.application-detail .interviews li')
    await eventually(() => listed.allTextContents()).toEqual([
      '2026-12-02 10:00 UTC, phone Remove the interview of 2026-12-02 10:00 UTC, phone',
    ])
    const seen = (await page.evaluate(OVERFLOW)) as {scroll: number; inner: number}
    expect(seen.scroll).toBeLessThanOrEqual(seen.inner)
    await page.getByRole('button', {name: 'Remove the interview of 2026-12-02 10:00 UTC, phone'}).click()
    await eventually(() => listed.count()).toBe(0)
    const detail = (await (await server.api('GET', '/applications/2')).json()) as {
      interviews: unknown[]
      history: {change: string; details: Record<string, string>}[]
    }
    expect(detail.interviews).toEqual([])
    expect(detail.history.at(-1)).toMatchObject({
      change: 'interview',
      details: {removed: '2026-12-02 10:00 UTC, phone'},
    })
    const gone = await server.api('DELETE', `/applications/2/interviews/${interview.id}`)
    expect(gone.status).toBe(404)
    expect(problems).toEqual([])
  })
})
