// The data sets of bench/shipments.bench.js: N shipments and N x DOCS telemetry documents, generated inside the
// database (a recursive CTE in SQLite, generate_series in PostgreSQL) from the row number alone, so every run
// builds the same data in seconds rather than minutes, and kept for the next run under a name that carries the
// sizes: the SQLite file in bench/.data/, the PostgreSQL database on the server.
import {existsSync, mkdirSync, renameSync, rmSync} from 'node:fs'
import {connect} from 'node:net'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import Database from 'better-sqlite3'
import mysql from 'mysql2/promise'
import pg from 'pg'
import {DATA, DIST} from './options.js'

/** 2026-03-01T12:00:00Z; documents of one shipment are ten minutes apart. */
const EPOCH = 1772366400
const SCHEMA = {table: 'telemetry', idField: 'shipment_id', timeField: 'recorded_at'}
export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres'
export const DEFAULT_MYSQL_URL = 'mysql://root@127.0.0.1:3306'

export const shipmentId = (n) => `SHP-${String(n).padStart(7, '0')}`

const fromDist = (path) => import(pathToFileURL(join(DIST, path)).href)

function seconds(since) {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`
}

/** The embedded store: {file, generated} where generated says how long it took, or 'cached'. */
export async function sqliteStore(shipments, docs) {
  mkdirSync(DATA, {recursive: true})
  const file = join(DATA, `shipments-${shipments}-${docs}.db`)
  if (existsSync(file)) return {file, generated: 'cached'}
  const {telemetryTableSql} = await fromDist('src/shipments/storage/sqlite/shipment-telemetry-store.js')
  const started = performance.now()
  // Built under another name and renamed when complete: an interrupted run never leaves a half store to reuse.
  const partial = `${file}.partial`
  rmSync(partial, {force: true})
  const db = new Database(partial)
  db.pragma('journal_mode = OFF')
  db.pragma('synchronous = OFF')
  db.pragma('cache_size = -1000000')
  const numbers = (count) =>
    `WITH RECURSIVE c(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM c WHERE n < ${count - 1}) SELECT n FROM c`
  // The schema `jobagent shipment import` creates (see src/shipments/storage/sqlite/shipment-writers.ts).
  db.exec(`CREATE TABLE shipments (shipment_id TEXT PRIMARY KEY NOT NULL, reference, origin, destination, carrier,
    status, weight_kg) WITHOUT ROWID`)
  db.exec(`INSERT INTO shipments SELECT printf('SHP-%07d', n + 1), printf('PO-%07d', n + 50000),
    'Rotterdam, NL', 'Hamburg, DE', 'Nordline', 'in_transit', 500 + n % 20000 FROM (${numbers(shipments)})`)
  db.exec(telemetryTableSql(SCHEMA))
  db.exec(`INSERT INTO telemetry SELECT printf('SHP-%07d', n / ${docs} + 1),
    strftime('%Y-%m-%dT%H:%M:%fZ', ${EPOCH} + (n % ${docs}) * 600, 'unixepoch'),
    json_object('lat', 50 + (n % 1000) / 100.0, 'lon', 5 + (n % 777) / 100.0, 'speed_kmh', n % 120,
                'temperature_c', (n % 50) / 10.0, 'event', 'moving')
    FROM (${numbers(shipments * docs)})`)
  // No ANALYZE: with sqlite_stat4 present SQLite re-prepares a statement whenever a bound value changes, which
  // makes every lookup several times slower (jobagent's import does not analyze either).
  db.pragma('journal_mode = WAL')
  db.close()
  renameSync(partial, file)
  return {file, generated: seconds(started)}
}

function answers(host, port) {
  return new Promise((done) => {
    const socket = connect({host, port})
    const finish = (ok) => {
      socket.destroy()
      done(ok)
    }
    socket.setTimeout(1000, () => finish(false))
    socket.once('connect', () => finish(true))
    socket.once('error', () => finish(false))
  })
}

/**
 * A database of its own on the server at `server` (a URL of any database there): {url, generated}, or undefined
 * when nothing answers. A table `bench_done`, created last, marks a complete data set.
 */
export async function postgresStore(server, shipments, docs) {
  const target = new URL(server)
  if (!(await answers(target.hostname, Number(target.port || 5432)))) return undefined
  const name = `jobagent_bench_shipments_${shipments}_${docs}`
  const admin = new pg.Client({connectionString: server})
  await admin.connect()
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount > 0
  target.pathname = `/${name}`
  const url = target.toString()
  if (exists) {
    const client = new pg.Client({connectionString: url})
    await client.connect()
    const done = await client.query("SELECT to_regclass('bench_done') IS NOT NULL AS done")
    await client.end()
    if (done.rows[0].done) {
      await admin.end()
      return {url, generated: 'cached'}
    }
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`)
  }
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const {postgresTelemetryTableSql} = await fromDist('src/shipments/storage/postgres/shipment-telemetry-store.js')
  const started = performance.now()
  const client = new pg.Client({connectionString: url})
  await client.connect()
  await client.query("SET maintenance_work_mem = '1GB'")
  await client.query('SET synchronous_commit = off')
  await client.query(`CREATE TABLE shipments (shipment_id text PRIMARY KEY, reference text, origin text,
    destination text, carrier text, status text, weight_kg double precision)`)
  await client.query(`INSERT INTO shipments SELECT 'SHP-' || lpad(n::text, 7, '0'), 'PO-' || lpad((n + 50000)::text, 7, '0'),
    'Rotterdam, NL', 'Hamburg, DE', 'Nordline', 'in_transit', 500 + n % 20000 FROM generate_series(1, ${shipments}) AS n`)
  const [createTable, createIndex] = postgresTelemetryTableSql(SCHEMA)
  await client.query(createTable)
  await client.query(`INSERT INTO telemetry SELECT 'SHP-' || lpad((n / ${docs} + 1)::text, 7, '0'),
    to_timestamp(${EPOCH} + (n % ${docs}) * 600),
    jsonb_build_object('lat', 50 + (n % 1000) / 100.0, 'lon', 5 + (n % 777) / 100.0, 'speed_kmh', n % 120,
                       'temperature_c', (n % 50) / 10.0, 'event', 'moving')
    FROM generate_series(0, ${shipments * docs - 1}) AS n`)
  await client.query(createIndex)
  await client.query('VACUUM ANALYZE')
  await client.query('CREATE TABLE bench_done ()')
  await client.end()
  return {url, generated: seconds(started)}
}

/**
 * The metadata table in a database of its own on the MySQL/MariaDB server at `server`: {url, generated}, or
 * undefined when nothing answers. Rows come from a cross join of digits (MySQL 8 and MariaDB alike); a table
 * `bench_done`, created last, marks a complete data set. Telemetry stays in another store.
 */
export async function mysqlStore(server, shipments) {
  const target = new URL(server)
  if (!(await answers(target.hostname, Number(target.port || 3306)))) return undefined
  const name = `jobagent_bench_shipments_${shipments}`
  target.pathname = `/${name}`
  const url = target.toString()
  const admin = await mysql.createConnection({uri: server})
  try {
    const [done] = await admin.query(
      'SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
      [name, 'bench_done'],
    )
    if (done.length > 0) return {url, generated: 'cached'}
    await admin.query(`DROP DATABASE IF EXISTS ${name}`)
    await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`)
    const started = performance.now()
    await admin.query(`USE ${name}`)
    // The table `jobagent shipment import` creates (see src/shipments/storage/mysql/shipment-writers.ts).
    await admin.query(`CREATE TABLE shipments (shipment_id VARCHAR(256) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin
      NOT NULL PRIMARY KEY, reference TEXT, origin TEXT, destination TEXT, carrier TEXT, status TEXT, weight_kg DOUBLE)
      DEFAULT CHARSET = utf8mb4`)
    const digits =
      '(SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 ' +
      'UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)'
    const places = Math.max(1, Math.ceil(Math.log10(shipments)))
    const number = Array.from({length: places}, (_, i) => `d${i}.d * ${10 ** i}`).join(' + ')
    const from = Array.from({length: places}, (_, i) => `${digits} d${i}`).join(' CROSS JOIN ')
    await admin.query(`INSERT INTO shipments SELECT CONCAT('SHP-', LPAD(n + 1, 7, '0')),
      CONCAT('PO-', LPAD(n + 50000, 7, '0')), 'Rotterdam, NL', 'Hamburg, DE', 'Nordline', 'in_transit', 500 + n % 20000
      FROM (SELECT ${number} AS n FROM ${from}) AS numbers WHERE n < ${shipments}`)
    await admin.query('ANALYZE TABLE shipments')
    await admin.query('CREATE TABLE bench_done (done INT)')
    return {url, generated: seconds(started)}
  } finally {
    await admin.end()
  }
}
