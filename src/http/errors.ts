import type {Context} from 'hono'
import {HTTPException} from 'hono/http-exception'
import type {ContentfulStatusCode} from 'hono/utils/http-status'
import type {z} from 'zod'
import {issuesToDetails} from '../core/applications/validation.js'
import {
  type ErrorDetail,
  type ErrorKind,
  isJobagentError,
  type JobagentError,
  publicMessageOf,
  ValidationError,
} from '../core/errors.js'
import {type Logger, silentLogger} from '../core/logger.js'
import {maskUrlsIn} from '../core/secrets.js'

/** The one error body of the API: `{"error": {"code", "message", "details"}}`, and `hint` when there is one to give. */
interface ErrorBody {
  error: {code: string; message: string; details: ErrorDetail[]; hint?: string}
}

export function errorBody(code: string, message: string, details: ErrorDetail[] = [], hint?: string): ErrorBody {
  return {error: {code, message, details, ...(hint === undefined ? {} : {hint})}}
}

const STATUS_BY_KIND: Record<ErrorKind, ContentfulStatusCode> = {
  not_found: 404,
  validation: 422,
  conflict: 409,
  unavailable: 503,
  configuration: 503,
}

const CODE_BY_STATUS: Partial<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
}

const MESSAGE_BY_STATUS: Partial<Record<number, string>> = {
  413: 'the request body is larger than 64 KiB',
  415: 'the request body must be JSON (Content-Type: application/json)',
}

const statusOverrides = new WeakMap<JobagentError, ContentfulStatusCode>()

/**
 * Gives one error a status other than its kind's default, for routes whose contract says so, e.g. a malformed id
 * in a path is 400 where other validation errors are 422: `throw withHttpStatus(new ValidationError(...), 400)`.
 * A slice's routes map their errors this way, so the app's one error handler answers for every slice.
 */
export function withHttpStatus<E extends JobagentError>(error: E, status: ContentfulStatusCode): E {
  statusOverrides.set(error, status)
  return error
}

/**
 * The zod-openapi hook: invalid input becomes the same ValidationError (422, fields named) the services throw, in
 * the same words: every request schema names its field in its messages, so the message is theirs alone.
 */
export function validationHook(result: {success: boolean; error?: {issues: readonly z.core.$ZodIssue[]}}): void {
  if (result.success || !result.error) return
  const details = issuesToDetails(
    result.error.issues.map((issue) =>
      // A body that is no object at all has no field to name.
      issue.path.length === 0 && issue.code === 'invalid_type'
        ? {...issue, message: 'the body must be a JSON object'}
        : issue,
    ),
  )
  throw new ValidationError(details.map((detail) => detail.message).join('; '), {details})
}

/** Parses `value` with `schema` or throws the same ValidationError as the hook. */
export function validated<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value)
  validationHook(result)
  return result.data as z.output<S>
}

/** What an error is answered with. */
interface ErrorAnswer {
  status: ContentfulStatusCode
  body: ErrorBody
  headers: Record<string, string>
}

/**
 * Maps any error to its status, body and headers; unexpected ones become a bare 500 and are logged, never shown.
 * `request` names the request in the log.
 */
function errorAnswer(error: unknown, request: {method: string; path: string}, logger: Logger): ErrorAnswer {
  if (isJobagentError(error)) {
    if (error.kind === 'configuration') {
      // The request cannot be served until the config is fixed (503, not the 500 of a bug); the answer names the
      // key so an API client can say what to fix, with URLs masked as in `config list`. The log has it in full.
      logger.error(`${request.method} ${request.path}: ${error.message}`)
      const details = error.details.map((detail) => ({...detail, message: maskUrlsIn(detail.message)}))
      return {
        status: statusOverrides.get(error) ?? STATUS_BY_KIND.configuration,
        body: errorBody('configuration', `invalid configuration: ${maskUrlsIn(error.message)}`, details),
        headers: {},
      }
    }
    const headers: Record<string, string> =
      error.retryAfterSeconds === undefined ? {} : {'Retry-After': String(Math.ceil(error.retryAfterSeconds))}
    const status = statusOverrides.get(error) ?? STATUS_BY_KIND[error.kind]
    if (error.kind === 'unavailable') {
      // The answer names the store and its state; where it lives (paths, hosts, databases) stays in the log.
      logger.warning(`${request.method} ${request.path}: ${error.message}`)
      return {
        status,
        body: errorBody(error.kind, publicMessageOf(error), error.publicDetails ?? [], error.publicHint),
        headers,
      }
    }
    // A request too large (too many ids) carries the code of its status, as the body limit's answer does.
    const code = status === 413 || status === 414 ? (CODE_BY_STATUS[status] as string) : error.kind
    return {status, body: errorBody(code, error.message, error.details, error.publicHint), headers}
  }
  if (error instanceof HTTPException && error.status < 500) {
    const status = error.status as ContentfulStatusCode
    const message = MESSAGE_BY_STATUS[status] ?? (error.message || 'bad request')
    return {status, body: errorBody(CODE_BY_STATUS[status] ?? `http_${status}`, message), headers: {}}
  }
  if ((error as {code?: unknown} | null)?.code === 'ECONNRESET') {
    // The request's body broke off (a malformed chunk, a client that hung up): the client's doing, not a failure.
    logger.debug(`${request.method} ${request.path}: the request body broke off (${(error as Error).message})`)
    return {status: 400, body: errorBody('bad_request', 'the request body ended before it was complete'), headers: {}}
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error)
  logger.error(`${request.method} ${request.path} failed unexpectedly: ${detail}`)
  return {status: 500, body: errorBody('internal', 'internal error'), headers: {}}
}

/**
 * The body `error` is answered with, for a message that is no response of its own (an event-stream `error`
 * message): the same code, message and details as the JSON answer. It logs nothing; who read the error logs it.
 */
export function errorBodyOf(error: unknown): ErrorBody {
  return errorAnswer(error, {method: '', path: ''}, silentLogger).body
}

/** An ErrorAnswer as a Hono response. */
function answerWith(c: Context, answer: ErrorAnswer): Response {
  for (const [name, value] of Object.entries(answer.headers)) c.header(name, value)
  return c.json(answer.body, answer.status)
}

/** The app's error handler: errorAnswer as a Hono response. */
export function errorResponse(error: unknown, c: Context, logger: Logger): Response {
  return answerWith(c, errorAnswer(error, {method: c.req.method, path: c.req.path}, logger))
}

/** For middleware that answers before any route: throws the HTTP error the error handler turns into a body. */
export function httpError(status: 400 | 401 | 404 | 413 | 415, message?: string): HTTPException {
  return new HTTPException(status, message === undefined ? undefined : {message})
}
