import {join} from 'node:path'
import fc from 'fast-check'
import '../helpers/fuzz.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {APPLICATION_STATUSES} from '../../src/core/applications/application.js'
import {applicationInputSchema} from '../../src/core/applications/validation.js'
import {applicationUrlKey} from '../../src/core/url-identity.js'
import {webFiles} from '../../src/http/routes/root.js'
import {
  SqliteShipmentMetadataWriter,
  SqliteTelemetryWriter,
} from '../../src/shipments/storage/sqlite/shipment-writers.js'
import {type TestApi, testApi} from '../helpers/http.js'

// Random requests against the real app (real services on a temporary SQLite tracker and shipments database):
// whatever arrives, the answer is never a 5xx other than 503, never a thrown exception, every error body is
// {error: {code, message}}, and afterwards the stored data is still valid.

const TOKEN = 'fuzz-token-0123456789'
/** URLs several generated requests share, so that POSTs collide (409) and PATCHes find what a POST stored. */
const KNOWN_URLS = ['https://example.org/jobs/1', 'https://EXAMPLE.org/jobs/1/', 'http://jobs.example.com/a?b=c']
const SHIPMENT_IDS = ['SHP-1', 'SHP 2/β', "O'Brien"]

// --- arbitraries --------------------------------------------------------------------------------------------------

const printable = fc.string({unit: fc.integer({min: 0x20, max: 0x7e}).map((code) => String.fromCharCode(code))})

/** Any text the tracker may be sent, including what breaks naive SQL, JSON or HTML handling. */
const nastyText = fc.oneof(
  fc.string({unit: 'grapheme', maxLength: 40}),
  printable,
  fc.constantFrom("'; DROP TABLE applications; --", '{"$gt": ""}', '\u0000', '<script>x</script>', '=cmd|', '𝔘𝔫𝔦'),
)

const urlText = fc.oneof(
  fc.constantFrom(...KNOWN_URLS),
  fc.webUrl({withQueryParameters: true, withFragments: true}),
  nastyText,
  nastyText.map((text) => `https://example.org/${text}`),
  fc.constantFrom(
    'javascript:alert(1)',
    'ftp://example.org/x',
    'https://',
    'https://x/%zz',
    `https://x/${'a'.repeat(3000)}`,
  ),
)

const statusText = fc.oneof(fc.constantFrom(...APPLICATION_STATUSES), nastyText)

const applicationInput = fc.record(
  {
    title: fc.oneof(nastyText, fc.jsonValue()),
    company: nastyText,
    location: nastyText,
    url: urlText,
    source: nastyText,
    status: statusText,
    notes: fc.oneof(nastyText, fc.constant('n'.repeat(10_001))),
  },
  {requiredKeys: []},
)

/** Path segments: valid and invalid percent-encodings, dot segments, encoded slashes and NULs, unicode. */
const segment = fc.oneof(
  fc.constantFrom('', '.', '..', '%', '%zz', '%2', '%E0%A4%A', '%00', '%2F', '%252F', '%C0%AF', '%FF', '%u0041', '%%'),
  fc.string({unit: 'grapheme', maxLength: 20}).map(encodeURIComponent),
  fc.stringMatching(/^[A-Za-z0-9%._~!$&'()*+,;=:@-]{0,20}$/),
  fc.constantFrom(...SHIPMENT_IDS.map(encodeURIComponent)),
)

const path = fc.oneof(
  fc.constantFrom('/', '/health', '/metrics', '/jobs', '/applications', '/applications/export.csv', '/openapi.json'),
  fc.constantFrom('/docs', '/app.js', '/nope', '//', '/applications/', '/shipments//unified'),
  urlText.map((url) => `/applications/${encodeURIComponent(url)}/status`),
  segment.map((id) => `/applications/${id}/status`),
  segment.map((id) => `/shipments/${id}/unified`),
  fc.array(segment, {maxLength: 5}).map((segments) => `/${segments.join('/')}`),
)

const query = fc.option(
  fc
    .array(
      fc.tuple(
        fc.constantFrom('status', 'notes', 'tags', 'raw', 'x'),
        fc.oneof(segment, statusText.map(encodeURIComponent)),
      ),
      {
        maxLength: 3,
      },
    )
    .map((pairs) => `?${pairs.map(([key, value]) => `${key}=${value}`).join('&')}`),
  {nil: ''},
)

const method = fc.oneof(
  fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'),
  fc.stringMatching(/^[A-Z]{1,8}$/).filter((name) => !['CONNECT', 'TRACE', 'TRACK'].includes(name)),
)

const headers = fc.record(
  {
    'content-type': fc.oneof(
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'APPLICATION/JSON',
        'application/problem+json',
      ),
      fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/jsonx',
      ),
      printable,
    ),
    'content-length': fc.oneof(
      fc.nat({max: 200_000}).map(String),
      fc.constantFrom('-1', 'abc', '1e3', '0', '99999999999999999999'),
    ),
    authorization: fc.oneof(
      fc.constant(`Bearer ${TOKEN}`),
      printable.map((text) => `Bearer ${text}`),
      printable,
    ),
    accept: fc.constantFrom('text/html', 'application/json', '*/*', 'text/csv'),
    'x-forwarded-for': printable,
  },
  {requiredKeys: []},
)

/** Nesting that a recursive parser or validator would not survive: [[[[...]]]] and {"a":{"a":...}}. */
const deepJson = fc
  .integer({min: 1, max: 30_000})
  .chain((depth) =>
    fc.constantFrom('['.repeat(depth) + ']'.repeat(depth), `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  )

const body = fc.oneof(
  fc.constant(undefined),
  fc.uint8Array({maxLength: 512}),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  applicationInput.map((value) => JSON.stringify(value)),
  fc.record({status: statusText, notes: nastyText}, {requiredKeys: []}).map((value) => JSON.stringify(value)),
  deepJson,
  fc.constantFrom('{"title": "Dev",', '', 'null', '"x"', `{"notes": "${'x'.repeat(70_000)}"}`),
)

const anyRequest = fc.record({method, path, query, headers, body})

/** Well-formed JSON requests to the routes that write, so the fuzzing reaches the services and the database. */
const jsonHeaders = fc
  .record(
    {authorization: fc.constant(`Bearer ${TOKEN}`), accept: fc.constantFrom('application/json', '*/*')},
    {requiredKeys: []},
  )
  .map((extra) => ({...extra, 'content-type': 'application/json'}))

const recordApplication = fc.record({
  method: fc.constant('POST'),
  path: fc.constant('/applications'),
  query: fc.constant(''),
  headers: jsonHeaders,
  body: applicationInput.map((value) => JSON.stringify(value)),
})

const changeStatus = fc.record({
  method: fc.constantFrom('PATCH', 'GET'),
  path: urlText.map((url) => `/applications/${encodeURIComponent(url)}/status`),
  query,
  headers: jsonHeaders,
  body: fc.record({status: statusText, notes: nastyText}, {requiredKeys: []}).map((value) => JSON.stringify(value)),
})

const requestInit = fc.oneof(
  {arbitrary: anyRequest, weight: 4},
  {arbitrary: recordApplication, weight: 3},
  {arbitrary: changeStatus, weight: 3},
)

type RequestSpec = typeof requestInit extends fc.Arbitrary<infer T> ? T : never

function toRequest(spec: RequestSpec): Request | undefined {
  const hasBody = spec.body !== undefined && spec.method !== 'GET' && spec.method !== 'HEAD'
  try {
    return new Request(`http://localhost${spec.path}${spec.query}`, {
      method: spec.method,
      headers: spec.headers,
      ...(hasBody ? {body: spec.body as NonNullable<RequestInit['body']>} : {}),
    })
  } catch {
    // The Request constructor refused it (a header value fetch forbids): no server would ever see this request.
    return undefined
  }
}

/** The checks every answer must pass. */
async function checkAnswer(spec: RequestSpec, response: Response): Promise<void> {
  const label = `${spec.method} ${spec.path}${spec.query} -> ${response.status}`
  expect(response.status < 500 || response.status === 503, label).toBe(true)
  if (response.status < 400 || spec.method === 'HEAD') {
    await response.body?.cancel()
    return
  }
  const text = await response.text()
  let parsed: unknown
  expect(
    () => {
      parsed = JSON.parse(text)
    },
    `${label}: ${text.slice(0, 200)}`,
  ).not.toThrow()
  expect(parsed, label).toMatchObject({error: {code: expect.any(String), message: expect.any(String)}})
}

// --- the properties -----------------------------------------------------------------------------------------------

describe('the HTTP API under random requests', () => {
  let api: TestApi
  let guarded: TestApi

  beforeAll(async () => {
    api = testApi()
    guarded = testApi({app: {apiToken: TOKEN}})
    for (const target of [api, guarded]) {
      await seedShipments(target)
      for (const url of KNOWN_URLS.slice(1)) {
        await target.context.applications.record({title: 'Seed', company: 'Acme', url, source: 'fuzz'})
      }
    }
  })

  afterAll(async () => {
    await api?.cleanup()
    await guarded?.cleanup()
  })

  it('never answers 5xx (but 503), never throws, and always sends the error body', async () => {
    await fc.assert(
      fc.asyncProperty(requestInit, async (spec) => {
        const request = toRequest(spec)
        fc.pre(request !== undefined)
        await checkAnswer(spec, await api.app.request(request as Request))
      }),
      {numRuns: 3000},
    )
    expect(api.logLines.filter((line) => line.includes('failed unexpectedly'))).toEqual([])
  })

  it('answers 401 with the error body to every request without the right token, whatever its headers', async () => {
    await fc.assert(
      fc.asyncProperty(requestInit, async (spec) => {
        const request = toRequest(spec)
        fc.pre(request !== undefined)
        const response = await guarded.app.request(request as Request)
        await checkAnswer(spec, response)
        const authorized = spec.headers.authorization === `Bearer ${TOKEN}`
        const open = ['GET', 'HEAD'].includes(spec.method) && isOpenPath(new URL((request as Request).url).pathname)
        if (!authorized && !open) expect(response.status, `${spec.method} ${spec.path}`).toBe(401)
      }),
      {numRuns: 1000},
    )
    expect(guarded.logLines.filter((line) => line.includes('failed unexpectedly'))).toEqual([])
  })

  it('leaves a database that passes integrity_check and only valid applications in it', () => {
    for (const target of [api, guarded]) {
      const db = target.context.trackerDb
      expect(db.pragma('integrity_check', {simple: true})).toBe('ok')
      expect(db.pragma('foreign_key_check')).toEqual([])
      const rows = db.prepare('SELECT * FROM applications').all() as Record<string, string>[]
      // The fuzzing reached the database: it stored applications and changed statuses, not only refused requests.
      expect(rows.length).toBeGreaterThan(KNOWN_URLS.length)
      for (const row of rows) {
        const {title, company, location, url, source, status, notes} = row
        const check = applicationInputSchema.safeParse({title, company, location, url, source, status, notes})
        expect(check.success, `stored row ${JSON.stringify(row).slice(0, 300)}`).toBe(true)
        expect(row.url_key).toBe(applicationUrlKey(row.url as string))
        expect(row.applied_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/)
      }
      const keys = rows.map((row) => row.url_key)
      expect(new Set(keys).size).toBe(keys.length)
      const history = db.prepare('SELECT old_status, new_status FROM status_history').all() as Record<string, string>[]
      expect(history.length).toBeGreaterThan(0)
      for (const change of history) {
        expect(APPLICATION_STATUSES).toContain(change.old_status)
        expect(APPLICATION_STATUSES).toContain(change.new_status)
      }
    }
  })
})

const web = webFiles()

/** The routes docs/API.md keeps open with a token: health, metrics, the docs and the web page's files. */
function isOpenPath(path: string): boolean {
  // As the router sees it: dot segments already resolved by the URL parser, each run of valid percent-escapes
  // decoded, invalid ones left as they are.
  const decoded = path.replace(/(?:%[\dA-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run
    }
  })
  return /^\/(health|metrics|openapi\.json|docs(\/.*)?)?$/.test(decoded) || web.has(decoded)
}

/** Shipments in the embedded store, so lookups find rows, miss rows and meet odd ids. */
async function seedShipments(target: TestApi): Promise<void> {
  const file = join(target.context.paths.dataDir, 'shipments.db')
  const fields = {idField: 'shipment_id', timeField: 'recorded_at'}
  const metadata = new SqliteShipmentMetadataWriter({file, table: 'shipments', idColumn: 'shipment_id'})
  const telemetry = new SqliteTelemetryWriter({file, table: 'telemetry', ...fields})
  try {
    await metadata.upsert(SHIPMENT_IDS.map((id) => ({shipment_id: id, origin: 'Rotterdam'})))
    await telemetry.append([{id: 'SHP-1', recorded_at: '2026-03-01T10:00:00.000Z', payload: {lat: 1}}])
  } finally {
    await metadata.close()
    await telemetry.close()
  }
}
