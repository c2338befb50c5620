/**
 * A reader that stops reading (`jobagent run --demo | head -1`, a pager quit early) closes the pipe, and every
 * later write to it fails. The command still finishes what it does: a run stores its jobs and sends its
 * notifications, the demo removes its directory, and the exit code says how the work went, not whether anyone
 * read all of it. Without this, the first failed write ended the process at once with exit 1.
 */
export function outliveClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (!stream.listeners('error').includes(ignoreClosedPipe)) stream.on('error', ignoreClosedPipe)
  }
}

const CLOSED = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END'])

function ignoreClosedPipe(error: NodeJS.ErrnoException): void {
  if (!CLOSED.has(error.code ?? '')) throw error
}
