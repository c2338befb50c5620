import {join} from 'node:path'
import type * as ZodMini from 'zod/mini'
import {section, text} from '../../app/config-section.js'
import * as z from '../../core/zod-mini.js'

const storeUrl = z
  .string()
  .check(
    z.regex(
      /^(sqlite|postgres|postgresql|mysql|mariadb|mongodb|mongodb\+srv):\/\//,
      'must be a sqlite://, postgres://, mysql://, mariadb:// or mongodb:// URL',
    ),
  )
const poolSize = () => z._default(z.int().check(z.gte(1), z.lte(100)), 10)
const timeoutMs = () => z._default(z.int().check(z.gte(1)), 2000)

/** The `shipments` section of config.json (docs/CONFIGURATION.md). */
export const shipmentsSection = section({
  // Unset, `url` is the embedded database in the data dir, filled in by withPaths, which knows the paths.
  metadata: section({
    url: z.optional(storeUrl),
    table: z._default(text(), 'shipments'),
    id_column: z._default(text(), 'shipment_id'),
    pool_size: poolSize(),
    timeout_ms: timeoutMs(),
  }),
  telemetry: section({
    url: z.optional(storeUrl),
    collection: z._default(text(), 'telemetry'),
    id_field: z._default(text(), 'shipment_id'),
    time_field: z._default(text(), 'recorded_at'),
    pool_size: poolSize(),
    timeout_ms: timeoutMs(),
  }),
  stale_after_seconds: z._default(z.number().check(z.gte(0)), 900),
  // The event streams of `jobagent serve` and `shipment show --watch` (docs/SHIPMENTS.md, "Live updates").
  events: section({
    interval_ms: z._default(z.int().check(z.gte(100), z.lte(60_000)), 1000),
    max_streams: z._default(z.int().check(z.gte(1), z.lte(100_000)), 1000),
  }),
})

/** The section as the file gives it: a store without a `url` is the embedded one. */
export type ShipmentsSection = ZodMini.output<typeof shipmentsSection>

type WithUrl<T> = Omit<T, 'url'> & {url: string}

/** The section in force: every key set, both stores named. */
export type ShipmentsConfig = Omit<ShipmentsSection, 'metadata' | 'telemetry'> & {
  metadata: WithUrl<ShipmentsSection['metadata']>
  telemetry: WithUrl<ShipmentsSection['telemetry']>
}

/** The embedded database both stores default to. */
export function embeddedShipmentsDb(dataDir: string): string {
  return join(dataDir, 'shipments.db')
}
