import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import type {HttpServices} from '../../src/app/http-services.js'
import {ConfigurationError, UnavailableError, ValidationError} from '../../src/core/errors.js'
import {recordRun} from '../../src/core/jobs/run-changes.js'
import {localTimestamp} from '../../src/core/time.js'
import {createHttpApp} from '../../src/http/app.js'
import {withHttpStatus} from '../../src/http/errors.js'
import {tempDir} from '../helpers/cli.js'
import {applicationBody, json, jsonBody, statusPath, type TestApi, testApi} from '../helpers/http.js'
import {closesNothing, runRecord} from '../helpers/job-details.js'
import {memoryLogger, parseLogLine} from '../helpers/memory-log.js'

let api: TestApi | undefined

afterEach(async () => {
  await api?.cleanup()
  api = undefined
})

function start(options: Parameters<typeof testApi>[0] = {}): TestApi {
  api = testApi(options)
  return api
}

/** Services whose every call fails with `error`, to see how each kind of failure is answered. */
function failingServices(error: unknown): HttpServices {
  const fail = async () => {
    throw error
  }
  return {
    version: '9.9.9',
    applications: {
      record: fail,
      find: fail,
      get: fail,
      status: fail,
      list: fail,
      page: fail,
      changeStatus: fail,
      edit: fail,
      setNext: fail,
      remove: fail,
      purge: fail,
      stats: fail,
    },
    contacts: {add: fail, list: fail, remove: fail, withContacts: fail},
    jobs: {
      search: fail,
      lastRunPage: fail,
      withTracking: fail,
      rankFound: fail,
      trackLink: fail,
      giveVerdict: fail,
      undoVerdict: fail,
    },
    backup: {create: fail},
    runs: {list: fail},
    followUps: {due: fail, snooze: fail, afterDays: 7, interviews: fail, nextActions: fail},
    interviews: {schedule: fail, remove: fail, list: fail, of: fail, calendar: fail},
    healthChecks: [],
  }
}

describe('GET /', () => {
  it('describes the service as JSON to API clients', async () => {
    const {app} = start()
    const response = await app.request('/')
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual({
      service: 'jobagent',
      version: expect.any(String),
      status: 'ok',
      docs: '/docs',
    })
    expect(response.headers.get('vary')).toBe('Accept')
  })

  it('serves the web page and its assets to browsers when the page exists', async () => {
    const web = tempDir('jobagent-web-')
    try {
      writeFileSync(join(web.path, 'index.html'), '<!doctype html><title>jobagent</title>')
      mkdirSync(join(web.path, 'assets'))
      writeFileSync(join(web.path, 'assets', 'app.js'), 'console.log(1)')
      writeFileSync(join(web.path, 'style.css'), 'body{}')
      const {app} = start({app: {webDir: web.path}})
      const page = await app.request('/', {headers: {accept: 'text/html,application/xhtml+xml,*/*;q=0.8'}})
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(await page.text()).toContain('<title>jobagent</title>')
      const script = await app.request('/assets/app.js')
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
      expect(await script.text()).toBe('console.log(1)')
      expect((await app.request('/style.css')).headers.get('content-type')).toBe('text/css; charset=utf-8')
      expect((await app.request('/missing.js')).status).toBe(404)
      expect((await app.request('/../package.json')).status).toBe(404)
    } finally {
      web.cleanup()
    }
  })

  it('answers JSON to a browser when there is no web page', async () => {
    const web = tempDir('jobagent-web-')
    try {
      const {app} = start({app: {webDir: web.path}})
      const response = await app.request('/', {headers: {accept: 'text/html'}})
      expect((await json(response)).service).toBe('jobagent')
    } finally {
      web.cleanup()
    }
  })
})

describe('GET /health', () => {
  it('passes with a working database and a recent successful run', async () => {
    const {app, context} = start()
    const now = localTimestamp()
    await recordRun(context.jobStore, runRecord(now), {...closesNothing, found: []})
    const response = await app.request('/health')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/health+json')
    const body = await json(response)
    expect(body).toMatchObject({status: 'pass', version: expect.any(String), uptime_seconds: expect.any(Number)})
    expect(body.checks.tracker_database[0]).toMatchObject({
      status: 'pass',
      observedUnit: 'ms',
      observedValue: expect.any(Number),
    })
    expect(body.checks.last_run[0]).toMatchObject({status: 'pass', result: 'ok', observedUnit: 's'})
  })

  it('warns when there has been no run, or the last one failed or is older than 48 hours', async () => {
    const {app, context} = start()
    expect((await json(await app.request('/health'))).checks.last_run[0]).toMatchObject({
      status: 'warn',
      output: 'no run yet',
    })
    const old = localTimestamp(new Date(Date.now() - 50 * 3600_000))
    await context.jobStore.saveFailedRun({
      started_at: old,
      finished_at: old,
      status: 'failed',
      mode: 'production',
      jobs_found: 0,
      new_jobs: 0,
      notified: 0,
      sources: [],
      error: 'no source succeeded',
    })
    const response = await app.request('/health')
    expect(response.status).toBe(200)
    const body = await json(response)
    expect(body.status).toBe('warn')
    expect(body.checks.last_run[0]).toMatchObject({status: 'warn', result: 'failed'})
    // Why it failed may name files and URLs: GET /runs, behind the token when there is one, has it.
    expect(body.checks.last_run[0].output).toContain('the last run failed')
    expect(body.checks.last_run[0].output).not.toContain('no source succeeded')
    expect(body.checks.last_run[0].output).toContain('50 h old')
  })

  it('fails with 503 when the tracker database cannot be read', async () => {
    const home = tempDir('jobagent-http-')
    api = undefined
    try {
      writeFileSync(join(home.path, 'config.json'), '{}')
      writeFileSync(join(home.path, 'jobagent.db'), 'this is not a database, just text '.repeat(200))
      const {AppContext} = await import('../../src/app/context.js')
      const {createHttpServices} = await import('../../src/app/http-services.js')
      const context = new AppContext({env: {JOBAGENT_HOME: home.path}})
      const app = createHttpApp(createHttpServices(context), {logger: memoryLogger().logger})
      const response = await app.request('/health')
      expect(response.status).toBe(503)
      const body = await json(response)
      expect(body.status).toBe('fail')
      expect(body.checks.tracker_database[0]).toMatchObject({
        status: 'fail',
        output: 'the SQLite database is corrupt or not a jobagent database',
      })
      expect(JSON.stringify(body)).not.toContain(home.path)
      await context.close()
    } finally {
      home.cleanup()
    }
  })

  it('runs checks added by other services, and a check that throws or hangs fails on its own', async () => {
    const services = failingServices(new Error('unused'))
    services.healthChecks.push(
      {name: 'shipment_metadata', run: async () => ({status: 'pass', time: new Date().toISOString()})},
      {
        name: 'shipment_telemetry',
        run: async () => {
          throw new Error('ECONNREFUSED 10.0.0.1:27017')
        },
      },
      {name: 'slow_store', run: () => new Promise(() => {})},
    )
    const app = createHttpApp(services, {logger: memoryLogger().logger, healthCheckTimeoutMs: 100})
    const response = await app.request('/health')
    expect(response.status).toBe(503)
    const body = await json(response)
    expect(body.checks.shipment_metadata[0].status).toBe('pass')
    expect(body.checks.shipment_telemetry[0]).toMatchObject({
      status: 'fail',
      output: 'check failed; see the server log',
    })
    expect(body.checks.slow_store[0]).toMatchObject({status: 'fail', output: 'timed out after 100 ms'})
  })
})

describe('errors', () => {
  it('answers 405 with Allow and the error body for a method a known path does not take', async () => {
    const {app} = start()
    const response = await app.request(statusPath('https://example.org/jobs/1').replace(/\/status$/, ''), {
      method: 'PUT',
    })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE')
    expect(await json(response)).toEqual({
      error: {code: 'method_not_allowed', message: expect.stringContaining('GET, HEAD, PATCH, DELETE'), details: []},
    })
    expect((await app.request('/nope', {method: 'DELETE'})).status).toBe(404)
  })

  it('answers 405 on every documented path for every method it does not document', async () => {
    const {app} = start()
    const document = await json(await app.request('/openapi.json'))
    const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']
    const templates = Object.entries<Record<string, unknown>>(document.paths)
    for (const [template] of templates) {
      const path = template.replace(/\{[^}]+\}/g, 'sample-id')
      // Every documented template the path fits answers it: /applications/export.csv is also /applications/{url}.
      const fits = templates.filter(([other]) =>
        new RegExp(`^${other.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`).test(path),
      )
      const documented = fits.flatMap(([, operations]) => Object.keys(operations).map((method) => method.toUpperCase()))
      const allowed = methods.filter((method) => documented.includes(method === 'HEAD' ? 'GET' : method))
      for (const method of methods.filter((method) => !allowed.includes(method))) {
        const response = await app.request(path, {method})
        expect([method, path, response.status, response.headers.get('allow')]).toEqual([
          method,
          path,
          405,
          allowed.join(', '),
        ])
      }
    }
  })

  it('answers 404 with the error body for an unknown route', async () => {
    const {app} = start()
    const response = await app.request('/nope')
    expect(response.status).toBe(404)
    expect(await json(response)).toEqual({error: {code: 'not_found', message: 'no route for GET /nope', details: []}})
  })

  it('answers 503 with Retry-After when a store is unavailable', async () => {
    const error = new UnavailableError('/home/me/.local/share/jobagent/jobagent.db is locked by another process', {
      retryAfterSeconds: 1,
      publicMessage: 'the SQLite database is locked by another process',
    })
    const log = memoryLogger()
    const app = createHttpApp(failingServices(error), {logger: log.logger})
    const response = await app.request('/applications')
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('1')
    expect((await json(response)).error).toEqual({
      code: 'unavailable',
      message: 'the SQLite database is locked by another process',
      details: [],
    })
    // The path is for the operator: in the server log, not in the answer.
    expect(log.lines.join('\n')).toContain('/home/me/.local/share/jobagent/jobagent.db is locked')
  })

  it('hides unexpected errors behind a bare 500 and logs them as ERROR', async () => {
    const log = memoryLogger()
    const error = new Error('SQLITE_ERROR: near "SELEC": syntax error in SELECT * FROM applications')
    const app = createHttpApp(failingServices(error), {logger: log.logger})
    const response = await app.request('/applications')
    expect(response.status).toBe(500)
    const text = await response.text()
    expect(JSON.parse(text)).toEqual({error: {code: 'internal', message: 'internal error', details: []}})
    expect(text).not.toMatch(/SQLITE|SELECT|at /)
    const errors = log.parsed().filter((line) => line.level === 'ERROR')
    expect(errors).toHaveLength(1)
    expect(errors[0]?.name).toBe('jobagent.http')
    expect(errors[0]?.message).toContain('SQLITE_ERROR')
  })

  it('answers configuration errors with 503 naming the key, URLs masked, and logs them in full', async () => {
    const log = memoryLogger()
    const error = new ConfigurationError('notify.urls holds json://user:s3cret@host/hooks/tok3n which is invalid', {
      details: [{field: 'notify.urls', message: 'json://user:s3cret@host/hooks/tok3n is invalid'}],
    })
    const app = createHttpApp(failingServices(error), {logger: log.logger})
    const response = await app.request('/applications')
    expect(response.status).toBe(503)
    const body = await json(response)
    expect(body.error).toEqual({
      code: 'configuration',
      message: 'invalid configuration: notify.urls holds json://user:***@host/hooks/*** which is invalid',
      details: [{field: 'notify.urls', message: 'json://user:***@host/hooks/*** is invalid'}],
    })
    expect(JSON.stringify(body)).not.toMatch(/s3cret|tok3n/)
    expect(log.lines.some((line) => line.includes('json://user:s3cret@host/hooks/tok3n'))).toBe(true)
  })

  it('lets a route give one error its own status', async () => {
    const error = withHttpStatus(
      new ValidationError('malformed shipment id', {details: [{field: 'shipment_id', message: 'bad'}]}),
      400,
    )
    const app = createHttpApp(failingServices(error), {logger: memoryLogger().logger})
    const response = await app.request('/applications')
    expect(response.status).toBe(400)
    expect((await json(response)).error.code).toBe('validation')
  })
})

describe('the access log', () => {
  it('writes one line per request in the run log format, without the query string or token', async () => {
    const {app, logLines} = start({app: {apiToken: 'secret-token-123'}})
    await app.request('/applications?status=applied', {headers: {authorization: 'Bearer secret-token-123'}})
    await app.request(statusPath('https://example.org/jobs/1'), {headers: {authorization: 'Bearer wrong'}})
    expect(logLines).toHaveLength(2)
    const [first, second] = logLines.map(parseLogLine)
    expect(first).toMatchObject({level: 'INFO', name: 'jobagent.http'})
    expect(first?.message).toMatch(/^GET \/applications 200 \d+\.\d ms$/)
    expect(second?.message).toMatch(
      /^GET \/applications\/https%3A%2F%2Fexample\.org%2Fjobs%2F1\/status 401 \d+\.\d ms$/,
    )
    expect(logLines.join('\n')).not.toContain('secret-token-123')
  })
})

describe('bearer token', () => {
  const token = 'a-long-random-token-0123456789'

  it('lets every request through when no token is configured', async () => {
    const {app} = start()
    expect((await app.request('/applications')).status).toBe(200)
  })

  it('refuses data routes without the right token with 401 and WWW-Authenticate', async () => {
    const {app} = start({app: {apiToken: token}})
    const missing = await app.request('/applications')
    expect(missing.status).toBe(401)
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="jobagent"')
    expect((await json(missing)).error.code).toBe('unauthorized')
    const wrong = await app.request('/applications', {headers: {authorization: `Bearer ${token}x`}})
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"')
    const basic = await app.request('/applications', {headers: {authorization: `Basic ${token}`}})
    expect(basic.status).toBe(401)
    const post = await app.request('/applications', jsonBody(applicationBody()))
    expect(post.status).toBe(401)
    const jobs = await app.request('/jobs')
    expect(jobs.status).toBe(401)
    const csv = await app.request('/applications/export.csv')
    expect(csv.status).toBe(401)
  })

  it('accepts the right token', async () => {
    const {app} = start({app: {apiToken: token}})
    const headers = {authorization: `Bearer ${token}`}
    expect((await app.request('/applications', {headers})).status).toBe(200)
    expect((await app.request('/applications', jsonBody(applicationBody(), {headers}))).status).toBe(201)
    expect((await app.request('/applications', {headers: {authorization: `bearer  ${token}`}})).status).toBe(200)
  })

  it('keeps health, metrics, the docs and the pages open', async () => {
    const {app} = start({app: {apiToken: token}})
    for (const path of ['/health', '/metrics', '/openapi.json', '/docs', '/docs/swagger-ui.css', '/']) {
      const response = await app.request(path)
      expect([path, response.status]).toEqual([path, 200])
    }
  })
})

describe('CORS', () => {
  it('is off unless origins are given', async () => {
    const {app} = start()
    const response = await app.request('/applications', {headers: {origin: 'http://localhost:5173'}})
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('allows only the given origins, and answers preflights before the token check', async () => {
    const {app} = start({app: {corsOrigins: ['http://localhost:5173'], apiToken: 'token-token-token'}})
    const preflight = await app.request('/applications', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization')
    const other = await app.request('/health', {headers: {origin: 'https://evil.example'}})
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('security headers', () => {
  const API_HEADERS = {
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  }
  const headersOf = (response: Response, names: readonly string[]) =>
    Object.fromEntries(names.map((name) => [name, response.headers.get(name)]))

  it('are on every API answer of the app itself, errors and refusals included', async () => {
    const {app} = start({app: {apiToken: 'token-token-token', corsOrigins: ['http://localhost:5173']}})
    const bearer = {authorization: 'Bearer token-token-token'}
    const answers = [
      await app.request('/applications', {headers: bearer}),
      await app.request('/health'),
      await app.request('/metrics'),
      await app.request('/applications', {headers: {...bearer, origin: 'http://localhost:5173'}}),
      await app.request(statusPath('https://example.org/none'), {headers: bearer}),
      await app.request('/runs?limit=abc', {headers: bearer}),
      await app.request('/applications'),
      await app.request('/nope', {headers: bearer}),
      await app.request('/applications', {method: 'DELETE', headers: bearer}),
      await app.request('/applications', {
        method: 'OPTIONS',
        headers: {origin: 'http://localhost:5173', 'access-control-request-method': 'POST'},
      }),
    ]
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 200, 404, 422, 401, 404, 405, 204])
    for (const response of answers) expect(headersOf(response, Object.keys(API_HEADERS))).toEqual(API_HEADERS)
  })

  it("give pages the page policy and keep a page's own Cache-Control, with CORS on or off", async () => {
    for (const corsOrigins of [[], ['http://localhost:5173']]) {
      const {app} = start({app: {corsOrigins}})
      const page = await app.request('/', {headers: {accept: 'text/html', origin: 'http://localhost:5173'}})
      const docs = await app.request('/docs')
      for (const response of [page, docs]) {
        expect(response.status).toBe(200)
        expect(response.headers.get('content-security-policy')).toContain("script-src 'self'")
        expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin')
        expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      }
      expect(page.headers.get('cache-control')).toBe('no-cache')
      expect(docs.headers.get('cache-control')).toBe('no-store')
      await api?.cleanup()
      api = undefined
    }
  })
})
