import {afterEach, describe, expect, it} from 'vitest'
import {json, jsonBody, type TestApi, testApi} from '../helpers/http.js'

// Every refusal of a request names the field and what it takes, in jobagent's words (never zod's), with the same
// wording whichever layer refuses it: `limit=abc` reads like `limit=0`.

let api: TestApi | undefined
afterEach(async () => {
  await api?.cleanup()
  api = undefined
})

async function refusal(path: string, init?: RequestInit) {
  api ??= testApi()
  const response = await api.app.request(path, init)
  return {status: response.status, error: (await json(response)).error}
}

describe('invalid request parameters', () => {
  it.each([
    ['/jobs/last?min_score=abc', 'min_score', 'min_score must be a whole number from 0 to 100, got "abc"'],
    ['/jobs/last?min_score=101', 'min_score', 'min_score must be a whole number from 0 to 100, got 101'],
    ['/jobs/last?offset=-1', 'offset', 'offset must be a whole number of 0 or more, got "-1"'],
    ['/jobs/last?limit=abc', 'limit', 'limit must be a whole number from 1 to 1000, got "abc"'],
    ['/jobs/last?new=yes', 'new', 'new must be one of: true, false, got "yes"'],
    ['/jobs/last?state=gone', 'state', 'state must be one of: open, closed, all, got "gone"'],
    ['/applications?limit=abc', 'limit', 'limit must be a whole number from 1 to 1000, got "abc"'],
    ['/applications?limit=0', 'limit', 'limit must be a whole number from 1 to 1000, got 0'],
    ['/applications/export.csv?raw=1', 'raw', 'raw must be one of: true, false, got "1"'],
    ['/runs?limit=2.5', 'limit', 'limit must be a whole number from 1 to 200, got "2.5"'],
  ])('%s is 422 naming %s', async (path, field, message) => {
    expect(await refusal(path)).toEqual({
      status: 422,
      error: {code: 'validation', message, details: [{field, message}]},
    })
  })
})

describe('invalid request bodies', () => {
  const tracked = encodeURIComponent('https://example.org/jobs/1')

  it('PATCH refuses notes and status of the wrong type in the words POST uses', async () => {
    const notes = await refusal(
      `/applications/${tracked}/status`,
      jsonBody({status: 'applied', notes: 5}, {method: 'PATCH'}),
    )
    expect(notes).toMatchObject({status: 422, error: {message: 'notes must be text'}})
    const status = await refusal(`/applications/${tracked}/status`, jsonBody({status: 5}, {method: 'PATCH'}))
    expect(status.error.message).toMatch(/^unknown status 5; use one of: saved, applied/)
  })

  it('names the field of a snooze, a tracking request and a body that is no object', async () => {
    expect(await refusal(`/applications/${tracked}/snooze`, jsonBody({days: 'a'}))).toMatchObject({
      status: 422,
      error: {message: 'days must be a whole number from 1 to 365, got "a"', details: [{field: 'days'}]},
    })
    expect((await refusal('/jobs/tracking', jsonBody({urls: 'a'}))).error.message).toBe(
      'urls must be a list of job URLs',
    )
    expect(await refusal('/applications', jsonBody(5))).toMatchObject({
      status: 422,
      error: {message: 'the body must be a JSON object'},
    })
  })

  it('never answers with zod wording', async () => {
    for (const [path, init] of [
      ['/jobs/last?min_score=abc', undefined],
      ['/applications', jsonBody([])],
      [`/applications/${tracked}/status`, jsonBody({notes: []}, {method: 'PATCH'})],
    ] as const) {
      expect(JSON.stringify((await refusal(path, init)).error), path).not.toMatch(
        /Invalid input|expected \w+, received/,
      )
    }
  })
})
