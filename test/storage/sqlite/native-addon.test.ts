import {createHash} from 'node:crypto'
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterEach, describe, expect, it} from 'vitest'
import {UnavailableError} from '../../../src/core/errors.js'
import {loadCachedAddon} from '../../../src/storage/sqlite/native-addon.js'
import {tempDir} from '../../helpers/cli.js'

/**
 * The single executable's SQLite library cache, run in process with the library npm installed standing in for the
 * executable's asset: the real file is written, checked and loaded. The executable itself is tested in
 * test/e2e/single-binary.test.ts.
 */

const bytes = readFileSync(createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node'))
const sha256 = createHash('sha256').update(bytes).digest('hex')
const library = {name: 'better_sqlite3.node', sha256, dir: `0.0.0-${sha256.slice(0, 16)}`, bytes: () => bytes}

/** A group the test process is not in: nogroup. */
const OTHER_GROUP = 65534

const dirs: {cleanup: () => void}[] = []
const dlopen = process.dlopen
afterEach(() => {
  process.dlopen = dlopen
  for (const dir of dirs.splice(0)) dir.cleanup()
})
/** A cache root (the XDG_CACHE_HOME) of the user's, 0700, and jobagent's directory in it. */
function cacheRoot(): {root: string; cache: string; file: string} {
  const made = tempDir('jobagent-addon-')
  dirs.push(made)
  const cache = join(made.path, 'jobagent')
  return {root: made.path, cache, file: join(cache, library.dir, library.name)}
}

function works(addon: string | object): void {
  const db = new Database(':memory:', {nativeBinding: addon as string})
  expect(db.prepare('SELECT 40 + 2 AS answer').get()).toEqual({answer: 42})
  db.close()
}

function failure(action: () => unknown): UnavailableError {
  try {
    action()
  } catch (error) {
    expect(error).toBeInstanceOf(UnavailableError)
    return error as UnavailableError
  }
  throw new Error('expected a refusal')
}

describe('the SQLite library cache of the single executable', () => {
  // First in the file, so that no library has been loaded in this process yet: the system loads a name it has
  // loaded before without opening the file again.
  it('loads the bytes it checked even when another file is renamed over the checked one before the load', () => {
    const {root, cache, file} = cacheRoot()
    mkdirSync(join(cache, library.dir), {recursive: true, mode: 0o700})
    writeFileSync(file, bytes, {mode: 0o700})
    const impostor = join(root, 'impostor.node')
    // The other library of the attack would run its constructor; a file that is no library at all shows just as
    // well which file the system was given.
    writeFileSync(impostor, 'not a library', {mode: 0o700})
    process.dlopen = (...args: Parameters<typeof dlopen>) => {
      renameSync(impostor, file)
      dlopen(...args)
    }
    works(loadCachedAddon(library, cache))
    expect(readFileSync(file, 'utf8')).toBe('not a library')
    // The process maps the file that was checked, which the rename has since unlinked.
    expect(readFileSync('/proc/self/maps', 'utf8')).toContain(`${file} (deleted)`)
  })

  it('writes the library once into 0700 directories and loads it from there, as it is, the next time', () => {
    const {cache, file} = cacheRoot()
    works(loadCachedAddon(library, cache))
    expect(statSync(cache).mode & 0o777).toBe(0o700)
    expect(statSync(join(cache, library.dir)).mode & 0o777).toBe(0o700)
    const written = statSync(file)
    works(loadCachedAddon(library, cache))
    expect(statSync(file).ino).toBe(written.ino)
  })

  it('refuses a cache directory another group can write to, and writes nothing into it', () => {
    const {root, cache} = cacheRoot()
    mkdirSync(cache, {mode: 0o770})
    chmodSync(cache, 0o770)
    chownSync(cache, process.getuid?.() ?? 0, OTHER_GROUP)
    const refused = failure(() => loadCachedAddon(library, cache))
    expect(refused.message).toBe(
      `refusing the cache directory ${cache}: its group (gid ${OTHER_GROUP}) can write to it (mode 770), ` +
        'and could replace the SQLite library jobagent loads from it',
    )
    expect(refused.hint).toContain(`chmod go-w ${cache}`)
    expect(readdirSync(cache)).toEqual([])
    expect(readdirSync(root)).toEqual(['jobagent'])
  })

  it("accepts a directory only the user's own group can write to, as umask 002 leaves it", () => {
    const {cache, file} = cacheRoot()
    mkdirSync(cache, {mode: 0o775})
    chmodSync(cache, 0o775)
    works(loadCachedAddon(library, cache))
    expect(readFileSync(file).equals(bytes)).toBe(true)
  })

  it('replaces a library file that is a symbolic link, even to a good copy, with a file of its own', () => {
    const {root, cache, file} = cacheRoot()
    const elsewhere = join(root, 'good-copy.node')
    writeFileSync(elsewhere, bytes, {mode: 0o700})
    mkdirSync(join(cache, library.dir), {recursive: true, mode: 0o700})
    symlinkSync(elsewhere, file)
    works(loadCachedAddon(library, cache))
    expect(lstatSync(file).isFile()).toBe(true)
    expect(readFileSync(elsewhere).equals(bytes)).toBe(true)
  })
})
