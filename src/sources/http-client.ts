import {lookup} from 'node:dns/promises'
import {existsSync, readFileSync} from 'node:fs'
import {STATUS_CODES} from 'node:http'
import {BlockList, isIP} from 'node:net'
import {dirname, join} from 'node:path'
import {TextDecoder} from 'node:util'
import pLimit, {type LimitFunction} from 'p-limit'
import pRetry from 'p-retry'
import {Agent, type Dispatcher, EnvHttpProxyAgent, fetch} from 'undici'
import {UnavailableError} from '../core/errors.js'
import {type Logger, silentLogger} from '../core/logger.js'
import {jsonNestsDeeperThan, MAX_NESTING_DEPTH} from '../core/nesting.js'
import {maskCredentials, maskCredentialsIn} from '../core/secrets.js'

export const DEFAULT_TIMEOUT_MS = 20_000
export const DEFAULT_RETRIES = 2
export const DEFAULT_RETRY_BASE_DELAY_MS = 1000
export const DEFAULT_MAX_RETRY_AFTER_SECONDS = 60
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024
/** Redirects followed per request; a board that needs more is misconfigured or leading the client on. */
export const MAX_REDIRECTS = 5
/** Requests in flight to one host: several Greenhouse boards share boards-api.greenhouse.io politely. */
export const DEFAULT_CONCURRENCY_PER_HOST = 4

export interface HttpClientOptions {
  /** Defaults to `jobagent/<version> (+https://github.com/jobagent/jobagent)`. */
  userAgent?: string
  /** Retries after the first attempt on 429, 5xx and network errors (default 2). */
  retries?: number
  /** Backoff before retry n is base * 2^(n-1) (default 1000 ms); tests set a few milliseconds. */
  retryBaseDelayMs?: number
  /** A `Retry-After` longer than this is not waited for: the request fails at once (default 60 s). */
  maxRetryAfterSeconds?: number
  /** Bodies larger than this are not read to the end and fail (default 10 MB). */
  maxBodyBytes?: number
  concurrencyPerHost?: number
  /** Defaults to an EnvHttpProxyAgent, which honours HTTP_PROXY, HTTPS_PROXY and NO_PROXY. */
  dispatcher?: Dispatcher
  /** false: connect directly whatever the environment says (boards served by this process). */
  proxy?: boolean
  logger?: Logger
}

export interface RequestOptions {
  /** The caller's signal (the run's); aborting it stops the request and any retry wait. */
  signal?: AbortSignal
  /** Per attempt, including reading the body (default 20 s). */
  timeoutMs?: number
  headers?: Record<string, string>
  /** Where retries are reported; defaults to the client's logger. */
  logger?: Logger
}

interface HttpErrorOptions {
  url: string
  status?: number
  retryable?: boolean
  retryAfterMs?: number
  cause?: unknown
  hint?: string
}

/** A board that could not be read. The message names the cause only; `url` says which request failed. */
export class HttpError extends UnavailableError {
  readonly url: string
  readonly status: number | undefined
  readonly retryable: boolean
  readonly retryAfterMs: number | undefined

  constructor(message: string, options: HttpErrorOptions) {
    // Board URLs may carry credentials (user:password, ?token=), and the network layer quotes the URL it failed on.
    super(maskCredentialsIn(message), {
      cause: options.cause,
      hint: options.hint,
      retryAfterSeconds: options.retryAfterMs === undefined ? undefined : Math.ceil(options.retryAfterMs / 1000),
    })
    this.url = maskCredentials(options.url)
    this.status = options.status
    this.retryable = options.retryable ?? false
    this.retryAfterMs = options.retryAfterMs
  }
}

let packageVersion: string | undefined

/** The version in jobagent's package.json, found by walking up from this file (src/ in dev, dist/src/ built). */
export function jobagentVersion(): string {
  if (packageVersion !== undefined) return packageVersion
  let dir = import.meta.dirname
  for (let depth = 0; depth < 6; depth++) {
    const file = join(dir, 'package.json')
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as {name?: string; version?: string}
      if (manifest.name === 'jobagent' && manifest.version) {
        packageVersion = manifest.version
        return packageVersion
      }
    }
    dir = dirname(dir)
  }
  packageVersion = '0.0.0'
  return packageVersion
}

export function defaultUserAgent(): string {
  return `jobagent/${jobagentVersion()} (+https://github.com/jobagent/jobagent)`
}

export function formatBytes(bytes: number): string {
  const round = (value: number) => String(Math.round(value * 10) / 10)
  if (bytes >= 1024 * 1024) return `${round(bytes / (1024 * 1024))} MB`
  if (bytes >= 1024) return `${round(bytes / 1024)} KB`
  return `${bytes} bytes`
}

function formatSeconds(ms: number): string {
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

function describeNetworkError(error: unknown): string {
  let cause: unknown = error
  // undici wraps the socket error: TypeError('fetch failed', {cause: Error('connect ECONNREFUSED ...')}).
  while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause
  if (cause instanceof AggregateError && cause.errors[0] instanceof Error) cause = cause.errors[0]
  const message = cause instanceof Error ? cause.message : String(cause)
  const code = (cause as {code?: unknown}).code
  return `network error: ${typeof code === 'string' && !message.includes(code) ? `${code} ` : ''}${message}`
}

function htmlTitle(body: string): string | undefined {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.replace(/\s+/g, ' ').trim()
  return title ? title.slice(0, 80) : undefined
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

const NESTING_HINT = 'no job board nests its answer so deeply; if the board keeps sending it, disable the source'

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/** Loopback, private, link-local and shared ranges: the machine itself and its local networks. */
const PRIVATE_RANGES = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE_RANGES.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PRIVATE_RANGES.addSubnet(network, prefix, 'ipv6')
}

function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  // IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are matched against the IPv4 ranges by BlockList.
  return PRIVATE_RANGES.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/**
 * Whether a host names this machine or a private network: a literal address in PRIVATE_RANGES, `localhost`, or a
 * name that resolves to such an address. A name that does not resolve here (behind a proxy) counts as public;
 * the request to it fails on its own if it cannot be reached.
 */
async function isPrivateHost(hostname: string): Promise<boolean> {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (isIP(host) !== 0) return isPrivateAddress(host)
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  try {
    const addresses = await lookup(host, {all: true})
    return addresses.some((entry) => isPrivateAddress(entry.address))
  } catch {
    return false
  }
}

/**
 * The next URL of a redirect, or the reason it is not followed: only to http(s), and never from a board on the
 * internet to this machine or a private network, where a hostile board could make jobagent read what only this
 * machine can reach.
 */
async function redirectTarget(from: string, location: string, url: string): Promise<string> {
  let target: URL
  try {
    target = new URL(location, from)
  } catch {
    throw new HttpError(`redirect to an invalid URL (${location.slice(0, 200)})`, {url})
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new HttpError(`redirect to a URL that is not http(s) (${target.protocol})`, {url})
  }
  const source = new URL(from)
  if (!(await isPrivateHost(source.hostname)) && (await isPrivateHost(target.hostname))) {
    throw new HttpError(`redirect from ${source.host} to a private address (${target.host}) refused`, {url})
  }
  return target.href
}

interface TextResult {
  text: string
  contentType: string | null
}

/**
 * The one HTTP client every board adapter uses: identifying User-Agent, a timeout per attempt, bounded retries
 * with exponential backoff on 429/5xx/network errors that honour `Retry-After`, a cap on the body size, and a
 * concurrency limit per host. Errors are HttpErrors whose message names the cause.
 */
export class HttpClient {
  readonly userAgent: string
  private readonly retries: number
  private readonly retryBaseDelayMs: number
  private readonly maxRetryAfterMs: number
  private readonly maxBodyBytes: number
  private readonly concurrencyPerHost: number
  private readonly dispatcher: Dispatcher
  private readonly logger: Logger
  private readonly limits = new Map<string, LimitFunction>()

  constructor(options: HttpClientOptions = {}) {
    this.userAgent = options.userAgent ?? defaultUserAgent()
    this.retries = options.retries ?? DEFAULT_RETRIES
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS
    this.maxRetryAfterMs = (options.maxRetryAfterSeconds ?? DEFAULT_MAX_RETRY_AFTER_SECONDS) * 1000
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
    this.concurrencyPerHost = options.concurrencyPerHost ?? DEFAULT_CONCURRENCY_PER_HOST
    this.dispatcher = options.dispatcher ?? (options.proxy === false ? new Agent() : new EnvHttpProxyAgent())
    this.logger = options.logger ?? silentLogger
  }

  /** The limiter of one host, shared by every adapter (and by anyone else calling that host through jobagent). */
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
    const {text, contentType} = await this.request(url, {
      ...options,
      headers: {accept: 'application/json', ...options.headers},
    })
    if (looksLikeHtml(text) || (/text\/html/i.test(contentType ?? '') && /^\s*</.test(text))) {
      const title = htmlTitle(text)
      throw new HttpError(`HTML instead of JSON${title ? ` ("${title}")` : ''}`, {url})
    }
    // Checked before parsing, so a hostile body is refused without ever being built.
    if (jsonNestsDeeperThan(text, MAX_NESTING_DEPTH)) {
      throw new HttpError(`JSON nested deeper than ${MAX_NESTING_DEPTH} levels`, {url, hint: NESTING_HINT})
    }
    try {
      return JSON.parse(text)
    } catch (error) {
      throw new HttpError(`malformed JSON: ${(error as Error).message}`, {url, cause: error})
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close()
  }

  private async request(url: string, options: RequestOptions): Promise<TextResult> {
    const logger = options.logger ?? this.logger
    const limit = this.limitFor(url)
    return pRetry(() => limit(() => this.attempt(url, options)), {
      retries: this.retries,
      minTimeout: this.retryBaseDelayMs,
      factor: 2,
      signal: options.signal,
      shouldRetry: ({error}) => error instanceof HttpError && error.retryable,
      onFailedAttempt: async ({error, retriesLeft, retriesConsumed}) => {
        if (!(error instanceof HttpError && error.retryable) || retriesLeft <= 0) return
        const backoff = this.retryBaseDelayMs * 2 ** retriesConsumed
        const wait = Math.max(backoff, error.retryAfterMs ?? 0)
        logger.info(
          `${error.message} from GET ${maskCredentials(url)}; retrying in ${formatSeconds(wait)} (${retriesConsumed + 1} of ${this.retries})`,
        )
        // p-retry then waits its own backoff; this tops it up to what Retry-After asked for.
        if (wait > backoff) await sleep(wait - backoff, options.signal)
      },
    })
  }

  private async attempt(url: string, options: RequestOptions): Promise<TextResult> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
    const failure = (error: unknown): HttpError => {
      if (options.signal?.aborted) return new HttpError('aborted', {url, cause: error})
      if (timeout.aborted) return new HttpError(`timed out after ${formatSeconds(timeoutMs)}`, {url, cause: error})
      if (error instanceof HttpError) return error
      return new HttpError(describeNetworkError(error), {url, retryable: true, cause: error})
    }
    try {
      const response = await this.fetchFollowing(url, options.headers ?? {}, signal)
      if (!response.ok) {
        await response.body?.cancel().catch(() => {})
        throw this.statusError(url, response.status, response.statusText, response.headers.get('retry-after'))
      }
      const declared = Number(response.headers.get('content-length'))
      if (declared > this.maxBodyBytes) {
        await response.body?.cancel().catch(() => {})
        throw new HttpError(`response larger than ${formatBytes(this.maxBodyBytes)}`, {url})
      }
      const contentType = response.headers.get('content-type')
      const text = decoderFor(contentType).decode(await this.readCapped(url, response.body))
      return {text, contentType}
    } catch (error) {
      throw failure(error)
    }
  }

  /** GET with redirects followed by hand, each hop checked by redirectTarget, at most MAX_REDIRECTS of them. */
  private async fetchFollowing(url: string, headers: Record<string, string>, signal: AbortSignal) {
    let current = url
    for (let hops = 0; ; hops++) {
      const response = await fetch(current, {
        headers: {'user-agent': this.userAgent, ...headers},
        signal,
        dispatcher: this.dispatcher,
        redirect: 'manual',
      })
      const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null
      if (location === null) return response
      await response.body?.cancel().catch(() => {})
      if (hops === MAX_REDIRECTS) throw new HttpError(`more than ${MAX_REDIRECTS} redirects`, {url})
      current = await redirectTarget(current, location, url)
    }
  }

  private statusError(url: string, status: number, statusText: string, retryAfterHeader: string | null): HttpError {
    const message = `HTTP ${status} ${statusText || STATUS_CODES[status] || ''}`.trim()
    const retryable = status === 429 || status >= 500
    const retryAfterMs = retryable ? parseRetryAfter(retryAfterHeader) : undefined
    if (retryAfterMs !== undefined && retryAfterMs > this.maxRetryAfterMs) {
      // Retrying before the board allows it would only earn another refusal; report how long it asked for.
      return new HttpError(`${message} (retry after ${formatSeconds(retryAfterMs)})`, {url, status, retryAfterMs})
    }
    return new HttpError(message, {url, status, retryable, retryAfterMs})
  }

  private async readCapped(url: string, body: ReadableStream<Uint8Array> | null): Promise<Uint8Array> {
    if (!body) return new Uint8Array()
    const chunks: Uint8Array[] = []
    let size = 0
    for await (const chunk of body) {
      size += chunk.byteLength
      if (size > this.maxBodyBytes) {
        // Leaving the loop cancels the stream, so the rest is never downloaded.
        throw new HttpError(`response larger than ${formatBytes(this.maxBodyBytes)}`, {url})
      }
      chunks.push(chunk)
    }
    return Buffer.concat(chunks)
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, {once: true})
  })
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  return new HttpClient(options)
}
