import {
  isJobagentError,
  type JobagentError,
  publicMessageOf,
  UnavailableError,
  ValidationError,
} from '../../core/errors.js'
import {withoutPasswords} from '../../core/secrets.js'

/** Which store of a shipment lookup failed. */
export type StoreRole = 'metadata' | 'telemetry'

/** A store read that did not answer within its timeout. */
export class StoreTimeout extends Error {}

/** The 503 of a store that failed or did not answer: the log's full account, API clients' the store's own. */
export function storeUnavailable(
  role: StoreRole,
  kind: string,
  error: unknown,
  timeoutMs: number,
  retryAfterSeconds: number,
): UnavailableError {
  const name = `${role} store (${kind})`
  const hint = `check that the ${role} database is running and reachable (config key shipments.${role}.url)`
  if (error instanceof StoreTimeout) {
    const message = `${name} did not answer within ${timeoutMs} ms`
    return new UnavailableError(message, {
      retryAfterSeconds,
      hint: `${hint}, or raise shipments.${role}.timeout_ms`,
      details: [{field: role, message}],
      publicMessage: message,
      publicDetails: [{field: role, message}],
    })
  }
  // Store errors are shown to API clients: never echo a password from a connection string.
  const reason = withoutPasswords(error instanceof Error ? error.message : String(error))
  const message = `${name} is unavailable: ${reason || 'unknown error'}`
  // Only the store's own account of its state reaches API clients; a driver's message may name anything.
  const state = isJobagentError(error) ? error.publicMessage : undefined
  const publicMessage = `${name} is unavailable${state ? `: ${state}` : '; see the server log'}`
  return new UnavailableError(message, {
    retryAfterSeconds: isJobagentError(error) ? (error.retryAfterSeconds ?? retryAfterSeconds) : retryAfterSeconds,
    hint: isJobagentError(error) && error.hint ? error.hint : hint,
    publicHint: isJobagentError(error) ? error.publicHint : undefined,
    details: [{field: role, message}],
    cause: error,
    publicMessage,
    publicDetails: [{field: role, message: publicMessage}],
  })
}

/**
 * The request a store refused, else one error naming the first failing store, every failing store listed in
 * the details.
 */
export function combineFailures(results: readonly PromiseSettledResult<unknown>[]): JobagentError {
  const failures = results
    .filter((result): result is PromiseRejectedResult => result.status === 'rejected')
    .map((result) => result.reason as UnavailableError)
  const refused = failures.find((failure) => failure instanceof ValidationError)
  if (refused) return refused
  const [first] = failures
  if (!first) throw new Error('combineFailures() called without a failure')
  if (failures.length === 1) return first
  return new UnavailableError(first.message, {
    retryAfterSeconds: Math.max(...failures.map((failure) => failure.retryAfterSeconds ?? 0)),
    hint: first.hint ?? '',
    publicHint: failures.find((failure) => failure.publicHint !== undefined)?.publicHint,
    details: failures.flatMap((failure) => failure.details),
    cause: first,
    publicMessage: publicMessageOf(first),
    publicDetails: failures.flatMap((failure) => failure.publicDetails ?? []),
  })
}

export function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000
}

/**
 * What `work` resolves to, or a StoreTimeout when `timeoutMs` passes first, after aborting `controller`. A `work`
 * that throws before it returns a promise rejects the same way.
 */
export async function withinDeadline<T>(
  timeoutMs: number,
  work: () => Promise<T>,
  controller: AbortController | undefined,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  try {
    // One promise and one timer: this runs for each store of every lookup.
    return await new Promise<T>((resolve, reject) => {
      timer = setTimeout(() => {
        controller?.abort()
        reject(new StoreTimeout())
      }, timeoutMs)
      work().then(resolve, reject)
    })
  } finally {
    clearTimeout(timer)
  }
}
