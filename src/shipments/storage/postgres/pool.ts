import {createRequire} from 'node:module'
import type pg from 'pg'
import {ConfigurationError, UnavailableError} from '../../../core/errors.js'
import type {Logger} from '../../../core/logger.js'
import {describeTarget} from '../server-target.js'

interface PostgresPoolOptions {
  url: string
  poolSize: number
  /** Connect timeout, statement_timeout and client-side query timeout, in milliseconds. */
  timeoutMs: number
  /** Serving sessions are read-only; only `jobagent shipment import` writes. */
  readOnly: boolean
  /** Imports may build an index on a big table: they pass false to let statements run as long as they need. */
  limitStatements?: boolean
  logger: Logger
}

// The driver loads when a PostgreSQL store is first built, so commands that never touch one (and a server on
// the embedded SQLite default) do not pay for it at start-up. pg is CommonJS, so a synchronous require works.
const requireDriver = createRequire(import.meta.url)
const loadDriver = (): typeof pg => requireDriver('pg') as typeof pg

/**
 * A pg pool whose sessions are read-only (`SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY` on connect,
 * which a `?options=` in the URL cannot undo) and whose statements are cancelled after the store timeout.
 */
export function createPostgresPool(options: PostgresPoolOptions): pg.Pool {
  const pool = new (loadDriver().Pool)({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.timeoutMs,
    ...(options.limitStatements === false
      ? {}
      : {statement_timeout: options.timeoutMs, query_timeout: options.timeoutMs + 1000}),
    idleTimeoutMillis: 30_000,
    application_name: 'jobagent',
    // Awaited by the pool before it hands the new connection out; a failure fails that checkout.
    ...(options.readOnly
      ? {
          onConnect: async (client: pg.ClientBase) => {
            await client.query('SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY')
          },
        }
      : {}),
  })
  // An idle client losing its connection must not crash the server; the next query reports the failure.
  pool.on('error', (error) => options.logger.debug(`idle PostgreSQL connection failed: ${error.message}`))
  return pool
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH'])

/** Turns driver errors into the taxonomy: connection, authentication and missing-table problems are unavailability. */
export function describePostgresError(error: unknown, url: string, table?: string): unknown {
  const code = (error as {code?: string} | null)?.code ?? ''
  const message = (error as Error | null)?.message ?? String(error)
  const target = describeTarget(url, 5432)
  if (code === '42P01' || code === '42703') {
    return new UnavailableError(`PostgreSQL at ${target}: ${message}${table ? ` (expected table "${table}")` : ''}`, {
      hint: 'import shipments first: jobagent shipment import --metadata FILE --telemetry FILE',
      publicHint: 'import shipments first: jobagent shipment import --metadata FILE --telemetry FILE',
      cause: error,
      publicMessage: 'PostgreSQL has no such table or column',
    })
  }
  if (code === '42P10') {
    return new ConfigurationError(`cannot upsert into ${table ?? 'the table'}: ${message}`, {
      hint: 'the id column needs a primary key or a unique index',
      cause: error,
    })
  }
  if (code === '28P01' || code === '28000' || code === '3D000') {
    return new UnavailableError(`PostgreSQL at ${target} refused the connection: ${message}`, {
      hint: 'check the user, password and database name in the store URL',
      cause: error,
      publicMessage: 'PostgreSQL refused the connection (user, password or database)',
    })
  }
  if (
    CONNECTION_CODES.has(code) ||
    code === '57014' ||
    code === '57P01' ||
    /timeout|terminated|Connection/i.test(message)
  ) {
    return new UnavailableError(`PostgreSQL at ${target}: ${message || code}`, {
      cause: error,
      retryAfterSeconds: 5,
      publicMessage: `PostgreSQL cannot be reached or stopped answering${code ? ` (${code})` : ''}`,
    })
  }
  return error
}

/** One round trip to the server, for health checks; a failure is described like any other store error. */
export async function pingPostgres(pool: pg.Pool, url: string): Promise<void> {
  try {
    await pool.query('SELECT 1')
  } catch (error) {
    throw describePostgresError(error, url)
  }
}

/**
 * A named statement (parsed and planned once per connection) that outlives a change of its table: a `SELECT *`
 * prepared before `ALTER TABLE ... ADD COLUMN` (an import bringing a new column while the server runs) is refused
 * on every connection that prepared it (0A000, cached plan must not change result type), so it is sent again
 * under a new name, which each connection prepares afresh.
 */
export class RenewableStatement {
  private name: string
  private renewals = 0

  constructor(
    private readonly baseName: string,
    readonly text: string,
  ) {
    this.name = baseName
  }

  query(pool: pg.Pool, values: unknown[]): Promise<pg.QueryResult>
  query(pool: pg.Pool, values: unknown[], rowMode: 'array'): Promise<pg.QueryArrayResult>
  async query(pool: pg.Pool, values: unknown[], rowMode?: 'array'): Promise<pg.QueryResult | pg.QueryArrayResult> {
    const send = () =>
      rowMode
        ? pool.query({name: this.name, text: this.text, values, rowMode})
        : pool.query({name: this.name, text: this.text, values})
    try {
      return await send()
    } catch (error) {
      if ((error as {code?: string} | null)?.code !== '0A000') throw error
      this.renewals += 1
      this.name = `${this.baseName}_${this.renewals}`
      return send()
    }
  }
}
