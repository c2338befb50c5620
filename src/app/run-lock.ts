import {readFileSync, unlinkSync} from 'node:fs'
import {ConflictError, describeFileError} from '../core/errors.js'
import {createFileDurably} from '../storage/durable-file.js'

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** What holds a lock: a run (`run.lock`) or a sweep (`sweep.lock`); the refusal names it and how to go on. */
type LockHolder = 'run' | 'sweep'

const WAIT_HINT: Record<LockHolder, (pid: number, file: string) => string> = {
  run: (_pid, file) => `wait for it to finish; if no run is active, remove ${file}`,
  sweep: (pid, file) =>
    `wait for it to finish, or stop it (Ctrl-C in its terminal, or kill ${pid}) and continue it later with: jobagent sweep; if no sweep is active, remove ${file}`,
}

/**
 * A lock file holding the pid of the run (or sweep) that owns it, created only if it does not exist so two
 * overlapping runs (cron and a manual one) cannot both start, and only ever seen complete (a half-written pid could
 * name another live process). A lock left by a process that no longer exists is taken over.
 */
export function acquireRunLock(file: string, holder: LockHolder = 'run'): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      createFileDurably(file, String(process.pid))
      return () => {
        try {
          unlinkSync(file)
        } catch {
          // Already gone (or its directory became unusable): the next run judges the pid it holds.
        }
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = Number.parseInt(readLock(file), 10)
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
        throw new ConflictError(`another jobagent ${holder} is in progress (pid ${owner})`, {
          hint: WAIT_HINT[holder](owner, file),
        })
      }
      removeStaleLock(file)
    }
  }
  throw new ConflictError(`could not take the ${holder} lock ${file}`, {hint: 'try again'})
}

function readLock(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    // Removed by its owner in the meantime: try again.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ''
    throw describeFileError(error, file, 'read the run lock')
  }
}

function removeStaleLock(file: string): void {
  try {
    unlinkSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw describeFileError(error, file, 'remove the stale run lock')
  }
}
