import {describe, expect, it} from 'vitest'
import {NotFoundError, UnavailableError, ValidationError} from '../../../src/core/errors.js'
import type {Logger} from '../../../src/core/logger.js'
import type {ShipmentMetrics} from '../../../src/shipments/core/shipment-service.js'
import type {CombinedShipmentStore} from '../../../src/shipments/core/stores.js'
import {fakeStores, serviceWith} from '../../helpers/shipments.js'

const now = new Date('2026-03-01T12:00:00.000Z')
const clock = {now: () => now}
const rows = {S1: {shipment_id: 'S1', origin: 'Rotterdam'}, S2: {shipment_id: 'S2', origin: 'Oslo'}}
const latest = {S1: {recorded_at: '2026-03-01T11:55:00.000Z', payload: {lat: 53.5}}}

function recordingLogger(lines: string[]): Logger {
  const logger: Logger = {
    name: 'test',
    debug: (message) => lines.push(`DEBUG ${message}`),
    info: (message) => lines.push(`INFO ${message}`),
    warning: (message) => lines.push(`WARNING ${message}`),
    error: (message) => lines.push(`ERROR ${message}`),
    child: () => logger,
  }
  return logger
}

async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a rejection')
}

describe('ShipmentService.unified', () => {
  it('merges the metadata row and the latest telemetry with their freshness', async () => {
    const service = serviceWith(fakeStores(rows, latest), {clock})
    expect(await service.unified('S1')).toEqual({
      shipment_id: 'S1',
      metadata: {shipment_id: 'S1', origin: 'Rotterdam'},
      telemetry: {recorded_at: '2026-03-01T11:55:00.000Z', payload: {lat: 53.5}},
      freshness: {last_seen_at: '2026-03-01T11:55:00.000Z', age_seconds: 300, stale: false, stale_after_seconds: 900},
      sources: {metadata: 'postgres', telemetry: 'mongodb'},
      generated_at: '2026-03-01T12:00:00.000Z',
    })
  })

  it('reports a shipment without telemetry as stale with telemetry null', async () => {
    const state = await serviceWith(fakeStores(rows, latest), {clock}).unified('S2')
    expect(state.telemetry).toBeNull()
    expect(state.freshness).toEqual({last_seen_at: null, age_seconds: null, stale: true, stale_after_seconds: 900})
  })

  it('calls telemetry older than stale_after_seconds stale', async () => {
    const state = await serviceWith(fakeStores(rows, latest), {clock, staleAfterSeconds: 299}).unified('S1')
    expect(state.freshness.stale).toBe(true)
  })

  it('treats a time from a clock ahead of ours as age zero, not negative', async () => {
    const ahead = {S1: {recorded_at: '2026-03-01T12:01:00.000Z', payload: {}}}
    const state = await serviceWith(fakeStores(rows, ahead), {clock}).unified('S1')
    expect(state.freshness).toMatchObject({age_seconds: 0, stale: false})
  })

  it('reads both stores concurrently', async () => {
    const stores = fakeStores(rows, latest, {delayMs: 20})
    await serviceWith(stores).unified('S1')
    expect(stores.calls.slice(0, 2).sort()).toEqual(['metadata:start:S1', 'telemetry:start:S1'])
  })

  it('is a NotFoundError when the metadata store has no row, even with telemetry', async () => {
    const error = await caught(serviceWith(fakeStores({}, latest)).unified('S1'))
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error.message).toBe('no shipment with id "S1"')
  })

  it('is a ValidationError for a malformed id, without asking the stores', async () => {
    const stores = fakeStores(rows, latest)
    for (const id of ['', 'x'.repeat(257), 'a\u0000b']) {
      expect(await caught(serviceWith(stores).unified(id))).toBeInstanceOf(ValidationError)
    }
    expect(stores.calls).toEqual([])
  })

  it('names the slow store and its timeout, aborts its read and asks to retry later', async () => {
    const stores = fakeStores(rows, latest, {hangTelemetry: true})
    const service = serviceWith(stores, {timeouts: {metadata: 2000, telemetry: 50}, retryAfterSeconds: 7})
    const error = (await caught(service.unified('S1'))) as UnavailableError
    expect(error).toBeInstanceOf(UnavailableError)
    expect(error.message).toBe('telemetry store (mongodb) did not answer within 50 ms')
    expect(error.retryAfterSeconds).toBe(7)
    expect(stores.calls).toContain('telemetry:aborted')
  })

  it('holds stores that cannot abort to their timeout too, and hands them a signal that never aborts', async () => {
    const stores = fakeStores(rows, latest, {delayMs: 200})
    const signals: AbortSignal[] = []
    const metadata = {...stores.metadata, abortable: false}
    const telemetry = {
      ...stores.telemetry,
      abortable: false,
      latest: (id: string, signal: AbortSignal) => {
        signals.push(signal)
        return stores.telemetry.latest(id, signal)
      },
    }
    const service = serviceWith({metadata, telemetry}, {timeouts: {metadata: 2000, telemetry: 50}})
    const error = (await caught(service.unified('S1'))) as UnavailableError
    expect(error).toBeInstanceOf(UnavailableError)
    expect(error.message).toBe('telemetry store (mongodb) did not answer within 50 ms')
    expect(signals).toHaveLength(1)
    expect(signals[0]?.aborted).toBe(false)
    // The read that timed out still ends; its late answer changes nothing.
    await new Promise((resolve) => setTimeout(resolve, 250))
    expect(stores.calls).toContain('telemetry:end:S1')
    expect(await caught(service.unified('S1'))).toBeInstanceOf(UnavailableError)
  })

  it('names the failing store and hides passwords from its error', async () => {
    const failure = new Error('connect ECONNREFUSED for postgres://fleet:s3cret@db:5432/x')
    const error = await caught(serviceWith(fakeStores(rows, latest, {failMetadata: failure})).unified('S1'))
    expect(error).toBeInstanceOf(UnavailableError)
    expect(error.message).toBe(
      'metadata store (postgres) is unavailable: connect ECONNREFUSED for postgres://fleet:***@db:5432/x',
    )
  })

  it('lists both stores when both fail', async () => {
    const stores = fakeStores(rows, latest, {failMetadata: new Error('down'), failTelemetry: new Error('also down')})
    const error = (await caught(serviceWith(stores).unified('S1'))) as UnavailableError
    expect(error.details.map((detail) => detail.message)).toEqual([
      'metadata store (postgres) is unavailable: down',
      'telemetry store (mongodb) is unavailable: also down',
    ])
  })

  it('counts lookups by result and times each store', async () => {
    const lookups: string[] = []
    const latencies: string[] = []
    const metrics: ShipmentMetrics = {
      lookup: (result) => lookups.push(result),
      storeLatency: (store, kind, seconds, outcome) => latencies.push(`${store} ${kind} ${outcome} ${seconds >= 0}`),
    }
    const service = serviceWith(fakeStores(rows, latest))
    const remove = service.addMetrics(metrics)
    await service.unified('S1')
    await caught(service.unified('nope'))
    await caught(service.unified(''))
    remove()
    await service.unified('S1')
    expect(lookups).toEqual(['found', 'not_found', 'invalid'])
    expect(latencies).toContain('metadata postgres ok true')
    expect(latencies).toContain('telemetry mongodb ok true')
  })
})

/** Embedded stores (kind sqlite): a read is finished when the call returns, as better-sqlite3's are. */
function embeddedStores(behaviour: {failMetadata?: Error; failTelemetry?: Error} = {}) {
  const asked: string[] = []
  const answered = <T>(work: () => T): Promise<T> => {
    try {
      return Promise.resolve(work())
    } catch (error) {
      return Promise.reject(error)
    }
  }
  return {
    asked,
    metadata: {
      kind: 'sqlite' as const,
      findById: (id: string) =>
        answered(() => {
          asked.push(`metadata:${id}`)
          if (behaviour.failMetadata) throw behaviour.failMetadata
          return rows[id as keyof typeof rows] ?? null
        }),
      findByIds: (ids: readonly string[]) =>
        answered(() => {
          asked.push(`metadata:${ids.join(',')}`)
          if (behaviour.failMetadata) throw behaviour.failMetadata
          return new Map(ids.flatMap((id) => (id in rows ? [[id, rows[id as keyof typeof rows]]] : [])))
        }),
      ping: async () => {},
      close: async () => {},
    },
    telemetry: {
      kind: 'sqlite' as const,
      latest: (id: string) =>
        answered(() => {
          asked.push(`telemetry:${id}`)
          if (behaviour.failTelemetry) throw behaviour.failTelemetry
          return latest[id as keyof typeof latest] ?? null
        }),
      latestByIds: (ids: readonly string[]) =>
        answered(() => {
          asked.push(`telemetry:${ids.join(',')}`)
          if (behaviour.failTelemetry) throw behaviour.failTelemetry
          return new Map(ids.flatMap((id) => (id in latest ? [[id, latest[id as keyof typeof latest]]] : [])))
        }),
      history: (id: string) =>
        answered(() => {
          asked.push(`telemetry:history:${id}`)
          if (behaviour.failTelemetry) throw behaviour.failTelemetry
          const found = latest[id as keyof typeof latest]
          return {documents: found ? [found] : [], next: null}
        }),
      ping: async () => {},
      close: async () => {},
    },
  }
}

describe('ShipmentService.unified over embedded stores', () => {
  it('reads both and merges them as over network stores', async () => {
    const stores = embeddedStores()
    const state = await serviceWith(stores, {clock}).unified('S1')
    expect(state).toMatchObject({
      metadata: rows.S1,
      telemetry: latest.S1,
      freshness: {age_seconds: 300, stale: false},
      sources: {metadata: 'sqlite', telemetry: 'sqlite'},
    })
    expect(stores.asked).toEqual(['metadata:S1', 'telemetry:S1'])
    expect((await serviceWith(stores, {clock}).unified('S2')).telemetry).toBeNull()
    expect(await caught(serviceWith(stores).unified('nope'))).toBeInstanceOf(NotFoundError)
  })

  it('turns a failing store into the same UnavailableError and counts it as an error', async () => {
    const outcomes: string[] = []
    const service = serviceWith(
      embeddedStores({failMetadata: new Error('disk I/O error'), failTelemetry: new Error('locked')}),
    )
    service.addMetrics({
      lookup: (result) => outcomes.push(result),
      storeLatency: (store, _k, _s, outcome) => outcomes.push(`${store} ${outcome}`),
    })
    const error = (await caught(service.unified('S1'))) as UnavailableError
    expect(error).toBeInstanceOf(UnavailableError)
    expect(error.retryAfterSeconds).toBe(5)
    expect(error.details.map((detail) => detail.message)).toEqual([
      'metadata store (sqlite) is unavailable: disk I/O error',
      'telemetry store (sqlite) is unavailable: locked',
    ])
    expect(outcomes).toEqual(['metadata error', 'telemetry error', 'unavailable'])
  })

  it('still times a network store read next to an embedded one', async () => {
    const network = fakeStores(rows, latest, {hangTelemetry: true})
    const metadata = embeddedStores().metadata
    const service = serviceWith({metadata, telemetry: network.telemetry}, {timeouts: {metadata: 2000, telemetry: 50}})
    const error = (await caught(service.unified('S1'))) as UnavailableError
    expect(error.message).toBe('telemetry store (mongodb) did not answer within 50 ms')
    expect(network.calls).toContain('telemetry:aborted')
  })
})

describe('ShipmentService.unifiedBatch', () => {
  it('asks each store once for the whole list and merges each shipment as a single lookup does', async () => {
    const stores = embeddedStores()
    const service = serviceWith(stores, {clock})
    const batch = await service.unifiedBatch(['S2', 'nope', 'S1', 'S2'])
    expect(stores.asked).toEqual(['metadata:S2,nope,S1', 'telemetry:S2,nope,S1'])
    expect(batch.missing).toEqual(['nope'])
    expect(batch.shipments).toEqual([
      {...(await service.unified('S2')), generated_at: batch.shipments[0]?.generated_at},
      {...(await service.unified('S1')), generated_at: batch.shipments[1]?.generated_at},
    ])
  })

  it('fails the whole batch naming every failing store', async () => {
    const service = serviceWith(embeddedStores({failTelemetry: new Error('locked')}))
    const error = (await caught(service.unifiedBatch(['S1']))) as UnavailableError
    expect(error).toBeInstanceOf(UnavailableError)
    expect(error.message).toBe('telemetry store (sqlite) is unavailable: locked')
  })

  it('refuses a malformed id without asking the stores', async () => {
    const stores = embeddedStores()
    expect(await caught(serviceWith(stores).unifiedBatch(['S1', '']))).toBeInstanceOf(ValidationError)
    expect(stores.asked).toEqual([])
  })
})

describe('ShipmentService health and indexes', () => {
  it('reports each store as pass or fail with its latency', async () => {
    const stores = fakeStores(rows, latest, {hangTelemetry: true})
    const checks = await serviceWith(stores, {timeouts: {metadata: 1000, telemetry: 30}}).checks()
    expect(checks[0]).toMatchObject({store: 'metadata', kind: 'postgres', status: 'pass'})
    expect(checks[1]).toMatchObject({
      store: 'telemetry',
      kind: 'mongodb',
      status: 'fail',
      output: 'telemetry store (mongodb) did not answer within 30 ms',
    })
    expect(checks[0]?.latency_ms).toBeGreaterThanOrEqual(0)
  })

  it('warns once for each store whose lookup has no index', async () => {
    const lines: string[] = []
    const stores = fakeStores(rows, latest)
    stores.telemetry.checkIndex = async () => ({
      ok: false,
      message: 'no index on telemetry (shipment_id, recorded_at DESC): every lookup scans the table',
      hint: 'CREATE INDEX ...',
    })
    stores.metadata.checkIndex = async () => ({ok: true, message: 'lookups use index shipments_pkey'})
    const service = serviceWith(stores, {logger: recordingLogger(lines)})
    await service.verifyIndexes()
    await service.verifyIndexes()
    expect(lines).toEqual([
      'WARNING telemetry store (mongodb): no index on telemetry (shipment_id, recorded_at DESC): every lookup scans the table; create it with: CREATE INDEX ...',
    ])
  })

  it('does not fail when a store cannot be checked', async () => {
    const stores = fakeStores(rows, latest)
    stores.metadata.checkIndex = async () => {
      throw new Error('unreachable')
    }
    expect(await serviceWith(stores).verifyIndexes()).toEqual({metadata: undefined, telemetry: undefined})
  })
})

describe('ShipmentService with a combined store', () => {
  /** A combined store over the same rows: `answer` undefined leaves lookups to the stores, `hang` never answers. */
  function combinedStore(behaviour: {leaveToStores?: boolean; fail?: Error; hang?: boolean} = {}) {
    const asked: string[] = []
    const store: CombinedShipmentStore = {
      abortable: false,
      async find(id) {
        asked.push(`combined:${id}`)
        if (behaviour.hang) await new Promise(() => {})
        if (behaviour.fail) throw behaviour.fail
        if (behaviour.leaveToStores) return undefined
        return {metadata: rows[id as keyof typeof rows] ?? null, telemetry: latest[id as keyof typeof latest] ?? null}
      },
      async findMany(ids) {
        asked.push(`combined:${ids.join(',')}`)
        if (behaviour.fail) throw behaviour.fail
        if (behaviour.leaveToStores) return undefined
        return {
          metadata: new Map(ids.flatMap((id) => (id in rows ? [[id, rows[id as keyof typeof rows]]] : []))),
          telemetry: new Map(ids.flatMap((id) => (id in latest ? [[id, latest[id as keyof typeof latest]]] : []))),
        }
      },
      async close() {
        asked.push('combined:closed')
      },
    }
    return {asked, store}
  }

  it('answers from the combined store alone, merged as the two stores answer', async () => {
    const stores = fakeStores(rows, latest)
    const combined = combinedStore()
    const service = serviceWith({...stores, combined: combined.store}, {clock})
    expect(await service.unified('S1')).toEqual(await serviceWith(stores, {clock}).unified('S1'))
    stores.calls.length = 0
    combined.asked.length = 0
    expect((await service.unified('S2')).telemetry).toBeNull()
    expect(await caught(service.unified('nope'))).toBeInstanceOf(NotFoundError)
    expect(await service.unifiedBatch(['S2', 'nope', 'S1'])).toMatchObject({
      shipments: [
        {shipment_id: 'S2', telemetry: null},
        {shipment_id: 'S1', telemetry: {payload: {lat: 53.5}}},
      ],
      missing: ['nope'],
    })
    expect(stores.calls).toEqual([])
    expect(combined.asked).toEqual(['combined:S2', 'combined:nope', 'combined:S2,nope,S1'])
    await service.close()
    expect(combined.asked).toContain('combined:closed')
  })

  it('reads the two stores when the combined store leaves the lookup to them', async () => {
    const stores = fakeStores(rows, latest)
    const service = serviceWith({...stores, combined: combinedStore({leaveToStores: true}).store})
    expect((await service.unified('S1')).telemetry).toEqual(latest.S1)
    expect((await service.unifiedBatch(['S1'])).shipments).toHaveLength(1)
    expect(stores.calls).toContain('metadata:start:S1')
    expect(stores.calls).toContain('telemetry:batch:S1')
  })

  it('fails both stores alike, times both with the one query, within the smaller timeout', async () => {
    const latencies: string[] = []
    const metrics: ShipmentMetrics = {
      lookup() {},
      storeLatency: (store, kind, _seconds, outcome) => latencies.push(`${store} ${kind} ${outcome}`),
    }
    const failing = serviceWith({...fakeStores(rows, latest), combined: combinedStore({fail: new Error('down')}).store})
    failing.addMetrics(metrics)
    const error = (await caught(failing.unified('S1'))) as UnavailableError
    expect(error).toBeInstanceOf(UnavailableError)
    expect(error.retryAfterSeconds).toBe(5)
    expect(error.details.map((detail) => detail.message)).toEqual([
      'metadata store (postgres) is unavailable: down',
      'telemetry store (mongodb) is unavailable: down',
    ])
    expect(latencies).toEqual(['metadata postgres error', 'telemetry mongodb error'])
    const slow = serviceWith(
      {...fakeStores(rows, latest), combined: combinedStore({hang: true}).store},
      {timeouts: {metadata: 2000, telemetry: 50}},
    )
    const started = performance.now()
    const timeout = (await caught(slow.unified('S1'))) as UnavailableError
    expect(performance.now() - started).toBeLessThan(1000)
    expect(timeout.details.map((detail) => detail.message)).toEqual([
      'metadata store (postgres) did not answer within 50 ms',
      'telemetry store (mongodb) did not answer within 50 ms',
    ])
  })
})
