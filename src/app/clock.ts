import {ConfigurationError} from '../core/errors.js'
import {type Clock, systemClock, toLocalTimestamp} from '../core/time.js'
import type {Env} from './config.js'

/**
 * The variable that sets the process's clock, for tests that spawn jobagent: `JOBAGENT_NOW=2026-11-22T05:17:33`
 * (local time) or with a zone (`...Z`, `+01:00`). The clock starts there and runs on from it at the real pace, so
 * durations and timeouts stay real. It exists for tests and demos alone; nothing else reads it.
 */
export const CLOCK_VARIABLE = 'JOBAGENT_NOW'

/** The clock of a process: the system's, or the one JOBAGENT_NOW starts; a value that is no date-time is refused. */
export function clockFromEnv(env: Env): Clock {
  const text = env[CLOCK_VARIABLE]?.trim()
  if (!text) return systemClock
  // A zoneless date-time is local time, as applied_date is; toLocalTimestamp reads every form jobagent accepts.
  const local = toLocalTimestamp(text)
  if (local === undefined) {
    throw new ConfigurationError(`${CLOCK_VARIABLE} must be an ISO 8601 date or date-time, got "${text}"`, {
      hint: `for example ${CLOCK_VARIABLE}=2026-11-22T09:30:00 (local time) or ${CLOCK_VARIABLE}=2026-11-22T08:30:00Z`,
    })
  }
  const start = new Date(local).getTime()
  const startedAt = performance.now()
  return {now: () => new Date(start + (performance.now() - startedAt))}
}
