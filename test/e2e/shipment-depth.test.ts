import {existsSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterEach, describe, expect, it} from 'vitest'
import {tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'
import {serveBuilt} from '../helpers/serve.js'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function home(): string {
  const dir = tempDir('jobagent-depth-')
  cleanups.push(dir.cleanup)
  return dir.path
}

/** A telemetry document whose `reading` nests `levels` arrays, so the document is levels + 1 deep. */
function nested(id: string, time: string, levels: number): string {
  return `{"shipment_id":"${id}","recorded_at":"${time}","reading":${'['.repeat(levels)}1${']'.repeat(levels)}}`
}

describe('deeply nested telemetry', () => {
  it('is refused by shipment import past 64 levels with exit 2 and the line, and nothing is imported', async () => {
    const dir = home()
    writeFileSync(join(dir, 'metadata.csv'), 'shipment_id,origin\nSHP-1,Rotterdam\n')
    const lines = [nested('SHP-1', '2026-03-01T10:00:00Z', 63), nested('SHP-1', '2026-03-01T11:00:00Z', 100_000)]
    writeFileSync(join(dir, 'telemetry.ndjson'), `${lines.join('\n')}\n`)
    const refused = await runCommandLine(
      ['shipment', 'import', '--metadata', join(dir, 'metadata.csv'), '--telemetry', join(dir, 'telemetry.ndjson')],
      {home: dir},
    )
    expect(refused.code, refused.stderr).toBe(2)
    expect(refused.stderr).toContain('telemetry.ndjson is not telemetry NDJSON: 1 problem on line 2')
    expect(refused.stderr).toContain('nests objects and arrays deeper than 64 levels')
    expect(refused.stderr).not.toMatch(/call stack|bug/i)
    expect(existsSync(join(dir, 'shipments.db'))).toBe(false)

    // 64 levels (the document and 63 arrays) is within the limit.
    writeFileSync(join(dir, 'telemetry.ndjson'), `${lines[0]}\n`)
    const accepted = await runCommandLine(
      ['shipment', 'import', '--metadata', join(dir, 'metadata.csv'), '--telemetry', join(dir, 'telemetry.ndjson')],
      {home: dir},
    )
    expect(accepted.code, accepted.stderr).toBe(0)
  })

  it('stored by another tool at any depth, is answered 422 with the reason, never a 500', async () => {
    const dir = home()
    writeFileSync(join(dir, 'metadata.csv'), 'shipment_id,origin\nSHP-1,Rotterdam\nSHP-2,Hamburg\n')
    writeFileSync(
      join(dir, 'telemetry.ndjson'),
      `${nested('SHP-1', '2026-03-01T10:00:00Z', 2)}\n${nested('SHP-2', '2026-03-01T10:00:00Z', 2)}\n`,
    )
    const imported = await runCommandLine(
      ['shipment', 'import', '--metadata', join(dir, 'metadata.csv'), '--telemetry', join(dir, 'telemetry.ndjson')],
      {home: dir},
    )
    expect(imported.code, imported.stderr).toBe(0)
    // Another program appends a document 100,000 levels deep as SHP-1's latest.
    const db = new Database(join(dir, 'shipments.db'))
    const deep = JSON.parse(nested('SHP-1', '2026-03-01T12:00:00Z', 1)) as Record<string, unknown>
    const text = JSON.stringify(deep).replace('[1]', `${'['.repeat(100_000)}1${']'.repeat(100_000)}`)
    db.prepare('INSERT INTO telemetry (shipment_id, recorded_at, document) VALUES (?, ?, ?)').run(
      'SHP-1',
      '2026-03-01T12:00:00.000Z',
      text,
    )
    db.close()

    const server = await serveBuilt(dir)
    cleanups.push(server.stop)
    const response = await fetch(`${server.url}/shipments/SHP-1/unified`)
    expect(response.status).toBe(422)
    const body = (await response.json()) as {error: {code: string; message: string}}
    expect(body.error.code).toBe('validation')
    expect(body.error.message).toBe(
      'the latest telemetry document of shipment "SHP-1" nests objects and arrays deeper than 64 levels; jobagent serves documents up to 64 levels deep',
    )
    // The other shipments are served as before.
    expect((await fetch(`${server.url}/shipments/SHP-2/unified`)).status).toBe(200)

    const shown = await runCommandLine(['shipment', 'show', 'SHP-1'], {home: dir})
    expect(shown.code, shown.stderr).toBe(2)
    expect(shown.stderr).toContain('nests objects and arrays deeper than 64 levels')
    expect(shown.stderr).not.toMatch(/call stack|bug/i)
  })
})
