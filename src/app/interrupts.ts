/** The signals that stop a run, and the exit status a shell gives a process they end (128 + the signal's number). */
const STOP_SIGNALS = {SIGINT: 130, SIGTERM: 143} as const

type StopSignal = keyof typeof STOP_SIGNALS

/**
 * Turns Ctrl-C (SIGINT) and SIGTERM into an abort of `signal`, whose reason is the signal's name, so the work stops
 * at its next step and records itself as interrupted. A second signal means "now": `forceStop` runs (what must
 * not be left behind, such as the run lock) and the process exits with the signal's conventional status.
 */
export function catchInterrupts(forceStop: () => void): {signal: AbortSignal; dispose: () => void} {
  const controller = new AbortController()
  const onSignal = (name: StopSignal) => {
    if (!controller.signal.aborted) {
      controller.abort(name)
      return
    }
    forceStop()
    process.exit(STOP_SIGNALS[name])
  }
  for (const name of Object.keys(STOP_SIGNALS) as StopSignal[]) process.on(name, onSignal)
  return {
    signal: controller.signal,
    dispose: () => {
      for (const name of Object.keys(STOP_SIGNALS) as StopSignal[]) process.off(name, onSignal)
    },
  }
}
