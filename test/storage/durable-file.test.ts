import {
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {UnavailableError} from '../../src/core/errors.js'
import {
  createFileDurably,
  ensurePrivateDirectory,
  ensurePrivateFile,
  type WriteCall,
  writeFileDurably,
} from '../../src/storage/durable-file.js'
import {tempDir} from '../helpers/cli.js'
import {mountSmallFilesystem, tmpfsUnavailable} from '../helpers/tmpfs.js'

const dirs: {cleanup: () => void}[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.cleanup()
})
function dir(): string {
  const made = tempDir('jobagent-durable-')
  dirs.push(made)
  return made.path
}

const CONTENT = `title,company\n${'Engineer,Acme\n'.repeat(5000)}`
const OLD = 'the earlier file\n'

/** What a nearly full disk does: each write(2) takes at most `max` bytes of what it is given, on the real file. */
function shortWrites(max: number, calls: number[] = []): WriteCall {
  return (fd, buffer, offset, length) => {
    calls.push(length)
    return writeSync(fd, buffer, offset, Math.min(length, max))
  }
}

/** The directory holds only the target: no temporary file was left behind. */
function onlyTarget(path: string): void {
  expect(readdirSync(join(path, '..'))).toEqual([path.split('/').pop()])
}

describe('writeFileDurably', () => {
  it('replaces the file with the complete content, keeping its mode, and leaves no temporary file', () => {
    const path = join(dir(), 'out.csv')
    writeFileSync(path, OLD, {mode: 0o644})
    writeFileDurably(path, CONTENT)
    expect(readFileSync(path, 'utf8')).toBe(CONTENT)
    expect(statSync(path).mode & 0o777).toBe(0o644)
    onlyTarget(path)
  })

  it('creates a new file 0600', () => {
    const path = join(dir(), 'new.csv')
    writeFileDurably(path, CONTENT)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    onlyTarget(path)
  })

  it('goes on after short writes until every byte is in the file', () => {
    const path = join(dir(), 'out.csv')
    const calls: number[] = []
    writeFileDurably(path, CONTENT, {write: shortWrites(4096, calls)})
    expect(readFileSync(path, 'utf8')).toBe(CONTENT)
    expect(calls.length).toBe(Math.ceil(Buffer.byteLength(CONTENT) / 4096))
    onlyTarget(path)
  })

  it('a write that takes nothing (no room left) fails with "disk full" and keeps the earlier file byte for byte', () => {
    const path = join(dir(), 'out.csv')
    writeFileSync(path, OLD)
    let taken = 0
    const fillsUp: WriteCall = (fd, buffer, offset, length) => {
      const room = Math.max(0, 10_000 - taken)
      const written = room === 0 ? 0 : writeSync(fd, buffer, offset, Math.min(length, room))
      taken += written
      return written
    }
    expect(() => writeFileDurably(path, CONTENT, {write: fillsUp})).toThrow(`disk full: ${path} was not changed`)
    expect(readFileSync(path, 'utf8')).toBe(OLD)
    onlyTarget(path)
  })

  it('ENOSPC from the disk: "disk full: <path> was not changed", exit-1 kind, a hint, the earlier file intact', () => {
    const path = join(dir(), 'config.json')
    writeFileSync(path, OLD)
    let calls = 0
    const full: WriteCall = (fd, buffer, offset, length) => {
      if (++calls > 1) throw Object.assign(new Error('ENOSPC: no space left on device, write'), {code: 'ENOSPC'})
      return writeSync(fd, buffer, offset, Math.min(length, 100))
    }
    let error: unknown
    try {
      writeFileDurably(path, CONTENT, {write: full})
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(UnavailableError)
    expect((error as UnavailableError).message).toBe(`disk full: ${path} was not changed`)
    expect((error as UnavailableError).hint).toContain('free some space')
    expect(readFileSync(path, 'utf8')).toBe(OLD)
    onlyTarget(path)
  })

  it('a write that reports more than reached the file is caught by the size check before the rename', () => {
    const path = join(dir(), 'out.csv')
    writeFileSync(path, OLD)
    const lying: WriteCall = (fd, buffer, offset, length) => {
      writeSync(fd, buffer, offset, Math.min(length, 10))
      return length
    }
    expect(() => writeFileDurably(path, CONTENT, {write: lying})).toThrow(`input/output error: ${path} was not changed`)
    expect(readFileSync(path, 'utf8')).toBe(OLD)
    onlyTarget(path)
  })

  it('refuses a symbolic link at the target by default, and replaces the file it points at with links: follow', () => {
    const base = dir()
    const real = join(base, 'real.json')
    const link = join(base, 'link.json')
    writeFileSync(real, OLD)
    symlinkSync(real, link)
    expect(() => writeFileDurably(link, CONTENT)).toThrow(`cannot write ${link}: it is a symbolic link`)
    expect(readFileSync(real, 'utf8')).toBe(OLD)
    writeFileDurably(link, CONTENT, {links: 'follow'})
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readlinkSync(link)).toBe(real)
    expect(readFileSync(real, 'utf8')).toBe(CONTENT)
  })

  it('names a missing directory and a directory at the target', () => {
    const base = dir()
    expect(() => writeFileDurably(join(base, 'nope', 'out.csv'), CONTENT)).toThrow(
      `cannot write ${join(base, 'nope', 'out.csv')}: no such file or directory`,
    )
    expect(() => writeFileDurably(base, CONTENT)).toThrow(`cannot write ${base}: it is a directory`)
  })
})

describe('createFileDurably', () => {
  it('creates the file complete, once: a second creation fails with EEXIST and changes nothing', () => {
    const path = join(dir(), 'run.lock')
    createFileDurably(path, '12345', {write: shortWrites(2)})
    expect(readFileSync(path, 'utf8')).toBe('12345')
    expect(() => createFileDurably(path, '999')).toThrow(expect.objectContaining({code: 'EEXIST'}))
    expect(readFileSync(path, 'utf8')).toBe('12345')
    onlyTarget(path)
  })

  it('on a full disk leaves no file at the path, so no half-written lock can be read', () => {
    const path = join(dir(), 'run.lock')
    const full: WriteCall = () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), {code: 'ENOSPC'})
    }
    expect(() => createFileDurably(path, '12345', {write: full})).toThrow(`cannot create ${path}: disk full`)
    expect(readdirSync(join(path, '..'))).toEqual([])
  })
})

describe('private directories and files', () => {
  it('creates missing directories 0700 and empty files 0600, and leaves existing ones as they are', () => {
    const base = dir()
    const nested = join(base, 'a', 'b')
    ensurePrivateDirectory(nested)
    expect(statSync(join(base, 'a')).mode & 0o777).toBe(0o700)
    expect(statSync(nested).mode & 0o777).toBe(0o700)
    const file = join(nested, 'jobagent.db')
    ensurePrivateFile(file)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    writeFileSync(file, 'data')
    ensurePrivateFile(file)
    expect(readFileSync(file, 'utf8')).toBe('data')
    expect(existsSync(file)).toBe(true)
  })

  it.skipIf(tmpfsUnavailable !== undefined)(
    'says a directory cannot be created on a read-only file system, not that there is no such file',
    () => {
      const disk = mountSmallFilesystem(64)
      try {
        disk.remountReadOnly()
        for (const nested of [join(disk.path, 'a'), join(disk.path, 'a', 'b')]) {
          expect(() => ensurePrivateDirectory(nested)).toThrow(
            `cannot create the directory ${nested}: read-only file system`,
          )
        }
      } finally {
        disk.unmount()
      }
    },
  )
})
