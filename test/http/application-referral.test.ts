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
