import {join} from 'node:path'
import {MONITOR_LOG_BYTES, noRunMonitor, type RunMonitor} from '../core/jobs/run-monitor.js'
import {formatLogLine, LogRecorder} from '../core/logger.js'
import {notifyFloor} from '../core/notifications/notify-floor.js'
import {AgentRun, type RunOptions, type RunSummary} from '../core/run/agent-run.js'
import {ensurePrivateDirectory} from '../storage/durable-file.js'
import type {AppContext} from './context.js'
import {catchInterrupts} from './interrupts.js'
import {acquireRunLock} from './run-lock.js'
import {criteriaFrom, matchingFrom} from './shared-search.js'
import {USER_AGENT, VERSION} from './version.js'

/**
 * Runs the agent under the run lock so overlapping runs (cron and a manual one) never both run, in a data dir
 * created on first need, watched by the dead-man's switch when one is configured. Ctrl-C or SIGTERM stops the run
 * at its next step: it is recorded as interrupted and the lock removed (a second signal exits at once).
 */
export async function runAgent(
  context: AppContext,
  options: Omit<RunOptions, 'version' | 'mode' | 'criteria' | 'proxyConfigured'> & {tags?: string[]},
): Promise<RunSummary> {
  const recorder = new LogRecorder(MONITOR_LOG_BYTES)
  const logger = recorder.wrap(context.logger)
  // The recorder keeps the messages as they were logged; the monitoring service gets them with the secrets masked.
  const log = () => context.secrets.mask(recorder.text())
  const monitor = await openRunMonitor(context)
  await monitor.started()
  let summary: RunSummary
  try {
    ensurePrivateDirectory(context.paths.dataDir)
    const release = acquireRunLock(join(context.paths.dataDir, 'run.lock'))
    const interrupts = catchInterrupts(release)
    try {
      const run = new AgentRun({
        applications: context.applicationStore,
        jobs: context.jobStore,
        termsCache: context.termsCache,
        search: await context.openJobSearch(),
        notifications: await context.openDigestSender(),
        followUps: context.followUps,
        verdicts: context.verdictStore,
        clock: context.clock,
        logger,
      })
      const {tags, signal, ...rest} = options
      summary = await run.run({
        ...rest,
        signal: signal ? AbortSignal.any([signal, interrupts.signal]) : interrupts.signal,
        version: VERSION,
        mode: context.config.mode,
        criteria: criteriaFrom(context.config.search, {tags}),
        matching: {matching: matchingFrom(context.config), minScore: notifyFloor(context.config.notify)},
        closedAfterRuns: context.config.run.closed_after_runs,
        deadAfterRuns: context.config.run.dead_after_runs,
        proxyConfigured: PROXY_VARIABLES.some((name) => Boolean(context.env[name])),
      })
    } finally {
      interrupts.dispose()
      release()
    }
  } catch (error) {
    // The command reports the error itself; the monitor gets it as the log's last line.
    recorder.add(formatLogLine('ERROR', `${context.logger.name}.run`, `Run failed: ${(error as Error).message}`))
    await monitor.failed(log())
    throw error
  }
  await (summary.exit_code === 0 ? monitor.succeeded(log()) : monitor.failed(log()))
  return summary
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']

async function openRunMonitor(context: AppContext): Promise<RunMonitor> {
  const url = context.config.run.healthcheck_url
  if (!url) return noRunMonitor
  const {healthcheckMonitor} = await import('../notifiers/healthcheck.js')
  return healthcheckMonitor(url, {
    logger: context.logger.child('healthcheck'),
    userAgent: USER_AGENT,
    secrets: context.secrets,
  })
}
