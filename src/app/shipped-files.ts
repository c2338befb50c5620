/**
 * The files jobagent ships beside its code: the web page, the Swagger UI files of the docs page, the demo's sample
 * boards and package.json. Run from a checkout or an npm install they are files of the package; in the single
 * executable (`npm run package`) they are assets of the executable itself (node:sea), stored under the same names
 * (`web/index.html`, `demo/boards/remoteok.json`). Every reader goes through here, so the three ways of running
 * jobagent find them the same way.
 */
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join, sep} from 'node:path'
import {getAsset, isSea} from 'node:sea'
import {fileURLToPath} from 'node:url'

/** A directory of shipped files: its file names (`/`-separated, relative to it) and their bytes. */
export interface FileSet {
  readonly names: readonly string[]
  /** The file's bytes, or undefined when it is not there. */
  read(name: string): Buffer | undefined
}

const here = (): string => dirname(fileURLToPath(import.meta.url))

/** The package root, found from this file whether it runs from src/ (development) or dist/src/ (built). */
function packageRoot(): string {
  let dir = here()
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error('package.json of jobagent not found')
    dir = parent
  }
  return dir
}

/** Where the build puts its copy of the Swagger UI files (scripts/copy-assets.js): dist/src/http/swagger-ui. */
export const SWAGGER_UI_COPY = join(here(), '..', 'http', 'swagger-ui')

/**
 * swagger-ui-dist is a devDependency: an installed jobagent serves the copy the build makes (SWAGGER_UI_COPY), so a user's install never fetches the package. Run from the sources (tests,
 * bin/dev.js), there is no copy and the package itself is used.
 */
function swaggerUiDir(): string {
  if (existsSync(SWAGGER_UI_COPY)) return SWAGGER_UI_COPY
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
}

/** Each shipped directory and where it lies on disk; scripts/package.js stores the same directories as assets. */
export const SHIPPED_DIRS = {
  /** src/web, or dist/src/web when built (scripts/copy-assets.js copies it). */
  web: () => join(here(), '..', 'web'),
  'swagger-ui': swaggerUiDir,
  demo: () => join(packageRoot(), 'demo'),
} as const

type ShippedDir = keyof typeof SHIPPED_DIRS

/** The asset listing every shipped directory's file names, written by scripts/package.js. */
export const ASSET_INDEX = 'index.json'
/** The asset holding package.json. */
export const PACKAGE_JSON = 'package.json'

function asset(name: string): Buffer | undefined {
  try {
    return Buffer.from(getAsset(name))
  } catch {
    return undefined
  }
}

/** Regular files below `dir`, relative to it with `/`; hidden files are skipped; a missing directory has none. */
function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, {recursive: true, encoding: 'utf8'})
      .filter((name) => !name.split(sep).some((part) => part.startsWith('.')) && statSync(join(dir, name)).isFile())
      .map((name) => name.split(sep).join('/'))
      .sort()
  } catch {
    return []
  }
}

/** The files of a directory on disk (also a test's own web page directory). */
export function filesOnDisk(dir: string): FileSet {
  const names = listFiles(dir)
  return {
    names,
    read(name) {
      if (!names.includes(name)) return undefined
      try {
        return readFileSync(join(dir, ...name.split('/')))
      } catch {
        return undefined
      }
    },
  }
}

let assetIndex: Record<string, string[]> | undefined

/** A shipped directory: from the executable's assets in the single executable, from disk otherwise. */
export function shippedFiles(dir: ShippedDir): FileSet {
  if (!isSea()) return filesOnDisk(SHIPPED_DIRS[dir]())
  assetIndex ??= JSON.parse(asset(ASSET_INDEX)?.toString('utf8') ?? '{}') as Record<string, string[]>
  const names = assetIndex[dir] ?? []
  return {names, read: (name) => (names.includes(name) ? asset(`${dir}/${name}`) : undefined)}
}

/** jobagent's package.json, as text. */
export function packageJsonText(): string {
  const text = isSea() ? asset(PACKAGE_JSON) : readFileSync(join(packageRoot(), PACKAGE_JSON))
  if (!text) throw new Error('package.json of jobagent not found')
  return text.toString('utf8')
}
