import {NotFoundError, UnavailableError, ValidationError} from '../core/errors.js'
import {validateShipmentId} from '../core/shipments/shipment-id.js'
import type {UnifiedState} from '../core/shipments/unified-state.js'

export interface RemoteOptions {
  /** Sent as `Authorization: Bearer <token>` when set (JOBAGENT_API_TOKEN). */
  token?: string
  timeoutMs?: number
}

/** `jobagent shipment show --server URL`: asks a running API for the same body its route returns. */
export async function fetchUnifiedState(
  server: string,
  id: string,
  options: RemoteOptions = {},
): Promise<UnifiedState> {
  validateShipmentId(id)
  let base: URL
  try {
    base = new URL(server.endsWith('/') ? server : `${server}/`)
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('not http')
  } catch {
    throw new ValidationError(`--server must be an http:// or https:// URL, got ${JSON.stringify(server)}`, {
      hint: 'e.g. --server http://127.0.0.1:8080',
    })
  }
  const url = new URL(`shipments/${encodeURIComponent(id)}/unified`, base)
  let response: Response
  try {
    response = await fetch(url, {
      headers: {accept: 'application/json', ...(options.token ? {authorization: `Bearer ${options.token}`} : {})},
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    })
  } catch (error) {
    const reason = (error as Error).name === 'TimeoutError' ? 'no answer in time' : causeOf(error)
    throw new UnavailableError(`cannot reach ${base.origin}: ${reason}`, {
      hint: 'is `jobagent serve` running there?',
      cause: error,
    })
  }
  const body = (await response.json().catch(() => undefined)) as
    | (UnifiedState & {error?: {message?: string; details?: []}})
    | undefined
  if (response.ok && body && !body.error) return body
  const message = body?.error?.message ?? `${url.href} answered ${response.status}`
  const details = body?.error?.details ?? []
  if (response.status === 404)
    throw new NotFoundError(message, {details, hint: 'check the id, or import the shipment first'})
  if (response.status === 400 || response.status === 422) throw new ValidationError(message, {details})
  if (response.status === 401) {
    throw new UnavailableError(`${base.origin} refused the request: ${message}`, {
      hint: 'set JOBAGENT_API_TOKEN to the server token',
    })
  }
  const retry = Number(response.headers.get('retry-after'))
  throw new UnavailableError(message, {
    details,
    ...(Number.isFinite(retry) && retry > 0 ? {retryAfterSeconds: retry} : {}),
  })
}

function causeOf(error: unknown): string {
  const cause = (error as {cause?: {code?: string; message?: string}}).cause
  return cause?.code ?? cause?.message ?? (error as Error).message
}
