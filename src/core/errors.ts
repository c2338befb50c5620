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
  /**
   * The message for API clients when `message` names what only the operator should see (a file path, a store's
   * host, port or database): the kind of store and its state, e.g. `the SQLite database is locked`.
   */
  publicMessage?: string
  /** The details as API clients may see them, where `details` name such things too; none are shown without them. */
  publicDetails?: ErrorDetail[]
}

export abstract class JobagentError extends Error {
  abstract readonly kind: ErrorKind
  readonly hint: string | undefined
  readonly details: ErrorDetail[]
  readonly retryAfterSeconds: number | undefined
  readonly publicMessage: string | undefined
  readonly publicDetails: ErrorDetail[] | undefined

  constructor(message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : {cause: options.cause})
    this.name = new.target.name
    this.hint = options.hint
    this.details = options.details ?? []
    this.retryAfterSeconds = options.retryAfterSeconds
    this.publicMessage = options.publicMessage
    this.publicDetails = options.publicDetails
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

const UNNAMED_DEPENDENCY = 'a store this request needs is unavailable; see the server log'

/**
 * What an error may tell someone who can reach the API but not the machine. An unavailable dependency is named by
 * its public message only (its kind and state), since its message names paths, hosts and databases; a dependency
 * that gave none is not described at all. The other kinds are about the request and say so as they are.
 */
export function publicMessageOf(error: JobagentError): string {
  return error.publicMessage ?? (error.kind === 'unavailable' ? UNNAMED_DEPENDENCY : error.message)
}

export function isJobagentError(error: unknown): error is JobagentError {
  return error instanceof JobagentError
}
