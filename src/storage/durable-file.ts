import {
  closeSync,
  existsSync,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import {basename, dirname, join} from 'node:path'
import {describeFileError, UnavailableError} from '../core/errors.js'

/**
 * Every file jobagent writes (CSV exports, the config file, the run lock) goes through this module, and every
 * directory it creates for its data or config. It is written here rather than taken from a library because the
 * maintained ones (write-file-atomic, atomically) issue one write(2) and ignore a short count:
 * on a nearly full disk they rename a truncated file over the previous one and report success. None of them
 * verifies the size or fsyncs the directory after the rename either.
 */

/** The one write call, a parameter so tests can make it write less than asked, as a nearly full disk does. */
export type WriteCall = (fd: number, buffer: Uint8Array, offset: number, length: number) => number

interface DurableWriteOptions {
  /** Mode of a file this creates (default 0600: exports and config may hold personal data and secrets). */
  mode?: number
  /**
   * `refuse` (default): a symbolic link at the target is an error, so a planted link cannot redirect the write.
   * `follow`: the file the link points at is replaced, the link kept (a config file kept in a dotfiles repo).
   */
  links?: 'refuse' | 'follow'
  write?: WriteCall
}

/** The mode of the directories jobagent creates for its data and config: readable by the user only. */
const PRIVATE_DIR_MODE = 0o700
const PRIVATE_FILE_MODE = 0o600

let sequence = 0

/**
 * Replaces `path` with `content`, keeping the mode and owner of the file it replaces: all bytes go to a temporary
 * file beside it (written in a loop until every byte is taken), which is fsynced and checked for its size before it
 * is renamed over the target; the directory is fsynced after the rename so the new name survives a power cut. On any failure the temporary file is removed and the
 * target is exactly as before; the error names the target (`disk full: <path> was not changed`).
 */
export function writeFileDurably(path: string, content: string | Uint8Array, options: DurableWriteOptions = {}): void {
  const target = resolveTarget(path, options.links ?? 'refuse')
  const temp = writeTemp(target, content, options, 'write', existing(target))
  try {
    renameSync(temp, target)
  } catch (error) {
    removeQuietly(temp)
    throw describeFileError(error, path)
  }
  syncDirectory(target)
}

/**
 * Creates `path` with `content` only if it does not exist yet (a lock file): the content is made complete and
 * durable under a temporary name first and then hard-linked to `path`, which fails if `path` exists. Another
 * process never sees the file empty or half written. Throws the EEXIST error as it is for the caller to judge.
 */
export function createFileDurably(path: string, content: string | Uint8Array, options: DurableWriteOptions = {}): void {
  const temp = writeTemp(path, content, options, 'create')
  try {
    linkSync(temp, path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw error
    throw describeFileError(error, path, 'create')
  } finally {
    removeQuietly(temp)
  }
  syncDirectory(path)
}

/**
 * Creates the directory (and missing parents) readable by the user only. Every creator of the data and config
 * directories calls this, so they agree on the mode; an existing directory is left as it is.
 */
export function ensurePrivateDirectory(dir: string): void {
  try {
    mkdirSync(dir, {recursive: true, mode: PRIVATE_DIR_MODE})
  } catch (error) {
    const reason = whyNotCreated(error, dir)
    if (reason !== undefined) throw describeFileError(reason, dir, 'create the directory')
  }
}

/**
 * Node's recursive mkdir reports ENOENT whatever kept it from creating a directory (a read-only file system, a
 * parent the user cannot write): the first missing directory, created alone, gives the real reason. When that works
 * after all (the parent appeared meanwhile), the rest is created again and there is nothing to report.
 */
function whyNotCreated(error: unknown, dir: string): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return error
  let missing = dir
  while (dirname(missing) !== missing && !existsSync(dirname(missing))) missing = dirname(missing)
  try {
    mkdirSync(missing, {mode: PRIVATE_DIR_MODE})
    mkdirSync(dir, {recursive: true, mode: PRIVATE_DIR_MODE})
  } catch (reason) {
    return reason
  }
  return undefined
}

/**
 * Creates an empty file with mode 0600 unless it exists, for files another library fills (SQLite databases, whose
 * -wal and -shm files SQLite creates with the database's mode). An existing file is left as it is.
 */
export function ensurePrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', PRIVATE_FILE_MODE))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return
    throw describeFileError(error, path, 'create')
  }
}

function resolveTarget(path: string, links: 'refuse' | 'follow'): string {
  let found: Stats
  try {
    found = lstatSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return path
    throw describeFileError(error, path)
  }
  if (found.isSymbolicLink()) {
    if (links === 'follow') return resolveTarget(realTarget(path), 'refuse')
    throw new UnavailableError(`cannot write ${path}: it is a symbolic link; refusing to write through it`, {
      hint: 'remove the link or write to another path',
    })
  }
  if (found.isDirectory()) throw describeFileError(Object.assign(new Error('directory'), {code: 'EISDIR'}), path)
  return path
}

/** The file being replaced, whose mode and owner the new one keeps; undefined when there is none. */
function existing(path: string): Stats | undefined {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

/**
 * Gives the new file the mode and owner of the one it replaces (a config file the user made 0644, or one owned by
 * another account that root edits): the rename would otherwise put the temporary file's 0600 and the writer's
 * owner in their place. The owner changes only where chown is allowed (root, or the file's own owner); a group
 * the owner is not in stays the writer's.
 */
function keepModeAndOwner(fd: number, like: Stats): void {
  fchmodSync(fd, like.mode & 0o7777)
  const uid = process.getuid?.()
  if (uid === undefined || (uid !== 0 && uid !== like.uid)) return
  try {
    fchownSync(fd, like.uid, like.gid)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error
  }
}

/** The file a link points at, also when that file does not exist yet (a dangling link is written through). */
function realTarget(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return join(realpathSync(dirname(path)), basename(path))
  }
}

function writeTemp(
  target: string,
  content: string | Uint8Array,
  options: DurableWriteOptions,
  action = 'write',
  like?: Stats,
): string {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content
  const write: WriteCall = options.write ?? writeSync
  const temp = `${target}.${process.pid}.${++sequence}.tmp`
  let fd: number
  try {
    fd = openSync(temp, 'wx', options.mode ?? PRIVATE_FILE_MODE)
  } catch (error) {
    throw describeFileError(error, target, action)
  }
  let open = true
  try {
    if (like) keepModeAndOwner(fd, like)
    let offset = 0
    while (offset < bytes.length) {
      const written = write(fd, bytes, offset, bytes.length - offset)
      // A regular file takes at least one byte or fails; no progress at all means there is no room left.
      if (written <= 0) throw systemError('ENOSPC', `write took 0 of ${bytes.length - offset} bytes`)
      offset += written
    }
    fsyncSync(fd)
    const size = fstatSync(fd).size
    if (size !== bytes.length) throw systemError('EIO', `${size} of ${bytes.length} bytes reached the file`)
    open = false
    closeSync(fd)
  } catch (error) {
    if (open) closeQuietly(fd)
    removeQuietly(temp)
    throw describeFileError(error, target, action)
  }
  return temp
}

/** Makes the rename itself durable. File systems that cannot fsync a directory say so with EINVAL: nothing to do. */
function syncDirectory(path: string): void {
  let fd: number | undefined
  try {
    fd = openSync(dirname(path), 'r')
    fsyncSync(fd)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EISDIR') {
      throw new UnavailableError(`${path} was written, but its directory could not be synced: ${code ?? error}`, {
        cause: error,
        hint: 'the disk or file system reported a fault; check it before relying on the file',
      })
    }
  } finally {
    if (fd !== undefined) closeQuietly(fd)
  }
}

function systemError(code: string, message: string): Error {
  return Object.assign(new Error(`${code}: ${message}`), {code})
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd)
  } catch {
    // Already closed, or the close failed after the error being reported: that error is the one that matters.
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file)
  } catch {
    // Gone already; a leftover temporary file never sits at the target path.
  }
}
