import {describe, expect, it} from 'vitest'
import {unreachableHint} from '../../../src/core/jobs/unreachable.js'
import {zeroYieldAnomalies} from '../../../src/core/jobs/zero-yield.js'
import {LogRecorder} from '../../../src/core/logger.js'
import {lastBytes} from '../../../src/notifiers/healthcheck.js'
import {memoryLogger} from '../../helpers/memory-log.js'

const outcome = (name: string, ok: boolean, count: number, error: string | null = null) => ({
  name,
  ok,
  count,
  error,
  duration_ms: 10,
})
const runWith = (...sources: ReturnType<typeof outcome>[]) => ({
  sources: sources.map((source) => ({...source, anomaly: null})),
})

describe('zeroYieldAnomalies', () => {
  it('flags a board that returned jobs in each of its last three successful runs and now returns none', () => {
    const history = [
      runWith(outcome('a', true, 40), outcome('b', true, 0)),
      runWith(outcome('a', false, 0, 'HTTP 503')),
      runWith(outcome('a', true, 30), outcome('b', true, 5)),
      runWith(outcome('a', true, 35), outcome('b', true, 5)),
    ]
    const anomalies = zeroYieldAnomalies([outcome('a', true, 0), outcome('b', true, 0)], history)
    expect([...anomalies.keys()]).toEqual(['a'])
    expect(anomalies.get('a')).toEqual({
      code: 'zero_yield',
      usual_count: 35,
      message: 'returned 0 jobs, usually about 35: the board may have changed',
    })
  })

  it('says nothing for a failed board, a board with jobs, or one with fewer than three successful runs', () => {
    const history = [runWith(outcome('a', true, 9), outcome('c', true, 9)), runWith(outcome('a', true, 9))]
    expect(
      zeroYieldAnomalies([outcome('a', true, 0), outcome('b', false, 0, 'x'), outcome('c', true, 3)], history).size,
    ).toBe(0)
  })
})

describe('unreachableHint', () => {
  const failed = (error: string) => outcome('x', false, 0, error)

  it('names DNS, refused connections and proxies, and points at the demo', () => {
    expect(
      unreachableHint([failed('network error: getaddrinfo ENOTFOUND remoteok.com')], {proxyConfigured: false}),
    ).toBe(
      'Hint: no board name could be resolved (DNS): is this machine offline? Check the connection, or see a complete run on sample boards with: jobagent run --demo',
    )
    expect(
      unreachableHint([failed('network error: connect ECONNREFUSED 10.0.0.1:443')], {proxyConfigured: false}),
    ).toMatch(/^Hint: every connection was refused/)
    expect(
      unreachableHint([failed('network error: connect ECONNREFUSED 127.0.0.1:3128')], {proxyConfigured: true}),
    ).toMatch(/^Hint: every request through the proxy failed: check HTTPS_PROXY/)
    expect(
      unreachableHint(
        [
          failed('network error: getaddrinfo EAI_AGAIN a.com'),
          failed('network error: connect ECONNREFUSED 1.2.3.4:443'),
        ],
        {proxyConfigured: false},
      ),
    ).toMatch(/^Hint: no board could be reached over the network\./)
  })

  it('gives no hint when a board answered or failed for another reason', () => {
    const dns = failed('network error: getaddrinfo ENOTFOUND a.com')
    expect(unreachableHint([dns, outcome('y', true, 3)], {proxyConfigured: false})).toBeNull()
    expect(unreachableHint([dns, failed('HTTP 503 Service Unavailable')], {proxyConfigured: false})).toBeNull()
    expect(unreachableHint([], {proxyConfigured: false})).toBeNull()
  })
})

describe('LogRecorder', () => {
  it('keeps INFO and above in the log format whatever the logger shows, and drops the oldest lines', () => {
    const quiet = memoryLogger('WARNING')
    const recorder = new LogRecorder(200)
    const logger = recorder.wrap(quiet.logger).child('run')
    logger.debug('not kept')
    logger.info('step one')
    logger.warning('careful')
    expect(quiet.parsed().map((line) => line.message)).toEqual(['careful'])
    expect(recorder.text()).toMatch(
      /^\S+ \| INFO \| jobagent\.run \| step one\n\S+ \| WARNING \| jobagent\.run \| careful\n$/,
    )
    for (let index = 0; index < 20; index++) logger.info(`line ${index}`)
    expect(recorder.text().length).toBeLessThanOrEqual(200)
    expect(recorder.text()).toMatch(/line 19\n$/)
  })
})

describe('lastBytes', () => {
  it('keeps the end of a log within the limit, from a line start', () => {
    const log = `${'a'.repeat(50)}\n${'b'.repeat(50)}\n${'c'.repeat(50)}\n`
    expect(lastBytes(log, 1000)).toBe(log)
    expect(lastBytes(log, 120)).toBe(`${'b'.repeat(50)}\n${'c'.repeat(50)}\n`)
    expect(lastBytes(log, 60)).toBe(`${'c'.repeat(50)}\n`)
    expect(Buffer.byteLength(lastBytes('é\n'.repeat(10_000)))).toBeLessThanOrEqual(10_240)
  })
})
