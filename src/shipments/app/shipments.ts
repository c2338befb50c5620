import {homedir} from 'node:os'
import {resolve} from 'node:path'
import type {SliceWiring} from '../../app/slice.js'
import {ConfigurationError} from '../../core/errors.js'
import type {Logger} from '../../core/logger.js'
import type {Clock} from '../../core/time.js'
import {isStoreName} from '../core/names.js'
import {type ShipmentMetrics, ShipmentService} from '../core/shipment-service.js'
import type {
  CombinedShipmentStore,
  MetadataColumnLimits,
  ShipmentMetadataStore,
  ShipmentMetadataWriter,
  TelemetryStore,
  TelemetryWriter,
} from '../core/stores.js'
import {MongoTelemetryStore, MongoTelemetryWriter} from '../storage/mongodb/shipment-telemetry-store.js'
import {MysqlShipmentMetadataStore} from '../storage/mysql/shipment-metadata-store.js'
import {MysqlShipmentMetadataWriter} from '../storage/mysql/shipment-writers.js'
import {createJointPostgresStores, samePostgresDatabase} from '../storage/postgres/shipment-combined-store.js'
import {PostgresShipmentMetadataStore} from '../storage/postgres/shipment-metadata-store.js'
import {PostgresTelemetryStore} from '../storage/postgres/shipment-telemetry-store.js'
import {PostgresShipmentMetadataWriter, PostgresTelemetryWriter} from '../storage/postgres/shipment-writers.js'
import {ReadOnlyShipmentDatabase} from '../storage/sqlite/shipment-database.js'
import {SqliteShipmentMetadataStore} from '../storage/sqlite/shipment-metadata-store.js'
import {SqliteTelemetryStore} from '../storage/sqlite/shipment-telemetry-store.js'
import {SqliteShipmentMetadataWriter, SqliteTelemetryWriter} from '../storage/sqlite/shipment-writers.js'
import type {ShipmentsConfig} from './config-section.js'

export type {ShipmentsConfig} from './config-section.js'

type StoreScheme = 'sqlite' | 'postgres' | 'mysql' | 'mongodb'

/** The store a URL names by its scheme; the config key goes into the error so the user knows what to fix. */
export function storeScheme(url: string, key: string): StoreScheme {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase()
  if (scheme === 'sqlite') return 'sqlite'
  if (scheme === 'postgres' || scheme === 'postgresql') return 'postgres'
  if (scheme === 'mysql' || scheme === 'mariadb') return 'mysql'
  if (scheme === 'mongodb' || scheme === 'mongodb+srv') return 'mongodb'
  throw new ConfigurationError(
    `${key} must start with sqlite://, postgres://, mysql://, mariadb:// or mongodb:// (got ${scheme ?? 'no scheme'})`,
    {
      hint: `e.g. jobagent config set ${key} postgres://user@db.example.org/fleet`,
    },
  )
}

/** `sqlite:///abs/file.db` (absolute), `sqlite://data/file.db` (relative to the working directory), `sqlite://~/x.db`. */
export function sqliteFile(url: string): string {
  // `s`: the query is cut from its first `?` to the end, whatever it holds.
  const path = url.replace(/^sqlite:\/\//i, '').replace(/\?.*$/s, '')
  if (path === '')
    throw new ConfigurationError(`${url} names no file`, {hint: 'e.g. sqlite:///var/lib/jobagent/shipments.db'})
  return path.startsWith('~/') ? resolve(homedir(), path.slice(2)) : resolve(path)
}

/** Refuses table, column and field names that could not be quoted safely, naming the config key. */
function checkStoreNames(config: ShipmentsConfig): void {
  const names: [string, string][] = [
    ['shipments.metadata.table', config.metadata.table],
    ['shipments.metadata.id_column', config.metadata.id_column],
    ['shipments.telemetry.collection', config.telemetry.collection],
    ['shipments.telemetry.id_field', config.telemetry.id_field],
    ['shipments.telemetry.time_field', config.telemetry.time_field],
  ]
  for (const [key, name] of names) {
    if (!isStoreName(name)) {
      throw new ConfigurationError(`${key} ${JSON.stringify(name)} is not a usable name`, {
        hint: 'use letters, digits and _ only, not starting with a digit (names are case-sensitive)',
      })
    }
  }
  if (config.telemetry.id_field === config.telemetry.time_field) {
    throw new ConfigurationError('shipments.telemetry.id_field and shipments.telemetry.time_field must differ')
  }
}

function metadataScheme(config: ShipmentsConfig): 'sqlite' | 'postgres' | 'mysql' {
  const scheme = storeScheme(config.metadata.url, 'shipments.metadata.url')
  if (scheme === 'mongodb') {
    throw new ConfigurationError(
      'shipments.metadata.url must be a sqlite://, postgres://, mysql:// or mariadb:// URL (metadata is relational)',
    )
  }
  return scheme
}

function telemetryScheme(config: ShipmentsConfig): 'sqlite' | 'postgres' | 'mongodb' {
  const scheme = storeScheme(config.telemetry.url, 'shipments.telemetry.url')
  if (scheme === 'mysql') {
    throw new ConfigurationError(
      'shipments.telemetry.url must be a sqlite://, postgres:// or mongodb:// URL (MySQL holds metadata only)',
    )
  }
  return scheme
}

/** The metadata store's network settings, for the PostgreSQL and MySQL stores alike. */
function networkMetadata(m: ShipmentsConfig['metadata'], logger: Logger) {
  return {
    url: m.url,
    table: m.table,
    idColumn: m.id_column,
    poolSize: m.pool_size,
    timeoutMs: m.timeout_ms,
    logger: logger.child('metadata'),
  }
}

interface ShipmentStores {
  metadata: ShipmentMetadataStore
  telemetry: TelemetryStore
  combined?: CombinedShipmentStore
}

/** The read-only stores named by the config. Nothing connects yet: pools and files open on first use. */
function createShipmentStores(config: ShipmentsConfig, logger: Logger): ShipmentStores {
  checkStoreNames(config)
  const {metadata: m, telemetry: t} = config
  const fields = {idField: t.id_field, timeField: t.time_field}
  const network = {url: t.url, poolSize: t.pool_size, timeoutMs: t.timeout_ms, logger: logger.child('telemetry')}
  const metadataKind = metadataScheme(config)
  const scheme = telemetryScheme(config)
  // One database for both: one pool, and one query per lookup (docs/SHIPMENTS.md, "One round trip").
  if (metadataKind === 'postgres' && scheme === 'postgres' && samePostgresDatabase(m.url, t.url)) {
    return createJointPostgresStores(networkMetadata(m, logger), {...network, table: t.collection, ...fields})
  }
  // A synchronous SQLite read must never hold the event loop for the whole store timeout.
  const busyTimeoutMs = (timeout: number) => Math.min(timeout, 250)
  // The default puts both in one file: one read-only connection then serves both lookups.
  const shared =
    metadataKind === 'sqlite' && scheme === 'sqlite' && sqliteFile(m.url) === sqliteFile(t.url)
      ? new ReadOnlyShipmentDatabase(sqliteFile(m.url), busyTimeoutMs(Math.min(m.timeout_ms, t.timeout_ms)))
      : undefined
  const metadata: ShipmentMetadataStore =
    metadataKind === 'sqlite'
      ? new SqliteShipmentMetadataStore({
          file: sqliteFile(m.url),
          table: m.table,
          idColumn: m.id_column,
          busyTimeoutMs: busyTimeoutMs(m.timeout_ms),
          ...(shared ? {database: shared} : {}),
        })
      : metadataKind === 'postgres'
        ? new PostgresShipmentMetadataStore(networkMetadata(m, logger))
        : new MysqlShipmentMetadataStore(networkMetadata(m, logger))
  const telemetry: TelemetryStore =
    scheme === 'sqlite'
      ? new SqliteTelemetryStore({
          file: sqliteFile(t.url),
          table: t.collection,
          ...fields,
          busyTimeoutMs: busyTimeoutMs(t.timeout_ms),
          ...(shared ? {database: shared} : {}),
        })
      : scheme === 'postgres'
        ? new PostgresTelemetryStore({...network, table: t.collection, ...fields})
        : new MongoTelemetryStore({...network, collection: t.collection, ...fields})
  return {metadata, telemetry}
}

interface ShipmentServiceWiring {
  logger: Logger
  metrics?: ShipmentMetrics
  clock?: Clock
}

/** The shipment service over the configured stores (logger `jobagent.shipments`). */
export function createShipmentService(config: ShipmentsConfig, wiring: ShipmentServiceWiring): ShipmentService {
  const logger = wiring.logger.child('shipments')
  return new ShipmentService({
    ...createShipmentStores(config, logger),
    timeouts: {metadata: config.metadata.timeout_ms, telemetry: config.telemetry.timeout_ms},
    staleAfterSeconds: config.stale_after_seconds,
    logger,
    ...(wiring.metrics ? {metrics: wiring.metrics} : {}),
    ...(wiring.clock ? {clock: wiring.clock} : {}),
  })
}

/** The writable side, for `jobagent shipment import`; each writer opens its store when created. */
export const shipmentWriters = {
  /** What the configured metadata store can hold, known without opening it. */
  metadataLimits(config: ShipmentsConfig): {kind: string; limits: MetadataColumnLimits} {
    const kind = metadataScheme(config)
    const writer = {
      sqlite: SqliteShipmentMetadataWriter,
      postgres: PostgresShipmentMetadataWriter,
      mysql: MysqlShipmentMetadataWriter,
    }[kind]
    return {
      kind: kind === 'mysql' ? 'MySQL/MariaDB' : kind === 'postgres' ? 'PostgreSQL' : 'SQLite',
      limits: writer.limits,
    }
  },
  metadata(config: ShipmentsConfig, logger: Logger): ShipmentMetadataWriter {
    checkStoreNames(config)
    const m = config.metadata
    const kind = metadataScheme(config)
    if (kind === 'sqlite') {
      return new SqliteShipmentMetadataWriter({file: sqliteFile(m.url), table: m.table, idColumn: m.id_column})
    }
    const options = {url: m.url, table: m.table, idColumn: m.id_column, timeoutMs: m.timeout_ms, logger}
    return kind === 'postgres' ? new PostgresShipmentMetadataWriter(options) : new MysqlShipmentMetadataWriter(options)
  },
  telemetry(config: ShipmentsConfig, logger: Logger): TelemetryWriter {
    checkStoreNames(config)
    const t = config.telemetry
    const fields = {idField: t.id_field, timeField: t.time_field}
    const scheme = telemetryScheme(config)
    if (scheme === 'sqlite') return new SqliteTelemetryWriter({file: sqliteFile(t.url), table: t.collection, ...fields})
    if (scheme === 'postgres') {
      return new PostgresTelemetryWriter({url: t.url, table: t.collection, ...fields, timeoutMs: t.timeout_ms, logger})
    }
    return new MongoTelemetryWriter({
      url: t.url,
      collection: t.collection,
      ...fields,
      poolSize: 2,
      timeoutMs: t.timeout_ms,
      logger,
    })
  },
}

/**
 * The slice's service for AppContext: one per context, closed with it; the stores' indexes are checked in the
 * background, so a missing one is logged, never in a lookup's way.
 */
export const shipmentWiring: SliceWiring<ShipmentsConfig, ShipmentService> = {
  createService(context) {
    const service = createShipmentService(context.config, {logger: context.logger, clock: context.clock})
    context.closeWith(() => service.close())
    void service.verifyIndexes()
    return service
  },
}
