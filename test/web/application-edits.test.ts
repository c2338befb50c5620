import {join} from 'node:path'
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

const ACME = 'https://example.org/jobs/1'
const GLOBEX = 'https://example.org/jobs/2'

describe.skipIf(!HAS_CHROMIUM)(
  'the web page: editing and removing applications',
  {timeout: SCENARIO_TIMEOUT_MS},
  () => {
    let board: MockBoard
    let server: Jobagent
    let browser: TestBrowser
    let page: Page
    let problems: string[]
    const requests: string[] = []

    const record = async (ref: string) =>
      (await (await server.api('GET', `/applications/${ref}`)).json()) as {
        title: string
        url: string
        salary_expected: string
        removed_at: string | null
        history: {change: string}[]
      }
    const row = (id: number) => page.locator(`#applications-table tbody tr[data-id="${id}"]`)

    beforeAll(async () => {
      board = await startMockBoard()
      server = await startJobagent(board)
      const base = {location: 'Remote', source: 'remoteok'}
      expect(
        (await server.api('POST', '/applications', {...base, title: 'Dev', company: 'Acme', url: ACME})).status,
      ).toBe(201)
      expect(
        (await server.api('POST', '/applications', {...base, title: 'Ops', company: 'Globex', url: GLOBEX})).status,
      ).toBe(201)
      browser = await launchBrowser()
      page = await browser.newPage({viewport: {width: 1280, height: 800}})
      problems = watchProblems(page)
      page.on('request', (request) => {
        if (request.url().includes('/applications/')) requests.push(`${request.method()} ${request.url()}`)
      })
      // Enforce the page's policy whatever the server sends: an inline script or style shows up as a problem.
      await page.route(`${server.url}/`, async (route) => {
        const response = await route.fetch()
        await route.fulfill({
          response,
          headers: {...response.headers(), 'content-security-policy': "default-src 'self'"},
        })
      })
    })

    afterAll(async () => {
      await browser?.close()
      await server?.stop()
      await board?.close()
    })

    it('shows each application’s id first', async () => {
      await page.goto(server.url)
      await page.getByRole('tab', {name: /Applications/}).click()
      await eventually(() => page.locator('#applications-table tbody tr').count()).toBe(2)
      expect(await page.locator('#applications-table thead th').first().textContent()).toBe('ID')
      expect(await page.locator('#applications-table tbody tr td:first-child').allTextContents()).toEqual(['#2', '#1'])
    })

    it('edits an application in the dialog with PATCH /applications/{id}, and its open history shows the edit', async () => {
      await row(1).getByRole('button', {name: 'History of Dev at Acme'}).click()
      await row(1).getByRole('button', {name: 'Edit Dev at Acme'}).click()
      const dialog = page.getByRole('dialog', {name: 'Edit #1 Dev at Acme'})
      await dialog.waitFor()
      expect(await page.getByLabel('URL', {exact: true}).inputValue()).toBe(ACME)
      await page.getByLabel('Title', {exact: true}).fill('Staff Dev')
      await page.getByLabel('Salary expected').fill('€80k')
      await page.getByLabel('Referral').fill('Ana Silva')
      await dialog.getByRole('button', {name: 'Save changes'}).click()
      await dialog.waitFor({state: 'hidden'})
      await eventually(() => page.locator('#messages').textContent()).toContain(
        'Edited #1 “Staff Dev”: title, salary expected, referral.',
      )
      await eventually(() => row(1).locator('td').nth(1).textContent()).toBe('Staff Dev')
      const history = page.locator('#applications-table .history-row')
      await eventually(() => history.locator('li').allTextContents()).toEqual([
        expect.stringMatching(
          /edited title "Dev" -> "Staff Dev", salary_expected "" -> "€80k", referral "" -> "Ana Silva"$/,
        ),
      ])
      expect(await record('1')).toMatchObject({
        title: 'Staff Dev',
        salary_expected: '€80k',
        referral: 'Ana Silva',
        url: ACME,
      })
      expect(requests).toContain(`PATCH ${server.url}/applications/1`)
      expect(requests.filter((request) => request.includes('%2F'))).toEqual([])
      // The table drawn again (here by typing a filter; as well by the last run or a search that loads late) keeps
      // the open history open, loaded afresh.
      await page.locator('#applications-filter').fill('Staff')
      await eventually(() => page.locator('#applications-table tbody tr[data-id]').count()).toBe(1)
      await eventually(() => history.locator('li').allTextContents()).toHaveLength(1)
      await page.locator('#applications-filter').fill('')
      await eventually(() => page.locator('#applications-table tbody tr[data-id]').count()).toBe(2)
      await eventually(() => history.locator('li').allTextContents()).toHaveLength(1)
    })

    it('shows the server’s 409 in the dialog when the new URL is tracked as another application, and saves nothing', async () => {
      await row(2).getByRole('button', {name: 'Edit Ops at Globex'}).click()
      const dialog = page.getByRole('dialog', {name: 'Edit #2 Ops at Globex'})
      await page.getByLabel('URL', {exact: true}).fill(`${ACME}?utm_source=newsletter`)
      await dialog.getByRole('button', {name: 'Save changes'}).click()
      const error = dialog.getByRole('alert')
      await eventually(() => error.textContent()).toContain(`Error: already tracked as #1 ${ACME} (status: applied)`)
      expect(await error.textContent()).toContain('url: already tracked as #1')
      expect(await page.evaluate('document.activeElement.id')).toBe('edit-url')
      await page.screenshot({path: join(ARTIFACTS, 'web-page-edit-conflict.png')})
      await page.getByLabel('Title', {exact: true}).fill('')
      await page.getByLabel('URL', {exact: true}).fill(GLOBEX)
      await dialog.getByRole('button', {name: 'Save changes'}).click()
      await eventually(() => error.textContent()).toMatch(/Error: .*title/)
      await dialog.getByRole('button', {name: 'Cancel'}).click()
      await dialog.waitFor({state: 'hidden'})
      expect(await record('2')).toMatchObject({title: 'Ops', url: GLOBEX, history: []})
    })

    it('removes an application with DELETE /applications/{id}, and Undo brings it back', async () => {
      await row(2).getByRole('button', {name: 'Remove Ops at Globex'}).click()
      await eventually(() => page.locator('#messages').textContent()).toContain(
        'Removed #2 “Ops” at Globex from lists and stats.',
      )
      await eventually(() => row(2).count()).toBe(0)
      expect(await page.locator('#count-total').textContent()).toBe('1')
      expect((await record('2')).removed_at).not.toBeNull()

      await page.getByRole('button', {name: 'Undo the removal of #2 “Ops” at Globex'}).click()
      await eventually(() => page.locator('#messages').textContent()).toContain('Restored #2 “Ops” at Globex.')
      await eventually(() => row(2).count()).toBe(1)
      expect(await page.locator('#count-total').textContent()).toBe('2')
      const restored = await record('2')
      expect(restored.removed_at).toBeNull()
      expect(restored.history.map((change) => change.change)).toEqual(['removed', 'restored'])

      await row(2).getByRole('button', {name: 'History of Ops at Globex'}).click()
      // Its own history, below its row: the history of #1 opened earlier stays open through the redraws.
      await eventually(() =>
        page.locator('#applications-table tr[data-id="2"] + tr.history-row li').allTextContents(),
      ).toEqual([
        expect.stringContaining('removed from lists and stats'),
        expect.stringContaining('restored to lists and stats'),
      ])
      expect(requests).toEqual(
        expect.arrayContaining([`DELETE ${server.url}/applications/2`, `POST ${server.url}/applications/2/restore`]),
      )
    })

    it('logged no script errors or policy violations', () => {
      expect(problems).toEqual([])
    })
  },
)
