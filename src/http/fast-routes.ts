import type {IncomingMessage, ServerResponse} from 'node:http'
import type {Logger} from '../core/logger.js'
import {endOfTurnWriter} from './end-of-turn.js'
import {type ErrorAnswer, errorAnswer, httpError} from './errors.js'
import type {RequestRecorder} from './middleware/observe.js'
import {API_SECURITY_HEADERS} from './security-headers.js'

/**
 * A route answered on node:http itself, before the request becomes a web Request for the app. It returns true
 * when it took the request (and then sends the API security headers itself) and false to hand it on to the app.
 * Only for the hottest read routes: converting a request to a web Request, routing it, running the middleware
 * chain and converting the web Response back cost more than a SQLite lookup (docs/BENCHMARKS.md). Each one
 * answers exactly as the app's route does, which test/http/fast-routes.test.ts checks request by request.
 */
export type FastRoute = (request: IncomingMessage, response: ServerResponse) => boolean

/** What the app's middleware does around a route, given to each fast route. */
export interface FastRouteContext {
  readonly record: RequestRecorder
  readonly logger: Logger
  /** The app's admission checks (Host, bearer token): the refusal to answer with, or undefined to go on. */
  readonly admit?: (request: IncomingMessage) => ErrorAnswer | undefined
}

/** The message of wellFormedPath, the app's check of percent-encoding. */
export const MALFORMED_PATH_MESSAGE =
  'the path is not valid percent-encoding (encode each {url} or {id} with encodeURIComponent)'

export interface OneParameterRoute {
  /** The route template, as the app's router names it in metrics (`/shipments/:shipment_id/unified`). */
  readonly template: string
  /** The text before and after the one path parameter: `/shipments/` and `/unified`. */
  readonly prefix: string
  readonly suffix: string
  /**
   * The JSON body of a 200 answer for the decoded parameter, or a promise of it; errors are thrown (or rejected
   * with) as the app's routes throw them.
   */
  answer(parameter: string): unknown
}

/**
 * A GET route with one non-empty path parameter and no query string, answered with JSON. Everything else (other
 * methods, HEAD included, a query string, an empty or multi-segment parameter) goes on to the app.
 */
export function oneParameterJsonRoute(route: OneParameterRoute, context: FastRouteContext): FastRoute {
  const {prefix, suffix} = route
  const writeAtEndOfTurn = endOfTurnWriter((error) =>
    context.logger.error(`${route.template}: could not write an answer: ${(error as Error).message}`),
  )
  return (request, response) => {
    const target = request.url ?? ''
    if (request.method !== 'GET' || !target.startsWith(prefix) || !target.endsWith(suffix)) return false
    const raw = target.slice(prefix.length, target.length - suffix.length)
    if (raw === '' || raw.includes('/') || raw.includes('?')) return false
    const started = performance.now()
    // The body is encoded now, so a value JSON cannot encode still becomes the error answer; it is written with
    // the other answers of this turn (see endOfTurnWriter).
    const finish = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      const text = JSON.stringify(body)
      writeAtEndOfTurn(() => {
        try {
          sendJson(response, status, text, headers)
        } catch (error) {
          response.destroy()
          throw error
        }
        context.record('GET', target, route.template, status, performance.now() - started)
      })
    }
    const fail = (error: unknown) => {
      const answer = errorAnswer(error, {method: 'GET', path: target}, context.logger)
      finish(answer.status, answer.body, answer.headers)
    }
    const refusal = context.admit?.(request)
    if (refusal) {
      finish(refusal.status, refusal.body, refusal.headers)
      return true
    }
    let parameter: string
    try {
      parameter = decodeURIComponent(raw)
    } catch {
      fail(httpError(400, MALFORMED_PATH_MESSAGE))
      return true
    }
    try {
      const body = route.answer(parameter)
      if (body instanceof Promise) body.then((value) => finish(200, value)).catch(fail)
      else finish(200, body)
    } catch (error) {
      fail(error)
    }
    return true
  }
}

/** The API security headers as writeHead takes them, name and value in turn. */
const SECURITY_HEADER_LINES: readonly string[] = Object.entries(API_SECURITY_HEADERS).flat()

/**
 * The answer as the app's c.json() sends it, with the security headers startServer sets for the app: the same
 * content type, and the length set so no chunking is needed. Given to writeHead as one list, the headers are
 * checked and written once; setting them one by one first cost a sixth of the route's request rate.
 */
function sendJson(response: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
  const lines = SECURITY_HEADER_LINES.concat(...Object.entries(headers), [
    'content-type',
    'application/json',
    'content-length',
    String(Buffer.byteLength(text)),
  ])
  response.writeHead(status, lines)
  response.end(text)
}
