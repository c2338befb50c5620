import {writeFileSync} from 'node:fs'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {serve} from '@hono/node-server'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {loadConfig} from '../../src/app/config.js'
import {silentLogger} from '../../src/core/logger.js'
import {createShipmentService} from '../../src/shipments/app/shipments.js'
import {ROOT, tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'
import {shipmentTestApp} from '../helpers/shipments.js'

const EXAMPLES = join(ROOT, 'examples/shipments')
let home: ReturnType<typeof tempDir>
const cli = (...args: string[]) => runCommandLine(args, {home: home.path})
const importExamples = () =>
  cli(
    'shipment',
    'import',
    '--metadata',
    join(EXAMPLES, 'metadata.csv'),
    '--telemetry',
    join(EXAMPLES, 'telemetry.ndjson'),
  )

beforeEach(() => {
  home = tempDir('jobagent-e2e-shipment-')
})
afterEach(() => {
  home.cleanup()
})

describe('jobagent shipment', () => {
  it('imports the example data set into the embedded store', async () => {
    const result = await importExamples()
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Metadata: 5 shipments from')
    expect(result.stdout).toContain('into sqlite (5 added, 0 updated)')
    expect(result.stdout).toContain('Telemetry: 20 documents from')
    expect(result.stdout).toContain(
      '(19 added, 0 already stored; 1 repeat of an earlier line of the file, stored once)',
    )
  })

  it('shows metadata, latest telemetry and freshness sections', async () => {
    await importExamples()
    const result = await cli('shipment', 'show', 'SHP-1001')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^Shipment SHP-1001\n\nMetadata \(sqlite\)\n {2}shipment_id +SHP-1001\n/)
    expect(result.stdout).toMatch(/Latest telemetry \(sqlite\)\n {2}recorded_at +2026-03-01T14:30:00\.000Z\n/)
    expect(result.stdout).toMatch(
      /Freshness\n {2}last seen +2026-03-01T14:30:00\.000Z \(\d+ \w+ \d+ \w+ ago\)\n {2}status +stale \(stale after 15 min\)/,
    )
  })

  it('prints the API body with --json, telemetry null for a shipment without any', async () => {
    await importExamples()
    const result = await cli('shipment', 'show', 'SHP-1005', '--json')
    expect(result.code).toBe(0)
    const body = JSON.parse(result.stdout)
    expect(body).toMatchObject({
      shipment_id: 'SHP-1005',
      metadata: {shipment_id: 'SHP-1005', carrier: 'Iberia Cargo'},
      telemetry: null,
      freshness: {last_seen_at: null, age_seconds: null, stale: true, stale_after_seconds: 900},
      sources: {metadata: 'sqlite', telemetry: 'sqlite'},
    })
  })

  it('exits 1 with a clear message for an unknown shipment', async () => {
    await importExamples()
    const result = await cli('shipment', 'show', 'SHP-404')
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('Error: no shipment with id "SHP-404"')
  })

  it('shows several shipments from one batch in the order given, names the missing ones and exits 1', async () => {
    await importExamples()
    const result = await cli('shipment', 'show', 'SHP-1003', 'SHP-404', 'SHP-1001', 'SHP-1003')
    expect(result.code).toBe(1)
    expect(result.stdout.match(/^Shipment \S+$/gm)).toEqual(['Shipment SHP-1003', 'Shipment SHP-1001'])
    expect(result.stderr).toContain('no shipment with id "SHP-404"')
    const all = await cli('shipment', 'show', 'SHP-1001', 'SHP-1002', '--json')
    expect(all.code).toBe(0)
    const body = JSON.parse(all.stdout)
    expect(body.missing).toEqual([])
    expect(body.shipments.map((state: {shipment_id: string}) => state.shipment_id)).toEqual(['SHP-1001', 'SHP-1002'])
    const some = await cli('shipment', 'show', 'SHP-1001', 'SHP-404', '--json')
    expect(some.code).toBe(1)
    expect(JSON.parse(some.stdout)).toMatchObject({missing: ['SHP-404']})
    const bad = await cli('shipment', 'show', 'SHP-1001', '')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('ids[1] "": shipment id must not be empty')
  })

  it('exits 2 for a malformed id', async () => {
    const result = await cli('shipment', 'show', 'x'.repeat(300))
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('shipment id must be at most 256 characters long (got 300)')
  })

  it('lists bad rows with their line numbers and writes nothing', async () => {
    const bad = join(home.path, 'bad.ndjson')
    writeFileSync(bad, '{"shipment_id":"S1","recorded_at":"2026-03-01T12:00:00Z"}\n{"shipment_id":"S1"}\nnot json\n')
    const result = await cli('shipment', 'import', '--telemetry', bad)
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('2 problems on lines 2, 3; nothing of it was imported')
    expect(result.stderr).toContain('row 2, recorded_at: missing "recorded_at"')
    const shown = await cli('shipment', 'show', 'S1')
    expect(shown.code).toBe(1)
  })

  it('asks a running API with --server, sending the API token', async () => {
    await importExamples()
    const {config} = loadConfig({env: {JOBAGENT_HOME: home.path}})
    const service = createShipmentService(config.shipments, {logger: silentLogger})
    const app = shipmentTestApp(service)
    const seen: (string | undefined)[] = []
    const server = serve({
      fetch: (request) => {
        seen.push(request.headers.get('authorization') ?? undefined)
        return app.fetch(request)
      },
      port: 0,
      hostname: '127.0.0.1',
    })
    await new Promise((resolve) => server.once('listening', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const found = await runCommandLine(['shipment', 'show', 'SHP-1002', '--server', url, '--json'], {
        home: home.path,
        env: {JOBAGENT_API_TOKEN: 'token-1'},
      })
      expect(found.code).toBe(0)
      expect(JSON.parse(found.stdout)).toMatchObject({
        shipment_id: 'SHP-1002',
        telemetry: {recorded_at: '2026-03-01T18:15:00.000Z'},
      })
      expect(seen).toEqual(['Bearer token-1'])
      const missing = await cli('shipment', 'show', 'SHP-404', '--server', url)
      expect(missing.code).toBe(1)
      expect(missing.stderr).toContain('Error: no shipment with id "SHP-404"')
      const batch = await cli('shipment', 'show', 'SHP-1002', 'a,b/c', '--server', url, '--json')
      expect(batch.code).toBe(1)
      expect(JSON.parse(batch.stdout)).toMatchObject({shipments: [{shipment_id: 'SHP-1002'}], missing: ['a,b/c']})
    } finally {
      server.close()
      await service.close()
    }
  })
})
