import {readFileSync} from 'node:fs'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
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

const TOKEN = 'web-test-token-4f1c'

describe.skipIf(!HAS_CHROMIUM)(
  'the web page on a server that requires an API token',
  {timeout: SCENARIO_TIMEOUT_MS},
  () => {
    let board: MockBoard
    let server: Jobagent
    let browser: TestBrowser

    beforeAll(async () => {
      board = await startMockBoard()
      server = await startJobagent(board, {token: TOKEN})
      browser = await launchBrowser()
    })

    afterAll(async () => {
      await browser?.close()
      await server?.stop()
      await board?.close()
    })

    it('asks for the token, refuses a wrong one, then works with the right one for this tab only', async () => {
      const context = await browser.newContext({acceptDownloads: true})
      const page = await context.newPage()
      const problems = watchProblems(page)
      await page.goto(server.url)

      const tokenField = page.getByLabel('API token')
      await tokenField.waitFor()
      expect(await page.locator('#token-reason').textContent()).toContain('asks for an API token')
      await tokenField.fill('not-the-token')
      await page.getByRole('button', {name: 'Use token'}).click()
      await eventually(() => page.locator('#token-reason').textContent()).toContain('did not accept')
      expect(await tokenField.isVisible()).toBe(true)

      await tokenField.fill(TOKEN)
      await page.getByRole('button', {name: 'Use token'}).click()
      await eventually(() => page.locator('#count-total').textContent()).toBe('0')
      expect(await tokenField.isHidden()).toBe(true)
      expect(await page.evaluate("sessionStorage.getItem('jobagent.apiToken')")).toBe(TOKEN)

      // The token is sent with every call: a search, tracking a job and the CSV download all succeed.
      await page.getByRole('button', {name: 'Search now'}).click()
      await page.getByText(/Found \d+ jobs? at/).waitFor({timeout: 30_000})
      await page.getByRole('button', {name: 'Track Dev at Acme'}).click()
      await page.locator('#messages').getByText('Tracked “Dev” at Acme as applied.').waitFor()
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', {name: 'Download CSV'}).click(),
      ])
      expect(readFileSync(await download.path(), 'utf8')).toContain(
        'Dev,Acme,Remote,https://remoteok.com/remote-jobs/1',
      )

      // A reload in the same tab keeps the token; a new tab (fresh session storage) asks again.
      await page.reload()
      await eventually(() => page.locator('#count-total').textContent()).toBe('1')
      expect(await tokenField.isHidden()).toBe(true)
      const otherTab = await (await browser.newContext()).newPage()
      await otherTab.goto(server.url)
      await otherTab.getByLabel('API token').waitFor()
      expect(problems).toEqual([])
    })
  },
)
