import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {Agent, fetch} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {silentLogger} from '../../src/core/logger.js'
import {shipmentWriters} from '../../src/shipments/app/shipments.js'
import {tempDir} from '../helpers/cli.js'
import {
  backendRetries,
  freePort,
  haproxyConfig,
  haproxyProgram,
  type RunningHaproxy,
  startHaproxy,
} from '../helpers/load-balancer.js'
import {createTestDatabase, testPostgresUrl} from '../helpers/postgres.js'
import {type BuiltServer, serveBuilt} from '../helpers/serve.js'
import {shipmentsConfig} from '../helpers/shipments.js'
import {type ResumingStream, resumingEventStream} from '../helpers/sse.js'

/**
 * Three `serve --only shipments` instances of the built CLI, configured by their environment alone, behind HAProxy
 * over one PostgreSQL (metadata and telemetry), under a steady load of unified lookups and one event stream per
 * shipment. One instance is killed with SIGKILL mid-change, and a new one is started in its place. Every lookup's
 * answer is checked against what was committed, every stream must resume elsewhere from Last-Event-ID, and each
 * stream must see the last state of every change window (a burst of writes followed by a quiet spell).
 */

const serverUrl = await testPostgresUrl()
if (!serverUrl)
  console.log('instance kill test skipped: set JOBAGENT_TEST_POSTGRES_URL or run PostgreSQL on 127.0.0.1:5432')
const haproxy = haproxyProgram()

const SHIPMENTS = ['KILL-1', 'KILL-2', 'KILL-3', 'KILL-4'] as const
const ORIGIN: Record<string, string> = {'KILL-1': 'Gdansk', 'KILL-2': 'Tallinn', 'KILL-3': 'Riga', 'KILL-4': 'Oulu'}
/** Writes per shipment in one change window, and the quiet spell after it: longer than a reconnect and a read. */
const WRITES_PER_WINDOW = 3
const QUIET_MS = 1800
const WINDOWS = 5
const LOOKUP_CONCURRENCY = 4
const START = Date.parse('2026-05-01T00:00:00.000Z')

const recordedAt = (seq: number) => new Date(START + seq * 1000).toISOString()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Lookup {
  id: string
  startedAt: number
  endedAt: number
  outcome: 'ok' | 'wrong' | 'error'
  detail?: string
  servedBy?: string | null
}

describe.skipIf(!serverUrl)('shipment instances behind HAProxy, one killed with SIGKILL', () => {
  let work: ReturnType<typeof tempDir>
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  const instances = new Map<string, BuiltServer>()
  const ports = new Map<string, number>()
  let balancer: RunningHaproxy | undefined
  const writes = () => shipmentsConfig(database.url)
  /** The latest seq written (begun) and committed (acknowledged) per shipment. */
  const begun: Record<string, number> = {}
  const committed: Record<string, number> = {}

  const env = () => ({
    JOBAGENT_SHIPMENT_METADATA_URL: database.url,
    JOBAGENT_SHIPMENT_TELEMETRY_URL: database.url,
    JOBAGENT_SHIPMENT_METADATA_POOL_SIZE: '3',
    JOBAGENT_SHIPMENT_TELEMETRY_POOL_SIZE: '3',
    JOBAGENT_SHIPMENT_EVENTS_INTERVAL_MS: '200',
    JOBAGENT_LOG_LEVEL: 'WARNING',
  })
  /** An instance's home is a path that does not exist: --only shipments must create nothing there. */
  const home = () => join(work.path, 'no-home')
  const statsSocket = () => join(work.path, 'haproxy.sock')
  const startInstance = async (name: string, port = 0) => {
    const server = await serveBuilt(home(), env(), {args: ['--only', 'shipments'], port})
    instances.set(name, server)
    ports.set(name, Number(new URL(server.url).port))
    return server
  }

  beforeAll(async () => {
    if (!haproxy) {
      throw new Error('haproxy is not installed: the instance kill test needs it (apt-get install -y haproxy)')
    }
    work = tempDir('jobagent-instances-')
    database = await createTestDatabase(serverUrl as string)
    const metadata = shipmentWriters.metadata(writes(), silentLogger)
    await metadata.upsert(SHIPMENTS.map((id) => ({shipment_id: id, origin: ORIGIN[id]})))
    await metadata.close()
    const telemetry = shipmentWriters.telemetry(writes(), silentLogger)
    await telemetry.append(SHIPMENTS.map((id) => ({id, recorded_at: recordedAt(0), payload: {shipment: id, seq: 0}})))
    await telemetry.close()
    for (const id of SHIPMENTS) {
      begun[id] = 0
      committed[id] = 0
    }
    await Promise.all(['i1', 'i2', 'i3'].map((name) => startInstance(name)))
    const port = await freePort()
    const servers = [...ports].map(([name, serverPort]) => ({name, port: serverPort}))
    balancer = await startHaproxy(haproxy, work.path, haproxyConfig(port, servers, statsSocket()), port)
  }, 60_000)

  afterAll(async () => {
    await balancer?.stop()
    await Promise.all([...instances.values()].map((server) => server.stop()))
    await database?.drop()
    work?.cleanup()
  })

  it('answers every lookup rightly, fails only requests in flight on the killed instance, and resumes every stream', async () => {
    const url = balancer?.url as string
    const agent = new Agent({connections: LOOKUP_CONCURRENCY, keepAliveTimeout: 2000})
    const lookups: Lookup[] = []
    let loading = true
    let killedAt = Number.POSITIVE_INFINITY

    const lookup = async (id: string): Promise<Lookup> => {
      const floor = committed[id] as number
      const startedAt = performance.now()
      try {
        const response = await fetch(`${url}/shipments/${id}/unified`, {dispatcher: agent})
        const text = await response.text()
        const endedAt = performance.now()
        const servedBy = response.headers.get('x-served-by')
        if (response.status !== 200) {
          return {
            id,
            startedAt,
            endedAt,
            servedBy,
            outcome: 'error',
            detail: `${response.status} ${text.slice(0, 200)}`,
          }
        }
        const state = JSON.parse(text)
        const seq = state.telemetry?.payload?.seq
        const right =
          state.shipment_id === id &&
          state.metadata?.origin === ORIGIN[id] &&
          state.telemetry?.payload?.shipment === id &&
          typeof seq === 'number' &&
          seq >= floor &&
          seq <= (begun[id] as number) &&
          state.telemetry.recorded_at === recordedAt(seq)
        return {id, startedAt, endedAt, servedBy, outcome: right ? 'ok' : 'wrong', detail: right ? undefined : text}
      } catch (error) {
        return {id, startedAt, endedAt: performance.now(), outcome: 'error', detail: (error as Error).message}
      }
    }
    const load = Promise.all(
      Array.from({length: LOOKUP_CONCURRENCY}, async (_, worker) => {
        for (let n = worker; loading; n++) {
          lookups.push(await lookup(SHIPMENTS[n % SHIPMENTS.length] as string))
          await sleep(5)
        }
      }),
    )

    const streams = new Map<string, ResumingStream>(
      SHIPMENTS.map((id) => [id, resumingEventStream(`${url}/shipments/${id}/unified/events`)]),
    )
    // Each stream has its first state, and knows which instance serves it.
    for (let attempt = 0; attempt < 100 && [...streams.values()].some((s) => s.states.length === 0); attempt++) {
      await sleep(50)
    }
    const victim = streams.get('KILL-1')?.connections[0]?.servedBy as string
    const opened = [...streams.values()].map((s) => ({connections: s.connections, refusals: s.refusals}))
    expect(instances.has(victim), JSON.stringify(opened)).toBe(true)

    const telemetry = shipmentWriters.telemetry(writes(), silentLogger)
    const windowEnds: Record<string, number>[] = []
    let seq = 0
    let inFlightAtKill: Lookup[] = []
    for (let window = 1; window <= WINDOWS; window++) {
      for (let write = 1; write <= WRITES_PER_WINDOW; write++) {
        seq++
        for (const id of SHIPMENTS) begun[id] = seq
        await telemetry.append(
          SHIPMENTS.map((id) => ({id, recorded_at: recordedAt(seq), payload: {shipment: id, seq}})),
        )
        for (const id of SHIPMENTS) committed[id] = seq
        // Mid-change in window 2: the victim dies with lookups in flight and its streams open.
        if (window === 2 && write === 2) {
          killedAt = performance.now()
          const killed = instances.get(victim) as BuiltServer
          killed.child.kill('SIGKILL')
          await killed.stop()
        }
        await sleep(60)
      }
      windowEnds.push(Object.fromEntries(SHIPMENTS.map((id) => [id, seq])))
      // A new instance takes the dead one's place (its port, so the balancer's list stays as it is) after window 3.
      if (window === 3) await startInstance(victim, ports.get(victim))
      await sleep(QUIET_MS)
    }
    await telemetry.close()
    loading = false
    await load
    const last = (stream: ResumingStream) => JSON.parse(stream.states.at(-1)?.data ?? '{}').telemetry?.payload?.seq
    for (let attempt = 0; attempt < 100 && [...streams.values()].some((s) => last(s) !== seq); attempt++) {
      await sleep(50)
    }
    await Promise.all([...streams.values()].map((stream) => stream.stop()))
    await agent.close()

    const retried = await backendRetries(statsSocket(), 'instances')
    inFlightAtKill = lookups.filter((l) => l.startedAt < killedAt && l.endedAt > killedAt)
    const errors = lookups.filter((l) => l.outcome === 'error')
    const wrong = lookups.filter((l) => l.outcome === 'wrong')
    const servedBy = (name: string) => lookups.filter((l) => l.servedBy === name && l.startedAt > killedAt).length
    const restartedServed = lookups.filter((l) => l.servedBy === victim && l.startedAt > killedAt).length
    const resumed = [...streams].map(([id, stream]) => ({
      id,
      connections: stream.connections.map((c) => c.servedBy),
      states: stream.states.length,
      repeats: stream.repeats,
    }))
    console.log(
      `instance kill: ${lookups.length} lookups (${lookups.filter((l) => l.outcome === 'ok').length} right, ` +
        `${wrong.length} wrong, ${errors.length} failed); ${inFlightAtKill.length} in flight when ${victim} was killed; ` +
        `HAProxy retried ${retried.retries} and redispatched ${retried.redispatches}; ` +
        `after the kill: ${[...ports.keys()].map((name) => `${name} ${servedBy(name)}`).join(', ')}; ` +
        `streams: ${JSON.stringify(resumed)}`,
    )
    for (const failed of errors) {
      const when = `${Math.round(failed.startedAt - killedAt)}..${Math.round(failed.endedAt - killedAt)} ms`
      console.log(`failed lookup ${failed.id} (${when} from the kill): ${failed.detail?.slice(0, 120)}`)
    }

    // No request answered wrongly; failures only among the requests in flight when the instance died.
    expect(wrong.map((l) => l.detail)).toEqual([])
    expect(errors.filter((l) => !inFlightAtKill.includes(l)).map((l) => l.detail)).toEqual([])
    // The load went on through the others, and the new instance took its share once ready.
    expect(restartedServed).toBeGreaterThan(0)
    expect(existsSync(home())).toBe(false)

    for (const [id, stream] of streams) {
      const seqs = stream.states.map((state) => JSON.parse(state.data).telemetry.payload.seq as number)
      // Never a state twice in a row, never an older one after a newer.
      expect(stream.repeats, id).toBe(0)
      expect(
        seqs.every((value, index) => index === 0 || value > (seqs[index - 1] as number)),
        `${id}: ${seqs}`,
      ).toBe(true)
      // The last state of each change window was seen, through every kill and reconnection.
      for (const ends of windowEnds) expect(seqs, id).toContain(ends[id])
      expect(seqs.at(-1), id).toBe(seq)
    }
    // The victim's stream lost its instance and resumed on another with the id of the last state it had.
    const moved = streams.get('KILL-1') as ResumingStream
    expect(moved.connections.length).toBeGreaterThan(1)
    expect(moved.connections[1]?.servedBy).not.toBe(victim)
    expect(moved.connections[1]?.lastEventId).toBeDefined()
    // Every stream that was on the victim moved.
    for (const stream of streams.values()) {
      if (stream.connections[0]?.servedBy === victim) expect(stream.connections.length).toBeGreaterThan(1)
    }
  }, 90_000)
})
