import {createRequire} from 'node:module'
import type {Pool, PoolOptions} from 'mysql2/promise'
import {ConfigurationError, UnavailableError} from '../../../core/errors.js'
import type {Logger} from '../../../core/logger.js'
import {withoutPasswords} from '../../../core/secrets.js'
import {describeTarget} from '../server-target.js'

interface MysqlPoolOptions {
  url: string
  poolSize: number
  /** Connect timeout and client-side query timeout, in milliseconds. */
  timeoutMs: number
  /** Serving sessions are read-only; only `jobagent shipment import` writes. */
  readOnly: boolean
  logger: Logger
}

// The driver loads when a MySQL store is first built, so commands and servers that never use one do not pay for
// it at start-up. mysql2 is CommonJS, so a synchronous require works.
const requireDriver = createRequire(import.meta.url)
const loadDriver = (): typeof import('mysql2/promise') =>
  requireDriver('mysql2/promise') as typeof import('mysql2/promise')

/** `mysql://` and `mariadb://` name the same protocol; the driver only knows the first. */
function connectionUri(url: string): string {
  return url.replace(/^mariadb:\/\//i, 'mysql://')
}

/**
 * A mysql2 pool whose sessions are read-only when serving (`SET SESSION TRANSACTION READ ONLY`, sent on each new
 * connection before anything else runs on it). Values arrive as JSON-ready as the driver can make them: times in
 * UTC, 64-bit integers as numbers when exact and text otherwise, DECIMAL as text (exact), JSON columns parsed.
 */
export function createMysqlPool(options: MysqlPoolOptions): Pool {
  const settings: PoolOptions = {
    uri: connectionUri(options.url),
    connectionLimit: options.poolSize,
    connectTimeout: options.timeoutMs,
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: false,
    charset: 'utf8mb4',
    maxIdle: options.poolSize,
    idleTimeout: 30_000,
    enableKeepAlive: true,
    // BOOLEAN is TINYINT(1) in MySQL and MariaDB: it reads back as true/false, as it was imported.
    typeCast: (field, next) => {
      if (field.type === 'TINY' && field.length === 1) {
        const value = field.string()
        return value === null ? null : value !== '0'
      }
      return next()
    },
  }
  let pool: Pool
  try {
    pool = loadDriver().createPool(settings)
  } catch (error) {
    throw new ConfigurationError(`cannot use ${withoutPasswords(options.url)}: ${(error as Error).message}`, {
      hint: 'e.g. mysql://reader@db.example.org:3306/fleet',
      cause: error,
    })
  }
  if (options.readOnly) {
    // Emitted before the new connection is handed out, and commands run in order on a connection: the first
    // lookup on it is already read-only.
    pool.on('connection', (connection) => {
      ;(connection as unknown as {query(sql: string, done: (error: Error | null) => void): void}).query(
        'SET SESSION TRANSACTION READ ONLY',
        (error) => {
          if (error) options.logger.debug(`MySQL session could not be made read-only: ${error.message}`)
        },
      )
    })
  }
  return pool
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ECONNRESET',
  'EHOSTUNREACH',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
])

/** Turns driver errors into the taxonomy: connection, authentication and missing-table problems are unavailability. */
export function describeMysqlError(error: unknown, url: string, table?: string): unknown {
  const code = (error as {code?: string} | null)?.code ?? ''
  const message = (error as Error | null)?.message ?? String(error)
  const target = describeTarget(url, 3306)
  if (code === 'ER_NO_SUCH_TABLE' || code === 'ER_BAD_FIELD_ERROR') {
    return new UnavailableError(`MySQL at ${target}: ${message}${table ? ` (expected table "${table}")` : ''}`, {
      hint: 'import shipments first: jobagent shipment import --metadata FILE',
      publicHint: 'import shipments first: jobagent shipment import --metadata FILE',
      cause: error,
      publicMessage: 'MySQL has no such table or column',
    })
  }
  if (code === 'ER_ACCESS_DENIED_ERROR' || code === 'ER_BAD_DB_ERROR' || code === 'ER_DBACCESS_DENIED_ERROR') {
    return new UnavailableError(`MySQL at ${target} refused the connection: ${message}`, {
      hint: 'check the user, password and database name in the store URL',
      cause: error,
      publicMessage: 'MySQL refused the connection (user, password or database)',
    })
  }
  if (code === 'ER_NO_DB_ERROR') {
    return new ConfigurationError(`MySQL at ${target}: ${message}`, {
      hint: 'name the database in the URL path, e.g. mysql://reader@db.example.org/fleet',
      cause: error,
    })
  }
  if (CONNECTION_CODES.has(code) || /timeout|closed|connection/i.test(message)) {
    return new UnavailableError(`MySQL at ${target}: ${message || code}`, {
      cause: error,
      retryAfterSeconds: 5,
      publicMessage: `MySQL cannot be reached or stopped answering${code ? ` (${code})` : ''}`,
    })
  }
  return error
}

/** One round trip to the server, for health checks; a failure is described like any other store error. */
export async function pingMysql(pool: Pool, url: string, timeoutMs: number): Promise<void> {
  try {
    await pool.query({sql: 'SELECT 1', timeout: timeoutMs})
  } catch (error) {
    throw describeMysqlError(error, url)
  }
}

/** Ends the pool; a connection attempt still failing against a dead server is no reason for closing to fail. */
export async function closeMysqlPool(pool: Pool): Promise<void> {
  await pool.end().catch(() => {})
}
