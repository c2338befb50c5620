import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import type {Page, Request} from 'playwright-core'
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

// A profile, so the table has its widest form (a Score column) and a like shows in the reasons.
const PROFILE = {skills: {platform: 3, engineer: 1, typescript: 1}}
const ACME_URL = 'https://remoteok.com/remote-jobs/1'
const GLOBEX_TITLE = 'Platform <img src=x id=injected> Engineer'

/** Whether every job row's buttons lie inside the table's scroll box, and the table does not overflow it. */
const TABLE_FITS = `(() => {
  const wrap = document.querySelector('#jobs-table').closest('.table-wrap')
  const box = wrap.getBoundingClientRect()
  const buttons = [...document.querySelectorAll('#jobs-table tbody button')].map((button) => button.getBoundingClientRect())
  return {
    overflow: wrap.scrollWidth - wrap.clientWidth,
    buttons: buttons.length,
    cut: buttons.filter((b) => b.width === 0 || b.left < box.left || b.right > box.right).length,
  }
})()`

interface VerdictRow {
  url: string
  verdict: string
  reason: string | null
  given_by: string
}

describe.skipIf(!HAS_CHROMIUM)('liking and dismissing jobs on the web page', {timeout: SCENARIO_TIMEOUT_MS}, () => {
  let board: MockBoard
  let server: Jobagent
  let browser: TestBrowser
  let page: Page
  let problems: string[]

  beforeAll(async () => {
    board = await startMockBoard()
    server = await startJobagent(board, {profile: PROFILE})
    const run = await runCli(['run', '--quiet'], {home: server.home, timeoutMs: 60_000})
    expect(run.code, run.stderr).toBe(0)
    browser = await launchBrowser()
    page = await browser.newPage({viewport: {width: 1280, height: 800}})
    problems = watchProblems(page)
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await board?.close()
  })

  /** The verdicts as jobagent.db holds them, with the URL of each job. */
  function storedVerdicts(): VerdictRow[] {
    const db = new Database(join(server.home, 'jobagent.db'), {readonly: true})
    try {
      return db
        .prepare(
          `SELECT jobs.url, job_verdicts.verdict, job_verdicts.reason, job_verdicts.given_by
           FROM job_verdicts JOIN jobs ON jobs.id = job_verdicts.job_id ORDER BY jobs.url`,
        )
        .all() as VerdictRow[]
    } finally {
      db.close()
    }
  }

  const companies = () => page.locator('#jobs-table tbody tr td[data-label="Company"]').allTextContents()
  const verdictRequest = (method: string) => (request: Request) =>
    request.method() === method && /\/jobs\/\d+\/verdict$/.test(request.url())

  it('offers Like and Dismiss, named after the job, on every row of the last run', async () => {
    await page.goto(server.url)
    await eventually(() => page.locator('#jobs-table tbody tr').count()).toBe(2)
    for (const name of ['Dev at Acme', `${GLOBEX_TITLE} at Globex`]) {
      expect(await page.getByRole('button', {name: `Like ${name}`, exact: true}).isVisible()).toBe(true)
      expect(await page.getByRole('button', {name: `Dismiss ${name}`, exact: true}).isVisible()).toBe(true)
      expect(await page.getByRole('group', {name: `Like or dismiss ${name}`}).count()).toBe(1)
    }
    expect(await page.locator('#jobs-table thead th').last().textContent()).toBe('Actions')
  })

  it('dismisses a job: sends the verdict, the row disappears and the dismissal is kept', async () => {
    const [request] = await Promise.all([
      page.waitForRequest(verdictRequest('POST')),
      page.getByRole('button', {name: 'Dismiss Dev at Acme', exact: true}).click(),
    ])
    expect(request.postDataJSON()).toEqual({verdict: 'dismiss'})
    const answer = await (await request.response())?.json()
    expect(answer).toMatchObject({
      verdict: {verdict: 'dismiss', reason: null, title: 'Dev', company: 'Acme'},
      previous: null,
    })
    await page.locator('#messages').getByText('Dismissed “Dev” at Acme: it is hidden from the list').waitFor()
    await eventually(companies).toEqual(['Globex'])
    // The keyboard focus goes to the row that took the dismissed one's place, not back to the page.
    await eventually(() => page.evaluate('document.activeElement.dataset.key')).toBe(
      'https://remoteok.com/remote-jobs/2',
    )
    expect(storedVerdicts()).toEqual([{url: ACME_URL, verdict: 'dismiss', reason: null, given_by: 'user'}])
    const dismissed = (await (await server.api('GET', '/jobs/last?dismissed=true')).json()) as {jobs: {url: string}[]}
    expect(dismissed.jobs.map((job) => job.url)).toEqual([ACME_URL])
    // A reload asks the server again: the job stays hidden.
    await page.reload()
    await eventually(companies).toEqual(['Globex'])
  })

  it('likes a job: sends the verdict, keeps the like and ranks with it at once', async () => {
    const [request] = await Promise.all([
      page.waitForRequest(verdictRequest('POST')),
      page.getByRole('button', {name: `Like ${GLOBEX_TITLE} at Globex`, exact: true}).click(),
    ])
    expect(request.postDataJSON()).toEqual({verdict: 'like'})
    await page.locator('#messages').getByText('Liked “Platform <img src=x id=injected> Engineer” at Globex').waitFor()
    expect(storedVerdicts()).toEqual([
      {url: ACME_URL, verdict: 'dismiss', reason: null, given_by: 'user'},
      {url: 'https://remoteok.com/remote-jobs/2', verdict: 'like', reason: null, given_by: 'user'},
    ])
    // The list was read again: the job's reasons now name the like.
    await page.getByRole('button', {name: `Details of ${GLOBEX_TITLE} at Globex`}).click()
    await eventually(() => page.locator('.detail-row .reasons li').allTextContents()).toContainEqual(
      expect.stringMatching(/^\+ like a job you liked: Platform .* at Globex .*\+0\.\d\d$/),
    )
    expect(await page.locator('#injected').count()).toBe(0)
    mkdirSync(ARTIFACTS, {recursive: true})
    await page.screenshot({path: join(ARTIFACTS, 'web-page-liked.png'), fullPage: true})
  })

  it('takes the last action back with Undo', async () => {
    const [request] = await Promise.all([
      page.waitForRequest(verdictRequest('DELETE')),
      page.getByRole('button', {name: `Undo the like of ${GLOBEX_TITLE} at Globex`}).click(),
    ])
    expect(await (await request.response())?.json()).toMatchObject({undone: {verdict: 'like', company: 'Globex'}})
    await page.locator('#messages').getByText('Took back the like of').waitFor()
    expect(storedVerdicts()).toEqual([{url: ACME_URL, verdict: 'dismiss', reason: null, given_by: 'user'}])
    // Only the last action has an Undo: the new message has none.
    expect(await page.getByRole('button', {name: /^Undo/}).count()).toBe(0)
  })

  it('brings a dismissed job back with Undo', async () => {
    // The earlier dismissal was taken back by another client, so this page's list has both jobs again.
    expect((await server.api('DELETE', '/jobs/1/verdict')).status).toBe(200)
    await page.reload()
    await eventually(companies).toEqual(['Globex', 'Acme'])
    await page.getByRole('button', {name: 'Dismiss Dev at Acme', exact: true}).click()
    await eventually(companies).toEqual(['Globex'])
    await page.getByRole('button', {name: 'Undo the dismissal of Dev at Acme'}).click()
    await page.locator('#messages').getByText('Took back the dismissal of “Dev” at Acme.').waitFor()
    await eventually(companies).toEqual(['Globex', 'Acme'])
    expect(storedVerdicts()).toEqual([])
    await eventually(() => page.evaluate('document.activeElement.dataset.key')).toBe(ACME_URL)
  })

  it('keeps the table and its buttons inside the page from 1280 to 1920 pixels wide', async () => {
    for (const width of [1280, 1440, 1920]) {
      await page.setViewportSize({width, height: 800})
      const fits = (await page.evaluate(TABLE_FITS)) as {overflow: number; buttons: number; cut: number}
      expect(fits, `at ${width} px`).toEqual({overflow: 0, buttons: 8, cut: 0})
      await page.screenshot({path: join(ARTIFACTS, `web-page-verdicts-${width}.png`), fullPage: true})
    }
  })

  it('offers no Like or Dismiss for the jobs of a search, which are not stored', async () => {
    await page.getByRole('button', {name: 'Search now'}).click()
    await page.getByText(/Found \d+ jobs? at/).waitFor({timeout: 30_000})
    expect(await page.locator('#jobs-table tbody tr').count()).toBe(2)
    expect(await page.getByRole('button', {name: /^(Like|Dismiss) /}).count()).toBe(0)
  })

  it('logged no script errors or policy violations', () => {
    expect(problems).toEqual([])
  })
})
