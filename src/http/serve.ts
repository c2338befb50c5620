import type {AppContext} from '../app/context.js'
import {openHttpServices, openSliceOnlyServices} from '../app/http-services.js'
import {ConfigurationError} from '../core/errors.js'
import type {Logger} from '../core/logger.js'
import {maskedLogger} from '../core/secrets.js'
import {createHttpApp} from './app.js'
import {isLoopback} from './middleware/request-origin.js'
import {closeOnSignal, startServer} from './server.js'

export interface ServeOptions {
  host: string
  port: number
  apiToken?: string
  corsOrigins?: string[]
  /** Host names answered besides 127.0.0.1, [::1] and localhost when there is no token (server.allowed_hosts). */
  allowedHosts?: string[]
  shutdownTimeoutMs?: number
  /** The logger of the access log and request errors (`jobagent.http`); the context's logger by default. */
  httpLogger?: Logger
  /** `--only`: the key of the one slice to serve, without the job side (no tracker database is opened). */
  only?: string
  /** Called once the server listens (tests read the bound port from it). */
  onListening?: (url: string) => void
}

/** The shortest API token accepted on an address other machines can reach: guessing it must be hopeless. */
const MIN_TOKEN_LENGTH = 16

/** Anyone on the network could read and change the tracker, so a non-loopback address needs a long token. */
export function checkBinding(host: string, apiToken: string | undefined): void {
  if (isLoopback(host)) return
  const hint =
    'set JOBAGENT_API_TOKEN to a long random secret, e.g. $(openssl rand -hex 32) (clients send Authorization: Bearer <token>), or use --host 127.0.0.1'
  if (!apiToken) throw new ConfigurationError(`refusing to listen on ${host} without an API token`, {hint})
  if (apiToken.length < MIN_TOKEN_LENGTH) {
    throw new ConfigurationError(
      `refusing to listen on ${host} with a JOBAGENT_API_TOKEN of ${apiToken.length} characters: it needs at least ${MIN_TOKEN_LENGTH}`,
      {hint},
    )
  }
}

/** Each origin must be exactly `scheme://host[:port]`, as browsers send it in the Origin header. */
function checkCorsOrigins(origins: readonly string[]): void {
  const invalid = origins.filter((origin) => {
    try {
      const url = new URL(origin)
      return (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin
    } catch {
      return true
    }
  })
  if (invalid.length === 0) return
  throw new ConfigurationError(`invalid CORS origin ${invalid.map((origin) => `"${origin}"`).join(', ')}`, {
    details: invalid.map((origin) => ({field: 'cors-origin', message: `${origin} is not an origin`})),
    hint: 'give an origin as a browser sends it: scheme, host and port, no path or trailing slash (http://localhost:5173)',
  })
}

/** The settings `jobagent serve` refuses before it opens anything. */
export function checkServeOptions(options: ServeOptions): void {
  checkBinding(options.host, options.apiToken)
  checkCorsOrigins(options.corsOrigins ?? [])
}

/** `jobagent serve`: the API on the context's services until SIGINT/SIGTERM, then a graceful stop. */
export async function serveApi(context: AppContext, options: ServeOptions): Promise<void> {
  checkServeOptions(options)
  const logger = context.logger.child('server')
  // Opened now so a missing or corrupt database is a clear error at start, not a 503 on the first request.
  if (!options.only) void context.trackerDb
  const shutdown = new AbortController()
  const forced = new AbortController()
  const services = options.only ? await openSliceOnlyServices(context, options.only) : await openHttpServices(context)
  const app = createHttpApp(services, {
    // The server's log quotes failed boards (GET /jobs) as the run log does: with the configured secrets masked.
    logger: options.httpLogger ? maskedLogger(options.httpLogger, context.secrets) : context.logger,
    closing: shutdown.signal,
    stopping: forced.signal,
    ...(options.apiToken ? {apiToken: options.apiToken} : {}),
    ...(options.corsOrigins ? {corsOrigins: options.corsOrigins} : {}),
    ...(options.allowedHosts ? {allowedHosts: options.allowedHosts} : {}),
  })
  const running = await startServer(app, {
    host: options.host,
    port: options.port,
    logger,
    onClose: () => shutdown.abort(),
    onForce: () => forced.abort(),
    ...(options.shutdownTimeoutMs === undefined ? {} : {shutdownTimeoutMs: options.shutdownTimeoutMs}),
  })
  if (options.apiToken) logger.info('Bearer token required on every route except /health, /metrics and the pages')
  options.onListening?.(running.url)
  await closeOnSignal(running, logger)
  await context.close()
  logger.info('Stopped')
}
