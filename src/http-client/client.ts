import {setTimeout as delay} from 'node:timers/promises'
import {TextDecoder} from 'node:util'
import pLimit, {type LimitFunction} from 'p-limit'
import pRetry from 'p-retry'
import {Agent, type Dispatcher, EnvHttpProxyAgent, fetch} from 'undici'
import {type Logger, silentLogger} from '../core/logger.js'
import {jsonNestsDeeperThan, MAX_NESTING_DEPTH} from '../core/nesting.js'
import {maskCredentials, SecretMask} from '../core/secrets.js'
import {
  closedClient,
  describeAbort,
  describeNetworkError,
  describeStatus,
  formatBytes,
  formatSeconds,
  HttpError,
  parseRetryAfter,
} from './http-error.js'
import {REDIRECT_STATUSES, redirectTarget} from './redirects.js'

const DEFAULT_TIMEOUT_MS = 20_000
const DEFAULT_RETRIES = 2
const DEFAULT_RETRY_BASE_DELAY_MS = 1000
const DEFAULT_MAX_RETRY_AFTER_SECONDS = 60
const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024
/** Redirects followed per request; a server that needs more is misconfigured or leading the client on. */
export const MAX_REDIRECTS = 5
/** Requests in flight to one host: several Greenhouse boards share boards-api.greenhouse.io politely. */
const DEFAULT_CONCURRENCY_PER_HOST = 4

export interface HttpClientOptions {
  /** Defaults to `jobagent/<version> (+https://github.com/jobagent/jobagent)`. */
  userAgent?: string
  /** Per attempt, including reading the body (default 20 s); a request may set its own. */
  timeoutMs?: number
  /** Retries after the first attempt on 408, 429, 5xx and network errors (default 2). */
  retries?: number
  /** Backoff before retry n is base * 2^(n-1) (default 1000 ms); tests set a few milliseconds. */
  retryBaseDelayMs?: number
  /** The longest backoff between two attempts (default unbounded); `Retry-After` may ask for more. */
  maxRetryDelayMs?: number
  /** Whether an attempt that timed out is repeated: yes for a message worth delivering, no for a slow board. */
  retryTimeouts?: boolean
  /** A `Retry-After` longer than this is not waited for: the request fails at once (default 60 s). */
  maxRetryAfterSeconds?: number
  /** Bodies larger than this are not read to the end and fail (default 10 MB). */
  maxBodyBytes?: number
  concurrencyPerHost?: number
  /** Defaults to an EnvHttpProxyAgent, which honours HTTP_PROXY, HTTPS_PROXY and NO_PROXY. */
  dispatcher?: Dispatcher
  /** false: connect directly whatever the environment says (servers run by this process). */
  proxy?: boolean
  logger?: Logger
  /**
   * The configured secrets, hidden in what an answer is quoted by (an error page's title, the start of a refusal)
   * before the quote is cut to its length: a remote that echoes the request would otherwise leave part of one.
   */
  secrets?: SecretMask
}

export interface RequestOptions {
  /** GET unless said otherwise. Only a GET follows redirects: another method's body goes where it was sent. */
  method?: 'GET' | 'POST'
  body?: string
  /** The caller's signal (the run's); aborting it stops the request and any retry wait. */
  signal?: AbortSignal
  /** Per attempt, including reading the body (default: the client's). */
  timeoutMs?: number
  headers?: Record<string, string>
  /** Where retries are reported; defaults to the client's logger. */
  logger?: Logger
  /** Names the request in retry lines, for a URL that is a secret as a whole (a webhook); `GET <url>` otherwise. */
  label?: string
  /** A body larger than this is not read to the end and fails (default: the client's). */
  maxBodyBytes?: number
  /**
   * The body of an error answer: `ignore`d (a board's error page), `keep` on the HttpError (a server's error
   * document), or `quote` its start in the message too (a channel's refusal says why: "Unknown Webhook").
   */
  errorBody?: 'ignore' | 'keep' | 'quote'
}

export interface HttpAnswer {
  /** 2xx, or 304 for a request that sent `if-none-match` or `if-modified-since`: the text is then empty. */
  status: number
  text: string
  contentType: string | null
  /** The validators a later conditional request sends back; null when the server sent none. */
  etag: string | null
  lastModified: string | null
}

/**
 * Who is asking, for the boards' and channels' logs. The composition root passes the versioned form
 * (src/app/version.ts USER_AGENT); this one serves clients built without it (tests, tools).
 */
const DEFAULT_USER_AGENT = 'jobagent (+https://github.com/jobagent/jobagent)'

/** How far into a page its title is looked for: a page names itself near its start. */
const TITLE_PREFIX = 16 * 1024
/**
 * A title: `<title`, its attributes, `>`, its text. Neither part crosses a `<`, so each try ends at the next tag and
 * a page of `<title` repeated without `>` is read once, not again from every one of them.
 */
const TITLE = /<title[^<>]*>([^<]*)<\/title>/i

/** The title of an HTML page, to say which page came (an error page, a bot challenge, a login wall). */
function htmlTitle(body: string, secrets: SecretMask): string | undefined {
  const title = TITLE.exec(body.slice(0, TITLE_PREFIX))?.[1]?.replace(/\s+/g, ' ').trim()
  return title ? secrets.mask(title).slice(0, 80) : undefined
}

/** True when a body that should be JSON or XML is an HTML page (error pages, bot challenges, login walls). */
export function looksLikeHtml(body: string): boolean {
  return /^\s*(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(body.slice(0, 1024))
}

function decoderFor(contentType: string | null): TextDecoder {
  const charset = /charset="?([^";\s]+)/i.exec(contentType ?? '')?.[1]
  try {
    return new TextDecoder(charset ?? 'utf-8')
  } catch {
    return new TextDecoder('utf-8')
  }
}

const NO_SECRETS = new SecretMask([])

const NESTING_HINT = 'no job board nests its answer so deeply; if the board keeps sending it, disable the source'

type Response = Awaited<ReturnType<typeof fetch>>

/**
 * The one outbound HTTP client of jobagent (job boards, notification channels, a remote jobagent server):
 * identifying User-Agent, a timeout per attempt, bounded retries with exponential backoff on 408/429/5xx/network
 * errors that honour `Retry-After`, redirects checked hop by hop, a cap on the body size, proxies from the
 * environment, and a concurrency limit per host. Every failure is an HttpError whose message names the cause.
 */
export class HttpClient {
  readonly userAgent: string
  private readonly timeoutMs: number
  private readonly retries: number
  private readonly retryBaseDelayMs: number
  private readonly maxRetryDelayMs: number
  private readonly retryTimeouts: boolean
  private readonly maxRetryAfterMs: number
  private readonly maxBodyBytes: number
  private readonly concurrencyPerHost: number
  private readonly dispatcher: Dispatcher
  private readonly logger: Logger
  private readonly secrets: SecretMask
  private readonly limits = new Map<string, LimitFunction>()

  constructor(options: HttpClientOptions = {}) {
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.retries = options.retries ?? DEFAULT_RETRIES
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? Number.POSITIVE_INFINITY
    this.retryTimeouts = options.retryTimeouts ?? false
    this.maxRetryAfterMs = (options.maxRetryAfterSeconds ?? DEFAULT_MAX_RETRY_AFTER_SECONDS) * 1000
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
    this.concurrencyPerHost = options.concurrencyPerHost ?? DEFAULT_CONCURRENCY_PER_HOST
    this.dispatcher = options.dispatcher ?? (options.proxy === false ? new Agent() : new EnvHttpProxyAgent())
    this.logger = options.logger ?? silentLogger
    this.secrets = options.secrets ?? NO_SECRETS
  }

  /** The limiter of one host, shared by every caller of that host through this client. */
  limitFor(url: string): LimitFunction {
    const host = new URL(url).host.toLowerCase()
    let limit = this.limits.get(host)
    if (!limit) {
      limit = pLimit(this.concurrencyPerHost)
      this.limits.set(host, limit)
    }
    return limit
  }

  async getText(url: string, options: RequestOptions = {}): Promise<string> {
    return (await this.request(url, options)).text
  }

  /** Parsed JSON; an HTML page, a malformed or truncated body fails with a message that says which. */
  async getJson(url: string, options: RequestOptions = {}): Promise<unknown> {
    const answer = await this.request(url, {
      ...options,
      headers: {accept: 'application/json', ...options.headers},
    })
    return this.parseJson(url, answer)
  }

  /** The JSON of an answer `request` gave, read as getJson reads it. */
  parseJson(url: string, {text, contentType}: Pick<HttpAnswer, 'text' | 'contentType'>): unknown {
    if (looksLikeHtml(text) || (/text\/html/i.test(contentType ?? '') && /^\s*</.test(text))) {
      const title = htmlTitle(text, this.secrets)
      throw new HttpError(`HTML instead of JSON${title ? ` ("${title}")` : ''}`, {url, htmlPage: true})
    }
    // Checked before parsing, so a hostile body is refused without ever being built.
    if (jsonNestsDeeperThan(text, MAX_NESTING_DEPTH)) {
      throw new HttpError(`JSON nested deeper than ${MAX_NESTING_DEPTH} levels`, {url, hint: NESTING_HINT})
    }
    try {
      return JSON.parse(text)
    } catch (error) {
      throw new HttpError(`malformed JSON: ${this.parseFailure(text, error)}`, {url, cause: error})
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close()
  }

  /**
   * Why a body is no JSON, as the parser says it, which quotes a few characters around the fault: read from the
   * body with its secrets masked, so the quote never holds the start of one.
   */
  private parseFailure(text: string, error: unknown): string {
    if (this.secrets.empty) return (error as Error).message
    try {
      JSON.parse(this.secrets.mask(text))
    } catch (masked) {
      return (masked as Error).message
    }
    return this.secrets.mask((error as Error).message)
  }

  /** A 2xx answer after retries as the policy allows; anything else is an HttpError carrying the attempts made. */
  async request(url: string, options: RequestOptions = {}): Promise<HttpAnswer> {
    const logger = options.logger ?? this.logger
    const label = options.label ?? `${options.method ?? 'GET'} ${maskCredentials(url)}`
    const limit = this.limitFor(url)
    const started = performance.now()
    let attempts = 0
    // With --verbose every request says what came back and how long it took; the label has its secrets masked.
    const took = () =>
      `in ${Math.round(performance.now() - started)} ms${attempts > 1 ? ` (${attempts} attempts)` : ''}`
    try {
      const answer = await pRetry(
        () => {
          attempts++
          return limit(() => this.attempt(url, options))
        },
        {
          retries: this.retries,
          minTimeout: this.retryBaseDelayMs,
          maxTimeout: this.maxRetryDelayMs,
          factor: 2,
          signal: options.signal,
          shouldRetry: ({error}) => error instanceof HttpError && error.retryable,
          onFailedAttempt: async ({error, retriesLeft, retriesConsumed}) => {
            if (!(error instanceof HttpError && error.retryable) || retriesLeft <= 0) return
            const backoff = Math.min(this.retryBaseDelayMs * 2 ** retriesConsumed, this.maxRetryDelayMs)
            const wait = Math.max(backoff, error.retryAfterMs ?? 0)
            logger.info(
              `${error.message} from ${label}; retrying in ${formatSeconds(wait)} (${retriesConsumed + 1} of ${this.retries})`,
            )
            // p-retry then waits its own backoff; this tops it up to what Retry-After asked for.
            if (wait > backoff) await delay(wait - backoff, undefined, {signal: options.signal})
          },
        },
      )
      logger.debug(`${label}: HTTP ${answer.status}, ${formatBytes(Buffer.byteLength(answer.text))} ${took()}`)
      return answer
    } catch (error) {
      const failure = options.signal?.aborted
        ? new HttpError(describeAbort(options.signal.reason), {url, cause: error})
        : error instanceof HttpError
          ? error
          : new HttpError(describeNetworkError(error), {url, cause: error})
      failure.attempts = attempts
      logger.debug(`${label}: ${failure.message} ${took()}`)
      throw failure
    }
  }

  private async attempt(url: string, options: RequestOptions): Promise<HttpAnswer> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs
    const maxBodyBytes = options.maxBodyBytes ?? this.maxBodyBytes
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
    try {
      const response = await this.fetchFollowing(url, options, signal)
      const declared = Number(response.headers.get('content-length'))
      if (declared > maxBodyBytes) {
        await response.body?.cancel().catch(() => {})
        throw new HttpError(`response larger than ${formatBytes(maxBodyBytes)}`, {url})
      }
      const validators = {etag: response.headers.get('etag'), lastModified: response.headers.get('last-modified')}
      if (response.status === 304 && conditional(options.headers)) {
        await response.body?.cancel().catch(() => {})
        return {status: 304, text: '', contentType: null, ...validators}
      }
      if (!response.ok && (options.errorBody ?? 'ignore') === 'ignore') {
        await response.body?.cancel().catch(() => {})
        throw this.statusError(url, response)
      }
      const contentType = response.headers.get('content-type')
      const text = await this.readText(url, response.body, decoderFor(contentType), maxBodyBytes)
      if (!response.ok) throw this.statusError(url, response, text, options.errorBody === 'quote')
      return {status: response.status, text, contentType, ...validators}
    } catch (error) {
      if (options.signal?.aborted) throw new HttpError(describeAbort(options.signal.reason), {url, cause: error})
      if (timeout.aborted) {
        throw new HttpError(`timed out after ${formatSeconds(timeoutMs)}`, {
          url,
          cause: error,
          retryable: this.retryTimeouts,
        })
      }
      if (error instanceof HttpError) throw error
      // A client closed while a request waited for its retry (the program stopping) will never send it: no retry.
      if (closedClient(error)) throw new HttpError('not sent: the HTTP client was closed', {url, cause: error})
      throw new HttpError(describeNetworkError(error), {url, retryable: true, cause: error})
    }
  }

  /** Redirects of a GET followed by hand, each hop checked by redirectTarget, at most MAX_REDIRECTS of them. */
  private async fetchFollowing(url: string, options: RequestOptions, signal: AbortSignal): Promise<Response> {
    const method = options.method ?? 'GET'
    let current = url
    for (let hops = 0; ; hops++) {
      const response = await fetch(current, {
        method,
        headers: {'user-agent': this.userAgent, ...options.headers},
        body: method === 'GET' ? null : (options.body ?? ''),
        signal,
        dispatcher: this.dispatcher,
        redirect: 'manual',
      })
      const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null
      if (location === null || method !== 'GET') return response
      await response.body?.cancel().catch(() => {})
      if (hops === MAX_REDIRECTS) throw new HttpError(`more than ${MAX_REDIRECTS} redirects`, {url})
      current = await redirectTarget(current, location, url)
    }
  }

  private statusError(url: string, response: Response, body?: string, quote = false): HttpError {
    const {status} = response
    const message = describeStatus(status, response.statusText, quote && body ? this.secrets.mask(body) : undefined)
    const retryable = status === 408 || status === 429 || status >= 500
    const retryAfterMs = retryable ? parseRetryAfter(response.headers.get('retry-after')) : undefined
    if (retryAfterMs !== undefined && retryAfterMs > this.maxRetryAfterMs) {
      // Retrying before the server allows it would only earn another refusal; report how long it asked for.
      return new HttpError(`${message} (retry after ${formatSeconds(retryAfterMs)})`, {url, status, retryAfterMs, body})
    }
    return new HttpError(message, {url, status, retryable, retryAfterMs, body})
  }

  /**
   * The body as text, each chunk decoded as it arrives: a board's answer of several MB is never held as bytes and
   * as text at once, and the chunks can be collected while the rest downloads.
   */
  private async readText(
    url: string,
    body: ReadableStream<Uint8Array> | null,
    decoder: TextDecoder,
    maxBodyBytes: number,
  ): Promise<string> {
    if (!body) return ''
    const parts: string[] = []
    let size = 0
    for await (const chunk of body) {
      size += chunk.byteLength
      if (size > maxBodyBytes) {
        // Leaving the loop cancels the stream, so the rest is never downloaded.
        throw new HttpError(`response larger than ${formatBytes(maxBodyBytes)}`, {url})
      }
      parts.push(decoder.decode(chunk, {stream: true}))
    }
    parts.push(decoder.decode())
    return parts.join('')
  }
}

/** Whether a request asks to be told that what it has is current (a 304 is then an answer, not a failure). */
function conditional(headers: Record<string, string> | undefined): boolean {
  if (!headers) return false
  return Object.keys(headers).some((name) => /^if-(none-match|modified-since)$/i.test(name))
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  return new HttpClient(options)
}
