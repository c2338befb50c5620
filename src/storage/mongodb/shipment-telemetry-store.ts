import {createRequire} from 'node:module'
import type {Collection, Document, MongoClient} from 'mongodb'
import {UnavailableError} from '../../core/errors.js'
import type {Logger} from '../../core/logger.js'
import type {
  AppendOutcome,
  IndexStatus,
  TelemetryRecord,
  TelemetryStore,
  TelemetryWriter,
} from '../../core/shipments/stores.js'
import {type TelemetryFields, toLatestTelemetry} from '../../core/shipments/telemetry-document.js'
import type {LatestTelemetry} from '../../core/shipments/unified-state.js'
import {
  appendOperation,
  databaseName,
  findLatestIndex,
  latestTelemetryQuery,
  telemetryIndexSpec,
} from './telemetry-queries.js'

export interface MongoTelemetryOptions extends TelemetryFields {
  url: string
  collection: string
  poolSize: number
  timeoutMs: number
  logger: Logger
}

const BATCH = 1000

/** Where the client connects, without credentials, for messages. */
function describeTarget(url: string): string {
  return url.replace(/^(mongodb(?:\+srv)?:\/\/)(?:[^@/]*@)?/, '$1').replace(/\?.*$/, '')
}

function describeMongoError(error: unknown, url: string): unknown {
  if (error instanceof UnavailableError) return error
  const name = (error as Error | null)?.name ?? ''
  if (/^Mongo/.test(name) || (error as {code?: unknown} | null)?.code === 50) {
    return new UnavailableError(`MongoDB at ${describeTarget(url)}: ${(error as Error).message}`, {
      cause: error,
      retryAfterSeconds: 5,
    })
  }
  return error
}

// The driver (a large module tree) loads only when a MongoDB store is configured; it is CommonJS, so a
// synchronous require keeps the store constructors synchronous.
const requireDriver = createRequire(import.meta.url)

function connect(options: MongoTelemetryOptions): MongoClient {
  const {MongoClient: Client} = requireDriver('mongodb') as typeof import('mongodb')
  return new Client(options.url, {
    appName: 'jobagent',
    maxPoolSize: options.poolSize,
    serverSelectionTimeoutMS: options.timeoutMs,
    connectTimeoutMS: options.timeoutMs,
  })
}

/**
 * Telemetry documents in a MongoDB collection: `find({<id>: id}).sort({<time>: -1}).limit(1)` through the compound
 * index {<id>: 1, <time>: -1}. jobagent only reads here; give it a user with the `read` role.
 */
export class MongoTelemetryStore implements TelemetryStore {
  readonly kind = 'mongodb' as const
  private readonly client: MongoClient
  private readonly collection: Collection<Document>

  constructor(private readonly options: MongoTelemetryOptions) {
    this.client = connect(options)
    this.collection = this.client.db(databaseName(options.url)).collection(options.collection)
  }

  async latest(id: string, signal: AbortSignal): Promise<LatestTelemetry | null> {
    const query = latestTelemetryQuery(this.options, id, this.options.timeoutMs)
    try {
      const document = await this.collection.findOne(query.filter, {
        sort: query.sort,
        maxTimeMS: query.maxTimeMS,
        signal,
      })
      return document ? toLatestTelemetry(document, document[this.options.timeField], this.options) : null
    } catch (error) {
      throw describeMongoError(error, this.options.url)
    }
  }

  async checkIndex(): Promise<IndexStatus> {
    const {collection, idField, timeField} = this.options
    const spec = telemetryIndexSpec(this.options)
    const hint = `db.${collection}.createIndex(${JSON.stringify(spec.key)}, {unique: true})`
    try {
      const name = findLatestIndex(await this.collection.indexes(), this.options)
      if (name) return {ok: true, message: `lookups use index ${name}`}
      return {
        ok: false,
        message: `no index on ${collection} {${idField}: 1, ${timeField}: -1}: every lookup scans the collection`,
        hint,
      }
    } catch (error) {
      if ((error as {codeName?: string}).codeName === 'NamespaceNotFound') {
        return {
          ok: false,
          message: `collection ${collection} does not exist: nothing is found until it is created (jobagent shipment import does that)`,
        }
      }
      throw describeMongoError(error, this.options.url)
    }
  }

  async ping(): Promise<void> {
    try {
      await this.client.db(databaseName(this.options.url)).command({ping: 1}, {timeoutMS: this.options.timeoutMs})
    } catch (error) {
      throw describeMongoError(error, this.options.url)
    }
  }

  async close(): Promise<void> {
    await this.client.close()
  }
}

/**
 * Appends telemetry with idempotent upserts in ordered batches of 1000. MongoDB offers no multi-document
 * transaction without a replica set, so a failure midway leaves the earlier batches; running the import again is safe.
 */
export class MongoTelemetryWriter implements TelemetryWriter {
  readonly kind = 'mongodb' as const
  private readonly client: MongoClient
  private readonly collection: Collection<Document>

  constructor(private readonly options: MongoTelemetryOptions) {
    this.client = connect(options)
    this.collection = this.client.db(databaseName(options.url)).collection(options.collection)
  }

  async append(records: readonly TelemetryRecord[]): Promise<AppendOutcome> {
    try {
      const {key, ...indexOptions} = telemetryIndexSpec(this.options)
      await this.collection.createIndex(key, indexOptions)
      let inserted = 0
      for (let start = 0; start < records.length; start += BATCH) {
        const operations = records
          .slice(start, start + BATCH)
          .map((record) => appendOperation(this.options, record.id, new Date(record.recorded_at), record.payload))
        inserted += (await this.collection.bulkWrite(operations, {ordered: false})).upsertedCount
      }
      return {inserted, duplicates: records.length - inserted}
    } catch (error) {
      throw describeMongoError(error, this.options.url)
    }
  }

  async close(): Promise<void> {
    await this.client.close()
  }
}
