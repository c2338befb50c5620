import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
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

// The server's clock: every date rule (follow-ups due, interviews upcoming) is judged from it.
const NOW = '2026-12-01T09:00:00'
const WAITING = 'https://example.org/jobs/waiting'
const BOOKED = 'https://example.org/jobs/booked'

/** Whether the page scrolls sideways: its content wider than the window. */
const OVERFLOW = '({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})'

interface Detail {
  status: string
  salary_expected: string
  contacts: {id: number; name: string; role: string; reach: string}[]
  interviews: {starts_at: string; time_zone: string; kind: string | null; with: string}[]
}

describe.skipIf(!HAS_CHROMIUM)(
  'the web page: every field of an application, follow-ups and interviews',
  {timeout: SCENARIO_TIMEOUT_MS},
  () => {
    let board: MockBoard
    let server: Jobagent
    let browser: TestBrowser
    let page: Page
    let problems: string[]
    const ids: Record<string, number> = {}

    const detail = async (id: number) => (await (await server.api('GET', `/applications/${id}`)).json()) as Detail
    const applicationRow = (id: number) => page.locator(`#applications-table tbody tr[data-id="${id}"]`)

    async function noSidewaysScroll(name: string, width: number): Promise<void> {
      mkdirSync(ARTIFACTS, {recursive: true})
      await page.screenshot({path: join(ARTIFACTS, `web-${name}-${width}.png`), fullPage: true})
      const seen = (await page.evaluate(OVERFLOW)) as {scroll: number; inner: number}
      expect(seen.scroll, `${name} at ${width} px`).toBeLessThanOrEqual(seen.inner)
    }

    beforeAll(async () => {
      board = await startMockBoard()
      server = await startJobagent(board, {now: NOW})
      const run = await runCli(['run', '--quiet'], {home: server.home, env: {JOBAGENT_NOW: NOW}, timeoutMs: 60_000})
      expect(run.code, run.stderr).toBe(0)
      for (const url of [WAITING, BOOKED]) {
        const body = {title: 'Platform Engineer', company: 'Initech', location: '', url, source: 'referral'}
        const answer = await server.api('POST', '/applications', body)
        expect(answer.status).toBe(201)
        ids[url] = ((await answer.json()) as {application: {id: number}}).application.id
      }
      const waiting = ids[WAITING]!
      const edit = {salary_expected: '€70k', salary_offered: '€75k', referral: 'Bob Stone'}
      expect((await server.api('PATCH', `/applications/${waiting}`, edit)).status).toBe(200)
      const next = {next_action: 'send portfolio', due: '2026-12-05'}
      expect((await server.api('PUT', `/applications/${waiting}/next`, next)).status).toBe(200)
      const contact = {name: 'Ann Lee', role: 'recruiter', email: 'ann@example.org'}
      expect((await server.api('POST', `/applications/${waiting}/contacts`, contact)).status).toBe(201)
      const interview = {starts_at: '2026-12-03 14:00', time_zone: 'Europe/Berlin', kind: 'video', with: 'Ann Lee'}
      expect((await server.api('POST', `/applications/${ids[BOOKED]}/interviews`, interview)).status).toBe(201)
      // The first has waited since long before the default seven days, by the server's clock.
      const db = new Database(join(server.home, 'jobagent.db'))
      db.prepare("UPDATE applications SET updated_at = '2026-11-01T09:00:00.000' WHERE url = ?").run(WAITING)
      // Documents are recorded by the CLI only (apply/edit --cv): one as it would have written it.
      const cv = {kind: 'cv', path: '/home/ann/cv.pdf', sha256: 'ab'.repeat(32), copy: null, recorded_at: '2026-11-01'}
      db.prepare('UPDATE applications SET documents = ? WHERE url = ?').run(JSON.stringify([cv]), WAITING)
      db.close()
      browser = await launchBrowser()
      page = await browser.newPage({viewport: {width: 1280, height: 800}})
      problems = watchProblems(page)
    })

    afterAll(async () => {
      await browser?.close()
      await server?.stop()
      await board?.close()
    })

    it.each([1280, 390])('shows every field at %i px without scrolling sideways', async (width) => {
      await page.setViewportSize({width, height: 800})
      await page.goto(server.url)

      // Jobs: the salary stays on a phone's job card.
      const job = page.locator('#jobs-table tbody tr', {has: page.getByRole('link', {name: 'Dev', exact: true})})
      await job.waitFor()
      const salary = job.locator('td[data-label="Salary"]')
      expect(await salary.isVisible()).toBe(true)
      expect(await salary.textContent()).toBe('USD 70,000 - 90,000 a year')
      await noSidewaysScroll('jobs', width)

      // Follow-ups: the application waiting for news, and the interview booked, at its time in its zone.
      await page.getByRole('tab', {name: /Follow-ups/}).click()
      const due = page.locator('#follow-ups-table tbody tr')
      await eventually(() => due.count()).toBe(1)
      expect(await due.getAttribute('data-id')).toBe(String(ids[WAITING]))
      expect(await due.locator('td[data-label="Waiting"]').textContent()).toBe('30 days without news')
      expect(await page.locator('#tab-follow-ups-count').textContent()).toBe('1')
      const interviews = page.locator('#interviews-table tbody tr')
      expect(await interviews.count()).toBe(1)
      expect(await interviews.locator('td').allTextContents()).toEqual([
        '2026-12-03 14:00 Europe/Berlin',
        `#${ids[BOOKED]} Platform Engineer at Initech`,
        'video',
        'Ann Lee',
      ])
      expect(await interviews.locator('time').getAttribute('datetime')).toBe('2026-12-03T13:00:00Z')
      expect(await page.locator('#follow-ups-empty').isHidden()).toBe(true)
      await noSidewaysScroll('follow-ups', width)

      // Applications: the details of one list its salary, referral and contacts.
      await page.getByRole('tab', {name: /Applications/}).click()
      const waiting = applicationRow(ids[WAITING]!)
      await waiting.getByRole('button', {name: /^Details/}).click()
      await eventually(() => page.locator('.application-detail dt').allTextContents()).toEqual([
        'Salary expected',
        'Salary offered',
        'Referral',
        'Next action',
        'Documents',
        'Contacts',
        'Interviews',
      ])
      const values = await page.locator('.application-detail dd').allTextContents()
      expect(values.slice(0, 5)).toEqual([
        '€70k',
        '€75k',
        'Bob Stone',
        'send portfolio (due 2026-12-05)',
        'cv: /home/ann/cv.pdf (sha256 abababababab)',
      ])
      expect(await page.locator('.application-detail .contacts li').allTextContents()).toEqual([
        'Ann Lee, recruiter, ann@example.org Remove Ann Lee',
      ])
      expect(values[6]).toMatch(/^No interviews yet\./)
      await noSidewaysScroll('application-details', width)
      await waiting.getByRole('button', {name: /^Details/}).click()
      expect(await page.locator('.application-detail').count()).toBe(0)
      expect(problems).toEqual([])
    })

    it('adds and removes a contact and adds an interview from the details, as the API keeps them', async () => {
      await page.setViewportSize({width: 1280, height: 800})
      await page.goto(server.url)
      await page.getByRole('tab', {name: /Applications/}).click()
      const id = ids[WAITING]!
      const row = applicationRow(id)
      await row.getByRole('button', {name: /^Details/}).click()
      const contactForm = page.getByRole('form', {name: /^Add a contact to /})
      await contactForm.getByLabel('Name').fill('Raj Patel')
      await contactForm.getByLabel('Role').fill('hiring manager')
      await contactForm.getByLabel('Email or link').fill('https://example.org/raj')
      await contactForm.getByRole('button', {name: 'Add contact'}).click()
      const contacts = page.locator('.application-detail .contacts li')
      await eventually(() => contacts.count()).toBe(2)
      expect(await contacts.nth(1).textContent()).toBe(
        'Raj Patel, hiring manager, https://example.org/raj Remove Raj Patel',
      )
      expect((await detail(id)).contacts.map((contact) => [contact.name, contact.role, contact.reach])).toEqual([
        ['Ann Lee', 'recruiter', 'ann@example.org'],
        ['Raj Patel', 'hiring manager', 'https://example.org/raj'],
      ])

      await page.getByRole('button', {name: 'Remove Ann Lee'}).click()
      await eventually(() => contacts.allTextContents()).toEqual([
        'Raj Patel, hiring manager, https://example.org/raj Remove Raj Patel',
      ])
      expect((await detail(id)).contacts.map((contact) => contact.name)).toEqual(['Raj Patel'])

      // A refused interview says why and adds nothing.
      const interviewForm = page.getByRole('form', {name: /^Add an interview to /})
      await interviewForm.getByLabel('When').fill('2026-12-04T10:30')
      await interviewForm.getByLabel('Time zone').fill('Mars/Olympus')
      await interviewForm.getByRole('button', {name: 'Add interview'}).click()
      await eventually(() => page.locator('.message.error').last().textContent()).toMatch(/time_zone/)
      expect((await detail(id)).interviews).toEqual([])

      await interviewForm.getByLabel('Time zone').fill('Europe/Lisbon')
      await interviewForm.getByLabel('Kind').selectOption('onsite')
      await interviewForm.getByLabel('With').fill('Raj Patel')
      await interviewForm.getByRole('button', {name: 'Add interview'}).click()
      const listed = page.locator('.application-detail .interviews li')
      // Raj Patel is a contact of the application (added above): the interview is with that contact.
      await eventually(() => listed.allTextContents()).toEqual([
        '2026-12-04 10:30 Europe/Lisbon, onsite, with Raj Patel (hiring manager) Remove the interview of ' +
          '2026-12-04 10:30 Europe/Lisbon, onsite, with Raj Patel (hiring manager)',
      ])
      const kept = await detail(id)
      expect(kept.interviews).toMatchObject([
        {
          starts_at: '2026-12-04T10:30',
          time_zone: 'Europe/Lisbon',
          kind: 'onsite',
          with: '',
          interviewers: [expect.objectContaining({name: 'Raj Patel', role: 'hiring manager'})],
        },
      ])
      // The interview moved the application on, and its row says so at once.
      expect(kept.status).toBe('interviewing')
      expect(await row.getByRole('combobox', {name: /^Status of /}).inputValue()).toBe('interviewing')

      // The Follow-ups tab lists it after the page reads the lists again.
      await page.reload()
      await page.getByRole('tab', {name: /Follow-ups/}).click()
      await eventually(() => page.locator('#interviews-table tbody tr').count()).toBe(2)
      expect(await page.locator('#interviews-table td[data-label="When"]').allTextContents()).toEqual([
        '2026-12-03 14:00 Europe/Berlin',
        '2026-12-04 10:30 Europe/Lisbon',
      ])
      expect(problems).toEqual([])
    })
  },
)
