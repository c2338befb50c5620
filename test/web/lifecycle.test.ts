import {join} from 'node:path'
import Database from 'better-sqlite3'
import type {Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {runCli} from '../helpers/cli.js'
import {
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

const CLOSED_JOB = 'https://remoteok.com/remote-jobs/1'
const REPOSTED_JOB = 'https://remoteok.com/remote-jobs/2'

describe.skipIf(!HAS_CHROMIUM)('closed and reposted jobs on the web page', {timeout: SCENARIO_TIMEOUT_MS}, () => {
  let board: MockBoard
  let server: Jobagent
  let browser: TestBrowser
  let page: Page
  let problems: string[]

  beforeAll(async () => {
    board = await startMockBoard()
    server = await startJobagent(board)
    expect((await runCli(['run'], {home: server.home, timeoutMs: 60_000})).code).toBe(0)
    const body = {title: 'Dev', company: 'Acme', location: '', url: CLOSED_JOB, source: 'remoteok'}
    expect((await server.api('POST', '/applications', body)).status).toBe(201)
    // The state the lifecycle rules leave after the board stops listing the first job and reposts the second
    // (the rules themselves are tested in test/app/lifecycle.test.ts).
    const db = new Database(join(server.home, 'jobagent.db'))
    db.prepare("UPDATE jobs SET closed_at = '2026-11-21T08:00:00.000', last_run_id = NULL WHERE url = ?").run(
      CLOSED_JOB,
    )
    db.prepare('UPDATE jobs SET reposted = 2 WHERE url = ?').run(REPOSTED_JOB)
    db.prepare("UPDATE applications SET posting_closed_at = '2026-11-21T08:00:00.000' WHERE url = ?").run(CLOSED_JOB)
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

  const rowOf = (url: string, table = '#jobs-table') =>
    page.locator(`${table} tbody tr`, {has: page.locator(`a[href="${url}"]`)})

  it('hides closed jobs from the list and shows them, marked, under the Closed filter', async () => {
    await rowOf(REPOSTED_JOB).waitFor()
    expect(await rowOf(CLOSED_JOB).count()).toBe(0)
    expect(await rowOf(REPOSTED_JOB).locator('.badge.reposted').textContent()).toBe('reposted 2×')

    await page.selectOption('#jobs-status', 'closed')
    await eventually(() => rowOf(CLOSED_JOB).count()).toBe(1)
    expect(await rowOf(REPOSTED_JOB).count()).toBe(0)
    expect(await rowOf(CLOSED_JOB).locator('.badge.closed').textContent()).toBe('closed')
    await rowOf(CLOSED_JOB)
      .getByRole('button', {name: /Details/})
      .click()
    await expect.poll(() => page.locator('.detail-row dl.facts').textContent()).toContain('no board lists it any more')
    await page.selectOption('#jobs-status', '')
    expect(problems).toEqual([])
  })

  it('marks the application whose posting closed', async () => {
    await page.getByRole('tab', {name: /Applications/}).click()
    const row = rowOf(CLOSED_JOB, '#applications-table')
    await row.waitFor()
    expect(await row.locator('.badge.closed').textContent()).toBe('posting closed')
    expect(problems).toEqual([])
  })
})
