import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {json, type TestApi, testApi} from '../helpers/http.js'

let api: TestApi

beforeAll(() => {
  api = testApi()
})

afterAll(async () => {
  await api.cleanup()
})

const METHODS = ['get', 'post', 'put', 'patch', 'delete']

/** `/applications/{url}/status` as the router writes it: `/applications/:url/status`. */
function routerPath(documented: string): string {
  return documented.replace(/\{([^}]+)\}/g, ':$1')
}

/**
 * Every route the app answers, as `METHOD path`, leaving out middleware, catch-alls (the web page's files), the
 * API viewer's own files under /docs, and the empty-id forms of documented paths (`/shipments//unified`, which the
 * router cannot match with a parameter and which answer the documented 400).
 */
function servedRoutes(): Set<string> {
  const served = new Set<string>()
  for (const route of api.app.routes) {
    if (route.method === 'ALL' || route.path.includes('*') || route.path.includes('//')) continue
    if (route.path.startsWith('/docs/')) continue
    served.add(`${route.method} ${route.path}`)
  }
  return served
}

describe('the OpenAPI document against the routes that run', () => {
  it('documents exactly the operations the app serves', async () => {
    const document = (await json(await api.app.request('/openapi.json'))) as {
      paths: Record<string, Record<string, unknown>>
    }
    const documented = new Set<string>()
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of Object.keys(operations).filter((key) => METHODS.includes(key))) {
        documented.add(`${method.toUpperCase()} ${routerPath(path)}`)
      }
    }
    const served = servedRoutes()
    // The document itself and its viewer are served but not operations of the API.
    for (const own of ['GET /openapi.json', 'GET /docs']) served.delete(own)
    expect([...documented].filter((operation) => !served.has(operation)).sort()).toEqual([])
    expect([...served].filter((operation) => !documented.has(operation)).sort()).toEqual([])
  })
})
