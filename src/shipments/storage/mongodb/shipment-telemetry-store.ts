import type {Collection, Document, MongoClient} from 'mongodb'
import type {
  AppendOutcome,
  IndexStatus,
  TelemetryHistoryPage,
  TelemetryRecord,
  TelemetryStore,
  TelemetryWindow,
  TelemetryWriter,
} from '../../core/stores.js'
import {type TelemetryFields, toLatestTelemetry} from '../../core/telemetry-document.js'
import {historyPage} from '../../core/telemetry-history.js'
import type {LatestTelemetry} from '../../core/unified-state.js'
import {MongoConnection, type MongoConnectionOptions} from './mongo-connection.js'
import {
  appendOperation,
  databaseName,
  findLatestIndex,
  historyKey,
  latestTelemetryBatchPipeline,
  latestTelemetryQuery,
  telemetryHistoryQuery,
  telemetryIndexSpec,
} from './telemetry-queries.js'

interface MongoTelemetryOptions extends TelemetryFields, MongoConnectionOptions {
  collection: string
}

const BATCH = 1000

/**
 * Telemetry documents in a MongoDB collection: `find({<id>: id}).sort({<time>: -1}).limit(1)` through the compound
 * index {<id>: 1, <time>: -1}. jobagent only reads here; give it a user with the `read` role.
 * A store that could not connect tries again at its next lookup, ping or index check.
 */
export class MongoTelemetryStore implements TelemetryStore {
  readonly kind = 'mongodb' as const
  private readonly connection: MongoConnection

  constructor(private readonly options: MongoTelemetryOptions) {
    this.connection = new MongoConnection(options)
  }

  latest(id: string, signal: AbortSignal): Promise<LatestTelemetry | null> {
    const query = latestTelemetryQuery(this.options, id, this.options.timeoutMs)
    return this.connection.run(async (client) => {
      const document = await telemetryCollection(client, this.options).findOne(query.filter, {
        sort: query.sort,
        maxTimeMS: query.maxTimeMS,
        signal,
      })
      return document ? toLatestTelemetry(document, document[this.options.timeField], this.options) : null
    })
  }

  latestByIds(ids: readonly string[], signal: AbortSignal): Promise<Map<string, LatestTelemetry>> {
    const pipeline = latestTelemetryBatchPipeline(this.options, ids)
    return this.connection.run(async (client) => {
      const groups = await telemetryCollection(client, this.options)
        .aggregate<{_id: unknown; document: Document}>(pipeline, {maxTimeMS: this.options.timeoutMs, signal})
        .toArray()
      const latest = new Map<string, LatestTelemetry>()
      for (const {_id, document} of groups) {
        latest.set(String(_id), toLatestTelemetry(document, document[this.options.timeField], this.options))
      }
      return latest
    })
  }

  history(id: string, window: TelemetryWindow, signal: AbortSignal): Promise<TelemetryHistoryPage> {
    const query = telemetryHistoryQuery(this.options, id, window, this.options.timeoutMs)
    const {timeField} = this.options
    return this.connection.run(async (client) => {
      const documents = await telemetryCollection(client, this.options)
        .find(query.filter, {sort: query.sort, limit: query.limit, maxTimeMS: query.maxTimeMS, signal})
        .toArray()
      return historyPage(
        documents,
        window.limit,
        (document) => toLatestTelemetry(document, document[timeField], this.options),
        (document) => historyKey(document[timeField]),
      )
    })
  }

  checkIndex(): Promise<IndexStatus> {
    const {collection, idField, timeField} = this.options
    const spec = telemetryIndexSpec(this.options)
    const hint = `db.${collection}.createIndex(${JSON.stringify(spec.key)}, {unique: true})`
    return this.connection.run(async (client) => {
      try {
        const name = findLatestIndex(await telemetryCollection(client, this.options).indexes(), this.options)
        if (name) return {ok: true, message: `lookups use index ${name}`}
        return {
          ok: false,
          message: `no index on ${collection} {${idField}: 1, ${timeField}: -1}: every lookup scans the collection`,
          hint,
        }
      } catch (error) {
        if ((error as {codeName?: string} | null)?.codeName !== 'NamespaceNotFound') throw error
        return {
          ok: false,
          message: `collection ${collection} does not exist: nothing is found until it is created (jobagent shipment import does that)`,
        }
      }
    })
  }

  async ping(): Promise<void> {
    await this.connection.run((client) =>
      client.db(databaseName(this.options.url)).command({ping: 1}, {timeoutMS: this.options.timeoutMs}),
    )
  }

  close(): Promise<void> {
    return this.connection.close()
  }
}

function telemetryCollection(client: MongoClient, options: MongoTelemetryOptions): Collection<Document> {
  return client.db(databaseName(options.url)).collection(options.collection)
}

/**
 * Appends telemetry with idempotent upserts in ordered batches of 1000. MongoDB offers no multi-document
 * transaction without a replica set, so a failure midway leaves the earlier batches; running the import again is safe.
 */
export class MongoTelemetryWriter implements TelemetryWriter {
  readonly kind = 'mongodb' as const
  private readonly connection: MongoConnection

  constructor(private readonly options: MongoTelemetryOptions) {
    this.connection = new MongoConnection(options)
  }

  append(records: readonly TelemetryRecord[]): Promise<AppendOutcome> {
    return this.connection.run(async (client) => {
      const collection = telemetryCollection(client, this.options)
      const {key, ...indexOptions} = telemetryIndexSpec(this.options)
      await collection.createIndex(key, indexOptions)
      let inserted = 0
      for (let start = 0; start < records.length; start += BATCH) {
        const operations = records
          .slice(start, start + BATCH)
          .map((record) => appendOperation(this.options, record.id, new Date(record.recorded_at), record.payload))
        inserted += (await collection.bulkWrite(operations, {ordered: false})).upsertedCount
      }
      return {inserted, duplicates: records.length - inserted}
    })
  }

  close(): Promise<void> {
    return this.connection.close()
  }
}
