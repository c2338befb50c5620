import type {Context} from 'hono'
import {HTTPException} from 'hono/http-exception'
import type {ContentfulStatusCode} from 'hono/utils/http-status'
import type {z} from 'zod'
import {issuesToDetails} from '../core/applications/validation.js'
import {type ErrorDetail, type ErrorKind, isJobagentError, type JobagentError, ValidationError} from '../core/errors.js'
import type {Logger} from '../core/logger.js'

/** The one error body of the API: `{"error": {"code", "message", "details"}}`. */
export interface ErrorBody {
  error: {code: string; message: string; details: ErrorDetail[]}
}

export function errorBody(code: string, message: string, details: ErrorDetail[] = []): ErrorBody {
  return {error: {code, message, details}}
}

const STATUS_BY_KIND: Record<ErrorKind, ContentfulStatusCode> = {
  not_found: 404,
  validation: 422,
  conflict: 409,
  unavailable: 503,
  configuration: 500,
}

const CODE_BY_STATUS: Partial<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
}

const MESSAGE_BY_STATUS: Partial<Record<number, string>> = {
  413: 'the request body is larger than 64 KiB',
  415: 'the request body must be JSON (Content-Type: application/json)',
}

const statusOverrides = new WeakMap<JobagentError, ContentfulStatusCode>()

/**
 * Gives one error a status other than its kind's default, for routes whose contract says so, e.g. a malformed
 * shipment id is 400 where other validation errors are 422: `throw withHttpStatus(new ValidationError(...), 400)`.
 */
export function withHttpStatus<E extends JobagentError>(error: E, status: ContentfulStatusCode): E {
  statusOverrides.set(error, status)
  return error
}

/** The zod-openapi hook: invalid input becomes the same ValidationError (422, fields named) the services throw. */
export function validationHook(result: {success: boolean; error?: {issues: readonly z.core.$ZodIssue[]}}): void {
  if (result.success || !result.error) return
  const details = issuesToDetails(result.error.issues)
  throw new ValidationError(`invalid request: ${details.map((detail) => detail.message).join('; ')}`, {details})
}

/** Parses `value` with `schema` or throws the same ValidationError as the hook. */
export function validated<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value)
  validationHook(result)
  return result.data as z.output<S>
}

/** Maps any error to the error body; unexpected ones become a bare 500 and are logged, never shown. */
export function errorResponse(error: unknown, c: Context, logger: Logger): Response {
  if (isJobagentError(error)) {
    const status = statusOverrides.get(error) ?? STATUS_BY_KIND[error.kind]
    if (error.kind === 'configuration') {
      logger.error(`${c.req.method} ${c.req.path}: ${error.message}`)
      return c.json(errorBody('configuration', 'the server is misconfigured; see the server log'), 500)
    }
    if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(Math.ceil(error.retryAfterSeconds)))
    return c.json(errorBody(error.kind, error.message, error.details), status)
  }
  if (error instanceof HTTPException && error.status < 500) {
    const status = error.status as ContentfulStatusCode
    const message = MESSAGE_BY_STATUS[status] ?? (error.message || 'bad request')
    return c.json(errorBody(CODE_BY_STATUS[status] ?? `http_${status}`, message), status)
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error)
  logger.error(`${c.req.method} ${c.req.path} failed unexpectedly: ${detail}`)
  return c.json(errorBody('internal', 'internal error'), 500)
}

/** For middleware that answers before any route: throws the HTTP error the error handler turns into a body. */
export function httpError(status: 400 | 401 | 404 | 413 | 415, message?: string): HTTPException {
  return new HTTPException(status, message === undefined ? undefined : {message})
}
