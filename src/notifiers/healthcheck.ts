import type {Dispatcher} from 'undici'
import {ConfigurationError} from '../core/errors.js'
import {MONITOR_LOG_BYTES, type RunMonitor} from '../core/jobs/run-monitor.js'
import type {Logger} from '../core/logger.js'
import {maskUrl, type SecretMask} from '../core/secrets.js'
import {withoutTrailingSlashes} from '../core/text-runs.js'
import {type HttpPolicy, HttpTransport} from './transport.js'

/** Each ping is one attempt of 5 s and one retry: a monitoring service that is down must not hold up cron. */
const HEALTHCHECK_POLICY: HttpPolicy = {
  timeoutMs: 5_000,
  retries: 1,
  minDelayMs: 500,
  maxDelayMs: 500,
  maxRetryAfterMs: 5_000,
}

function withPath(base: URL, suffix: string): string {
  const url = new URL(base)
  url.pathname = `${withoutTrailingSlashes(url.pathname)}${suffix}`
  return url.toString()
}

/**
 * The healthchecks.io ping protocol: `GET <url>/start` when a run starts, `POST <url>` with the log when it
 * completes, `POST <url>/fail` with the log when it fails. The URL's secret part (the check's UUID or ping key)
 * is masked in every log line.
 */
export function healthcheckMonitor(
  url: string,
  options: {
    logger: Logger
    userAgent?: string
    dispatcher?: Dispatcher
    policy?: Partial<HttpPolicy>
    secrets?: SecretMask
  },
): RunMonitor {
  let base: URL
  try {
    base = new URL(url)
  } catch {
    base = new URL('invalid:')
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new ConfigurationError(`run.healthcheck_url must be an http(s) URL, got ${maskUrl(url)}`, {
      details: [{field: 'run.healthcheck_url', message: 'must be an http(s) URL'}],
      hint: 'set it with: jobagent config set run.healthcheck_url https://hc-ping.com/<uuid>',
    })
  }
  const label = `healthcheck ${maskUrl(url)}`
  const transport = new HttpTransport({
    policy: {...HEALTHCHECK_POLICY, ...options.policy},
    logger: options.logger,
    ...(options.userAgent ? {userAgent: options.userAgent} : {}),
    ...(options.dispatcher ? {dispatcher: options.dispatcher} : {}),
    ...(options.secrets ? {secrets: options.secrets} : {}),
  })
  const ping = async (what: string, request: {url: string; method: 'GET' | 'POST'; body: string}) => {
    try {
      await transport.post(
        {label, headers: {'content-type': 'text/plain; charset=utf-8'}, ...request},
        new AbortController().signal,
      )
      options.logger.debug(`${label}: ${what} ping sent`)
    } catch (error) {
      options.logger.warning(`${label}: the ${what} ping failed: ${(error as Error).message}`)
    }
  }
  return {
    started: () => ping('start', {url: withPath(base, '/start'), method: 'GET', body: ''}),
    succeeded: (log) => ping('success', {url: base.toString(), method: 'POST', body: lastBytes(log)}),
    failed: (log) => ping('failure', {url: withPath(base, '/fail'), method: 'POST', body: lastBytes(log)}),
  }
}

/** The end of the log within MONITOR_LOG_BYTES, cut at a line start so no line arrives half. */
export function lastBytes(log: string, limit = MONITOR_LOG_BYTES): string {
  const bytes = Buffer.from(log, 'utf8')
  if (bytes.length <= limit) return log
  const tail = bytes.subarray(bytes.length - limit).toString('utf8')
  const newline = tail.indexOf('\n')
  return newline === -1 ? tail : tail.slice(newline + 1)
}
