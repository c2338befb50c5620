/**
 * better-sqlite3's compiled library in the single executable (`npm run package`): the executable carries it as an
 * asset, and the operating system loads a library only from a file. On first use it is written to a directory of
 * its own under the user's cache directory (`~/.cache/jobagent/<version>-<hash>/`, `XDG_CACHE_HOME` honoured when
 * it is absolute), named by jobagent's version and the library's hash so that two executables of different versions
 * never load each other's.
 *
 * Whoever can write to a directory on that path can replace the library, and a library runs code as the user who
 * loads it (root, say). So every directory from the cache root down must be the user's own and writable by nobody
 * else, or jobagent refuses it; the library file is opened without following a symbolic link, its owner, mode and
 * SHA-256 are checked on the open descriptor, and the system loads that same descriptor (`/proc/self/fd/<n>`): the
 * bytes loaded are the bytes checked, whatever is renamed over the path meanwhile. A damaged, altered or linked file
 * is written again.
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readFileSync,
  type Stats,
  statSync,
  unlinkSync,
} from 'node:fs'
import {homedir} from 'node:os'
import {dirname, isAbsolute, join} from 'node:path'
import {getAsset} from 'node:sea'
import envPaths from 'env-paths'
import {describeFileError, UnavailableError} from '../../core/errors.js'
import {ensurePrivateDirectory, writeFileDurably} from '../durable-file.js'

/** The asset describing the library, written by scripts/package.js beside the library's own asset. */
interface NativeAddonAsset {
  /** The library's asset name, also its file name in the cache. */
  name: string
  sha256: string
  /** The cache directory's name: `<version>-<first 16 hex digits of the hash>`. */
  dir: string
}

/** A library to load from the cache: its asset's description and, for writing it, its bytes. */
interface CachedLibrary extends NativeAddonAsset {
  bytes: () => Uint8Array
}

export const NATIVE_ADDON_ASSET = 'native-addon.json'

const GROUP_WRITABLE = 0o020
const OTHER_WRITABLE = 0o002
const XDG_HINT =
  'point XDG_CACHE_HOME at a directory you can write to (jobagent keeps the library in XDG_CACHE_HOME/jobagent)'

function sha256(bytes: Uint8Array): string {
  // Taken here rather than imported: only the executable checks a hash, so the npm install (which imports this
  // module too) never loads node:crypto for it.
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(bytes).digest('hex')
}

/**
 * jobagent's directory in the user's cache. The XDG Base Directory spec has a relative `XDG_CACHE_HOME` ignored
 * (it would name a different directory in every working directory), so that falls back to `~/.cache` too.
 */
function userCacheDirectory(): string {
  const xdg = process.env.XDG_CACHE_HOME
  const xdgPlatform = process.platform !== 'darwin' && process.platform !== 'win32'
  if (xdgPlatform && xdg && !isAbsolute(xdg)) return join(homedir(), '.cache', 'jobagent')
  return envPaths('jobagent', {suffix: ''}).cache
}

/** better-sqlite3's library of the executable, loaded from the cache: the exports better-sqlite3 takes as `nativeBinding`. */
export function loadNativeAddon(): object {
  const addon = JSON.parse(Buffer.from(getAsset(NATIVE_ADDON_ASSET)).toString('utf8')) as NativeAddonAsset
  return loadCachedAddon({...addon, bytes: () => new Uint8Array(getAsset(addon.name))}, userCacheDirectory())
}

/** Loads the library from `<cache>/<library.dir>/<library.name>`, written first when missing or not as built. */
export function loadCachedAddon(library: CachedLibrary, cache: string): object {
  const dir = join(cache, library.dir)
  for (const level of [dirname(cache), cache, dir]) ensureOwnDirectory(level)
  const file = join(dir, library.name)
  let fd = openChecked(file, library.sha256)
  if (fd === undefined) {
    const bytes = library.bytes()
    if (sha256(bytes) !== library.sha256) throw new Error(`the executable's ${library.name} does not match its hash`)
    cacheFailure(() => {
      // A symbolic link is not written through: the link itself goes.
      removeIfPresent(file)
      writeFileDurably(file, bytes, {mode: 0o700})
    })
    fd = openChecked(file, library.sha256)
    if (fd === undefined) {
      throw new UnavailableError(`SQLite's library in ${dir} changed while jobagent wrote it`, {
        hint: `check which other program writes to ${dir}, or ${XDG_HINT}`,
      })
    }
  }
  try {
    const module = {exports: {}}
    process.dlopen(module, loadablePath(fd, file))
    return module.exports
  } finally {
    closeSync(fd)
  }
}

/**
 * The path that loads exactly the open file: on Linux the descriptor's own entry in /proc. Without /proc (another
 * system, or a container without it) the file's path, which only the user can change, since every directory on it
 * from the cache root down was checked to admit nobody else.
 */
function loadablePath(fd: number, file: string): string {
  const own = `/proc/self/fd/${fd}`
  return process.platform === 'linux' && existsSync(own) ? own : file
}

/** The file open for reading when it is a regular file of the user's, writable by nobody else, with the hash; else undefined. */
function openChecked(file: string, expected: string): number | undefined {
  let fd: number
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // ELOOP (EMLINK on the BSDs) is a symbolic link, which O_NOFOLLOW refuses: written afresh like a missing file.
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'EMLINK') return undefined
    return cacheFailure(() => {
      throw describeFileError(error, file, 'read')
    })
  }
  try {
    const found = fstatSync(fd)
    if (found.isFile() && isOwnAndPrivate(found) && sha256(readFileSync(fd)) === expected) return fd
  } catch (error) {
    closeSync(fd)
    return cacheFailure(() => {
      throw describeFileError(error, file, 'read')
    })
  }
  closeSync(fd)
  return undefined
}

function isOwnAndPrivate(found: Stats): boolean {
  const uid = process.geteuid?.()
  // Windows has no owner ids nor these mode bits: its file ACLs are not read here.
  return uid === undefined || (found.uid === uid && !writableByOthers(found))
}

/**
 * Writable by another user: by everyone, or by a group that is not the user's own. A group-writable directory of
 * the user's own group is the norm where users have a private group and umask 002 (Ubuntu's `~/.cache` is 0775).
 */
function writableByOthers(found: Stats): boolean {
  if ((found.mode & OTHER_WRITABLE) !== 0) return true
  return (found.mode & GROUP_WRITABLE) !== 0 && found.gid !== process.getegid?.()
}

/** Creates the directory when missing (0700), then refuses it unless it is the user's and writable by nobody else. */
function ensureOwnDirectory(dir: string): void {
  const found = cacheFailure(() => {
    ensurePrivateDirectory(dir)
    return statSync(dir)
  })
  const uid = process.geteuid?.()
  if (uid === undefined) return
  if (found.uid !== uid) {
    throw new UnavailableError(
      `refusing the cache directory ${dir}: it belongs to another user (uid ${found.uid}; you are uid ${uid}), ` +
        'who could replace the SQLite library jobagent loads from it',
      {hint: 'point XDG_CACHE_HOME at a directory of your own that only you can write to (mkdir -m 700 <dir>)'},
    )
  }
  if (writableByOthers(found)) {
    const who = [
      found.mode & GROUP_WRITABLE && found.gid !== process.getegid?.() ? `its group (gid ${found.gid})` : '',
      found.mode & OTHER_WRITABLE ? 'other users' : '',
    ].filter(Boolean)
    throw new UnavailableError(
      `refusing the cache directory ${dir}: ${who.join(' and ')} can write to it (mode ${(found.mode & 0o7777).toString(8)}), ` +
        'and could replace the SQLite library jobagent loads from it',
      {
        hint: `remove their write permission (chmod go-w ${dir}), or point XDG_CACHE_HOME at a directory only you can write to`,
      },
    )
  }
}

function removeIfPresent(file: string): void {
  try {
    unlinkSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw describeFileError(error, file, 'replace')
  }
}

/** Runs `action`; a failure of the file system is told as the cache's, with where to point it instead. */
function cacheFailure<T>(action: () => T): T {
  try {
    return action()
  } catch (error) {
    if (!(error instanceof UnavailableError) && !(error as NodeJS.ErrnoException).code) throw error
    // The cache directory is not one of jobagent's data directories: JOBAGENT_HOME does not move it.
    throw new UnavailableError(`SQLite's library cannot be kept in the cache: ${(error as Error).message}`, {
      cause: error,
      hint: XDG_HINT,
    })
  }
}
