import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {CLOCK_VARIABLE, clockFromEnv} from '../../src/app/clock.js'
import {ConfigurationError} from '../../src/core/errors.js'
import {localTimestamp, systemClock} from '../../src/core/time.js'
import {runCli, tempDir} from '../helpers/cli.js'
import {DAY_AFTER_SEEDING, seedTracker} from '../helpers/tracker.js'

describe('clockFromEnv', () => {
  it('is the system clock without JOBAGENT_NOW', () => {
    expect(clockFromEnv({})).toBe(systemClock)
    expect(clockFromEnv({[CLOCK_VARIABLE]: '  '})).toBe(systemClock)
  })

  it('starts at a local JOBAGENT_NOW and runs on at the real pace', async () => {
    const clock = clockFromEnv({[CLOCK_VARIABLE]: '2031-02-03T04:05:06'})
    expect(localTimestamp(clock.now())).toMatch(/^2031-02-03T04:05:0[67]\.\d{3}$/)
    const first = clock.now().getTime()
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(clock.now().getTime() - first).toBeGreaterThanOrEqual(25)
  })

  it('reads a zone when JOBAGENT_NOW names one', () => {
    const clock = clockFromEnv({[CLOCK_VARIABLE]: '2031-02-03T04:05:06Z'})
    expect(Math.abs(clock.now().getTime() - Date.UTC(2031, 1, 3, 4, 5, 6))).toBeLessThan(1000)
  })

  it('refuses a JOBAGENT_NOW that is no date-time, naming the variable', () => {
    expect(() => clockFromEnv({[CLOCK_VARIABLE]: 'tomorrow'})).toThrow(ConfigurationError)
    expect(() => clockFromEnv({[CLOCK_VARIABLE]: 'tomorrow'})).toThrow(/JOBAGENT_NOW must be an ISO 8601/)
  })
})

describe('a spawned jobagent on the test clock', () => {
  let home: ReturnType<typeof tempDir>
  beforeEach(() => {
    home = tempDir('jobagent-clock-')
  })
  afterEach(() => home.cleanup())

  it('derives follow-ups from JOBAGENT_NOW, not from the day the suite runs', async () => {
    await seedTracker(home.path, [
      {title: 'SRE', company: 'Globex', location: '', url: 'https://globex.example/jobs/9', source: 'manual'},
    ])
    const dayAfter = await runCli(['followups', '--json'], {home: home.path, env: DAY_AFTER_SEEDING})
    expect(dayAfter.code).toBe(0)
    expect(JSON.parse(dayAfter.stdout)).toMatchObject({count: 0})
    const monthAfter = await runCli(['followups', '--json'], {
      home: home.path,
      env: {[CLOCK_VARIABLE]: '2026-12-22T09:00:00'},
    })
    expect(JSON.parse(monthAfter.stdout)).toMatchObject({count: 1})
  })

  it('exits 2 with Error and Hint for a JOBAGENT_NOW that is no date-time', async () => {
    const result = await runCli(['status'], {home: home.path, env: {[CLOCK_VARIABLE]: 'soon'}})
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^Error: JOBAGENT_NOW must be an ISO 8601 date or date-time, got "soon"\nHint: /m)
  })
})
