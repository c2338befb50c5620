import {type ChildProcessWithoutNullStreams, spawn} from 'node:child_process'
import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {SqliteTelemetryWriter} from '../../src/shipments/storage/sqlite/shipment-writers.js'
import {BIN, IMPORT_EXAMPLE_SHIPMENTS, ROOT, tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'

let home: ReturnType<typeof tempDir>
const children: ChildProcessWithoutNullStreams[] = []
beforeEach(() => {
  home = tempDir('jobagent-e2e-watch-')
})
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  home.cleanup()
})

interface Watching {
  /** Resolves with stdout's lines once there are `count` of them (rejects after `timeoutMs`). */
  lines(count: number, timeoutMs?: number): Promise<string[]>
  stderr(): string
  exit: Promise<number | null>
  child: ChildProcessWithoutNullStreams
}

/** A port free now, so a server can be started on it, stopped and started again. */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done))
  const {port} = probe.address() as AddressInfo
  await new Promise((done) => probe.close(done))
  return port
}

/** `jobagent serve` of the built CLI on `port`; resolves once it listens. */
async function serveOn(port: number): Promise<ChildProcessWithoutNullStreams> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port)], {
    cwd: ROOT,
    env: {PATH: process.env.PATH, HOME: home.path, JOBAGENT_HOME: home.path, NO_COLOR: '1'},
  })
  children.push(child)
  child.stdout.resume()
  let stderr = ''
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 15_000)
    child.stderr.on('data', (chunk) => {
      stderr += chunk
      if (!stderr.includes('Listening on')) return
      clearTimeout(timer)
      resolve()
    })
  })
  return child
}

/** `jobagent shipment show ... --watch` of the built CLI, stdout a pipe (not a terminal). */
function watch(...args: string[]): Watching {
  const child = spawn(process.execPath, [BIN, 'shipment', 'show', ...args, '--watch'], {
    cwd: ROOT,
    env: {PATH: process.env.PATH, HOME: home.path, JOBAGENT_HOME: home.path, NO_COLOR: '1', TZ: 'UTC'},
  })
  children.push(child)
  let stdout = ''
  let stderr = ''
  let changed = () => {}
  child.stdout.on('data', (chunk) => {
    stdout += chunk
    changed()
  })
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  return {
    child,
    exit,
    stderr: () => stderr,
    lines: (count, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`fewer than ${count} lines after ${timeoutMs} ms: ${stdout}${stderr}`)),
          timeoutMs,
        )
        changed = () => {
          const lines = stdout.split('\n').filter(Boolean)
          if (lines.length < count) return
          clearTimeout(timer)
          resolve(lines)
        }
        changed()
      }),
  }
}

async function append(recordedAt: string, payload: Record<string, unknown>): Promise<void> {
  const writer = new SqliteTelemetryWriter({
    file: join(home.path, 'shipments.db'),
    table: 'telemetry',
    idField: 'shipment_id',
    timeField: 'recorded_at',
  })
  try {
    await writer.append([{id: 'SHP-1001', recorded_at: recordedAt, payload}])
  } finally {
    await writer.close()
  }
}

describe('jobagent shipment show --watch', () => {
  it('prints one JSON line per change with --json and exits 0 on SIGINT', async () => {
    expect((await runCommandLine(IMPORT_EXAMPLE_SHIPMENTS, {home: home.path})).code).toBe(0)
    const watching = watch('SHP-1001', '--json')
    const [first] = await watching.lines(1)
    expect(JSON.parse(first ?? '')).toMatchObject({shipment_id: 'SHP-1001', telemetry: {payload: {}}})
    await append('2030-01-01T00:00:00.000Z', {lat: 1.5, note: 'appended'})
    const started = Date.now()
    const lines = await watching.lines(2, 5000)
    expect(Date.now() - started).toBeLessThan(3000)
    expect(JSON.parse(lines[1] ?? '')).toMatchObject({
      shipment_id: 'SHP-1001',
      telemetry: {recorded_at: '2030-01-01T00:00:00.000Z', payload: {lat: 1.5, note: 'appended'}},
    })
    watching.child.kill('SIGINT')
    expect(await watching.exit).toBe(0)
    expect(lines).toHaveLength(2)
    expect(watching.stderr()).toBe('')
  }, 30_000)

  it('prints the state once, then a line per change, off a terminal; SIGTERM ends it with 0', async () => {
    expect((await runCommandLine(IMPORT_EXAMPLE_SHIPMENTS, {home: home.path})).code).toBe(0)
    const watching = watch('SHP-1001')
    const before = await watching.lines(1)
    await new Promise((resolve) => setTimeout(resolve, 500))
    const shown = (await watching.lines(before.length)).length
    expect(shown).toBeGreaterThan(5)
    await append('2030-01-01T00:00:00.000Z', {lat: 1.5})
    const lines = await watching.lines(shown + 1, 5000)
    expect(lines.at(-1)).toMatch(/^\S+Z {2}SHP-1001 {2}telemetry 2030-01-01T00:00:00\.000Z lat=1\.5$/)
    watching.child.kill('SIGTERM')
    expect(await watching.exit).toBe(0)
  }, 30_000)

  it("follows a server's event stream with --server, and follows it again after the server restarts", async () => {
    expect((await runCommandLine(IMPORT_EXAMPLE_SHIPMENTS, {home: home.path})).code).toBe(0)
    const port = await freePort()
    let server = await serveOn(port)
    const watching = watch('SHP-1001', '--json', '--server', `http://127.0.0.1:${port}`)
    const [first] = await watching.lines(1)
    expect(JSON.parse(first ?? '')).toMatchObject({shipment_id: 'SHP-1001', telemetry: {payload: {}}})
    await append('2030-01-01T00:00:00.000Z', {lat: 1.5})
    const lines = await watching.lines(2, 5000)
    expect(JSON.parse(lines[1] ?? '')).toMatchObject({telemetry: {recorded_at: '2030-01-01T00:00:00.000Z'}})

    server.kill('SIGTERM')
    const dropped = await watching.lines(3, 10_000)
    expect(JSON.parse(dropped[2] ?? '')).toMatchObject({error: {code: 'unavailable'}})
    expect(dropped[2]).toContain('reconnecting')
    server = await serveOn(port)
    await append('2030-01-02T00:00:00.000Z', {lat: 2.5})
    const again = await watching.lines(4, 15_000)
    const states = again.slice(3).map((line) => JSON.parse(line))
    expect(states.at(-1)).toMatchObject({telemetry: {recorded_at: '2030-01-02T00:00:00.000Z', payload: {lat: 2.5}}})

    watching.child.kill('SIGINT')
    expect(await watching.exit).toBe(0)
  }, 60_000)

  it('exits as shipment show --server does when the server refuses the stream', async () => {
    expect((await runCommandLine(IMPORT_EXAMPLE_SHIPMENTS, {home: home.path})).code).toBe(0)
    const port = await freePort()
    await serveOn(port)
    const unknown = await runCommandLine(
      ['shipment', 'show', 'SHP-404', '--watch', '--server', `http://127.0.0.1:${port}`],
      {
        home: home.path,
      },
    )
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('no shipment with id "SHP-404"')
    const nobody = await runCommandLine(
      ['shipment', 'show', 'SHP-1001', '--watch', '--server', `http://127.0.0.1:${await freePort()}`],
      {
        home: home.path,
      },
    )
    expect(nobody.code).toBe(1)
    expect(nobody.stderr).toContain('cannot reach http://127.0.0.1:')
  }, 60_000)

  it('follows one shipment only, and says so', async () => {
    const result = await runCommandLine(['shipment', 'show', 'SHP-1001', 'SHP-1002', '--watch'], {home: home.path})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--watch follows one shipment (got 2 ids)')
  })

  it('exits 1 at once for an unknown shipment', async () => {
    expect((await runCommandLine(IMPORT_EXAMPLE_SHIPMENTS, {home: home.path})).code).toBe(0)
    const result = await runCommandLine(['shipment', 'show', 'SHP-404', '--watch'], {home: home.path})
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('no shipment with id "SHP-404"')
  })
})
