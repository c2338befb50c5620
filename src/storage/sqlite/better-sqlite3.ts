/**
 * The one place jobagent's SQLite stores import better-sqlite3 from. The build replaces the compiled file with a
 * single-file bundle of the driver's JavaScript (scripts/bundle-modules.js), and `DriverConnection` loads the compiled
 * SQLite library by its path in the package instead of through the `bindings` package, which looks for it in a
 * dozen places on every start. Both serve every command that opens the tracker. In the single executable the
 * library is one of its assets, written to the user's cache directory on first use and loaded from there
 * (./native-addon.ts).
 */
import {createRequire} from 'node:module'
import {isSea} from 'node:sea'
import Database from 'better-sqlite3'
import {loadNativeAddon} from './native-addon.js'

export type {Database, Statement} from 'better-sqlite3'

/**
 * Where npm's install (prebuilt or compiled from source) puts the library; undefined leaves the search to the driver.
 * The executable's library is loaded already, from the cache, and given as its exports.
 */
function locateAddon(): string | object | undefined {
  if (isSea()) return loadNativeAddon()
  try {
    return createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node')
  } catch {
    return undefined
  }
}

let addon: {binding: string | object | undefined} | undefined

/** A connection to the SQLite file (or `:memory:`), with the driver's options; database.ts extends it. */
export class DriverConnection extends Database {
  constructor(file: string, options: Database.Options = {}) {
    addon ??= {binding: locateAddon()}
    // better-sqlite3 takes a loaded library's exports as nativeBinding too; its type declarations name only a path.
    super(file, {nativeBinding: addon.binding as string | undefined, ...options})
  }
}
