import {createServer, type Server, type Socket} from 'node:net'
import {OpenAPIHono} from '@hono/zod-openapi'
import {isJobagentError} from '../../src/core/errors.js'
import type {ShipmentsConfig} from '../../src/shipments/app/shipments.js'
import {ShipmentService, type ShipmentServiceOptions} from '../../src/shipments/core/shipment-service.js'
import type {ShipmentMetadataStore, TelemetryStore} from '../../src/shipments/core/stores.js'
import type {LatestTelemetry} from '../../src/shipments/core/unified-state.js'
import {shipmentRoutes} from '../../src/shipments/http/shipments.js'

/** In-memory stores with the given rows; `delayMs` and `fail` make them slow or broken. */
export function fakeStores(
  rows: Record<string, Record<string, unknown>>,
  latest: Record<string, LatestTelemetry>,
  behaviour: {delayMs?: number; failMetadata?: Error; failTelemetry?: Error; hangTelemetry?: boolean} = {},
): {metadata: ShipmentMetadataStore; telemetry: TelemetryStore; calls: string[]} {
  const calls: string[] = []
  const wait = () => new Promise((resolve) => setTimeout(resolve, behaviour.delayMs ?? 0))
  return {
    calls,
    metadata: {
      kind: 'postgres',
      async findById(id) {
        calls.push(`metadata:start:${id}`)
        await wait()
        calls.push(`metadata:end:${id}`)
        if (behaviour.failMetadata) throw behaviour.failMetadata
        return rows[id] ?? null
      },
      async findByIds(ids) {
        calls.push(`metadata:batch:${ids.join(',')}`)
        await wait()
        if (behaviour.failMetadata) throw behaviour.failMetadata
        return new Map(ids.flatMap((id) => (rows[id] ? [[id, rows[id]]] : [])))
      },
      async ping() {
        if (behaviour.failMetadata) throw behaviour.failMetadata
      },
      async close() {},
    },
    telemetry: {
      kind: 'mongodb',
      async latest(id, signal) {
        calls.push(`telemetry:start:${id}`)
        if (behaviour.hangTelemetry) {
          await new Promise((resolve) => signal.addEventListener('abort', resolve))
          calls.push('telemetry:aborted')
          return null
        }
        await wait()
        calls.push(`telemetry:end:${id}`)
        if (behaviour.failTelemetry) throw behaviour.failTelemetry
        return latest[id] ?? null
      },
      async latestByIds(ids, signal) {
        calls.push(`telemetry:batch:${ids.join(',')}`)
        if (behaviour.hangTelemetry) {
          await new Promise((resolve) => signal.addEventListener('abort', resolve))
          return new Map()
        }
        await wait()
        if (behaviour.failTelemetry) throw behaviour.failTelemetry
        return new Map(ids.flatMap((id) => (latest[id] ? [[id, latest[id]]] : [])))
      },
      async history(id, _window, signal) {
        calls.push(`telemetry:history:${id}`)
        if (behaviour.hangTelemetry) {
          await new Promise((resolve) => signal.addEventListener('abort', resolve))
          return {documents: [], next: null}
        }
        await wait()
        if (behaviour.failTelemetry) throw behaviour.failTelemetry
        return {documents: latest[id] ? [latest[id]] : [], next: null}
      },
      async ping() {
        if (behaviour.hangTelemetry) await new Promise(() => {})
      },
      async close() {},
    },
  }
}

export function serviceWith(
  stores: Pick<ShipmentServiceOptions, 'metadata' | 'telemetry' | 'combined'>,
  options: Partial<ShipmentServiceOptions> = {},
): ShipmentService {
  return new ShipmentService({
    timeouts: {metadata: 2000, telemetry: 2000},
    staleAfterSeconds: 900,
    ...stores,
    ...options,
  })
}

/**
 * The shipment routes on a bare app with the error mapping the main app must have for them:
 * validation 400 (malformed id), not_found 404, unavailable 503 with Retry-After.
 */
export function shipmentTestApp(service: ShipmentService, options: Parameters<typeof shipmentRoutes>[1] = {}) {
  const app = new OpenAPIHono()
  app.route('/', shipmentRoutes({shipments: service}, options))
  app.onError((error, c) => {
    if (!isJobagentError(error)) return c.json({error: {code: 'internal', message: 'internal error', details: []}}, 500)
    const status =
      error.kind === 'validation' ? 400 : error.kind === 'not_found' ? 404 : error.kind === 'unavailable' ? 503 : 500
    if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds))
    return c.json({error: {code: error.kind, message: error.message, details: error.details}}, status)
  })
  return app
}

/** A TCP server on 127.0.0.1 that accepts connections and never says a word: the slow-store case. */
export async function silentServer(): Promise<{port: number; close: () => Promise<void>}> {
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as {port: number}).port
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** A port of 127.0.0.1 that refuses every connection. */
export async function closedPort(): Promise<number> {
  // Port 4 (unassigned, below the ephemeral range, not on fetch's blocked list) on loopback: nothing listens
  // there and no test binds it, whereas a released ephemeral port can be taken by a parallel run meanwhile.
  return 4
}

/** The shipment store settings of a test: default names, small pools, a generous timeout. */
export function shipmentsConfig(metadataUrl: string, telemetryUrl = metadataUrl): ShipmentsConfig {
  return {
    metadata: {url: metadataUrl, table: 'shipments', id_column: 'shipment_id', pool_size: 2, timeout_ms: 5000},
    telemetry: {
      url: telemetryUrl,
      collection: 'telemetry',
      id_field: 'shipment_id',
      time_field: 'recorded_at',
      pool_size: 2,
      timeout_ms: 5000,
    },
    stale_after_seconds: 900,
    events: {interval_ms: 1000, max_streams: 1000},
  }
}
