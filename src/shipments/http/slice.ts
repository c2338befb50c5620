import {existsSync} from 'node:fs'
import type {HealthCheck} from '../../app/health-checks.js'
import type {SliceHttp} from '../../app/slice.js'
import {embeddedShipmentsDb, type ShipmentsConfig} from '../app/config-section.js'
import {shipmentWiring} from '../app/shipments.js'
import type {ShipmentService} from '../core/shipment-service.js'
import type {StoreRole} from '../core/store-failures.js'
import type {ShipmentEventOptions} from './shipment-events.js'
import {shipmentRoutes} from './shipments.js'

/** What a caller of the app may set over the `shipments.events` section (tests shorten the intervals). */
export type ShipmentRouteSettings = Pick<ShipmentEventOptions, 'intervalMs' | 'heartbeatMs' | 'maxStreams'>

/**
 * A user who never set up shipments has no embedded shipments.db: their health must not fail for it. The stores
 * are checked once they exist or point elsewhere (PostgreSQL, MongoDB, another SQLite file).
 */
function shipmentsInUse(config: ShipmentsConfig, dataDir: string): boolean {
  const file = embeddedShipmentsDb(dataDir)
  const embedded = `sqlite://${file}`
  return config.metadata.url !== embedded || config.telemetry.url !== embedded || existsSync(file)
}

/** GET /health entries `shipments_metadata` and `shipments_telemetry`: a timed ping of each store. */
function shipmentHealthChecks(service: () => ShipmentService): HealthCheck[] {
  return (['metadata', 'telemetry'] as const satisfies readonly StoreRole[]).map((role) => ({
    name: `shipments_${role}`,
    ready: true,
    async run() {
      const check = await service().check(role)
      return {
        status: check.status,
        componentType: 'datastore' as const,
        componentId: check.kind,
        observedValue: check.latency_ms,
        observedUnit: 'ms',
        ...(check.output ? {output: check.output} : {}),
        time: new Date().toISOString(),
      }
    },
  }))
}

/** The shipment slice on `jobagent serve`: the /shipments routes and, once the stores are in use, their checks. */
export const shipmentHttp: SliceHttp<ShipmentsConfig, ShipmentService, ShipmentRouteSettings> = {
  createService: shipmentWiring.createService,
  healthChecks: (service, config, where) =>
    where.alone || shipmentsInUse(config, where.dataDir) ? shipmentHealthChecks(service) : [],
  routes(service, config, options) {
    const events = {
      intervalMs: config.events.interval_ms,
      maxStreams: config.events.max_streams,
      ...options.settings,
      logger: options.logger,
      ...(options.closing ? {closing: options.closing} : {}),
    }
    return shipmentRoutes({shipments: service}, {registry: options.registry, events})
  },
}
