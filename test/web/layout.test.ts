import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import type {Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {runCli} from '../helpers/cli.js'
import {type MockServer, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fixtureText} from '../helpers/source-fixtures.js'
import {
  ARTIFACTS,
  eventually,
  HAS_CHROMIUM,
  type Jobagent,
  launchBrowser,
  SCENARIO_TIMEOUT_MS,
  startJobagent,
  type TestBrowser,
  watchProblems,
} from './web-harness.js'

const PROFILE = {skills: {typescript: 3, engineer: 2, backend: 2}, avoid: ['php']}

interface Clipping {
  table: {right: number; width: number}
  wrap: {right: number; scrolls: boolean}
  clipped: string[]
}

/**
 * What of the jobs table does not fit: every button of its rows whose label is cut (scrollWidth past clientWidth)
 * or that reaches past its cell or the table's container, with the table's and the container's edges.
 */
function clipping(page: Page): Promise<Clipping> {
  // Run in the page, as text: the tests are compiled without the DOM's types.
  return page.evaluate(`(() => {
    const table = document.getElementById('jobs-table')
    const wrap = table.parentElement
    const wrapBox = wrap.getBoundingClientRect()
    const clipped = []
    for (const button of table.tBodies[0].querySelectorAll('button')) {
      const box = button.getBoundingClientRect()
      const cellBox = button.closest('td').getBoundingClientRect()
      const cut = button.scrollWidth > button.clientWidth
      if (cut || box.right > cellBox.right + 0.5 || box.right > wrapBox.right + 0.5) {
        clipped.push(button.textContent + ' (' + button.clientWidth + '/' + button.scrollWidth + ' px)')
      }
    }
    const tableBox = table.getBoundingClientRect()
    return {
      table: {right: tableBox.right, width: tableBox.width},
      wrap: {right: wrapBox.right, scrolls: wrap.scrollWidth > wrap.clientWidth},
      clipped,
    }
  })()`)
}

describe.skipIf(!HAS_CHROMIUM)('the web page with a profile: the jobs table', {timeout: SCENARIO_TIMEOUT_MS}, () => {
  let boards: MockServer
  let server: Jobagent
  let browser: TestBrowser
  let page: Page
  let problems: string[]

  beforeAll(async () => {
    // The captured RemoteOK and Arbeitnow answers: real titles, companies and places, with German compounds
    // (`Bundesverbraucherhilfe`, `Anwendungsentwicklung`) that made the table wider than its container.
    boards = await startMockServer({
      '/api': serveBody(fixtureText('remoteok.json')),
      '/api/job-board-api': serveBody(fixtureText('arbeitnow-data-only.json')),
    })
    const board = {url: boards.url, hold: () => () => {}, close: boards.close}
    server = await startJobagent(board, {
      profile: PROFILE,
      sources: [
        {type: 'remoteok', url: boards.url},
        {type: 'arbeitnow', url: boards.url},
      ],
    })
    const run = await runCli(['run', '--quiet'], {home: server.home, timeoutMs: 60_000})
    expect(run.code, run.stderr).toBe(0)
    browser = await launchBrowser()
    page = await browser.newPage({viewport: {width: 1280, height: 800}})
    problems = watchProblems(page)
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await boards?.close()
  })

  it.each([1280, 1440, 1920])('fits its container at %i px with every button whole', async (width) => {
    await page.setViewportSize({width, height: 900})
    await page.goto(server.url)
    await eventually(() => page.locator('#jobs-table tbody tr').count()).toBeGreaterThan(20)
    expect(await page.locator('#jobs-score-header').isVisible()).toBe(true)
    mkdirSync(ARTIFACTS, {recursive: true})
    await page.screenshot({path: join(ARTIFACTS, `web-jobs-table-${width}.png`)})
    const seen = await clipping(page)
    expect(seen.clipped).toEqual([])
    expect(seen.table.right).toBeLessThanOrEqual(seen.wrap.right)
    expect(seen.wrap.scrolls).toBe(false)
    expect(problems).toEqual([])
  })

  it('counts the tracked job everywhere after Track, the line above the table too', async () => {
    await page.goto(server.url)
    await eventually(() => page.locator('#jobs-table tbody tr').count()).toBeGreaterThan(20)
    const summary = page.locator('#search-summary')
    await eventually(() => summary.textContent()).toMatch(/^The \d+ jobs of the last run, \d+ new\./)
    const [, jobs, fresh] =
      /^The (\d+) jobs of the last run, (\d+) new\./.exec((await summary.textContent()) ?? '') ?? []
    expect(await page.locator('#count-new').textContent()).toBe(fresh)

    const first = page.locator('#jobs-table tbody tr').first()
    await first.getByRole('button', {name: /^Track/}).click()
    await eventually(() => page.locator('#count-total').textContent()).toBe('1')
    const less = String(Number(fresh) - 1)
    expect(await summary.textContent()).toMatch(new RegExp(`^The ${jobs} jobs of the last run, ${less} new\\.`))
    expect(await page.locator('#count-new').textContent()).toBe(less)
    expect(await page.locator('#count-applied').textContent()).toBe('1')

    // Tracked as applied in another tab, then saved back as "saved": the job is new again, and both counts say so.
    await page.getByRole('tab', {name: /Applications/}).click()
    await page.getByRole('combobox', {name: /^Status of /}).selectOption('saved')
    await page.getByRole('button', {name: /^Save /}).click()
    await eventually(() => page.locator('#count-new').textContent()).toBe(fresh)
    expect(await summary.textContent()).toMatch(new RegExp(`^The ${jobs} jobs of the last run, ${fresh} new\\.`))
    expect(problems).toEqual([])
  })
})
