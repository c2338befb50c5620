import {sectionFromEnv} from '../../app/config-section.js'
import type {Slice} from '../../app/slice.js'
import type {ShipmentService} from '../core/shipment-service.js'
import type {ShipmentRouteSettings} from '../http/slice.js'
import {embeddedShipmentsDb, type ShipmentsConfig, type ShipmentsSection, shipmentsSection} from './config-section.js'

/**
 * The section's environment variables (docs/CONFIGURATION.md): every key an instance behind a load balancer needs,
 * so `serve --only shipments` runs configured by its environment alone.
 */
const SHIPMENT_VARIABLES = {
  JOBAGENT_SHIPMENT_METADATA_URL: 'metadata.url',
  JOBAGENT_SHIPMENT_METADATA_TABLE: 'metadata.table',
  JOBAGENT_SHIPMENT_METADATA_ID_COLUMN: 'metadata.id_column',
  JOBAGENT_SHIPMENT_METADATA_POOL_SIZE: 'metadata.pool_size',
  JOBAGENT_SHIPMENT_METADATA_TIMEOUT_MS: 'metadata.timeout_ms',
  JOBAGENT_SHIPMENT_TELEMETRY_URL: 'telemetry.url',
  JOBAGENT_SHIPMENT_TELEMETRY_COLLECTION: 'telemetry.collection',
  JOBAGENT_SHIPMENT_TELEMETRY_ID_FIELD: 'telemetry.id_field',
  JOBAGENT_SHIPMENT_TELEMETRY_TIME_FIELD: 'telemetry.time_field',
  JOBAGENT_SHIPMENT_TELEMETRY_POOL_SIZE: 'telemetry.pool_size',
  JOBAGENT_SHIPMENT_TELEMETRY_TIMEOUT_MS: 'telemetry.timeout_ms',
  JOBAGENT_SHIPMENT_STALE_AFTER_SECONDS: 'stale_after_seconds',
  JOBAGENT_SHIPMENT_EVENTS_INTERVAL_MS: 'events.interval_ms',
  JOBAGENT_SHIPMENT_EVENTS_MAX_STREAMS: 'events.max_streams',
}

/**
 * Unified shipment state as a slice of jobagent: the `shipments` section of config.json, the service over its
 * stores (loaded by the first command that asks for it) and, for `jobagent serve`, the /shipments routes and the
 * store checks of GET /health.
 */
export const shipmentSlice: Slice<
  'shipments',
  ShipmentsSection,
  ShipmentsConfig,
  ShipmentService,
  ShipmentRouteSettings
> = {
  key: 'shipments',
  configSection: shipmentsSection,
  environment: (env) => sectionFromEnv(env, shipmentsSection, SHIPMENT_VARIABLES),
  withPaths(section, {dataDir}) {
    const embedded = `sqlite://${embeddedShipmentsDb(dataDir)}`
    return {
      ...section,
      metadata: {...section.metadata, url: section.metadata.url ?? embedded},
      telemetry: {...section.telemetry, url: section.telemetry.url ?? embedded},
    }
  },
  loadWiring: async () => (await import('./shipments.js')).shipmentWiring,
  loadHttp: async () => (await import('../http/slice.js')).shipmentHttp,
}
