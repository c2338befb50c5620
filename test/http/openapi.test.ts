import {Validator} from '@seriousme/openapi-schema-validator'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {json, type TestApi, testApi} from '../helpers/http.js'

let api: TestApi

beforeAll(() => {
  api = testApi()
})

afterAll(async () => {
  await api.cleanup()
})

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3 document', async () => {
    const document = await json(await api.app.request('/openapi.json'))
    const result = await new Validator().validate(document as Record<string, unknown>)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(document.openapi).toMatch(/^3\./)
  })

  it('documents every endpoint, the error body and the bearer token', async () => {
    const document = await json(await api.app.request('/openapi.json'))
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/',
        '/applications',
        '/applications/export.csv',
        '/applications/{url}/status',
        '/health',
        '/jobs',
        '/jobs/last',
        '/metrics',
      ]),
    )
    expect(Object.keys(document.paths['/applications/{url}/status']).sort()).toEqual(['get', 'patch'])
    expect(document.paths['/applications'].post.responses).toHaveProperty('409')
    expect(document.paths['/applications'].post.responses).toHaveProperty('422')
    expect(document.components.schemas).toHaveProperty('Error')
    expect(document.components.schemas.ApplicationRequest.required).toEqual(
      expect.arrayContaining(['title', 'company', 'url', 'source']),
    )
    expect(document.paths['/jobs/last'].get.description).toContain('jobagent jobs')
    expect(document.paths['/jobs/last'].get.responses).toHaveProperty('422')
    expect(document.components.schemas.ListedJob.required).toEqual(
      expect.arrayContaining(['id', 'url', 'tracked_status', 'is_new']),
    )
    // The nullable tracked_status must not make the shared status component nullable.
    expect(document.components.schemas.ApplicationStatus).not.toHaveProperty('nullable')
    expect(document.components.securitySchemes.bearer).toMatchObject({type: 'http', scheme: 'bearer'})
    expect(document.paths['/health'].get.security).toEqual([])
  })
})

describe('GET /docs', () => {
  it('serves the docs page and its assets from the installed package', async () => {
    const page = await api.app.request('/docs')
    expect(page.status).toBe(200)
    const html = await page.text()
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '')
    expect(assets).toEqual(
      expect.arrayContaining(['/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/init.js']),
    )
    expect(html).not.toMatch(/https?:\/\//)
    for (const asset of assets) {
      const response = await api.app.request(asset)
      expect([asset, response.status]).toEqual([asset, 200])
    }
    expect((await api.app.request('/docs/swagger-ui-bundle.js')).headers.get('content-type')).toBe(
      'text/javascript; charset=utf-8',
    )
    expect((await api.app.request('/docs/swagger-ui.css')).headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect((await api.app.request('/docs/package.json')).status).toBe(404)
  })
})
