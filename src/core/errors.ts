/**
 * The one error taxonomy of jobagent. Front ends map these kinds to exit codes (CLI) and status codes (HTTP);
 * anything that is not a JobagentError is a bug and is reported as one.
 */
export type ErrorKind = 'not_found' | 'validation' | 'conflict' | 'unavailable' | 'configuration'

export interface ErrorDetail {
  /** The field, key or column the problem is about, e.g. `status` or `search.tags`. */
  field?: string
  /** 1-based row or line number in an input file. */
  row?: number
  message: string
}

export interface ErrorOptions {
  hint?: string
  details?: ErrorDetail[]
  cause?: unknown
  /** Seconds after which retrying may succeed (unavailable dependencies). */
  retryAfterSeconds?: number
}

export abstract class JobagentError extends Error {
  abstract readonly kind: ErrorKind
  readonly hint: string | undefined
  readonly details: ErrorDetail[]
  readonly retryAfterSeconds: number | undefined

  constructor(message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : {cause: options.cause})
    this.name = new.target.name
    this.hint = options.hint
    this.details = options.details ?? []
    this.retryAfterSeconds = options.retryAfterSeconds
  }
}

export class NotFoundError extends JobagentError {
  readonly kind = 'not_found' as const
}

export class ValidationError extends JobagentError {
  readonly kind = 'validation' as const
}

export class ConflictError extends JobagentError {
  readonly kind = 'conflict' as const
}

/** A database, board or server we depend on cannot be reached, is locked or is corrupt. */
export class UnavailableError extends JobagentError {
  readonly kind = 'unavailable' as const
}

export class ConfigurationError extends JobagentError {
  readonly kind = 'configuration' as const
}

export function isJobagentError(error: unknown): error is JobagentError {
  return error instanceof JobagentError
}
