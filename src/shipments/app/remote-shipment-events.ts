import {setTimeout as sleep} from 'node:timers/promises'
import {createParser, type EventSourceMessage} from 'eventsource-parser'
import {USER_AGENT} from '../../app/version.js'
import {type JobagentError, NotFoundError, UnavailableError, ValidationError} from '../../core/errors.js'
import {HttpError} from '../../http-client/index.js'
import {validateShipmentId} from '../core/shipment-id.js'
import type {UnifiedState} from '../core/unified-state.js'
import {remoteError, serverUrl} from './shipment-client.js'
import type {WatchEvent} from './shipment-watcher.js'

interface FollowRemoteOptions {
  signal: AbortSignal
  onEvent: (event: WatchEvent) => void
  /** Sent as `Authorization: Bearer <token>` when set (JOBAGENT_API_TOKEN). */
  token?: string
}

/**
 * `jobagent shipment show ID --watch --server URL`: follows GET /shipments/{id}/unified/events until `signal`
 * aborts. What the first request is refused with is thrown, as `shipment show --server` throws it, and so is a
 * later 400 or 404; a stream that drops later (the server restarting) is told as an error once and opened again
 * after a pause, as a browser's EventSource does, and the server then sends the current state at once.
 */
export async function followRemoteShipment(server: string, id: string, options: FollowRemoteOptions): Promise<void> {
  validateShipmentId(id)
  const base = serverUrl(server)
  const url = new URL(`shipments/${encodeURIComponent(id)}/unified/events`, base)
  // The pause before opening a dropped stream again, unless the server's `retry:` field says otherwise.
  const pause = {ms: 1000}
  let connected = false
  // An outage is told once, not once per attempt to reconnect.
  let told = false
  while (!options.signal.aborted) {
    try {
      await readStream(id, url, base, options, pause, () => {
        connected = true
        told = false
      })
      if (options.signal.aborted) return
      throw new UnavailableError(`${base.origin} ended the event stream`)
    } catch (error) {
      if (options.signal.aborted) return
      // A refusal that asking again cannot change (the shipment is gone, the id is refused) ends the watch, as a
      // browser's EventSource gives up on an answer that is not a stream.
      if (!connected || error instanceof NotFoundError || error instanceof ValidationError) throw error
      const lost = error as JobagentError
      if (!told) {
        options.onEvent({
          type: 'error',
          shipmentId: id,
          error: new UnavailableError(`lost the event stream of ${base.origin} (${lost.message}); reconnecting`),
        })
      }
      told = true
    }
    // Aborting ends the pause early; the loop then ends.
    await sleep(pause.ms, undefined, {signal: options.signal}).catch(() => undefined)
  }
}

/** One connection: resolves when the server ends the stream, rejects with the server's error mapped back. */
async function readStream(
  id: string,
  url: URL,
  base: URL,
  options: FollowRemoteOptions,
  pause: {ms: number},
  onOpen: () => void,
): Promise<void> {
  let response: Response
  try {
    response = await fetch(url, {
      headers: {
        accept: 'text/event-stream',
        'user-agent': USER_AGENT,
        ...(options.token ? {authorization: `Bearer ${options.token}`} : {}),
      },
      signal: options.signal,
    })
  } catch (error) {
    if (options.signal.aborted) return
    throw remoteError(new HttpError((error as Error).message, {url: url.href, cause: error}), base, url)
  }
  if (!response.ok || !response.body) {
    const retryAfter = Number(response.headers.get('retry-after'))
    const failure = new HttpError(`${url.href} answered ${response.status}`, {
      url: url.href,
      status: response.status,
      body: await response.text(),
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? {retryAfterMs: retryAfter * 1000} : {}),
    })
    throw remoteError(failure, base, url)
  }
  onOpen()
  const parser = createParser({
    onEvent: (message) => options.onEvent(toWatchEvent(message, id, url)),
    onRetry: (ms) => {
      pause.ms = ms
    },
  })
  const decoder = new TextDecoder()
  try {
    for await (const chunk of response.body) parser.feed(decoder.decode(chunk, {stream: true}))
  } catch (error) {
    if (!options.signal.aborted) throw error
  }
}

/** The server's error codes that asking again cannot change, as the errors they stand for; others are outages. */
const REFUSALS: Partial<Record<string, typeof NotFoundError | typeof ValidationError>> = {
  not_found: NotFoundError,
  validation: ValidationError,
}

/** A message of the stream as the watcher's event: `unified` carries the state, `error` the server's error body. */
function toWatchEvent(message: EventSourceMessage, shipmentId: string, url: URL): WatchEvent {
  const body = JSON.parse(message.data) as UnifiedState | {error?: {code?: string; message?: string}}
  if (message.event === 'error' || 'error' in body) {
    const failure = (body as {error?: {code?: string; message?: string}}).error
    const text = failure?.message ?? `${url.href} sent an error`
    const Refusal = REFUSALS[failure?.code ?? ''] ?? UnavailableError
    return {type: 'error', error: new Refusal(text), shipmentId}
  }
  const state = body as UnifiedState
  return {type: 'state', state, tag: message.id ?? ''}
}
