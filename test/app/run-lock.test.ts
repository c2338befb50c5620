import {spawn} from 'node:child_process'
import {existsSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {acquireRunLock} from '../../src/app/run-lock.js'
import {ConflictError} from '../../src/core/errors.js'
import {tempDir} from '../helpers/cli.js'

describe('run lock', () => {
  const dirs: {cleanup: () => void}[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) dir.cleanup()
  })
  const lockFile = () => {
    const dir = tempDir()
    dirs.push(dir)
    return join(dir.path, 'run.lock')
  }

  it('refuses a second run while the first holds the lock, and frees it on release', () => {
    const file = lockFile()
    const release = acquireRunLock(file)
    expect(() => acquireRunLock(file)).toThrow(ConflictError)
    expect(() => acquireRunLock(file)).toThrow(/another jobagent run is in progress \(pid \d+\)/)
    release()
    expect(existsSync(file)).toBe(false)
    acquireRunLock(file)()
  })

  it('takes over a lock left by a process that no longer exists', async () => {
    const file = lockFile()
    const child = spawn(process.execPath, ['-e', '0'])
    const pid = child.pid
    await new Promise((resolve) => child.on('exit', resolve))
    writeFileSync(file, String(pid))
    const release = acquireRunLock(file)
    release()
  })
})
