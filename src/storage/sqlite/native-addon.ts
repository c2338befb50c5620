/**
 * better-sqlite3's compiled library in the single executable (`npm run package`): the executable carries it as an
 * asset, and the operating system loads a library only from a file. On first use it is written to a directory of
 * its own under the user's cache directory (`~/.cache/jobagent/<version>-<hash>/`, `XDG_CACHE_HOME` honoured),
 * named by jobagent's version and the library's hash so that two executables of different versions never load
 * each other's. The file is checked against the hash the executable was built with every time before it is loaded:
 * a damaged or altered one is written again.
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {getAsset} from 'node:sea'
import envPaths from 'env-paths'
import {UnavailableError} from '../../core/errors.js'
import {ensurePrivateDirectory, writeFileDurably} from '../durable-file.js'

/** The asset describing the library, written by scripts/package.js beside the library's own asset. */
interface NativeAddonAsset {
  /** The library's asset name, also its file name in the cache. */
  name: string
  sha256: string
  /** The cache directory's name: `<version>-<first 16 hex digits of the hash>`. */
  dir: string
}

export const NATIVE_ADDON_ASSET = 'native-addon.json'

function sha256(bytes: Uint8Array): string {
  // Taken here rather than imported: only the executable checks a hash, and loading node:crypto cost every start
  // of the npm install (which imports this module too) about 2 ms.
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(bytes).digest('hex')
}

function readQuietly(file: string): Buffer | undefined {
  try {
    return readFileSync(file)
  } catch {
    return undefined
  }
}

/** The cached library's path, written first when it is missing or does not match its hash. */
export function extractNativeAddon(cacheRoot: string = envPaths('jobagent', {suffix: ''}).cache): string {
  const addon = JSON.parse(Buffer.from(getAsset(NATIVE_ADDON_ASSET)).toString('utf8')) as NativeAddonAsset
  const dir = join(cacheRoot, addon.dir)
  const file = join(dir, addon.name)
  const cached = readQuietly(file)
  if (cached && sha256(cached) === addon.sha256) return file
  const bytes = new Uint8Array(getAsset(addon.name))
  if (sha256(bytes) !== addon.sha256) throw new Error(`the executable's ${addon.name} does not match its hash`)
  try {
    ensurePrivateDirectory(dir)
    writeFileDurably(file, bytes, {mode: 0o700})
  } catch (error) {
    // The cache directory is not one of jobagent's data directories: JOBAGENT_HOME does not move it.
    throw new UnavailableError(`SQLite's library could not be written to the cache: ${(error as Error).message}`, {
      cause: error,
      hint: 'point XDG_CACHE_HOME at a directory you can write to (jobagent keeps the library in XDG_CACHE_HOME/jobagent)',
    })
  }
  return file
}
