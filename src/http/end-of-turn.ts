/**
 * Writes queued during one turn of the event loop, run together once the turn's I/O callbacks are done
 * (setImmediate runs right after the poll phase), in the order they were queued.
 *
 * Under load one turn reads many requests. Answering all of them first and then writing the answers back to back
 * lets a client process on this host (a reverse proxy, a load generator) be woken once per batch rather than once
 * per answer, and gives the next turn a fuller batch of requests: the pattern of servers such as Redis, which
 * write their replies just before the event loop waits again. Measured in docs/BENCHMARKS.md. A lone request
 * waits only for the end of its own turn, microseconds.
 *
 * A write that throws is reported to `onError` and does not keep the others from running.
 */
export function endOfTurnWriter(onError: (error: unknown) => void): (write: () => void) => void {
  let pending: (() => void)[] = []
  const flush = () => {
    const writes = pending
    pending = []
    for (const write of writes) {
      try {
        write()
      } catch (error) {
        onError(error)
      }
    }
  }
  return (write) => {
    if (pending.push(write) === 1) setImmediate(flush)
  }
}
