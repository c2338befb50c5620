import {createRoute, OpenAPIHono} from '@hono/zod-openapi'
import type {Context} from 'hono'
import {
  describeCheckFailure,
  type HealthCheck,
  type HealthCheckResult,
  type HealthStatus,
  type HealthView,
} from '../../app/health-checks.js'
import type {HttpServices} from '../../app/http-services.js'
import type {Logger} from '../../core/logger.js'
import {HealthSchema} from '../schemas.js'

const RANK: Record<HealthStatus, number> = {pass: 0, warn: 1, fail: 2}
const HEALTH_HEADERS = {'Content-Type': 'application/health+json', 'Cache-Control': 'no-store'}

const LiveSchema = HealthSchema.pick({status: true, version: true, uptime_seconds: true}).openapi('Liveness')

const health = createRoute({
  method: 'get',
  path: '/health',
  tags: ['operations'],
  summary: 'Health of the service and its dependencies (open without a token)',
  security: [],
  responses: {
    200: {description: 'pass or warn', content: {'application/health+json': {schema: HealthSchema}}},
    503: {description: 'fail: a dependency is down', content: {'application/health+json': {schema: HealthSchema}}},
  },
})

const live = createRoute({
  method: 'get',
  path: '/health/live',
  tags: ['operations'],
  summary: 'Liveness: 200 while the process answers; no store is read (open without a token)',
  security: [],
  responses: {200: {description: 'the process runs', content: {'application/health+json': {schema: LiveSchema}}}},
})

const ready = createRoute({
  method: 'get',
  path: '/health/ready',
  tags: ['operations'],
  summary: 'Readiness: 200 only when every store this server reads answers within the deadline (open without a token)',
  description:
    'Runs the checks of /health that a request needs (the datastores: the shipment stores, and the tracker database ' +
    'when the job side is served), each within the health deadline. 503 when one fails or times out, and from the ' +
    'moment the server starts shutting down, so a load balancer sends the next request elsewhere.',
  security: [],
  responses: {
    200: {description: 'every store answers', content: {'application/health+json': {schema: HealthSchema}}},
    503: {
      description: 'a store does not answer, or the server is stopping',
      content: {'application/health+json': {schema: HealthSchema}},
    },
  },
})

/** A check that throws or hangs fails on its own; it never takes the health endpoint down with it. */
async function runCheck(
  check: HealthCheck,
  view: HealthView,
  timeoutMs: number,
  logger: Logger,
): Promise<HealthCheckResult> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<HealthCheckResult>((resolve) => {
    timer = setTimeout(
      () => resolve({status: 'fail', output: `timed out after ${timeoutMs} ms`, time: new Date().toISOString()}),
      timeoutMs,
    )
  })
  try {
    return await Promise.race([
      check.run(view).catch((error: unknown) => ({
        status: 'fail' as const,
        output: describeCheckFailure(check.name, error, logger),
        time: new Date().toISOString(),
      })),
      timeout,
    ])
  } finally {
    clearTimeout(timer)
  }
}

interface HealthOptions {
  startedAt: number
  checkTimeoutMs: number
  logger: Logger
  names: (c: Context) => boolean
  /** Aborted when the server starts shutting down: from then on it is not ready. */
  closing?: AbortSignal
}

/** GET /health (every check), /health/live (none) and /health/ready (the checks marked `ready`). */
export function healthRoutes(services: Pick<HttpServices, 'version' | 'healthChecks'>, options: HealthOptions) {
  const uptime = () => Math.floor((Date.now() - options.startedAt) / 1000)
  const report = async (c: Context, checks: readonly HealthCheck[]) => {
    const view = {names: options.names(c)}
    const results = await Promise.all(
      checks.map((check) => runCheck(check, view, options.checkTimeoutMs, options.logger)),
    )
    const status = results.reduce<HealthStatus>((worst, r) => (RANK[r.status] > RANK[worst] ? r.status : worst), 'pass')
    return {
      status,
      version: services.version,
      uptime_seconds: uptime(),
      checks: Object.fromEntries(results.map((result, index) => [checks[index]?.name ?? `check_${index}`, [result]])),
    }
  }
  return new OpenAPIHono()
    .openapi(health, async (c) => {
      const body = await report(c, services.healthChecks)
      return body.status === 'fail' ? c.json(body, 503, HEALTH_HEADERS) : c.json(body, 200, HEALTH_HEADERS)
    })
    .openapi(live, (c) =>
      c.json({status: 'pass' as const, version: services.version, uptime_seconds: uptime()}, 200, HEALTH_HEADERS),
    )
    .openapi(ready, async (c) => {
      const body = await report(
        c,
        services.healthChecks.filter((check) => check.ready),
      )
      if (options.closing?.aborted) {
        const stopping = {
          status: 'fail' as const,
          output: 'the server is shutting down',
          time: new Date().toISOString(),
        }
        return c.json(
          {...body, status: 'fail' as const, checks: {...body.checks, server: [stopping]}},
          503,
          HEALTH_HEADERS,
        )
      }
      return body.status === 'fail' ? c.json(body, 503, HEALTH_HEADERS) : c.json(body, 200, HEALTH_HEADERS)
    })
}
