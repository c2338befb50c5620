import {OpenAPIHono} from '@hono/zod-openapi'
import type {Context, MiddlewareHandler} from 'hono'
import {cors} from 'hono/cors'
import type {HttpServices, ServedSlices} from '../app/http-services.js'
import type {SliceSettings} from '../app/slices.js'
import type {Logger} from '../core/logger.js'
import {allowedMethods} from './allowed-methods.js'
import {errorBody, errorResponse, httpError, validationHook} from './errors.js'
import {createHttpMetrics, type HttpMetrics} from './metrics.js'
import {bearerAuth, carriesToken} from './middleware/auth.js'
import {jsonBodies} from './middleware/json-body.js'
import {markUnmatched, observeRequests} from './middleware/observe.js'
import {hostGuard, sameOriginGuard, wellFormedHost} from './middleware/request-origin.js'
import {applicationsRoutes} from './routes/applications.js'
import {backupRoutes} from './routes/backup.js'
import {contactsRoutes} from './routes/contacts.js'
import {docsRoutes} from './routes/docs.js'
import {healthRoutes} from './routes/health.js'
import {interviewsRoutes} from './routes/interviews.js'
import {jobsRoutes} from './routes/jobs.js'
import {metricsRoutes} from './routes/metrics.js'
import {rootRoutes, webAssetRoutes, webFiles} from './routes/root.js'
import {runsRoutes} from './routes/runs.js'
import {statsRoutes} from './routes/stats.js'
import {securityHeaders} from './security-headers.js'
import {StaticFiles} from './static-files.js'

const MAX_BODY_BYTES = 64 * 1024

export interface HttpAppOptions {
  logger: Logger
  /** When set, every route except the open ones (see isOpen) needs `Authorization: Bearer <token>`. */
  apiToken?: string
  /** Origins allowed to call the API from a browser; CORS is off without them. */
  corsOrigins?: string[]
  /** Without a token, the host names answered besides 127.0.0.1, [::1] and localhost (see hostGuard). */
  allowedHosts?: string[]
  /** The metrics registry and instruments; pass one to register other modules' metrics on the same registry. */
  metrics?: HttpMetrics
  /** The web page directory (tests); the built page, dist/src/web, by default. */
  webDir?: string
  healthCheckTimeoutMs?: number
  /** Aborted when the server shuts down: long-lived answers (event streams) end at once instead of holding it. */
  closing?: AbortSignal
  /** Aborted when the shutdown's wait for requests in flight is over: a GET /jobs search still waiting stops. */
  stopping?: AbortSignal
  /** Settings of the slices' routes over their config sections, by slice (tests shorten the event streams' interval). */
  slices?: SliceSettings
}

/**
 * Routes that hold no data stay open with a token: health and metrics (for probes and scrapers), and the pages
 * a browser loads before it can send a token (the web page, the docs page and the OpenAPI document they read).
 */
function isOpen(c: Context, web: StaticFiles): boolean {
  const method = c.req.method
  if (method !== 'GET' && method !== 'HEAD') return false
  const path = c.req.path
  return OPEN_PATHS.has(path) || isDocument(path, web)
}

const OPEN_PATHS = new Set(['/health', '/health/live', '/health/ready', '/metrics', '/openapi.json'])

/** What a browser renders: the web page (at / and its files) and the docs page with its assets. */
function isDocument(path: string, web: StaticFiles): boolean {
  return path === '/' || path === '/docs' || path.startsWith('/docs/') || web.has(path)
}

const MALFORMED_PATH_MESSAGE =
  'the path is not valid percent-encoding (encode each {url} or {id} with encodeURIComponent)'

/**
 * A path with a broken percent-encoding (`%zz`, `%E0%A4`) names nothing: 400, rather than passing the undecoded
 * text on to a route as if it were a URL or an id.
 */
const wellFormedPath: MiddlewareHandler = (c, next) => {
  if (c.req.path.includes('%')) {
    const url = c.req.url
    const start = url.indexOf('/', url.indexOf('//') + 2)
    const query = url.indexOf('?', start)
    try {
      decodeURIComponent(url.slice(start, query === -1 ? undefined : query))
    } catch {
      throw httpError(400, MALFORMED_PATH_MESSAGE)
    }
  }
  return next()
}

/**
 * The REST API of docs/API.md: one router per resource, errors mapped once in onError. Given the slices' services
 * alone (`serve --only`), it serves their routes with health, metrics and the docs, and no job side or web page.
 */
export function createHttpApp(services: HttpServices | ServedSlices, options: HttpAppOptions): OpenAPIHono {
  const logger = options.logger.child('http')
  const metrics = options.metrics ?? createHttpMetrics()
  const jobSide = 'applications' in services ? services : undefined
  const web = jobSide ? webFiles(options.webDir) : new StaticFiles({names: [], read: () => undefined})
  const app = new OpenAPIHono({defaultHook: validationHook})

  app.use(securityHeaders((path) => isDocument(path, web)))
  app.use(observeRequests(logger, metrics))
  app.use(wellFormedHost)
  // With a token a rebound page cannot get in anyway; without one, the Host is what tells a rebound page apart.
  if (!options.apiToken) app.use(hostGuard(options.allowedHosts ?? []))
  if (options.corsOrigins !== undefined && options.corsOrigins.length > 0) {
    app.use(
      cors({
        origin: options.corsOrigins,
        allowMethods: ['GET', 'POST', 'PATCH', 'OPTIONS'],
        allowHeaders: ['Authorization', 'Content-Type'],
        exposeHeaders: ['Retry-After', 'Content-Disposition'],
        maxAge: 600,
      }),
    )
  }
  app.use(sameOriginGuard(options.corsOrigins ?? []))
  if (options.apiToken) app.use(bearerAuth(options.apiToken, (c) => isOpen(c, web)))
  app.use(wellFormedPath)
  app.use(jsonBodies(MAX_BODY_BYTES))

  app.route('/', rootRoutes(services.version, web))
  // Without a token the server answers this machine only; with one, the open routes name boards to its bearer alone.
  const names = (c: Context) => !options.apiToken || carriesToken(c)
  app.route(
    '/',
    healthRoutes(services, {
      startedAt: Date.now(),
      checkTimeoutMs: options.healthCheckTimeoutMs ?? 5000,
      logger,
      names,
      ...(options.closing ? {closing: options.closing} : {}),
    }),
  )
  app.route('/', metricsRoutes(metrics, names))
  if (jobSide) mountJobSide(app, jobSide, metrics, options)
  for (const slice of services.slices ?? []) {
    const settings = (options.slices as Record<string, unknown> | undefined)?.[slice.key]
    app.route(
      '/',
      slice.routes({
        registry: metrics.registry,
        logger,
        ...(options.closing ? {closing: options.closing} : {}),
        ...(settings === undefined ? {} : {settings}),
      }),
    )
  }
  app.route(
    '/',
    docsRoutes(() => openApiDocument(app, services.version, jobSide ? JOB_SIDE_DESCRIPTION : SLICES_DESCRIPTION)),
  )
  if (jobSide) app.route('/', webAssetRoutes(web))

  const allowedAt = allowedMethods(app)
  app.notFound((c) => {
    markUnmatched(c)
    const method = c.req.method
    const allowed = allowedAt(c.req.path)
    // A GET route that passed the request on (a file that is not there) makes it a 404, not a 405.
    if (allowed.length > 0 && !allowed.includes(method)) {
      const message = `${method} is not allowed on ${c.req.path}: it takes ${allowed.join(', ')}`
      return c.json(errorBody('method_not_allowed', message), 405, {Allow: allowed.join(', ')})
    }
    return c.json(errorBody('not_found', `no route for ${method} ${c.req.path}`), 404)
  })
  app.onError((error, c) => errorResponse(error, c, logger))
  return app
}

/** The job side's routes: the tracker, the job search and the runs. */
function mountJobSide(app: OpenAPIHono, services: HttpServices, metrics: HttpMetrics, options: HttpAppOptions): void {
  app.route('/', jobsRoutes(services, metrics, options.stopping ? {stopping: options.stopping} : {}))
  app.route('/', applicationsRoutes(services, metrics))
  app.route('/', interviewsRoutes(services))
  app.route('/', contactsRoutes(services))
  app.route('/', runsRoutes(services))
  app.route('/', statsRoutes(services))
  app.route('/', backupRoutes(services))
}

const JOB_SIDE_DESCRIPTION =
  'Job search and application tracking. Errors are {"error": {"code", "message", "details"}}. ' +
  '{url} path parameters are the full application URL percent-encoded as one segment (encodeURIComponent). ' +
  'A method a path does not take gets 405 with an Allow header that lists those it takes.'

const SLICES_DESCRIPTION =
  'Unified shipment state (jobagent serve --only shipments). Errors are {"error": {"code", "message", "details"}}. ' +
  'A method a path does not take gets 405 with an Allow header that lists those it takes.'

function openApiDocument(app: OpenAPIHono, version: string, description: string) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'Required when the server runs with JOBAGENT_API_TOKEN (always on a non-loopback address)',
  })
  return app.getOpenAPIDocument({
    openapi: '3.0.3',
    info: {title: 'jobagent', version, description},
    security: [{bearer: []}],
  })
}
