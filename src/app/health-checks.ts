import {isJobagentError, publicMessageOf} from '../core/errors.js'
import type {JobStore} from '../core/jobs/job-store.js'
import type {Logger} from '../core/logger.js'
import {type Clock, systemClock} from '../core/time.js'
import {type SqliteDatabase, writeRefusalOf} from '../storage/sqlite/database.js'

export type HealthStatus = 'pass' | 'warn' | 'fail'

/**
 * One check in the style of the IETF health check draft (draft-inadarei-api-health-check): `status`, what was
 * observed and when, and a human `output` when something is wrong. Extra keys are allowed by the draft.
 */
export interface HealthCheckResult {
  status: HealthStatus
  componentType?: 'datastore' | 'component' | 'system'
  observedValue?: number | string | null
  observedUnit?: string
  output?: string
  time: string
  [extra: string]: unknown
}

/**
 * Who asks: with an API token set, /health is open to anyone who reaches the port, and only a request with the
 * token may learn which boards the person searches (the companies they want to work for).
 */
export interface HealthView {
  names: boolean
}

/** A named check; the slices add theirs (their stores, ...) to the list the health route runs. */
export interface HealthCheck {
  /** The key under `checks`, e.g. `tracker_database`. */
  name: string
  /** A store a request needs: GET /health/ready runs it too, and answers 503 when it fails. */
  ready?: boolean
  run(view: HealthView): Promise<HealthCheckResult>
}

/** A run older than this is reported as a warning: cron has probably stopped calling `jobagent run`. */
const LAST_RUN_MAX_AGE_SECONDS = 48 * 3600

/**
 * What a failed check may say to anyone who can reach /health (open with a token): the kind of store and its
 * state, never a driver's message, a path or a host; `logger` gets the full reason.
 */
export function describeCheckFailure(name: string, error: unknown, logger: Logger): string {
  logger.warning(`health check ${name} failed: ${error instanceof Error ? error.message : String(error)}`)
  return isJobagentError(error) ? publicMessageOf(error) : 'check failed; see the server log'
}

/** A real read of the tracker file (not just `SELECT 1`), timed. */
export function trackerDatabaseCheck(
  database: () => SqliteDatabase,
  logger: Logger,
  clock: Clock = systemClock,
): HealthCheck {
  return {
    name: 'tracker_database',
    ready: true,
    async run() {
      const started = performance.now()
      try {
        const db = database()
        db.prepare('SELECT 1 FROM applications LIMIT 1').get()
        const latency = Math.round((performance.now() - started) * 1000) / 1000
        // Opened for reading on a full disk: reads are served, every change fails.
        const refusal = writeRefusalOf(db)
        return {
          status: refusal ? 'warn' : 'pass',
          ...(refusal ? {output: publicMessageOf(refusal)} : {}),
          componentType: 'datastore',
          observedValue: latency,
          observedUnit: 'ms',
          time: clock.now().toISOString(),
        }
      } catch (error) {
        return {
          status: 'fail',
          componentType: 'datastore',
          output: describeCheckFailure('tracker_database', error, logger),
          time: clock.now().toISOString(),
        }
      }
    },
  }
}

/** Age and result of the last `jobagent run`: warn when it failed, is older than 48 h, or never happened. */
export function lastRunCheck(jobs: Pick<JobStore, 'lastRun'>, clock: Clock = systemClock): HealthCheck {
  return {
    name: 'last_run',
    async run() {
      const now = clock.now()
      const run = await jobs.lastRun()
      if (!run) {
        return {status: 'warn', componentType: 'component', observedValue: null, output: 'no run yet', time: iso(now)}
      }
      // started_at is a local timestamp without a zone, which Date parses as local time.
      const age = Math.max(0, Math.round((now.getTime() - new Date(run.started_at).getTime()) / 1000))
      const problems = [
        // Its error may name files and URLs: GET /runs (behind the token) and the run log have it.
        run.status === 'failed' ? 'the last run failed' : '',
        run.status === 'interrupted' ? 'the last run was interrupted' : '',
        age > LAST_RUN_MAX_AGE_SECONDS ? `the last run is ${Math.floor(age / 3600)} h old` : '',
      ].filter(Boolean)
      return {
        status: problems.length > 0 ? 'warn' : 'pass',
        componentType: 'component',
        observedValue: age,
        observedUnit: 's',
        result: run.status,
        started_at: run.started_at,
        finished_at: run.finished_at,
        ...(problems.length > 0 ? {output: problems.join('; ')} : {}),
        time: iso(now),
      }
    },
  }
}

/**
 * The boards the last run reported dead (404 or no jobs for `run.dead_after_runs` runs in a row): a warning, since
 * the other boards still search. Names only, and only for a view that may see them (see HealthView); otherwise
 * their number: the run log and GET /runs have the rest.
 */
export function deadBoardsCheck(jobs: Pick<JobStore, 'lastRun'>, clock: Clock = systemClock): HealthCheck {
  return {
    name: 'dead_boards',
    async run(view) {
      const run = await jobs.lastRun()
      const dead = (run?.sources ?? []).filter((source) => source.anomaly?.code === 'dead').map(({name}) => name)
      const counted = `${dead.length} ${dead.length === 1 ? 'board gave' : 'boards gave'} no jobs or 404 for several runs in a row`
      const output = view.names
        ? `no jobs or 404 for several runs in a row; the board may be gone: ${dead.join(', ')}`
        : `${counted}; the board may be gone (GET /health with the API token names it, GET /runs says more)`
      return {
        status: dead.length > 0 ? 'warn' : 'pass',
        componentType: 'component',
        observedValue: dead.length,
        ...(view.names ? {sources: dead} : {}),
        ...(dead.length > 0 ? {output} : {}),
        time: iso(clock.now()),
      }
    },
  }
}

function iso(date: Date): string {
  return date.toISOString()
}
