import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {tempDir} from '../helpers/cli.js'
import {serveBuilt} from '../helpers/serve.js'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('answers about stores that are down', () => {
  it('name the store kind and state in 503 bodies and /health, and keep paths, hosts and databases in the log', async () => {
    const home = tempDir('jobagent-internals-')
    cleanups.push(home.cleanup)
    const hidden = join(home.path, 'private-dir-7c1e')
    mkdirSync(hidden)
    writeFileSync(
      join(home.path, 'config.json'),
      JSON.stringify({
        sources: [],
        shipments: {
          // Nothing listens on port 1: the connection is refused.
          metadata: {url: 'postgres://ops:pw-3e9d@127.0.0.1:1/fleet_secret_db', timeout_ms: 1500},
          telemetry: {url: `sqlite://${join(hidden, 'telemetry-missing.db')}`},
        },
      }),
      {mode: 0o600},
    )
    const server = await serveBuilt(home.path)
    cleanups.push(server.stop)
    const internals = [
      home.path,
      'private-dir-7c1e',
      'telemetry-missing.db',
      '127.0.0.1:1',
      'fleet_secret_db',
      'ops',
      'pw-3e9d',
    ]

    const unified = await fetch(`${server.url}/shipments/SHP-1/unified`)
    const unifiedText = await unified.text()
    expect(unified.status).toBe(503)
    const body = JSON.parse(unifiedText)
    expect(body.error.code).toBe('unavailable')
    expect(body.error.message).toMatch(/^metadata store \(postgres\) is unavailable: PostgreSQL/)
    expect(body.error.details.map((detail: {field: string}) => detail.field).sort()).toEqual(['metadata', 'telemetry'])
    expect(unifiedText).toContain('telemetry store (sqlite) is unavailable: the SQLite database does not exist yet')

    const health = await fetch(`${server.url}/health`)
    const healthText = await health.text()
    expect(health.status).toBe(503)
    const checks = JSON.parse(healthText).checks
    expect(checks.shipments_metadata[0]).toMatchObject({status: 'fail', componentId: 'postgres'})
    expect(checks.shipments_telemetry[0].output).toBe(
      'telemetry store (sqlite) is unavailable: the SQLite database does not exist yet',
    )

    for (const secret of internals) {
      expect(unifiedText, secret).not.toContain(secret)
      expect(healthText, secret).not.toContain(secret)
    }
    // The operator still learns where: the server log names the file and the server.
    await expect.poll(server.stderr).toContain(join(hidden, 'telemetry-missing.db'))
    expect(server.stderr()).toContain('127.0.0.1:1/fleet_secret_db')
  })
})
