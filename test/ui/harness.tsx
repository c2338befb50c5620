import {render} from 'ink-testing-library'
import {AppContext} from '../../src/app/context.js'
import type {ApplicationStatus} from '../../src/core/applications/application.js'
import type {JobResponse} from '../../src/core/jobs/job.js'
import {recordRun} from '../../src/core/jobs/run-changes.js'
import {App} from '../../src/ui/components/app.js'
import {type DashboardServices, dashboardServices} from '../../src/ui/services.js'
import {tempDir} from '../helpers/cli.js'
import {closesNothing, foundJobs, noDetails} from '../helpers/job-details.js'

export const KEYS = {
  down: '\u001B[B',
  up: '\u001B[A',
  pageUp: '\u001B[5~',
  pageDown: '\u001B[6~',
  home: '\u001B[H',
  end: '\u001B[F',
  tab: '\t',
  enter: '\r',
  escape: '\u001B',
  backspace: '\u007F',
  ctrlC: '\u0003',
} as const

export function job(n: number, overrides: Partial<JobResponse> = {}): JobResponse {
  return {
    ...noDetails(),
    title: `Engineer ${n}`,
    company: `Company ${n}`,
    location: 'Remote',
    url: `https://board.example/jobs/${n}`,
    source: 'remoteok',
    posted_date: `2026-11-${String(1 + (n % 28)).padStart(2, '0')}T00:00:00Z`,
    ...overrides,
  }
}

/** Stores a successful run with these jobs, as `jobagent run` would. */
export async function saveRun(context: AppContext, jobs: readonly JobResponse[]) {
  const at = '2026-11-22T08:00:00.000'
  return recordRun(
    context.jobStore,
    {
      started_at: at,
      finished_at: at,
      status: 'ok',
      mode: 'production',
      jobs_found: jobs.length,
      new_jobs: jobs.length,
      notified: 0,
      sources: [],
      error: null,
    },
    {...closesNothing, found: foundJobs(jobs)},
  )
}

export interface Home {
  path: string
  context: AppContext
  cleanup: () => Promise<void>
}

/**
 * A real AppContext on SQLite files in a fresh JOBAGENT_HOME; no board is searched unless `overrides` names one.
 * `env` adds variables, such as JOBAGENT_NOW for its clock.
 */
export function tempHome(overrides: Record<string, unknown> = {}, env: Record<string, string> = {}): Home {
  const dir = tempDir('jobagent-ui-')
  const context = new AppContext({env: {...env, JOBAGENT_HOME: dir.path}, overrides: {sources: [], ...overrides}})
  return {
    path: dir.path,
    context,
    cleanup: async () => {
      await context.close()
      dir.cleanup()
    },
  }
}

export async function track(context: AppContext, found: JobResponse, status: ApplicationStatus, notes = '') {
  return context.applications.record({...found, status, notes})
}

export async function waitFor(check: () => boolean, what: () => string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what()}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** The dashboard on ink-testing-library's fake terminal (100 columns), over the real services of `context`. */
export function renderDashboard(
  context: AppContext,
  options: {env?: NodeJS.ProcessEnv; wrap?: (services: DashboardServices) => DashboardServices} = {},
) {
  const real = dashboardServices(context, {env: options.env ?? {PATH: ''}})
  const services = options.wrap ? options.wrap(real) : real
  const instance = render(<App services={services} colour={false} />)
  const frame = () => instance.lastFrame() ?? ''
  const until = (text: string | RegExp, timeoutMs?: number) =>
    waitFor(
      () => (typeof text === 'string' ? frame().includes(text) : text.test(frame())),
      () => `${String(text)} in frame:\n${frame()}`,
      timeoutMs,
    )
  return {
    ...instance,
    frame,
    until,
    /** Waits until `text` is gone from the frame. */
    gone: (text: string) =>
      waitFor(
        () => !frame().includes(text),
        () => `"${text}" to go from:\n${frame()}`,
      ),
    press: (...keys: string[]) => {
      for (const key of keys) instance.stdin.write(key)
    },
    /** Makes the fake terminal this size and tells the dashboard, as a real terminal does on resize. */
    resize: (columns: number, rows: number) => {
      Object.defineProperty(instance.stdout, 'columns', {value: columns, configurable: true})
      Object.defineProperty(instance.stdout, 'rows', {value: rows, configurable: true})
      instance.stdout.emit('resize')
    },
    /** Ink stops reading keys once the app has exited. */
    exited: () => instance.stdin.listenerCount('readable') === 0,
    /** The line of the selected row. */
    selected: () =>
      frame()
        .split('\n')
        .find((line) => line.startsWith('›')) ?? '',
  }
}
