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
export function routeTemplate(c: Context): string {
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

/** Records one answered request; `target` is the request-target as sent, `route` the route template. */
export type RequestRecorder = (method: string, target: string, route: string, status: number, ms: number) => void

/**
 * The one recorder of the app and its fast routes: an access log line (`GET /applications 200 3.1 ms`, the path
 * as the client sent it) and an observation of the request duration histogram under the route template.
 */
export function requestRecorder(logger: Logger, metrics: HttpMetrics): RequestRecorder {
  return (method, target, route, status, ms) => {
    metrics.observeRequest(method, route, status, ms / 1000)
    logger.info(`${method} ${loggedPath(target)} ${status} ${ms.toFixed(1)} ms`)
  }
}

/** Records every request the app answers (see RequestRecorder). */
export function observeRequests(record: RequestRecorder): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now()
    await next()
    record(c.req.method, targetOf(c.req.url), routeTemplate(c), c.res.status, performance.now() - started)
  }
}
