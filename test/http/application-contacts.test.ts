import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {applicationBody, json, jsonBody, type TestApi, testApi} from '../helpers/http.js'

let api: TestApi

beforeEach(async () => {
  api = testApi()
  await api.app.request('/applications', jsonBody(applicationBody({url: 'https://example.org/jobs/1'})))
})

afterEach(async () => {
  await api.cleanup()
})

describe('POST /applications/{url}/contacts', () => {
  it('adds a contact (201), lists it in GET /applications/{url} and records it in the history', async () => {
    const response = await api.app.request(
      `/applications/${encodeURIComponent('https://example.org/jobs/1')}/contacts`,
      jsonBody({name: 'Ann Lee', role: 'recruiter', email: 'ann@example.org', notes: 'call\nafter 3'}),
    )
    expect(response.status).toBe(201)
    expect(await json(response)).toMatchObject({
      id: 1,
      application_id: 1,
      name: 'Ann Lee',
      role: 'recruiter',
      reach: 'ann@example.org',
      notes: 'call\nafter 3',
    })
    const detail = await json(await api.app.request('/applications/1'))
    expect(detail.contacts).toEqual([expect.objectContaining({id: 1, name: 'Ann Lee'})])
    expect(detail.history).toEqual([
      expect.objectContaining({change: 'contact', details: {added: 'Ann Lee (recruiter) <ann@example.org>'}}),
    ])
  })

  it('refuses a contact without a name or with an address that is none (422), naming the field', async () => {
    const noName = await api.app.request('/applications/1/contacts', jsonBody({role: 'recruiter'}))
    expect(noName.status).toBe(422)
    expect((await json(noName)).error.details).toEqual([
      expect.objectContaining({field: 'name', message: 'name is required'}),
    ])
    const badLink = await api.app.request('/applications/1/contacts', jsonBody({name: 'Ann', link: 'ftp://x.org'}))
    expect(badLink.status).toBe(422)
    expect((await json(badLink)).error.details).toEqual([
      expect.objectContaining({field: 'link', message: 'link must be an http:// or https:// address'}),
    ])
    const both = await api.app.request(
      '/applications/1/contacts',
      jsonBody({name: 'Ann', email: 'a@example.org', link: 'https://example.org'}),
    )
    expect(both.status).toBe(422)
    expect((await json(both)).error.details).toEqual([
      expect.objectContaining({field: 'link', message: 'give only one of email, link'}),
    ])
    const missing = await api.app.request('/applications/9/contacts', jsonBody({name: 'Ann'}))
    expect(missing.status).toBe(404)
  })
})

describe('DELETE /applications/{url}/contacts/{contact_id}', () => {
  it('removes the contact, keeps who it was in the history, and answers 404 for one the application lacks', async () => {
    await api.app.request('/applications/1/contacts', jsonBody({name: 'Ann Lee'}))
    const removed = await api.app.request('/applications/1/contacts/1', {method: 'DELETE'})
    expect(removed.status).toBe(200)
    expect(await json(removed)).toMatchObject({id: 1, name: 'Ann Lee'})
    const detail = await json(await api.app.request('/applications/1'))
    expect(detail.contacts).toEqual([])
    expect(detail.history.at(-1)).toMatchObject({change: 'contact', details: {removed: 'Ann Lee'}})
    const again = await api.app.request('/applications/1/contacts/1', {method: 'DELETE'})
    expect(again.status).toBe(404)
    expect((await json(again)).error.message).toBe('#1 has no contact 1')
    const notNumber = await api.app.request('/applications/1/contacts/x', {method: 'DELETE'})
    expect(notNumber.status).toBe(422)
  })
})

describe('GET /applications/export.csv', () => {
  it('adds id, the salary lines and the contacts after the eight columns', async () => {
    await api.app.request('/applications/1/contacts', jsonBody({name: 'Ann', reach: 'https://example.org/ann'}))
    await api.app.request('/applications/1', jsonBody({salary_expected: '€80k'}, {method: 'PATCH'}))
    const csv = await (await api.app.request('/applications/export.csv')).text()
    const [header, row] = csv.split('\r\n')
    expect(header).toBe(
      'title,company,location,url,source,applied_date,status,notes,id,salary_expected,salary_offered,referral,contacts',
    )
    expect(row).toMatch(
      /,1,€80k,,,"\[{""name"":""Ann"",""role"":"""",""reach"":""https:\/\/example.org\/ann"",""notes"":""""}\]"$/,
    )
  })
})
