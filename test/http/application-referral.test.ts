import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {applicationBody, json, jsonBody, type TestApi, testApi} from '../helpers/http.js'

let api: TestApi

beforeEach(() => {
  api = testApi()
})

afterEach(async () => {
  await api.cleanup()
})

describe('the referral of an application over the API', () => {
  it('is recorded by POST, listed, changed by PATCH with a history entry, and refused with a control character', async () => {
    const posted = await api.app.request(
      '/applications',
      jsonBody(applicationBody({url: 'https://example.org/jobs/1', referral: '  Ana Silva '})),
    )
    expect(posted.status).toBe(201)
    expect((await json(posted)).application).toMatchObject({id: 1, referral: 'Ana Silva'})

    const listed = await json(await api.app.request('/applications'))
    expect(listed.applications[0].referral).toBe('Ana Silva')

    const patched = await api.app.request('/applications/1', jsonBody({referral: 'Ben Okafor'}, {method: 'PATCH'}))
    expect(patched.status).toBe(200)
    expect(await json(patched)).toMatchObject({id: 1, referral: 'Ben Okafor'})
    const one = await json(await api.app.request('/applications/1'))
    expect(one.referral).toBe('Ben Okafor')
    expect(one.history.at(-1)).toMatchObject({
      change: 'edit',
      details: {referral: {from: 'Ana Silva', to: 'Ben Okafor'}},
    })

    const refused = await api.app.request('/applications/1', jsonBody({referral: 'Ana\u001b[31m'}, {method: 'PATCH'}))
    expect(refused.status).toBe(422)
    expect((await json(refused)).error.details[0]).toMatchObject({field: 'referral'})
  })

  it('is empty for an application recorded without one', async () => {
    const posted = await api.app.request(
      '/applications',
      jsonBody(applicationBody({url: 'https://example.org/jobs/2'})),
    )
    expect((await json(posted)).application.referral).toBe('')
  })

  it('is documented as a field of applications, of the request and of an edit', async () => {
    const document = await json(await api.app.request('/openapi.json'))
    const {schemas} = document.components
    const tracked = schemas.TrackedApplication.allOf.at(-1).properties
    expect(tracked.referral).toMatchObject({type: 'string'})
    expect(schemas.ApplicationRequest.properties.referral).toMatchObject({type: 'string', default: ''})
    expect(schemas.ApplicationEdit.properties.referral).toMatchObject({type: 'string'})
  })
})

describe('the next action and documents of an application over the API', () => {
  it('sets, moves and clears the next action with PUT /applications/{url}/next, listed with the follow-ups', async () => {
    await api.app.request('/applications', jsonBody(applicationBody({url: 'https://example.org/jobs/1'})))
    const put = (body: unknown) => api.app.request('/applications/1/next', jsonBody(body, {method: 'PUT'}))
    const set = await put({next_action: 'send portfolio', due: '2026-12-05'})
    expect(set.status).toBe(200)
    expect(await json(set)).toMatchObject({
      id: 1,
      next_action: 'send portfolio',
      next_action_due: '2026-12-05',
      documents: [],
    })
    const one = await json(await api.app.request('/applications/1'))
    expect(one).toMatchObject({next_action: 'send portfolio', next_action_due: '2026-12-05', documents: []})
    const followUps = await json(await api.app.request('/applications/followups'))
    expect(followUps.next_actions.map((application: {id: number}) => application.id)).toEqual([1])

    const badDay = await put({due: '2026-13-01'})
    expect(badDay.status).toBe(422)
    expect((await json(badDay)).error.details[0]).toMatchObject({field: 'due'})
    expect(await json(await put({due: '2026-12-09'}))).toMatchObject({next_action_due: '2026-12-09'})
    expect(await json(await put({next_action: ''}))).toMatchObject({next_action: '', next_action_due: null})
  })

  it('documents the new fields and the route', async () => {
    const document = await json(await api.app.request('/openapi.json'))
    const fields = document.components.schemas.TrackedApplication.allOf.at(-1).properties
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(['next_action', 'next_action_due', 'documents']))
    expect(fields.documents.items.properties.sha256.type).toBe('string')
    expect(document.paths['/applications/{url}/next'].put).toBeDefined()
  })
})
