/**
 * A dead-man's switch watching the runs from outside (healthchecks.io and compatible services): told when a run
 * starts and how it ended, it alerts the user when a run fails or does not happen at all. A ping never changes
 * the run's outcome: implementations report their own failures as warnings and resolve.
 */
export interface RunMonitor {
  started(): Promise<void>
  /** The run completed (exit 0); `log` is its last log lines. */
  succeeded(log: string): Promise<void>
  /** The run failed (exit 1); `log` is its last log lines. */
  failed(log: string): Promise<void>
}

export const noRunMonitor: RunMonitor = {
  started: async () => {},
  succeeded: async () => {},
  failed: async () => {},
}

/** The most of the log sent with a ping; healthchecks.io keeps the first 10 KB of a body. */
export const MONITOR_LOG_BYTES = 10_240
