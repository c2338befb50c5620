import {afterEach, describe, expect, it} from 'vitest'
import {applicationBody, json, jsonBody, type TestApi, testApi} from '../helpers/http.js'
import {daysAgo} from '../helpers/tracker.js'

let api: TestApi | undefined

afterEach(async () => {
  await api?.cleanup()
  api = undefined
})

/** An application recorded through the API, its last status change moved `daysAgo` days back. */
async function waiting(current: TestApi, n: number, days: number, status = 'applied') {
  const url = `https://example.org/jobs/${n}`
  const response = await current.app.request('/applications', jsonBody(applicationBody({url, status})))
  expect(response.status).toBe(201)
  const changed = daysAgo(days)
  current.context.trackerDb.prepare('UPDATE applications SET updated_at = ? WHERE url = ?').run(changed, url)
  return url
}

describe('GET /applications/followups and POST /applications/{url}/snooze', () => {
  it('lists the applications due, longest waiting first, and snoozes one', async () => {
    api = testApi({config: {followups: {after_days: 5}}})
    await waiting(api, 1, 2)
    const nine = await waiting(api, 2, 9)
    const twelve = await waiting(api, 3, 12, 'interviewing')
    await waiting(api, 4, 30, 'saved')
    const listed = (await json(await api.app.request('/applications/followups'))) as {
      applications: {url: string; days_waiting: number; status: string}[]
      count: number
      after_days: number
    }
    expect(listed.after_days).toBe(5)
    expect(listed.applications.map((application) => [application.url, application.days_waiting])).toEqual([
      [twelve, 12],
      [nine, 9],
    ])

    const snoozed = await api.app.request(`/applications/${encodeURIComponent(nine)}/snooze`, jsonBody({days: 3}))
    expect(snoozed.status).toBe(200)
    expect(await json(snoozed)).toMatchObject({url: nine, snoozed_until: expect.stringMatching(/^\d{4}-\d\d-\d\dT/)})
    const after = (await json(await api.app.request('/applications/followups'))) as {count: number}
    expect(after.count).toBe(1)
  })

  it('refuses a snooze of an untracked url (404) or of 0 days (422)', async () => {
    api = testApi()
    const url = await waiting(api, 1, 9)
    const missing = await api.app.request(
      `/applications/${encodeURIComponent('https://example.org/none')}/snooze`,
      jsonBody({days: 3}),
    )
    expect(missing.status).toBe(404)
    const zero = await api.app.request(`/applications/${encodeURIComponent(url)}/snooze`, jsonBody({days: 0}))
    expect(zero.status).toBe(422)
  })
})
