import type {Slice} from '../../app/slice.js'
import type {ShipmentService} from '../core/shipment-service.js'
import type {ShipmentRouteSettings} from '../http/slice.js'
import {embeddedShipmentsDb, type ShipmentsConfig, type ShipmentsSection, shipmentsSection} from './config-section.js'

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
  environment: (env) => ({
    metadata: {url: env.JOBAGENT_SHIPMENT_METADATA_URL || undefined},
    telemetry: {url: env.JOBAGENT_SHIPMENT_TELEMETRY_URL || undefined},
  }),
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
