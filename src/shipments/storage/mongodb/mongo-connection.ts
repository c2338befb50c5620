import {createRequire} from 'node:module'
import type {MongoClient} from 'mongodb'
import {UnavailableError} from '../../../core/errors.js'
import type {Logger} from '../../../core/logger.js'

export interface MongoConnectionOptions {
  url: string
  poolSize: number
  /** Server selection, connect and operation time limit, in milliseconds. */
  timeoutMs: number
  logger: Logger
}

// The driver (a large module tree) loads only when a MongoDB store is configured; it is CommonJS, so a
// synchronous require keeps the store constructors synchronous.
const requireDriver = createRequire(import.meta.url)

function createClient(options: MongoConnectionOptions): MongoClient {
  const {MongoClient: Client} = requireDriver('mongodb') as typeof import('mongodb')
  return new Client(options.url, {
    appName: 'jobagent',
    maxPoolSize: options.poolSize,
    serverSelectionTimeoutMS: options.timeoutMs,
    connectTimeoutMS: options.timeoutMs,
  })
}

/** Where the client connects, without credentials, for messages. */
function describeTarget(url: string): string {
  return url.replace(/^(mongodb(?:\+srv)?:\/\/)(?:[^@/]*@)?/, '$1').replace(/\?.*$/s, '')
}

interface ServerSelectionFailure {
  reason?: {servers?: Map<string, {error?: Error | null}>}
}

/** The error the driver met on the server it tried, if it met one before server selection gave up. */
function serverError(error: Error): Error | undefined {
  const servers = (error as ServerSelectionFailure).reason?.servers
  return [...(servers?.values() ?? [])].find((server) => server.error)?.error ?? undefined
}

function timedOut(error: Error): boolean {
  // 50 is MaxTimeMSExpired: the server gave up on the query at the store timeout.
  if ((error as {code?: unknown}).code === 50) return true
  if (error.name === 'MongoNetworkTimeoutError' || error.name === 'MongoOperationTimeoutError') return true
  if (error.name !== 'MongoServerSelectionError') return false
  // The driver gave up without any server error: a server that accepts connections and never replies.
  const cause = serverError(error)
  return cause === undefined || cause.name === 'MongoNetworkTimeoutError'
}

/** Turns driver errors into unavailability that names the store and the cause; anything else passes unchanged. */
function describeMongoError(error: unknown, options: Pick<MongoConnectionOptions, 'url' | 'timeoutMs'>): unknown {
  if (!(error instanceof Error) || !error.name.startsWith('Mongo')) return error
  const store = `MongoDB telemetry store at ${describeTarget(options.url)}`
  const unavailable = (message: string, publicMessage: string) =>
    new UnavailableError(message, {cause: error, retryAfterSeconds: 5, publicMessage})
  if (timedOut(error)) {
    const late = `did not answer within ${options.timeoutMs} ms`
    return unavailable(`${store} ${late}`, `MongoDB ${late}`)
  }
  if (error.name === 'MongoServerSelectionError' || error.name === 'MongoNetworkError') {
    const reason = serverError(error)?.message ?? error.message
    return unavailable(`${store} could not be reached: ${reason}`, 'MongoDB could not be reached')
  }
  return unavailable(`${store} failed: ${error.message}`, `MongoDB failed the operation (${error.name})`)
}

/**
 * The MongoClient of a store, replaced when it can no longer work. The driver closes a client's topology for good
 * when its first connection attempt fails, after which every operation answers "Topology is closed" at once and
 * nothing connects again; so a client whose connect failed is dropped and the next operation connects afresh.
 * Once connected, a client rides out server outages itself: its monitor keeps dialling the servers.
 */
export class MongoConnection {
  private client: MongoClient | undefined
  // Shared by concurrent operations, so a burst of requests during an outage makes one connection attempt.
  private connecting: Promise<MongoClient> | undefined
  private readonly discarded = new Set<Promise<void>>()
  private closed = false

  constructor(private readonly options: MongoConnectionOptions) {
    // Built now, not at the first operation, so a malformed URL fails at start-up rather than on every request.
    this.client = createClient(options)
  }

  /** Runs one operation on a connected client; connection failures come back as UnavailableError. */
  async run<T>(operation: (client: MongoClient) => Promise<T>): Promise<T> {
    let client: MongoClient | undefined
    try {
      client = await this.connected()
      return await operation(client)
    } catch (error) {
      if (client && (error as Error | null)?.name === 'MongoTopologyClosedError') this.discard(client)
      throw describeMongoError(error, this.options)
    }
  }

  /** Closes the current client and any dropped one still closing; later operations fail. */
  async close(): Promise<void> {
    this.closed = true
    const client = this.client
    this.client = undefined
    this.connecting = undefined
    await Promise.all([client?.close(), ...this.discarded])
  }

  private connected(): Promise<MongoClient> {
    if (this.closed) {
      return Promise.reject(
        new UnavailableError(`MongoDB telemetry store at ${describeTarget(this.options.url)} is closed`, {
          publicMessage: 'the MongoDB store is closed',
        }),
      )
    }
    this.connecting ??= this.connect()
    return this.connecting
  }

  private async connect(): Promise<MongoClient> {
    const client = this.client ?? createClient(this.options)
    this.client = client
    try {
      await client.connect()
      return client
    } catch (error) {
      this.discard(client)
      throw error
    }
  }

  /** Forgets a broken client so the next operation connects afresh; closing it is not worth waiting for. */
  private discard(client: MongoClient): void {
    if (this.client !== client) return
    this.client = undefined
    this.connecting = undefined
    const closing = client
      .close()
      .catch((error: unknown) =>
        this.options.logger.debug(`closing a failed MongoDB client: ${(error as Error).message}`),
      )
      .finally(() => this.discarded.delete(closing))
    this.discarded.add(closing)
  }
}
