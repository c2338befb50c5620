import type {Dispatcher} from 'undici'
import type {Logger} from '../core/logger.js'
import type {SecretMask} from '../core/secrets.js'
import {type HttpAnswer, HttpClient, HttpError} from '../http-client/index.js'

/** How hard a channel is tried. Tests shorten the delays; the defaults suit a run from cron. */
export interface HttpPolicy {
  /** One attempt, from connecting to the last byte of the answer. */
  timeoutMs: number
  /** Further attempts after the first, on 408, 429, 5xx, timeouts and network errors. */
  retries: number
  minDelayMs: number
  maxDelayMs: number
  /** The longest `Retry-After` waited for; a server asking for more fails the channel at once. */
  maxRetryAfterMs: number
}

const DEFAULT_HTTP_POLICY: HttpPolicy = {
  timeoutMs: 15_000,
  retries: 2,
  minDelayMs: 1_000,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
}

interface HttpPost {
  /** The channel's masked name, for log lines about retries. */
  label: string
  url: string
  /** POST unless said otherwise; a GET sends no body. */
  method?: 'GET' | 'POST'
  headers: Record<string, string>
  body: string
}

interface HttpTransportOptions {
  /** An EnvHttpProxyAgent (proxies from HTTP_PROXY, HTTPS_PROXY, NO_PROXY) unless given. */
  dispatcher?: Dispatcher
  policy?: Partial<HttpPolicy>
  userAgent?: string
  /** Where retries are reported (`jobagent.notify`). */
  logger?: Logger
  /** The configured secrets, hidden in a refusal before it is quoted (see HttpClientOptions). */
  secrets?: SecretMask
}

/**
 * The channels' use of the shared HTTP client: a message is worth a retry after a timeout too, a refusal is
 * quoted (the channel's answer says why), and a failure says how many attempts it took.
 */
export class HttpTransport {
  private readonly client: HttpClient

  constructor(options: HttpTransportOptions = {}) {
    const policy = {...DEFAULT_HTTP_POLICY, ...options.policy}
    this.client = new HttpClient({
      timeoutMs: policy.timeoutMs,
      retries: policy.retries,
      retryBaseDelayMs: policy.minDelayMs,
      maxRetryDelayMs: policy.maxDelayMs,
      maxRetryAfterSeconds: policy.maxRetryAfterMs / 1000,
      retryTimeouts: true,
      ...(options.dispatcher ? {dispatcher: options.dispatcher} : {}),
      ...(options.userAgent ? {userAgent: options.userAgent} : {}),
      ...(options.logger ? {logger: options.logger} : {}),
      ...(options.secrets ? {secrets: options.secrets} : {}),
    })
  }

  /** POSTs `json` as a JSON body; `headers` go beside its content type. */
  postJson(
    post: Pick<HttpPost, 'label' | 'url'> & {headers?: Record<string, string>; json: unknown},
    signal: AbortSignal,
  ): Promise<HttpAnswer> {
    const {json, headers, ...target} = post
    const body = JSON.stringify(json)
    return this.post({...target, headers: {'content-type': 'application/json', ...headers}, body}, signal)
  }

  async post(post: HttpPost, signal: AbortSignal): Promise<HttpAnswer> {
    try {
      return await this.client.request(post.url, {
        method: post.method ?? 'POST',
        headers: post.headers,
        body: post.body,
        signal,
        label: post.label,
        errorBody: 'quote',
      })
    } catch (error) {
      if (error instanceof HttpError && error.retryable && error.attempts > 1) {
        throw new HttpError(`${error.message} (${error.attempts} attempts)`, {url: error.url, cause: error})
      }
      throw error
    }
  }
}
