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

export function healthRoutes(
  services: HttpServices,
  options: {startedAt: number; checkTimeoutMs: number; logger: Logger; names: (c: Context) => boolean},
) {
  return new OpenAPIHono().openapi(health, async (c) => {
    const checks = services.healthChecks
    const view = {names: options.names(c)}
    const results = await Promise.all(
      checks.map((check) => runCheck(check, view, options.checkTimeoutMs, options.logger)),
    )
    const status = results.reduce<HealthStatus>((worst, r) => (RANK[r.status] > RANK[worst] ? r.status : worst), 'pass')
    const body = {
      status,
      version: services.version,
      uptime_seconds: Math.floor((Date.now() - options.startedAt) / 1000),
      checks: Object.fromEntries(results.map((result, index) => [checks[index]?.name ?? `check_${index}`, [result]])),
    }
    const headers = {'Content-Type': 'application/health+json', 'Cache-Control': 'no-store'}
    return status === 'fail' ? c.json(body, 503, headers) : c.json(body, 200, headers)
  })
}
