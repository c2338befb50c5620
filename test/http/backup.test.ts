import {afterEach, describe, expect, it} from 'vitest'
import {parseBackup} from '../../src/core/applications/backup.js'
import {json, type TestApi, testApi} from '../helpers/http.js'

const TOKEN = 'backup-token-0123456789'
const WEBHOOK = 'https://hooks.slack.com/services/T000/B000/secretpart'

let api: TestApi | undefined

afterEach(async () => {
  await api?.cleanup()
  api = undefined
})

const auth = {Authorization: `Bearer ${TOKEN}`}

describe('GET /backup', () => {
  it('needs the token when one is set and answers the backup file, its secrets left out', async () => {
    api = testApi({
      config: {sources: [], notify: {urls: [WEBHOOK]}, profile: {roles: ['sre']}},
      app: {apiToken: TOKEN},
    })
    const recorded = await api.app.request('/applications', {
      method: 'POST',
      headers: {...auth, 'Content-Type': 'application/json'},
      body: JSON.stringify({
        title: 'SRE',
        company: 'Initech',
        location: 'Remote',
        url: 'https://example.org/jobs/7',
        source: 'hn',
        notes: 'ask about on-call',
      }),
    })
    expect(recorded.status).toBe(201)
    expect((await api.app.request('/backup')).status).toBe(401)
    const response = await api.app.request('/backup', {headers: auth})
    expect(response.status).toBe(200)
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="jobagent-backup-\d{4}-\d{2}-\d{2}\.json"$/,
    )
    const text = await response.text()
    expect(text).not.toContain('secretpart')
    // What restore reads: the same file as `jobagent backup` writes.
    const backup = parseBackup(text, 'GET /backup')
    expect(backup.applications).toMatchObject([
      {id: 1, url: 'https://example.org/jobs/7', notes: 'ask about on-call', history: []},
    ])
    expect(backup.profile).toEqual({roles: ['sre']})
    expect(backup.config).toEqual({sources: [], notify: {}})
    expect(backup.config_left_out).toEqual(['notify.urls'])
  })

  it('is in the OpenAPI document with the Backup schema', async () => {
    api = testApi()
    const document = await json(await api.app.request('/openapi.json'))
    const operation = document.paths['/backup'].get
    expect(operation.responses['200'].content['application/json'].schema).toEqual({$ref: '#/components/schemas/Backup'})
    expect(Object.keys(document.components.schemas.Backup.properties)).toEqual([
      'format',
      'version',
      'created_at',
      'applications',
      'verdicts',
      'document_copies',
      'profile',
      'config',
      'config_left_out',
    ])
  })
})
