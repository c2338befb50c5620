import type {HttpBindings} from '@hono/node-server'
import {createRoute, OpenAPIHono, z} from '@hono/zod-openapi'
import type {Context} from 'hono'
import {type SSEMessage, streamSSE} from 'hono/streaming'
import {Gauge, type Registry} from 'prom-client'
import type {Logger} from '../../core/logger.js'
import {errorBodyOf} from '../../http/errors.js'
import {errorResponses} from '../../http/schemas.js'
import {
  DEFAULT_WATCH_INTERVAL_MS,
  type ShipmentWatch,
  ShipmentWatcher,
  type WatchEvent,
} from '../app/shipment-watcher.js'
import type {ShipmentService} from '../core/shipment-service.js'

/** Open event streams one server keeps; one more is answered 503 with Retry-After. */
const MAX_SHIPMENT_STREAMS = 1000
/** A comment this often keeps proxies and clients from taking a quiet stream for a dead one. */
const DEFAULT_HEARTBEAT_MS = 15_000
const STREAMS_OPEN = 'jobagent_shipment_streams_open'
/**
 * The reconnection delay each stream tells its client (`retry:`), at its start and again when this server closes it:
 * the client comes back within about this long, to whichever instance the load balancer picks.
 */
const RECONNECT_MS = 1000
/** How long the end of a stream may take to reach the client's socket at shutdown before its connection is dropped. */
const UNREAD_END_GRACE_MS = 250

export interface ShipmentEventOptions {
  /** How often the watched shipments are read (default 1 s). */
  intervalMs?: number
  /** How often a quiet stream gets a `: heartbeat` comment (default 15 s). */
  heartbeatMs?: number
  /** Open streams at most (default MAX_SHIPMENT_STREAMS). */
  maxStreams?: number
  /** Aborted when the server shuts down: every open stream ends at once, and new ones are refused. */
  closing?: AbortSignal
  registry?: Registry
  logger?: Logger
}

/** The parts of the shipment routes this one shares: the id parameter and how refusals and errors are answered. */
interface SharedSchemas {
  params: z.ZodObject<{shipment_id: z.ZodString}>
  /** Maps the service's errors as the other shipment routes do (a malformed id is 400). */
  markMalformedId: (error: unknown) => never
  /** Answers a request the schema refuses as the other shipment routes do. */
  hook: (result: {success: boolean; target: string; error?: {issues: readonly z.core.$ZodIssue[]}}) => void
}

function eventsRoute(schemas: SharedSchemas, options: {intervalMs: number; heartbeatMs: number; maxStreams: number}) {
  return createRoute({
    method: 'get',
    path: '/shipments/{shipment_id}/unified/events',
    tags: ['shipments'],
    summary: 'Server-Sent Events: the unified state of one shipment whenever it changes',
    description:
      'Checks the id and reads the state first: a malformed id is 400, an unknown shipment 404, a store down 503 with ' +
      'Retry-After, all as JSON. Then streams `event: unified` messages whose data is the UnifiedState and whose id is ' +
      'its ETag: one at once, then one each time the metadata row or the latest document changes. The watched ' +
      `shipments are read together every ${options.intervalMs} ms, so a change arrives within about ` +
      `${options.intervalMs / 1000} s plus one read. A \`: heartbeat\` comment comes every ${options.heartbeatMs / 1000} s. ` +
      'When reads start failing the stream gets one `event: error` message ({"error": {code, message, details}}, code ' +
      '`unavailable`, or `not_found` once the shipment is gone) and stays open; the state follows as soon as it can ' +
      `be read again. At most ${options.maxStreams} streams are open at once: one more is 503 with Retry-After. ` +
      'Every state message carries `id:` (the ETag, the same on every instance over the same stores) and the first one ' +
      `\`retry: ${RECONNECT_MS}\`. A client that reconnects with \`Last-Event-ID\` (EventSource does so by itself) on any ` +
      'instance gets the current state only when it differs from that id; otherwise heartbeats until it changes. ' +
      'Changes are observed by reading, so writes between two reads are coalesced into the latest state. ' +
      `When the server shuts down the stream ends with \`retry: ${RECONNECT_MS}\`.`,
    request: {params: schemas.params},
    responses: {
      200: {
        description: 'An event stream (text/event-stream)',
        content: {
          'text/event-stream': {
            schema: z.string().openapi({
              example: 'event: unified\ndata: {"shipment_id":"SHP-1001",...}\nid: W/"3q2-7w"\n\n: heartbeat\n\n',
            }),
          },
        },
      },
      ...errorResponses(401, 404),
    },
  })
}

/** GET /shipments/{shipment_id}/unified/events over one watcher shared by every stream of this app. */
export function shipmentEventRoutes(shipments: ShipmentService, schemas: SharedSchemas, options: ShipmentEventOptions) {
  const settings = {
    intervalMs: options.intervalMs ?? DEFAULT_WATCH_INTERVAL_MS,
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    maxStreams: options.maxStreams ?? MAX_SHIPMENT_STREAMS,
  }
  const watcher = new ShipmentWatcher({
    service: shipments,
    intervalMs: settings.intervalMs,
    maxWatches: settings.maxStreams,
    ...(options.logger ? {logger: options.logger} : {}),
  })
  const enders = new Set<() => void>()
  options.closing?.addEventListener(
    'abort',
    () => {
      watcher.close()
      for (const end of enders) end()
    },
    {once: true},
  )
  if (options.registry) countStreams(options.registry, watcher)
  const routes = new OpenAPIHono({defaultHook: schemas.hook})
  const follow = async (c: Context, id: string) => {
    // What the client had when its last stream ended, on this instance or another: the tag of that state.
    const lastEventId = c.req.header('last-event-id')
    // Only the latest event is worth sending: a client that reads slowly gets the newest state, not a backlog.
    let pending: WatchEvent | undefined
    let wake: (() => void) | undefined
    const notify = () => {
      wake?.()
      wake = undefined
    }
    const watch = await watcher
      .watch(id, (event) => {
        pending = event
        notify()
      })
      .catch(schemas.markMalformedId)
    c.header('X-Accel-Buffering', 'no')
    const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing
    return streamSSE(c, async (stream) => {
      let open = true
      const end = () => {
        open = false
        notify()
      }
      // On shutdown: a write waiting for a client that does not read is given up, and so is the connection of
      // such a client, which would otherwise hold the end of the stream (and the shutdown) until its timeout.
      const endNow = () => {
        end()
        void stream.write(`retry: ${RECONNECT_MS}\n\n`)
        stream.abort()
        if (!outgoing) return
        if (outgoing.writableLength > 0) outgoing.destroy()
        else setTimeout(() => outgoing.writableFinished || outgoing.destroy(), UNREAD_END_GRACE_MS).unref()
      }
      enders.add(endNow)
      stream.onAbort(end)
      const heartbeat = setInterval(() => void stream.write(': heartbeat\n\n'), settings.heartbeatMs)
      try {
        // A resuming client that has this state already is not sent it again: it hears the next change.
        if (lastEventId === watch.tag) await stream.write(`retry: ${RECONNECT_MS}\n\n`)
        else await stream.writeSSE({...stateMessage(watch), retry: RECONNECT_MS})
        while (open && !stream.aborted) {
          const event = pending
          pending = undefined
          if (event) await stream.writeSSE(eventMessage(event))
          else await new Promise<void>((resolve) => (wake = resolve))
        }
      } finally {
        clearInterval(heartbeat)
        enders.delete(endNow)
        watch.close()
      }
    })
  }
  return (
    routes
      .openapi(eventsRoute(schemas, settings), (c) => follow(c, c.req.valid('param').shipment_id))
      // As for /shipments//unified: the router matches no empty segment, and an empty id is malformed.
      .get('/shipments//unified/events', (c) => follow(c, ''))
  )
}

function stateMessage(watch: Pick<ShipmentWatch, 'state' | 'tag'>): SSEMessage {
  return {event: 'unified', id: watch.tag, data: JSON.stringify(watch.state)}
}

/** A state is sent with its tag as the id; an error names no id, so a reconnecting client keeps its last state's. */
function eventMessage(event: WatchEvent): SSEMessage {
  if (event.type === 'state') return stateMessage(event)
  return {event: 'error', data: JSON.stringify(errorBodyOf(event.error))}
}

/** `jobagent_shipment_streams_open`: read when scraped, so it can never drift from the streams really open. */
function countStreams(registry: Registry, watcher: ShipmentWatcher): void {
  if (registry.getSingleMetric(STREAMS_OPEN)) return
  new Gauge({
    name: STREAMS_OPEN,
    help: 'Open Server-Sent Events streams of GET /shipments/{shipment_id}/unified/events',
    registers: [registry],
    collect() {
      this.set(watcher.size)
    },
  })
}
