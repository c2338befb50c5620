import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {applicationBody, json, jsonBody, type TestApi, testApi} from '../helpers/http.js'
import {runCommandLine} from '../helpers/run-command.js'
import {daysAgo} from '../helpers/tracker.js'

let api: TestApi
const cli = async (...args: string[]) => {
  const result = await runCommandLine(args, {home: api.home})
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout)
}

const WAITING = 'https://example.org/jobs/waiting'
const CLOSED = 'https://example.org/jobs/closed'

beforeEach(async () => {
  // Given two applications recorded through the API, one waiting 12 days and one whose posting closed
  api = testApi({config: {sources: [], followups: {after_days: 5}}})
  for (const url of [WAITING, CLOSED]) {
    const response = await api.app.request('/applications', jsonBody(applicationBody({url, notes: 'sent CV'})))
    expect(response.status).toBe(201)
  }
  const db = api.context.trackerDb
  db.prepare('UPDATE applications SET updated_at = ? WHERE url = ?').run(daysAgo(12), WAITING)
  db.prepare('UPDATE applications SET posting_closed_at = ? WHERE url = ?').run('2026-03-01T10:00:00.000', CLOSED)
})

afterEach(async () => {
  await api.cleanup()
})

describe('the JSON of the tracker on the command line and from the API', () => {
  it('prints the follow-ups as GET /applications/followups answers, one object with the list and its count', async () => {
    const printed = await cli('followups', '--json')
    const answered = await json(await api.app.request('/applications/followups'))
    expect(printed).toEqual(answered)
    expect(printed).toMatchObject({count: 1, after_days: 5, applications: [{url: WAITING, days_waiting: 12}]})
  })

  it('lists every field of each record that status <url> --json shows, as GET /applications does', async () => {
    const listed = (await cli('status', '--json')) as Record<string, unknown>[]
    const closed = listed.find((record) => record.url === CLOSED)
    const {history: _history, interviews: _interviews, ...one} = await cli('status', CLOSED, '--json')
    expect(closed).toEqual(one)
    expect(Object.keys(closed ?? {})).toEqual(Object.keys(one))
    expect(closed).toMatchObject({posting_closed_at: '2026-03-01T10:00:00.000', updated_at: expect.any(String)})
    const page = await json(await api.app.request('/applications'))
    expect(page.applications).toEqual(listed)
  })
})
