import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {serve} from '@hono/node-server'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {loadConfig} from '../../src/app/config.js'
import {silentLogger} from '../../src/core/logger.js'
import {createShipmentService} from '../../src/shipments/app/shipments.js'
import {ROOT, tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'
import {shipmentTestApp} from '../helpers/shipments.js'

const EXAMPLES = join(ROOT, 'examples/shipments')
/** The six documents of SHP-1001 in the examples, times given as ISO text, offsets and epoch numbers. */
const SHP_1001_TIMES = [
  '2026-03-01T08:00:00.000Z',
  '2026-03-01T10:00:00.000Z',
  '2026-03-01T11:00:00.000Z',
  '2026-03-01T12:00:00.000Z',
  '2026-03-01T14:00:00.000Z',
  '2026-03-01T14:30:00.000Z',
]
let home: ReturnType<typeof tempDir>
const cli = (...args: string[]) => runCommandLine(args, {home: home.path})

// The examples are only read here, so one import serves every test.
beforeAll(async () => {
  home = tempDir('jobagent-e2e-history-')
  const imported = await cli(
    'shipment',
    'import',
    '--metadata',
    join(EXAMPLES, 'metadata.csv'),
    '--telemetry',
    join(EXAMPLES, 'telemetry.ndjson'),
  )
  expect(imported.code).toBe(0)
})
afterAll(() => home.cleanup())

describe('jobagent shipment history', () => {
  it('lists the documents oldest first, one line each', async () => {
    const result = await cli('shipment', 'history', 'SHP-1001')
    expect(result.code).toBe(0)
    const lines = result.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^RECORDED AT +PAYLOAD$/)
    expect(lines.slice(1).map((line) => line.split(/ +/)[0])).toEqual(SHP_1001_TIMES)
    expect(lines[1]).toContain('"event":"departed"')
    expect(result.stderr).toBe('')
  })

  it('prints the API body with --json and says on stderr which --cursor gives the next page', async () => {
    const first = await cli('shipment', 'history', 'SHP-1001', '--limit', '4', '--json')
    expect(first.code).toBe(0)
    const page = JSON.parse(first.stdout)
    expect(page).toMatchObject({shipment_id: 'SHP-1001', count: 4, limit: 4})
    expect(page.telemetry.map((document: {recorded_at: string}) => document.recorded_at)).toEqual(
      SHP_1001_TIMES.slice(0, 4),
    )
    expect(first.stderr).toContain(`add --cursor ${page.next_cursor} for the next page`)
    const second = await cli('shipment', 'history', 'SHP-1001', '--limit', '4', '--cursor', page.next_cursor, '--json')
    const rest = JSON.parse(second.stdout)
    expect(rest).toMatchObject({count: 2, next_cursor: null})
    expect(rest.telemetry.map((document: {recorded_at: string}) => document.recorded_at)).toEqual(
      SHP_1001_TIMES.slice(4),
    )
    expect(second.stderr).toBe('')
  })

  it('refuses a cursor it did not make with a hint about cursors only', async () => {
    const result = await cli('shipment', 'history', 'SHP-1001', '--cursor', 'garbage')
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Error: cursor must be the next_cursor of an earlier page, unchanged')
    expect(result.stderr).toContain('Hint: a cursor is the next_cursor of the page before')
    expect(result.stderr).not.toMatch(/ISO 8601|limit 1 to/)
    // Well-formed base64url of something no page gives: "0", "zzzz" and a NUL byte.
    for (const cursor of ['MA', 'enp6eg', 'AA']) {
      const tampered = await cli('shipment', 'history', 'SHP-1001', '--cursor', cursor)
      expect(tampered.code, cursor).toBe(2)
      expect(tampered.stderr).toContain('Error: cursor must be the next_cursor of an earlier page, unchanged')
    }
    const both = await cli('shipment', 'history', 'SHP-1001', '--cursor', 'garbage', '--since', 'yesterday')
    expect(both.stderr).toMatch(/Hint: times are ISO 8601 .*; a cursor is the next_cursor/)
  })

  it('takes --since inclusive and --until exclusive', async () => {
    const result = await cli(
      'shipment',
      'history',
      'SHP-1001',
      '--since',
      '2026-03-01T10:00:00Z',
      '--until',
      '2026-03-01T14:00:00Z',
      '--json',
    )
    const body = JSON.parse(result.stdout)
    expect(body.telemetry.map((document: {recorded_at: string}) => document.recorded_at)).toEqual(
      SHP_1001_TIMES.slice(1, 4),
    )
    const none = await cli('shipment', 'history', 'SHP-1005')
    expect(none.code).toBe(0)
    expect(none.stdout).toContain('No telemetry for shipment SHP-1005 in this window')
  })

  it('exits 2 for a bad time or limit and 1 for an unknown shipment', async () => {
    const badTime = await cli('shipment', 'history', 'SHP-1001', '--since', 'yesterday')
    expect(badTime.code).toBe(2)
    expect(badTime.stderr).toContain('since must be an ISO 8601 time')
    expect(badTime.stderr).not.toMatch(/\n\s+at /)
    const badLimit = await cli('shipment', 'history', 'SHP-1001', '--limit', '5000')
    expect(badLimit.code).toBe(2)
    expect(badLimit.stderr).toContain('limit must be a whole number from 1 to 1000')
    const unknown = await cli('shipment', 'history', 'SHP-404')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('Error: no shipment with id "SHP-404"')
  })

  it('asks a running API with --server for the same pages', async () => {
    const {config} = loadConfig({env: {JOBAGENT_HOME: home.path}})
    const service = createShipmentService(config.shipments, {logger: silentLogger})
    const app = shipmentTestApp(service)
    const server = serve({fetch: app.fetch, port: 0, hostname: '127.0.0.1'})
    await new Promise((resolve) => server.once('listening', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const local = await cli(
        'shipment',
        'history',
        'SHP-1001',
        '--limit',
        '3',
        '--since',
        '2026-03-01T09:00Z',
        '--json',
      )
      const remote = await cli(
        'shipment',
        'history',
        'SHP-1001',
        '--limit',
        '3',
        '--since',
        '2026-03-01T09:00Z',
        '--server',
        url,
        '--json',
      )
      expect(remote.code).toBe(0)
      expect(JSON.parse(remote.stdout)).toEqual(JSON.parse(local.stdout))
      const missing = await cli('shipment', 'history', 'SHP-404', '--server', url)
      expect(missing.code).toBe(1)
    } finally {
      server.close()
      await service.close()
    }
  })
})
