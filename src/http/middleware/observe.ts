import type {Context, MiddlewareHandler} from 'hono'
import {matchedRoutes} from 'hono/route'
import type {Logger} from '../../core/logger.js'
import type {HttpMetrics} from '../metrics.js'

const unmatched = new WeakSet<Context>()

/** Called by the not-found handler: the request is labelled `unmatched`, whichever fallback route saw it. */
export function markUnmatched(c: Context): void {
  unmatched.add(c)
}

/**
 * The route template a request was answered by (`/applications/:url/status`), never the raw URL, so metric
 * labels stay few. Requests no route answered are `unmatched`.
 */
function routeTemplate(c: Context): string {
  if (unmatched.has(c)) return 'unmatched'
  const routes = matchedRoutes(c)
  const route = routes[c.req.routeIndex]
  if (route && route.method !== 'ALL') return route.path
  // Answered by a middleware before the route ran (413, 415, 401): counted under the route it was sent to.
  return routes.findLast((candidate) => candidate.method !== 'ALL')?.path ?? 'unmatched'
}

/** The request-target of a full URL: `/path?query`, still percent-encoded as the client sent it. */
function targetOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  return start === -1 ? '/' : url.slice(start)
}

/** The path of a request-target without the query string, cut short so a huge URL cannot flood the log. */
function loggedPath(target: string): string {
  const query = target.indexOf('?')
  const path = query === -1 ? target : target.slice(0, query)
  return path.length > 300 ? `${path.slice(0, 300)}…` : path
}

/**
 * Records every request the app answers: an access log line (`GET /applications 200 3.1 ms`, the path as the
 * client sent it) and an observation of the request duration histogram under the route template.
 */
export function observeRequests(logger: Logger, metrics: HttpMetrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now()
    await next()
    const ms = performance.now() - started
    const method = c.req.method
    const status = c.res.status
    metrics.observeRequest(method, routeTemplate(c), status, ms / 1000)
    logger.info(`${method} ${loggedPath(targetOf(c.req.url))} ${status} ${ms.toFixed(1)} ms`)
  }
}
