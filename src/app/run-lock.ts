import {closeSync, openSync, readFileSync, unlinkSync, writeSync} from 'node:fs'
import {ConflictError} from '../core/errors.js'

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
 * A lock file holding the pid of the run that owns it, created with O_EXCL so two overlapping runs (cron and a
 * manual one) cannot both start. A lock left by a process that no longer exists is taken over.
 */
export function acquireRunLock(file: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600)
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return () => {
        try {
          unlinkSync(file)
        } catch {
          // Already gone: nothing to release.
        }
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = Number.parseInt(readFileSync(file, 'utf8'), 10)
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
        throw new ConflictError(`another jobagent run is in progress (pid ${owner})`, {
          hint: `wait for it to finish; if no run is active, remove ${file}`,
        })
      }
      unlinkSync(file)
    }
  }
  throw new ConflictError(`could not take the run lock ${file}`, {hint: 'try again'})
}
