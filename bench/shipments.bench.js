// GET /shipments/{id}/unified at scale (issue "Unified shipment state"): 1,000,000 shipments and 10,000,000
// telemetry documents in the embedded SQLite store, then the same in PostgreSQL when a server answers. Each store is
// served by the built app in a child process (bench/shipments-server.js) and hit with autocannon at 32 connections
// for seeded-random existing ids, next to a bare node:http server answering the same body to the same kind of
// request stream (the baseline) and Hono answering it with no lookup (the framework floor); for SQLite also the two
// lookups alone on bare node:http (the lookup floor: what the machine allows for this route, whatever the server
// around it). Targets, SQLite: at least 0.7x the bare request rate and p99 under 10 ms; PostgreSQL (both stores in
// one database, so one query per lookup): at least 0.5x and p99 under 10 ms; MySQL is reported without a target.
// MySQL/MariaDB holds the metadata only; its telemetry is the SQLite store's. JOBAGENT_BENCH_PG_TWO_POOLS=1 names
// the PostgreSQL host differently in the telemetry URL (localhost / 127.0.0.1), so the two stores count as two
// databases and each lookup makes two round trips on two pools: the comparison for the one-query path.
// Batches: for each store, GET /shipments/unified with 100 random ids per request, counted in shipments per second
// against the single lookups' shipments (requests) per second; target at least 20x.
// Sizes: JOBAGENT_BENCH_SHIPMENTS, JOBAGENT_BENCH_DOCS_PER_SHIPMENT, JOBAGENT_BENCH_PG_SHIPMENTS,
// JOBAGENT_BENCH_PG_DOCS_PER_SHIPMENT; the servers: JOBAGENT_BENCH_POSTGRES_URL (else JOBAGENT_TEST_POSTGRES_URL,
// else postgres://postgres@127.0.0.1:5432/postgres), JOBAGENT_BENCH_MYSQL_URL (else JOBAGENT_TEST_MYSQL_URL, else
// mysql://root@127.0.0.1:3306).
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {figure} from './lib/figures.js'
import {CONNECTIONS, measureLoad, WINDOW_SECONDS, WINDOWS} from './lib/load.js'
import {DIST, envNumber, ROOT, sized} from './lib/options.js'
import {startServer} from './lib/processes.js'
import {randomIndex, seededRandom} from './lib/random.js'
import {reportBenchmark} from './lib/report.js'
import {
  DEFAULT_MYSQL_URL,
  DEFAULT_POSTGRES_URL,
  mysqlStore,
  postgresStore,
  shipmentId,
  sqliteStore,
} from './lib/shipment-stores.js'

const SHIPMENTS = envNumber('JOBAGENT_BENCH_SHIPMENTS', sized(1_000_000, 20_000))
const DOCS = envNumber('JOBAGENT_BENCH_DOCS_PER_SHIPMENT', 10)
const PG_SHIPMENTS = envNumber('JOBAGENT_BENCH_PG_SHIPMENTS', SHIPMENTS)
const PG_DOCS = envNumber('JOBAGENT_BENCH_PG_DOCS_PER_SHIPMENT', DOCS)
const POSTGRES_URL =
  process.env.JOBAGENT_BENCH_POSTGRES_URL ?? process.env.JOBAGENT_TEST_POSTGRES_URL ?? DEFAULT_POSTGRES_URL
const MYSQL_URL = process.env.JOBAGENT_BENCH_MYSQL_URL ?? process.env.JOBAGENT_TEST_MYSQL_URL ?? DEFAULT_MYSQL_URL
const BATCH_SIZE = 100
const BATCH_TARGET = 20
/** A fresh server maps the store's pages on first touch; a long-running one has them, so the app warms up longer. */
const APP_WARMUP_SECONDS = sized(10, 1)
const FIXED_WARMUP_SECONDS = sized(2, 1)
const TARGETS = {sqlite: {ratio: 0.7, p99Ms: 10}, postgres: {ratio: 0.5, p99Ms: 10}}
const PG_TWO_POOLS = process.env.JOBAGENT_BENCH_PG_TWO_POOLS === '1'

if (!existsSync(join(DIST, 'src/shipments/http/shipments.js'))) {
  console.error(`no build at ${DIST}: run npm run build first (or set JOBAGENT_BENCH_DIST)`)
  process.exit(2)
}

const SERVER = join(ROOT, 'bench/shipments-server.js')
const count = (n) => n.toLocaleString('en')
const TITLES = {sqlite: 'SQLite', postgres: 'PostgreSQL', mysql: 'MySQL/MariaDB metadata, SQLite telemetry'}

/** The three servers over one store, warmed up, then measured in interleaved windows; the app also in batches. */
async function measureStore(store, shipments, url, telemetryUrl = url) {
  const env = {JOBAGENT_BENCH_DIST: DIST, JOBAGENT_BENCH_METADATA_URL: url, JOBAGENT_BENCH_TELEMETRY_URL: telemetryUrl}
  const app = await startServer([SERVER, 'app'], {...env, JOBAGENT_BENCH_PROBE_ID: shipmentId(1)})
  const sample = await fetch(`${app.url}/shipments/${shipmentId(1)}/unified`)
  const body = await sample.text()
  if (sample.status !== 200) {
    throw new Error(`${store}: GET /shipments/${shipmentId(1)}/unified answered ${sample.status}: ${body}`)
  }
  const bare = await startServer([SERVER, 'bare'], {JOBAGENT_BENCH_BODY: body})
  const hono = await startServer([SERVER, 'hono'], {JOBAGENT_BENCH_BODY: body})
  // The lookup floor exists for the embedded store only: it is better-sqlite3 on the generated schema.
  const floor = store === 'sqlite' ? await startServer([SERVER, 'floor'], env) : undefined
  // Each server gets its own id sequence, the same on every run.
  const randomIds = (seed) => {
    const random = seededRandom(seed)
    return [
      {
        setupRequest: (request) => ({
          ...request,
          path: `/shipments/${shipmentId(1 + randomIndex(random, shipments))}/unified`,
        }),
      },
    ]
  }
  const randomBatches = (seed) => {
    const random = seededRandom(seed)
    const ids = () => Array.from({length: BATCH_SIZE}, () => shipmentId(1 + randomIndex(random, shipments)))
    return [{setupRequest: (request) => ({...request, path: `/shipments/unified?ids=${ids().join(',')}`})}]
  }
  try {
    const samples = await measureLoad([
      {name: 'bare', url: bare.url, warmupSeconds: FIXED_WARMUP_SECONDS, requests: randomIds(1)},
      {name: 'hono', url: hono.url, warmupSeconds: FIXED_WARMUP_SECONDS, requests: randomIds(2)},
      ...(floor ? [{name: 'floor', url: floor.url, warmupSeconds: APP_WARMUP_SECONDS, requests: randomIds(4)}] : []),
      {name: 'app', url: app.url, warmupSeconds: APP_WARMUP_SECONDS, requests: randomIds(3)},
      {name: 'batch', url: app.url, warmupSeconds: FIXED_WARMUP_SECONDS, requests: randomBatches(5)},
    ])
    return {samples, label: app.label, bodyBytes: Buffer.byteLength(body)}
  } finally {
    await Promise.all([app.stop(), bare.stop(), hono.stop(), floor?.stop()])
  }
}

/** The same database under another host name: not "the same database" by its URL, so read on a pool each. */
function otherHostName(url) {
  const renamed = new URL(url)
  renamed.hostname = renamed.hostname === 'localhost' ? '127.0.0.1' : 'localhost'
  return renamed.toString()
}

function storeFigures(store, {samples}) {
  const targets = TARGETS[store]
  const id = (name) => `shipments/${store}/${name}`
  const title = TITLES[store]
  const rate = (name, label, options) =>
    figure({
      id: id(`${name}-rps`),
      name: label,
      unit: 'req/s',
      better: 'higher',
      samples: samples[name].rps,
      ...options,
    })
  const baseline = rate('bare', `bare node:http, ${title} body`, {role: 'baseline'})
  const floor = samples.floor
    ? rate('floor', `${title} lookups on bare node:http, nothing else (lookup floor)`, {baseline})
    : undefined
  const app = rate('app', `GET /shipments/{id}/unified, ${title}: req/s`, {
    baseline,
    target: targets ? {of: 'ratio', op: '>=', limit: targets.ratio} : undefined,
  })
  return [
    baseline,
    rate('hono', `Hono, ${title} body, no lookup (framework floor)`, {baseline}),
    ...(floor ? [floor] : []),
    app,
    // Shipments answered per second, in batches against single lookups (one shipment per request).
    figure({
      id: id('batch-shipments-per-s'),
      name: `GET /shipments/unified, ${BATCH_SIZE} ids per request, ${title}: shipments/s against single lookups`,
      unit: 'shipments/s',
      better: 'higher',
      samples: samples.batch.rps.map((rps) => rps * BATCH_SIZE),
      baseline: app,
      target: {of: 'ratio', op: '>=', limit: BATCH_TARGET},
    }),
    // The same samples against the lookup floor: how much of what the machine allows the app keeps.
    ...(floor
      ? [
          figure({
            id: id('app-of-floor-rps'),
            name: `GET /shipments/{id}/unified, ${title}, against the lookup floor`,
            unit: 'req/s',
            better: 'higher',
            samples: samples.app.rps,
            baseline: floor,
          }),
        ]
      : []),
    figure({
      id: id('app-p99'),
      name: `GET /shipments/{id}/unified, ${title}: p99`,
      unit: 'ms',
      better: 'lower',
      samples: samples.app.p99,
      resolution: 1,
      target: targets ? {of: 'median', op: '<', limit: targets.p99Ms} : undefined,
    }),
  ]
}

const figures = []
const notes = [
  `autocannon at ${CONNECTIONS} connections, ${WINDOWS} windows of ${WINDOW_SECONDS} s per server after a warm-up ` +
    `(${APP_WARMUP_SECONDS} s for the app, ${FIXED_WARMUP_SECONDS} s for the others), servers interleaved.`,
]
const skipped = []

console.log(`SQLite store: ${count(SHIPMENTS)} shipments, ${count(SHIPMENTS * DOCS)} documents ...`)
const sqlite = await sqliteStore(SHIPMENTS, DOCS)
const sqliteRun = await measureStore('sqlite', SHIPMENTS, `sqlite://${sqlite.file}`)
figures.push(...storeFigures('sqlite', sqliteRun))
notes.push(
  `SQLite: ${count(SHIPMENTS)} shipments, ${count(SHIPMENTS * DOCS)} telemetry documents (generated: ${sqlite.generated}); ` +
    `response body ${sqliteRun.bodyBytes} bytes; app: ${sqliteRun.label}.`,
)

console.log(`PostgreSQL store: ${count(PG_SHIPMENTS)} shipments, ${count(PG_SHIPMENTS * PG_DOCS)} documents ...`)
const postgres = await postgresStore(POSTGRES_URL, PG_SHIPMENTS, PG_DOCS)
if (postgres) {
  const telemetryUrl = PG_TWO_POOLS ? otherHostName(postgres.url) : postgres.url
  const postgresRun = await measureStore('postgres', PG_SHIPMENTS, postgres.url, telemetryUrl)
  figures.push(...storeFigures('postgres', postgresRun))
  notes.push(
    `PostgreSQL: ${count(PG_SHIPMENTS)} shipments, ${count(PG_SHIPMENTS * PG_DOCS)} telemetry documents ` +
      `(generated: ${postgres.generated}), both stores in one database, ` +
      `${PG_TWO_POOLS ? 'named by two host names: two queries on two pools' : 'one query per lookup'}; ` +
      `response body ${postgresRun.bodyBytes} bytes; app: ${postgresRun.label}.`,
  )
} else {
  const server = new URL(POSTGRES_URL)
  skipped.push(`PostgreSQL: nothing answers at ${server.host} (set JOBAGENT_BENCH_POSTGRES_URL)`)
}

console.log(`MySQL/MariaDB metadata: ${count(SHIPMENTS)} shipments ...`)
const mysql = await mysqlStore(MYSQL_URL, SHIPMENTS)
if (mysql) {
  const mysqlRun = await measureStore('mysql', SHIPMENTS, mysql.url, `sqlite://${sqlite.file}`)
  figures.push(...storeFigures('mysql', mysqlRun))
  notes.push(
    `MySQL/MariaDB: ${count(SHIPMENTS)} metadata rows (generated: ${mysql.generated}), telemetry from the SQLite ` +
      `store above; response body ${mysqlRun.bodyBytes} bytes; app: ${mysqlRun.label}.`,
  )
} else {
  skipped.push(`MySQL/MariaDB: nothing answers at ${new URL(MYSQL_URL).host} (set JOBAGENT_BENCH_MYSQL_URL)`)
}

reportBenchmark('shipments', {figures, notes, skipped})
