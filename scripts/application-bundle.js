// The single executable's script (scripts/package.js): the whole application bundled by esbuild into one CommonJS
// script, since Node 20 runs only CommonJS as an executable's main script. What a file tree gives and an executable
// does not is replaced in the bundle by the plugins below, each saying why.
import {existsSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join, relative} from 'node:path'
import {build} from 'esbuild'
import {inkDevtools, nodeBundle, oclifTypeScriptSupport} from './esbuild-options.js'

const root = join(import.meta.dirname, '..')
const require = createRequire(import.meta.url)

/** The asset holding oclif's manifest. */
export const OCLIF_MANIFEST = 'oclif.manifest.json'

/** An installed package's directory (packages whose exports map hides their package.json included). */
function packageDir(name) {
  let dir = dirname(require.resolve(name))
  while (!existsSync(join(dir, 'package.json')) || JSON.parse(readFileSync(join(dir, 'package.json'))).name !== name)
    dir = dirname(dir)
  return dir
}

/**
 * oclif reads its manifest and imports its commands, hooks and help class by file path below its root; the
 * executable has no such files. Its root is the executable's directory, where oclif finds its manifest among the
 * assets, and every module it would import by path comes from the bundle, each evaluated only when oclif asks for
 * it, as an installed jobagent imports only the command it runs. The autocomplete plugin's commands join
 * jobagent's own in the manifest instead of being loaded as a plugin from node_modules.
 */
function commandManifest(pjson) {
  const own = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8'))
  const commands = {...own.commands}
  const files = new Map(Object.values(own.commands).map((command) => [key(command), sourceOf(command.relativePath)]))
  for (const plugin of pjson.oclif.plugins) {
    const dir = packageDir(plugin)
    for (const [id, command] of Object.entries(JSON.parse(readFileSync(join(dir, 'oclif.manifest.json'))).commands)) {
      const bundled = {...command, relativePath: ['node_modules', ...plugin.split('/'), ...command.relativePath]}
      commands[id] = bundled
      files.set(key(bundled), join(dir, ...command.relativePath))
    }
  }
  const ids = Object.keys(commands).sort()
  return {
    manifest: {...own, version: pjson.version, commands: Object.fromEntries(ids.map((id) => [id, commands[id]]))},
    files,
  }
}

function key(command) {
  return command.relativePath.join('/')
}

/** dist/src/cli/help.js -> <root>/src/cli/help.ts (or .tsx) */
function sourceOf(relativePath) {
  const stem = join(
    root,
    ...relativePath
      .join('/')
      .replace(/^dist\//, '')
      .replace(/\.js$/, '')
      .split('/'),
  )
  return existsSync(`${stem}.tsx`) ? `${stem}.tsx` : `${stem}.ts`
}

/** The modules oclif loads by path (commands, hooks, the help class), each a function that evaluates it when called. */
function bundledModulesSource(oclifModules) {
  const entries = [...oclifModules].map(
    ([path, file]) => `${JSON.stringify(path)}: () => import(${JSON.stringify(file)})`,
  )
  return `export const modules = {${entries.join(',\n')}}`
}

// oclif's module loader, replaced: a path oclif would import (always below its root) is looked up in the bundle.
const MODULE_LOADER = `
const {relative, sep} = require('node:path')
async function find(root, path) {
  const key = relative(root, path).split(sep).join('/')
  const found = require('jobagent:bundled-modules').modules[key]
  if (!found) throw Object.assign(new Error('Cannot find module ' + path + ' in the executable'), {code: 'MODULE_NOT_FOUND'})
  return found()
}
exports.load = (config, path) => find(config.root, path)
exports.loadWithData = async (config, path) => ({filePath: path, isESM: true, module: await find(config.root, path)})
exports.loadWithDataFromManifest = async (cached, root) => {
  const path = root + '/' + cached.relativePath.join('/')
  return {filePath: path, isESM: true, module: await find(root, path)}
}
exports.isPathModule = () => false
`

// oclif's JSON reader, extended: the manifest below its root is the executable's asset.
const MANIFEST_READER = `
{
  const sea = require('node:sea')
  const {dirname, join} = require('node:path')
  const readFromDisk = exports.readJson
  const manifest = join(dirname(process.execPath), ${JSON.stringify(OCLIF_MANIFEST)})
  exports.readJson = async (path, useCache) =>
    sea.isSea() && path === manifest ? JSON.parse(sea.getAsset(${JSON.stringify(OCLIF_MANIFEST)}, 'utf8')) : readFromDisk(path, useCache)
}
`

/**
 * Yoga, Ink's layout engine, is WebAssembly that its module instantiates with a top-level await, which a CommonJS
 * script cannot have. Its Emscripten loader takes an `instantiateWasm` hook: given one that compiles and
 * instantiates synchronously (WebAssembly.Module/Instance), the whole start-up runs before the call returns, so
 * the module can export the ready engine without awaiting. The bytes, embedded as base64 in the loader, move
 * into that module instead of being kept twice.
 */
const YOGA_WASM = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/
const yogaDir = join(packageDir('yoga-layout'), 'dist')
const yogaLoader = join(yogaDir, 'binaries', 'yoga-wasm-base64-esm.js')
function yogaPlugin() {
  const text = readFileSync(yogaLoader, 'utf8')
  const wasm = YOGA_WASM.exec(text)?.[1]
  if (!wasm) throw new Error(`no embedded WebAssembly found in ${yogaLoader}`)
  return {
    name: 'yoga-synchronous',
    setup(esbuild) {
      esbuild.onLoad({filter: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/}, () => ({
        contents: text.replace(YOGA_WASM, '""'),
        loader: 'js',
      }))
      esbuild.onLoad({filter: /yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/}, () => ({
        resolveDir: join(yogaDir, 'src'),
        contents: `
import loadYoga from '../binaries/yoga-wasm-base64-esm.js'
import wrapAssembly from './wrapAssembly.js'
export * from './generated/YGEnums.js'
const wasm = Buffer.from(${JSON.stringify(wasm)}, 'base64')
const engine = {
  instantiateWasm(imports, receiveInstance) {
    receiveInstance(new WebAssembly.Instance(new WebAssembly.Module(wasm), imports))
    return {}
  },
}
loadYoga(engine)
export default wrapAssembly(engine)
`,
        loader: 'js',
      }))
    },
  }
}

/**
 * The database drivers load on first use through createRequire (src/shipments/storage/postgres/pool.ts,
 * src/shipments/storage/mysql/pool.ts, src/shipments/storage/mongodb/mongo-connection.ts), which a bundler cannot follow. In the bundle those modules get a
 * createRequire whose require answers the drivers from the bundle, still loaded only when first required.
 */
const LAZY_DRIVERS = ['pg', 'mysql2/promise', 'mongodb']
function lazyDriversPlugin() {
  return {
    name: 'lazy-drivers',
    setup(esbuild) {
      esbuild.onResolve({filter: /^node:module$/}, ({importer}) =>
        /[\\/]src[\\/]shipments[\\/]storage[\\/](postgres|mysql|mongodb)[\\/]/.test(importer)
          ? {path: 'lazy-drivers', namespace: 'jobagent'}
          : undefined,
      )
      esbuild.onLoad({filter: /^lazy-drivers$/, namespace: 'jobagent'}, () => ({
        resolveDir: root,
        contents: `
import {createRequire as nodeCreateRequire} from 'node:module'
const drivers = {${LAZY_DRIVERS.map((name) => `${JSON.stringify(name)}: () => require(${JSON.stringify(name)})`)}}
export function createRequire(url) {
  const fallback = nodeCreateRequire(url)
  return Object.assign((id) => (drivers[id] ? drivers[id]() : fallback(id)), {resolve: fallback.resolve})
}
`,
        loader: 'js',
      }))
    },
  }
}

/**
 * Ink's reconciler connects to React's devtools when DEV=true, with top-level awaits a CommonJS script cannot have;
 * the executable does not carry the devtools package, so that branch goes. A new Ink that changes these lines
 * fails the build here rather than the executable at run time.
 */
const INK_DEVTOOLS = [
  /if \(isDev\(\)\) \{\s*try \{\s*await import\('\.\/devtools\.js'\);[\s\S]*?\n\}\n/,
  /isDev\(\)\s*\?\s*await loadPackageJson\(\)\s*:\s*/,
]
function inkPlugin() {
  return {
    name: 'ink-without-devtools',
    setup(esbuild) {
      esbuild.onLoad({filter: /ink[\\/]build[\\/]reconciler\.js$/}, ({path}) => {
        let text = readFileSync(path, 'utf8')
        for (const pattern of INK_DEVTOOLS) {
          if (!pattern.test(text)) throw new Error(`${path} no longer matches ${pattern}: update scripts/package.js`)
          text = text.replace(pattern, '')
        }
        return {contents: text, loader: 'js'}
      })
    },
  }
}

function oclifPlugin(oclifModules) {
  return {
    name: 'oclif-modules',
    setup(esbuild) {
      esbuild.onLoad({filter: /@oclif[\\/]core[\\/]lib[\\/]module-loader\.js$/}, () => ({
        contents: MODULE_LOADER,
        loader: 'js',
      }))
      esbuild.onLoad({filter: /@oclif[\\/]core[\\/]lib[\\/]util[\\/]fs\.js$/}, ({path}) => ({
        contents: readFileSync(path, 'utf8') + MANIFEST_READER,
        loader: 'js',
      }))
      esbuild.onResolve({filter: /^jobagent:bundled-modules$/}, () => ({
        path: 'bundled-modules',
        namespace: 'jobagent',
      }))
      esbuild.onLoad({filter: /^bundled-modules$/, namespace: 'jobagent'}, () => ({
        resolveDir: root,
        contents: bundledModulesSource(oclifModules),
        loader: 'js',
      }))
    },
  }
}

/**
 * React, its scheduler and Ink's reconciler choose their development or production build from NODE_ENV when they
 * load. Their entry files are read as if NODE_ENV were "production", so the executable carries only the production
 * builds; a define for the whole bundle would reach oclif's own checks of NODE_ENV too.
 */
const REACT_ENTRIES = /node_modules[\\/](react|react-reconciler|scheduler)[\\/][^\\/]+\.js$/
function reactProductionPlugin() {
  return {
    name: 'react-production',
    setup(esbuild) {
      esbuild.onLoad({filter: REACT_ENTRIES}, ({path}) => {
        const text = readFileSync(path, 'utf8')
        return {contents: text.replaceAll('process.env.NODE_ENV', '"production"'), loader: 'js'}
      })
    },
  }
}

/**
 * Bundles the application into `outfile` for the executable whose package.json is `pjson`; returns oclif's manifest
 * for it (jobagent's commands with its plugins' merged in, under pjson's version) and the package.json it reads.
 */
export async function bundleApplication({pjson, outfile}) {
  const {manifest, files: oclifModules} = commandManifest(pjson)
  for (const {target} of [...Object.values(pjson.oclif.hooks ?? {}).flat(), pjson.oclif.helpClass]) {
    const relativePath = relative('.', target).split('/')
    oclifModules.set(relativePath.join('/'), sourceOf(relativePath))
  }
  await build({
    ...nodeBundle,
    entryPoints: [join(root, 'src/cli/single-binary.ts')],
    outfile,
    format: 'cjs',
    // In the executable, the main script's own require loads only Node's built-in modules: a full one takes its
    // place (better-sqlite3 loads its library from the cache with it). import.meta.url names the executable.
    banner: {
      js: "require = require('node:module').createRequire(__filename); var importMetaUrl = require('node:url').pathToFileURL(__filename).href;",
    },
    define: {'import.meta.url': 'importMetaUrl'},
    external: [...oclifTypeScriptSupport, inkDevtools],
    plugins: [oclifPlugin(oclifModules), yogaPlugin(), inkPlugin(), lazyDriversPlugin(), reactProductionPlugin()],
  })
  return {manifest, pjson: {...pjson, oclif: {...pjson.oclif, plugins: []}}}
}
