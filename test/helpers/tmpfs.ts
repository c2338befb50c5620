import {execFileSync} from 'node:child_process'
import {closeSync, fstatSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

export interface SmallFilesystem {
  path: string
  /** Fills the file system with one file until a write fails, then frees `leaveBytes` of it again. */
  fill: (leaveBytes?: number) => void
  /** Removes what `fill` wrote. */
  free: () => void
  remountReadOnly: () => void
  unmount: () => void
}

function mount(sizeKiB: number): SmallFilesystem {
  const path = mkdtempSync(join(tmpdir(), 'jobagent-tmpfs-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k,mode=0755`, 'tmpfs', path], {stdio: 'pipe'})
  } catch (error) {
    rmSync(path, {recursive: true, force: true})
    throw error
  }
  return {
    path,
    fill(leaveBytes = 0) {
      const fd = openSync(join(path, 'filler'), 'w')
      for (const size of [65_536, 4096, 1]) {
        const chunk = Buffer.alloc(size, 120)
        try {
          for (;;) writeSync(fd, chunk)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
        }
      }
      if (leaveBytes > 0) ftruncateSync(fd, fstatSync(fd).size - leaveBytes)
      closeSync(fd)
    },
    free() {
      rmSync(join(path, 'filler'), {force: true})
    },
    remountReadOnly() {
      execFileSync('mount', ['-o', 'remount,ro', path], {stdio: 'pipe'})
    },
    unmount() {
      execFileSync('umount', [path], {stdio: 'pipe'})
      rmSync(path, {recursive: true, force: true})
    },
  }
}

/**
 * Why a test cannot mount a small tmpfs here (not root, no mount permission in a container), or undefined when it
 * can: probed once, so the tests that need one are skipped with the reason printed instead of failing.
 */
export const tmpfsUnavailable: string | undefined = (() => {
  if (process.platform !== 'linux') return `tmpfs needs Linux (this is ${process.platform})`
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root'
  try {
    mount(64).unmount()
    return undefined
  } catch (error) {
    return `mount -t tmpfs failed: ${String((error as {stderr?: Buffer}).stderr ?? error).trim()}`
  }
})()

if (tmpfsUnavailable) console.warn(`Skipping the tests on a small real file system: ${tmpfsUnavailable}`)

/** A tmpfs of `sizeKiB` mounted for one test; the caller unmounts it. */
export function mountSmallFilesystem(sizeKiB: number): SmallFilesystem {
  return mount(sizeKiB)
}
