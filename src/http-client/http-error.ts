import {STATUS_CODES} from 'node:http'
import {UnavailableError} from '../core/errors.js'
import {maskCredentials, maskCredentialsIn} from '../core/secrets.js'

interface HttpErrorOptions {
  url: string
  status?: number
  retryable?: boolean
  retryAfterMs?: number
  /** The answer's body, for callers that read an error document (a jobagent server's `{"error": ...}`). */
  body?: string
  /** The answer was an HTML page where a JSON document was asked for. */
  htmlPage?: boolean
  cause?: unknown
  hint?: string
}

/**
 * A request that failed: the message names the cause only, `url` says which request, `attempts` how many were
 * made. Every outbound request (boards, notification channels, a remote jobagent server) fails with this one type.
 */
export class HttpError extends UnavailableError {
  readonly url: string
  readonly status: number | undefined
  readonly retryable: boolean
  readonly retryAfterMs: number | undefined
  readonly body: string | undefined
  /** An HTML page came where a JSON document was asked for: an error page, a login wall, a site's home page. */
  readonly htmlPage: boolean
  attempts = 1

  constructor(message: string, options: HttpErrorOptions) {
    // URLs may carry credentials (user:password, ?token=), and the network layer quotes the URL it failed on.
    super(maskCredentialsIn(message), {
      cause: options.cause,
      hint: options.hint,
      retryAfterSeconds: options.retryAfterMs === undefined ? undefined : Math.ceil(options.retryAfterMs / 1000),
    })
    this.url = maskCredentials(options.url)
    this.status = options.status
    this.retryable = options.retryable ?? false
    this.retryAfterMs = options.retryAfterMs
    this.body = options.body
    this.htmlPage = options.htmlPage ?? false
  }
}

export function formatBytes(bytes: number): string {
  const round = (value: number) => String(Math.round(value * 10) / 10)
  if (bytes >= 1024 * 1024) return `${round(bytes / (1024 * 1024))} MB`
  if (bytes >= 1024) return `${round(bytes / 1024)} KB`
  return `${bytes} bytes`
}

export function formatSeconds(ms: number): string {
  return `${Math.round(ms / 10) / 100} s`
}

/** `Retry-After` as milliseconds to wait: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** `HTTP 404 Not Found`, with the start of the answer when the caller wants it quoted. */
export function describeStatus(status: number, statusText: string, quoted?: string): string {
  const line = `HTTP ${status} ${statusText || STATUS_CODES[status] || ''}`.trim()
  const snippet = quoted?.replace(/\s+/g, ' ').trim().slice(0, 200)
  return snippet ? `${line}: ${snippet}` : line
}

/** The socket error under undici's wrapping: TypeError('fetch failed', {cause: Error('connect ECONNREFUSED ...')}). */
export function describeNetworkError(error: unknown): string {
  let cause: unknown = error
  while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause
  if (cause instanceof AggregateError && cause.errors[0] instanceof Error) cause = cause.errors[0]
  const message = cause instanceof Error ? cause.message : String(cause)
  const code = (cause as {code?: unknown}).code
  return `network error: ${typeof code === 'string' && !message.includes(code) ? `${code} ` : ''}${message}`
}

/** undici's errors for a request given to a dispatcher that was closed or destroyed, under fetch's wrapping. */
const CLOSED_CLIENT_CODES = new Set(['UND_ERR_CLOSED', 'UND_ERR_DESTROYED'])

/** True when the request failed because its client was closed: it was never sent, and trying again cannot help. */
export function closedClient(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (CLOSED_CLIENT_CODES.has(String((cause as {code?: unknown}).code))) return true
  }
  return false
}

/** Why the caller stopped the request, from its signal's reason. */
export function describeAbort(reason: unknown): string {
  const text = reason instanceof Error ? reason.message : reason === undefined ? '' : String(reason)
  return text ? `aborted: ${text}` : 'aborted'
}
