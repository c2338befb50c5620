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

/**
 * A lock file holding the pid of the run that owns it, created only if it does not exist so two overlapping runs
 * (cron and a manual one) cannot both start, and only ever seen complete (a half-written pid could name another
 * live process). A lock left by a process that no longer exists is taken over.
 */
export function acquireRunLock(file: string): () => void {
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
        throw new ConflictError(`another jobagent run is in progress (pid ${owner})`, {
          hint: `wait for it to finish; if no run is active, remove ${file}`,
        })
      }
      removeStaleLock(file)
    }
  }
  throw new ConflictError(`could not take the run lock ${file}`, {hint: 'try again'})
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
