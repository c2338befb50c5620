import ICAL from 'ical.js'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {formatWallClock, wallClockAt} from '../../src/core/time-zones.js'
import {applicationBody, json, jsonBody, type TestApi, testApi} from '../helpers/http.js'

let api: TestApi

/** The server's clock: noon in Berlin, before the interviews these tests add. */
const NOW = Date.parse('2026-11-30T12:00:00+01:00')

/** `YYYY-MM-DD HH:MM` in Berlin, `days` from NOW at `time`. */
function berlinDay(days: number, time: string): string {
  return `${formatWallClock(wallClockAt(NOW + days * 86_400_000, 'Europe/Berlin')).slice(0, 10)} ${time}`
}

const addTo = (ref: string, body: unknown) => api.app.request(`/applications/${ref}/interviews`, jsonBody(body))

beforeEach(async () => {
  api = testApi({env: {TZ: 'Europe/Berlin', JOBAGENT_NOW: '2026-11-30T12:00:00'}})
  await api.app.request('/applications', jsonBody(applicationBody({url: 'https://example.org/jobs/1'})))
  await api.app.request('/applications', jsonBody(applicationBody({url: 'https://example.org/jobs/2', title: 'SRE'})))
})

afterEach(async () => {
  await api.cleanup()
})

describe('POST /applications/{url}/interviews', () => {
  it('adds an interview by id or URL (201), moving the application to interviewing', async () => {
    const at = berlinDay(1, '14:00')
    const response = await addTo('1', {at, kind: 'video', with: 'Ann Lee, CTO', time_zone: 'Europe/Berlin'})
    expect(response.status).toBe(201)
    const body = await json(response)
    expect(body.previous_status).toBe('applied')
    expect(body.application).toMatchObject({id: 1, status: 'interviewing'})
    expect(body.interview).toMatchObject({id: 1, starts_at: at.replace(' ', 'T'), time_zone: 'Europe/Berlin'})
    const byUrl = await addTo(encodeURIComponent('https://example.org/jobs/2'), {at: '2026-12-02T09:00'})
    expect(byUrl.status).toBe(201)
    const detail = await json(await api.app.request('/applications/1'))
    expect(detail.interviews).toEqual([expect.objectContaining({kind: 'video', with: 'Ann Lee, CTO'})])
    expect(detail.history.map((entry: {change: string}) => entry.change)).toEqual(['interview', 'status'])
  })

  it('takes the start as starts_at, the name its answers use, and the older at too', async () => {
    const startsAt = berlinDay(2, '09:30')
    const response = await addTo('1', {starts_at: startsAt, time_zone: 'Europe/Berlin'})
    expect(response.status).toBe(201)
    expect((await json(response)).interview).toMatchObject({
      starts_at: startsAt.replace(' ', 'T'),
      time_zone: 'Europe/Berlin',
    })
    expect((await addTo('2', {at: startsAt})).status).toBe(201)
    const impossible = await addTo('1', {starts_at: '2026-02-30 14:00'})
    expect((await json(impossible)).error.details).toEqual([
      {
        field: 'starts_at',
        message: 'starts_at "2026-02-30 14:00" is not a day of the calendar (2026-02-30 does not exist)',
      },
    ])
    const both = await addTo('1', {starts_at: startsAt, at: startsAt})
    expect(both.status).toBe(422)
    expect((await json(both)).error.details).toEqual([
      {field: 'at', message: 'give starts_at or at (its older name), not both'},
    ])
    const neither = await addTo('1', {kind: 'video'})
    expect((await json(neither)).error.details).toEqual([{field: 'starts_at', message: 'starts_at is required'}])
    const spec = await json(await api.app.request('/openapi.json'))
    expect(Object.keys(spec.components.schemas.InterviewRequest.properties)).toEqual(
      expect.arrayContaining(['starts_at', 'time_zone', 'at']),
    )
  })

  it('answers 422 naming the field for an impossible time or an unknown kind, and 404 for no application', async () => {
    const impossible = await addTo('1', {at: '2026-02-30 14:00'})
    expect(impossible.status).toBe(422)
    expect((await json(impossible)).error.details).toEqual([
      {field: 'at', message: 'at "2026-02-30 14:00" is not a day of the calendar (2026-02-30 does not exist)'},
    ])
    const kind = await addTo('1', {at: '2026-12-02 14:00', kind: 'dinner'})
    expect(kind.status).toBe(422)
    expect((await json(kind)).error.details[0]).toMatchObject({field: 'kind'})
    expect((await addTo('99', {at: '2026-12-02 14:00'})).status).toBe(404)
    expect((await json(await api.app.request('/applications/1'))).status).toBe('applied')
  })
})

describe('interviewers from the contacts over the API', () => {
  it('takes with as a list of contacts (id or exact name) and others, and lists the contacts met', async () => {
    const contact = await api.app.request(
      '/applications/1/contacts',
      jsonBody({name: 'Ann Lee', role: 'recruiter', email: 'ann@example.org'}),
    )
    expect(contact.status).toBe(201)
    const added = await addTo('1', {starts_at: berlinDay(1, '10:00'), with: ['ann lee', 'Bo Chen, CTO']})
    expect(added.status).toBe(201)
    expect((await json(added)).interview).toMatchObject({
      with: 'Bo Chen, CTO',
      interviewers: [{id: 1, name: 'Ann Lee', role: 'recruiter', reach: 'ann@example.org'}],
    })
    const listed = await json(await api.app.request('/interviews'))
    expect(listed.interviews[0].interviewers).toEqual([
      {id: 1, name: 'Ann Lee', role: 'recruiter', reach: 'ann@example.org'},
    ])
    const unknown = await addTo('1', {starts_at: berlinDay(1, '12:00'), with: '7'})
    expect(unknown.status).toBe(404)
    expect((await json(unknown)).error.message).toBe('#1 has no contact 7; no interview was added')
    const tooMany = await addTo('1', {starts_at: berlinDay(1, '12:00'), with: Array.from({length: 21}, () => 'x')})
    expect(tooMany.status).toBe(422)
  })
})

describe('DELETE /applications/{url}/interviews/{interview_id}', () => {
  it('removes one interview of the application (204), and answers 404 for another or none', async () => {
    await addTo('1', {starts_at: berlinDay(1, '10:00')})
    await addTo('2', {starts_at: berlinDay(1, '11:00')})
    const remove = (ref: string, id: string) =>
      api.app.request(`/applications/${ref}/interviews/${id}`, {method: 'DELETE'})
    expect((await remove('1', '2')).status).toBe(404)
    expect((await remove('1', 'x')).status).toBe(422)
    const removed = await remove(encodeURIComponent('https://example.org/jobs/1'), '1')
    expect(removed.status).toBe(204)
    expect(await removed.text()).toBe('')
    expect((await json(await api.app.request('/interviews'))).interviews.map((one: {id: number}) => one.id)).toEqual([
      2,
    ])
    const detail = await json(await api.app.request('/applications/1'))
    expect(detail.status).toBe('interviewing')
    expect(detail.history.at(-1)).toMatchObject({change: 'interview', details: {removed: expect.stringMatching(/^20/)}})
    expect((await remove('1', '1')).status).toBe(404)
  })
})

describe('GET /interviews and /interviews.ics', () => {
  beforeEach(async () => {
    await addTo('1', {at: berlinDay(3, '10:00'), time_zone: 'Europe/Berlin'})
    await addTo('2', {at: berlinDay(1, '16:00'), time_zone: 'Europe/Berlin', kind: 'phone'})
    await addTo('1', {at: berlinDay(-3, '10:00'), time_zone: 'Europe/Berlin', past: true})
  })

  it('lists upcoming interviews soonest first, past ones too with all=true', async () => {
    const upcoming = await json(await api.app.request('/interviews'))
    expect(upcoming.count).toBe(2)
    expect(upcoming.interviews.map((one: {id: number}) => one.id)).toEqual([2, 1])
    expect(upcoming.interviews[0].application).toEqual({
      id: 2,
      title: 'SRE',
      company: 'Acme',
      url: 'https://example.org/jobs/2',
      status: 'interviewing',
    })
    const all = await json(await api.app.request('/interviews?all=true'))
    expect(all.interviews.map((one: {id: number}) => one.id)).toEqual([2, 1, 3])
    expect((await api.app.request('/interviews?all=maybe')).status).toBe(422)
  })

  it('serves the calendar as text/calendar that ical.js reads', async () => {
    const response = await api.app.request('/interviews.ics')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
    const calendar = new ICAL.Component(ICAL.parse(await response.text()))
    const events = calendar.getAllSubcomponents('vevent').map((event) => new ICAL.Event(event))
    expect(events).toHaveLength(3)
    expect(events.find((event) => event.uid === 'interview-2@jobagent')?.summary).toBe('Interview: SRE at Acme (phone)')
  })

  it('names the interviews of the next 48 hours in GET /applications/followups', async () => {
    const body = await json(await api.app.request('/applications/followups'))
    expect(body.upcoming_interviews.map((one: {id: number}) => one.id)).toEqual([2])
    expect(body.upcoming_interviews[0].when).toMatch(/^tomorrow 16:00/)
    expect(body.waiting_after_interview).toEqual([])
  })
})
