import {Counter, Histogram, type Registry} from 'prom-client'
import type {ShipmentMetrics, StoreOutcome} from '../core/shipment-service.js'
import type {StoreRole} from '../core/store-failures.js'

const STORE_DURATION = 'jobagent_shipment_store_duration_seconds'
/** Store round trips are sub-millisecond for SQLite and a few milliseconds for a network store. */
const STORE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

/**
 * `jobagent_shipment_lookups_total{result}` and `jobagent_shipment_store_duration_seconds{store,kind,outcome}`
 * on the given registry (the HTTP app's). Registering twice on one registry reuses the metrics.
 */
export function createShipmentMetrics(registry: Registry): ShipmentMetrics {
  const lookups =
    (registry.getSingleMetric('jobagent_shipment_lookups_total') as Counter<'result'> | undefined) ??
    new Counter({
      name: 'jobagent_shipment_lookups_total',
      help: 'Unified shipment state lookups by result (found, not_found, invalid, unavailable)',
      labelNames: ['result'] as const,
      registers: [registry],
    })
  const duration =
    (registry.getSingleMetric(STORE_DURATION) as Histogram<'store' | 'kind' | 'outcome'> | undefined) ??
    new Histogram({
      name: STORE_DURATION,
      help: 'Time each shipment store took to answer a lookup, by store (metadata, telemetry), kind and outcome',
      labelNames: ['store', 'kind', 'outcome'] as const,
      buckets: STORE_BUCKETS,
      registers: [registry],
    })
  return {
    lookup(result) {
      lookups.inc({result})
    },
    storeLatency(store: StoreRole, kind: string, seconds: number, outcome: StoreOutcome) {
      duration.observe({store, kind, outcome}, seconds)
    },
  }
}
