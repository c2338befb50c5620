import {STATUS_CODES} from 'node:http'
import pRetry, {AbortError} from 'p-retry'
import {type Dispatcher, request} from 'undici'
import {type Logger, silentLogger} from '../core/logger.js'
import {defaultUserAgent, parseRetryAfter} from '../sources/http-client.js'

/** How hard a channel is tried. Tests shorten the delays; the defaults suit a run from cron. */
export interface HttpPolicy {
  /** One attempt, from connecting to the last byte of the answer. */
  timeoutMs: number
  /** Further attempts after the first, on 429, 5xx, timeouts and network errors. */
  retries: number
  minDelayMs: number
  maxDelayMs: number
  /** The longest `Retry-After` waited for; a server asking for more fails the channel at once. */
  maxRetryAfterMs: number
}

export const DEFAULT_HTTP_POLICY: HttpPolicy = {
  timeoutMs: 15_000,
  retries: 2,
  minDelayMs: 1_000,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
}

export interface HttpPost {
  /** The channel's masked name, for log lines about retries. */
  label: string
  url: string
  /** POST unless said otherwise; a GET sends no body. */
  method?: 'GET' | 'POST'
  headers: Record<string, string>
  body: string
}

export interface HttpAnswer {
  status: number
  body: string
}

export interface HttpTransportOptions {
  /** An EnvHttpProxyAgent in the app (proxies from HTTP_PROXY, HTTPS_PROXY, NO_PROXY); undici's global one otherwise. */
  dispatcher?: Dispatcher
  policy?: Partial<HttpPolicy>
  userAgent?: string
  /** Where retries are reported (`jobagent.notify`). */
  logger?: Logger
}

/** A failed attempt worth repeating; `retryAfterMs` is the server's own `Retry-After`. */
class RetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message)
  }
}

function describeStatus(status: number, body: string): string {
  const snippet = body.replace(/\s+/g, ' ').trim().slice(0, 200)
  return `HTTP ${status} ${STATUS_CODES[status] ?? ''}`.trim() + (snippet ? `: ${snippet}` : '')
}

/** Node's network errors carry a code (ECONNREFUSED, ENOTFOUND); undici's a name. Neither carries a secret. */
function describeNetworkError(error: unknown): string {
  const {code, message} = error as {code?: string; message?: string}
  return code && !message?.includes(code) ? `${code}: ${message ?? ''}` : (message ?? String(error))
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      signal.removeEventListener('abort', stop)
      resolve()
    }
    const timer = setTimeout(done, ms)
    const stop = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    if (signal.aborted) stop()
    else signal.addEventListener('abort', stop, {once: true})
  })
}

/**
 * POSTs a message (the sources' HttpClient only GETs; both share its Retry-After parser and User-Agent) with a timeout per attempt and bounded retries (p-retry): 5xx, 408, timeouts and network
 * errors are retried with backoff; 429 waits for `Retry-After` (up to a cap) first; any other 4xx fails at once.
 */
export class HttpTransport {
  private readonly policy: HttpPolicy
  private readonly logger: Logger

  constructor(private readonly options: HttpTransportOptions = {}) {
    this.policy = {...DEFAULT_HTTP_POLICY, ...options.policy}
    this.logger = options.logger ?? silentLogger
  }

  async post(post: HttpPost, signal: AbortSignal): Promise<HttpAnswer> {
    let attempts = 0
    try {
      return await pRetry(
        () => {
          attempts++
          return this.attempt(post, signal)
        },
        {
          retries: this.policy.retries,
          minTimeout: this.policy.minDelayMs,
          maxTimeout: this.policy.maxDelayMs,
          signal,
          onFailedAttempt: async ({error, retriesLeft, retriesConsumed}) => {
            if (!(error instanceof RetryableError) || retriesLeft <= 0) return
            const backoff = Math.min(this.policy.minDelayMs * 2 ** retriesConsumed, this.policy.maxDelayMs)
            const wait = Math.max(backoff, error.retryAfterMs ?? 0)
            this.logger.info(`${post.label}: ${error.message}; retrying in ${Math.ceil(wait / 100) / 10} s`)
            // p-retry then waits its own backoff; this tops it up to what Retry-After asked for.
            if (wait > backoff) await sleep(wait - backoff, signal)
          },
        },
      )
    } catch (error) {
      if (signal.aborted) throw new Error(`cancelled: ${describeNetworkError(signal.reason)}`)
      if (error instanceof RetryableError && attempts > 1) throw new Error(`${error.message} (${attempts} attempts)`)
      throw error
    }
  }

  private async attempt(post: HttpPost, signal: AbortSignal): Promise<HttpAnswer> {
    const timeout = AbortSignal.timeout(this.policy.timeoutMs)
    let status: number
    let body: string
    let retryAfter: string | null = null
    try {
      const method = post.method ?? 'POST'
      const response = await request(post.url, {
        method,
        headers: {'user-agent': this.options.userAgent ?? defaultUserAgent(), ...post.headers},
        body: method === 'GET' ? null : post.body,
        signal: AbortSignal.any([signal, timeout]),
        ...(this.options.dispatcher ? {dispatcher: this.options.dispatcher} : {}),
      })
      status = response.statusCode
      const header = response.headers['retry-after']
      retryAfter = (Array.isArray(header) ? header[0] : header) ?? null
      body = await response.body.text()
    } catch (error) {
      if (signal.aborted) throw new AbortError(`cancelled: ${describeNetworkError(signal.reason)}`)
      if (timeout.aborted) throw new RetryableError(`no answer within ${this.policy.timeoutMs} ms`)
      throw new RetryableError(describeNetworkError(error))
    }
    if (status >= 200 && status < 300) return {status, body}
    if (status === 429) {
      const wait = parseRetryAfter(retryAfter)
      if (wait !== undefined && wait > this.policy.maxRetryAfterMs) {
        throw new AbortError(`${describeStatus(status, body)} (Retry-After ${Math.ceil(wait / 1000)} s is too long)`)
      }
      throw new RetryableError(describeStatus(status, body), wait)
    }
    if (status >= 500 || status === 408) throw new RetryableError(describeStatus(status, body))
    throw new AbortError(describeStatus(status, body))
  }
}
