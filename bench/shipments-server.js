// The server side of bench/shipments.bench.js, run in its own process so the load generator gets the other core.
// `node bench/shipments-server.js bare`: node:http answering every request with JOBAGENT_BENCH_BODY.
// `node bench/shipments-server.js hono`: Hono on @hono/node-server answering c.json(<that body>): the framework floor.
// `node bench/shipments-server.js floor`: node:http doing the two SQLite lookups of JOBAGENT_BENCH_METADATA_URL with
// better-sqlite3 (one read transaction per event-loop turn, as the app's store) and nothing else: no validation, metrics, log or security headers. The lookup floor: what this machine allows for
// the route at all.
// `node bench/shipments-server.js app`: GET /shipments/{id}/unified from the build (JOBAGENT_BENCH_DIST, default
// dist/) over JOBAGENT_BENCH_METADATA_URL and JOBAGENT_BENCH_TELEMETRY_URL: as jobagent serve runs it, the app on
// startServer (its access log on, as by default; JOBAGENT_BENCH_ACCESS_LOG=0 turns it off, as --quiet does); older
// builds: createHttpApp on @hono/node-server, else the route module on a bare OpenAPIHono.
// Prints `listening <port> <label>` once it accepts connections.
import {existsSync, mkdtempSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:http'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {pathToFileURL} from 'node:url'

const ROOT = resolve(import.meta.dirname, '..')
const DIST = resolve(process.env.JOBAGENT_BENCH_DIST ?? join(ROOT, 'dist'))
const fromDist = (path) => import(pathToFileURL(join(DIST, path)).href)

/** A fresh JOBAGENT_HOME; JOBAGENT_BENCH_POOL_SIZE sets both stores' pool_size in its config file. */
function benchHome() {
  const home = mkdtempSync(join(tmpdir(), 'jobagent-bench-home-'))
  const poolSize = Number(process.env.JOBAGENT_BENCH_POOL_SIZE)
  if (poolSize > 0) {
    const store = {pool_size: poolSize}
    writeFileSync(join(home, 'config.json'), JSON.stringify({shipments: {metadata: store, telemetry: store}}), {
      mode: 0o600,
    })
  }
  return home
}

async function bare() {
  const body = Buffer.from(process.env.JOBAGENT_BENCH_BODY ?? '{"ok":true}')
  const server = createServer((_req, res) => {
    res.writeHead(200, {'content-type': 'application/json', 'content-length': body.length}).end(body)
  })
  await new Promise((done) => server.listen(0, '127.0.0.1', done))
  return {port: server.address().port, label: 'bare node:http, fixed body'}
}

async function lookupFloor() {
  const {default: Database} = await import('better-sqlite3')
  const file = (process.env.JOBAGENT_BENCH_METADATA_URL ?? '').replace(/^sqlite:\/\//, '')
  const db = new Database(file, {readonly: true})
  db.pragma('mmap_size = 2147418112')
  const metadata = db.prepare('SELECT * FROM shipments WHERE shipment_id = ? LIMIT 1')
  const telemetry = db.prepare(
    'SELECT recorded_at, document FROM telemetry WHERE shipment_id = ? ORDER BY recorded_at DESC LIMIT 1',
  )
  const [begin, commit] = [db.prepare('BEGIN'), db.prepare('COMMIT')]
  const prefix = '/shipments/'.length
  const suffix = '/unified'.length
  const server = createServer((request, response) => {
    if (!db.inTransaction) {
      begin.run()
      setImmediate(() => commit.run())
    }
    const id = decodeURIComponent(request.url.slice(prefix, -suffix))
    const row = metadata.get(id)
    const latest = telemetry.get(id)
    const now = new Date()
    const seenAt = Date.parse(latest.recorded_at)
    const body = JSON.stringify({
      shipment_id: id,
      metadata: row,
      telemetry: {recorded_at: latest.recorded_at, payload: JSON.parse(latest.document)},
      freshness: {
        last_seen_at: latest.recorded_at,
        age_seconds: Math.floor((now.getTime() - seenAt) / 1000),
        stale: now.getTime() - seenAt > 900_000,
        stale_after_seconds: 900,
      },
      sources: {metadata: 'sqlite', telemetry: 'sqlite'},
      generated_at: now.toISOString(),
    })
    response.writeHead(200, {'content-type': 'application/json', 'content-length': Buffer.byteLength(body)}).end(body)
  })
  await new Promise((done) => server.listen(0, '127.0.0.1', done))
  return {port: server.address().port, label: 'node:http + better-sqlite3, the two lookups only'}
}

async function honoFixed() {
  const {Hono} = await import('hono')
  const {serve} = await import('@hono/node-server')
  const value = JSON.parse(process.env.JOBAGENT_BENCH_BODY ?? '{"ok":true}')
  const app = new Hono().get('/shipments/:id/unified', (c) => c.json(value))
  const server = serve({fetch: app.fetch, port: 0, hostname: '127.0.0.1'})
  await new Promise((done) => server.once('listening', done))
  return {port: server.address().port, label: 'Hono on @hono/node-server, c.json of the fixed body'}
}

/** The real jobagent serve app, if this build mounts the shipment route in it: {start, label}. */
async function realApp(env, probeId) {
  if (!existsSync(join(DIST, 'src/http/app.js')) || !existsSync(join(DIST, 'src/app/http-services.js')))
    return undefined
  try {
    const {AppContext} = await fromDist('src/app/context.js')
    const {createHttpServices, openHttpServices} = await fromDist('src/app/http-services.js')
    const http = await fromDist('src/http/app.js')
    const {silentLogger} = await fromDist('src/core/logger.js')
    const context = new AppContext({env: {...env, JOBAGENT_HOME: benchHome()}})
    // Builds with slices load their HTTP halves first, as their serve does.
    const services = openHttpServices ? await openHttpServices(context) : createHttpServices(context)
    if (http.createHttpApi) {
      // Builds that answered the hottest routes beside the router: started as their serve started them.
      const logger = (await accessLogger()) ?? silentLogger
      const {app, fastRoutes} = http.createHttpApi(services, {logger})
      const label = `jobagent serve (createHttpApi on startServer, access log ${logger === silentLogger ? 'off' : 'on'})`
      return (await probe(app, probeId)) ? {start: onStartServer(app, fastRoutes), label} : undefined
    }
    if (existsSync(join(DIST, 'src/http/server.js'))) {
      const logger = (await accessLogger()) ?? silentLogger
      const app = http.createHttpApp(services, {logger})
      const label = `jobagent serve (createHttpApp on startServer, access log ${logger === silentLogger ? 'off' : 'on'})`
      return (await probe(app, probeId)) ? {start: onStartServer(app), label} : undefined
    }
    const app = http.createHttpApp(services, {logger: silentLogger})
    return (await probe(app, probeId))
      ? {start: onHonoServer(app), label: 'createHttpApp (the jobagent serve app)'}
      : undefined
  } catch {
    return undefined
  }
}

/**
 * The access log of jobagent serve, on as there by default: a line per request on stderr, written once per
 * event-loop turn (the benchmark drains the pipe). Undefined with JOBAGENT_BENCH_ACCESS_LOG=0 (as serve --quiet)
 * or when the build has no such logger.
 */
async function accessLogger() {
  if (process.env.JOBAGENT_BENCH_ACCESS_LOG === '0' || !existsSync(join(DIST, 'src/app/line-logger.js')))
    return undefined
  const {LineLogger, batchedSink} = await fromDist('src/app/line-logger.js')
  return batchedSink ? new LineLogger('jobagent', batchedSink(process.stderr), 'INFO') : undefined
}

/** Starts the app as jobagent serve does (startServer: security headers, parser errors, shutdown). */
function onStartServer(app, fastRoutes) {
  return async () => {
    const {startServer} = await fromDist('src/http/server.js')
    const {silentLogger} = await fromDist('src/core/logger.js')
    const running = await startServer(app, {host: '127.0.0.1', port: 0, logger: silentLogger, fastRoutes})
    return running.port
  }
}

async function probe(app, id) {
  return (await app.request(`/shipments/${encodeURIComponent(id)}/unified`)).status === 200
}

/** Starts a fetch handler on @hono/node-server; resolves with the port. */
function onHonoServer(app) {
  return async () => {
    const {serve} = await import('@hono/node-server')
    const server = serve({fetch: app.fetch, port: 0, hostname: '127.0.0.1'})
    await new Promise((done) => server.once('listening', done))
    return server.address().port
  }
}

async function routeOnly(env) {
  const {OpenAPIHono} = await import('@hono/zod-openapi')
  const {loadConfig} = await fromDist('src/app/config.js')
  const {createShipmentService} = await fromDist('src/shipments/app/shipments.js')
  const {shipmentRoutes} = await fromDist('src/shipments/http/shipments.js')
  const {silentLogger} = await fromDist('src/core/logger.js')
  const {config} = loadConfig({env: {...env, JOBAGENT_HOME: benchHome()}})
  const shipments = createShipmentService(config.shipments, {logger: silentLogger})
  const app = new OpenAPIHono()
  app.route('/', shipmentRoutes({shipments}))
  app.onError((error, c) => {
    const status = {validation: 400, not_found: 404, unavailable: 503}[error.kind] ?? 500
    if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds))
    return c.json(
      {error: {code: error.kind ?? 'internal', message: error.message, details: error.details ?? []}},
      status,
    )
  })
  return {start: onHonoServer(app), label: 'route module on a bare OpenAPIHono'}
}

async function app() {
  const env = {
    JOBAGENT_SHIPMENT_METADATA_URL: process.env.JOBAGENT_BENCH_METADATA_URL,
    JOBAGENT_SHIPMENT_TELEMETRY_URL: process.env.JOBAGENT_BENCH_TELEMETRY_URL,
  }
  const chosen = (await realApp(env, process.env.JOBAGENT_BENCH_PROBE_ID ?? '')) ?? (await routeOnly(env))
  return {port: await chosen.start(), label: chosen.label}
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0))
const servers = {bare, hono: honoFixed, floor: lookupFloor, app}
const {port, label} = await (servers[process.argv[2]] ?? app)()
console.log(`listening ${port} ${label}`)
