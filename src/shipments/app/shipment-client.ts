import {USER_AGENT} from '../../app/version.js'
import {NotFoundError, UnavailableError, ValidationError} from '../../core/errors.js'
import {HttpClient, HttpError} from '../../http-client/index.js'
import {validateBatchIds, validateShipmentId} from '../core/shipment-id.js'
import {checkHistoryQuery, type HistoryQuery, type TelemetryHistory} from '../core/telemetry-history.js'
import type {UnifiedBatch, UnifiedState} from '../core/unified-state.js'

interface RemoteOptions {
  /** Sent as `Authorization: Bearer <token>` when set (JOBAGENT_API_TOKEN). */
  token?: string
  timeoutMs?: number
}

interface ErrorDocument {
  error?: {message?: string; details?: []}
}

/** `jobagent shipment show ID --server URL`: asks a running API for the same body its route returns. */
export function fetchUnifiedState(server: string, id: string, options: RemoteOptions = {}): Promise<UnifiedState> {
  validateShipmentId(id)
  return ask<UnifiedState>(server, `shipments/${encodeURIComponent(id)}/unified`, options)
}

/** `jobagent shipment show ID ID ... --server URL`: the batch route, its ids (checked as the server checks them) in the body. */
export function fetchUnifiedBatch(
  server: string,
  ids: readonly string[],
  options: RemoteOptions = {},
): Promise<UnifiedBatch> {
  return ask<UnifiedBatch>(server, 'shipments/unified', options, {ids: validateBatchIds(ids)})
}

/** `jobagent shipment history ID --server URL`: one page of GET /shipments/{id}/telemetry. */
export function fetchTelemetryHistory(
  server: string,
  id: string,
  query: HistoryQuery,
  options: RemoteOptions = {},
): Promise<TelemetryHistory> {
  // Checked here as the server checks them, so a typo is named before any request leaves.
  validateShipmentId(id)
  checkHistoryQuery(query)
  const parameters = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) if (value !== undefined) parameters.set(name, String(value))
  const search = parameters.size > 0 ? `?${parameters}` : ''
  return ask<TelemetryHistory>(server, `shipments/${encodeURIComponent(id)}/telemetry${search}`, options)
}

async function ask<T extends object>(server: string, path: string, options: RemoteOptions, body?: object): Promise<T> {
  const base = serverUrl(server)
  const url = new URL(path, base)
  // One question from a person at a terminal: answered or refused at once, never retried behind their back.
  const http = new HttpClient({
    userAgent: USER_AGENT,
    retries: 0,
    maxRetryAfterSeconds: Number.POSITIVE_INFINITY,
    timeoutMs: options.timeoutMs ?? 10_000,
  })
  try {
    const answer = await http.request(url.href, {
      headers: {
        accept: 'application/json',
        ...(body ? {'content-type': 'application/json'} : {}),
        ...(options.token ? {authorization: `Bearer ${options.token}`} : {}),
      },
      ...(body ? {method: 'POST' as const, body: JSON.stringify(body)} : {}),
      errorBody: 'keep',
    })
    const parsed = parseJson(answer.text) as (T & ErrorDocument) | undefined
    if (parsed && !parsed.error) return parsed
    throw new UnavailableError(parsed?.error?.message ?? `${url.href} answered ${answer.status}`)
  } catch (error) {
    throw error instanceof HttpError ? remoteError(error, base, url) : error
  } finally {
    await http.close()
  }
}

export function serverUrl(server: string): URL {
  try {
    const base = new URL(server.endsWith('/') ? server : `${server}/`)
    if (base.protocol === 'http:' || base.protocol === 'https:') return base
  } catch {}
  throw new ValidationError(`--server must be an http:// or https:// URL, got ${JSON.stringify(server)}`, {
    hint: 'e.g. --server http://127.0.0.1:8080',
  })
}

function parseJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The server's own error document where it sent one, mapped back onto the error it stands for. */
export function remoteError(error: HttpError, base: URL, url: URL): Error {
  if (error.status === undefined) {
    return new UnavailableError(`cannot reach ${base.origin}: ${error.message}`, {
      hint: 'is `jobagent serve` running there?',
      cause: error,
    })
  }
  const body = parseJson(error.body) as ErrorDocument | undefined
  const message = body?.error?.message ?? `${url.href} answered ${error.status}`
  const details = body?.error?.details ?? []
  if (error.status === 404)
    return new NotFoundError(message, {details, hint: 'check the id, or import the shipment first'})
  if (error.status === 400 || error.status === 413 || error.status === 422)
    return new ValidationError(message, {details})
  if (error.status === 401) {
    return new UnavailableError(`${base.origin} refused the request: ${message}`, {
      hint: 'set JOBAGENT_API_TOKEN to the server token',
    })
  }
  return new UnavailableError(message, {
    details,
    ...(error.retryAfterMs ? {retryAfterSeconds: Math.ceil(error.retryAfterMs / 1000)} : {}),
  })
}
