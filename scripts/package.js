// `npm run package`: builds build/jobagent-<platform>-<arch>, one executable file holding Node.js itself, the whole
// application bundled into one CommonJS script, and the files it ships (web page, Swagger UI, demo boards,
// package.json, better-sqlite3's compiled library) as assets, with Node's single executable application support:
// node --experimental-sea-config writes the blob, postject injects it into a copy of this Node binary.
// Runs after `npm run build`: the manifest, the Swagger UI copy and the compiled shipped-files module come from it.
import {spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join, relative, resolve} from 'node:path'
import {parseArgs} from 'node:util'
import {inject} from 'postject'
import {ASSET_INDEX, NOTICE, PACKAGE_JSON, SHIPPED_DIRS, shippedFiles} from '../dist/src/app/shipped-files.js'
import {NATIVE_ADDON_ASSET} from '../dist/src/storage/sqlite/native-addon.js'
import {bundleApplication, OCLIF_MANIFEST} from './application-bundle.js'

// --output puts the executable elsewhere, --version builds it under another version (a release candidate; the test
// of two executables of different versions on one machine), --without-code-cache leaves out V8's compiled code
// (the benchmark's comparison).
const {values: options} = parseArgs({
  options: {output: {type: 'string'}, version: {type: 'string'}, 'without-code-cache': {type: 'boolean'}},
})
const root = join(import.meta.dirname, '..')
const require = createRequire(import.meta.url)
const output = resolve(options.output ?? join(root, 'build', `jobagent-${process.platform}-${process.arch}`))
// The bundle, the generated assets, the configuration and the blob; removed once the executable is written.
const work = `${output}.work`
const started = performance.now()
rmSync(work, {recursive: true, force: true})
mkdirSync(work, {recursive: true})

const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
if (options.version) pjson.version = options.version

const main = join(work, 'main.cjs')
const bundled = await bundleApplication({pjson, outfile: main})

// The assets: every shipped directory as the running code reads it, package.json, NOTICE, and better-sqlite3's
// library.
const assets = {}
const index = {}
for (const dir of Object.keys(SHIPPED_DIRS)) {
  const files = shippedFiles(dir)
  index[dir] = files.names
  for (const name of files.names) assets[`${dir}/${name}`] = join(SHIPPED_DIRS[dir](), ...name.split('/'))
}
function writeAsset(name, content) {
  const file = join(work, name)
  writeFileSync(file, content)
  assets[name] = file
}
writeAsset(ASSET_INDEX, JSON.stringify(index))
writeAsset(PACKAGE_JSON, JSON.stringify(bundled.pjson))
assets[NOTICE] = join(root, NOTICE)
writeAsset(OCLIF_MANIFEST, JSON.stringify(bundled.manifest))
const addonFile = require.resolve('better-sqlite3/build/Release/better_sqlite3.node')
const addonName = 'better_sqlite3.node'
const sha256 = createHash('sha256').update(readFileSync(addonFile)).digest('hex')
assets[addonName] = addonFile
writeAsset(
  NATIVE_ADDON_ASSET,
  JSON.stringify({name: addonName, sha256, dir: `${pjson.version}-${sha256.slice(0, 16)}`}),
)

const blob = join(work, 'sea-prep.blob')
writeFileSync(
  join(work, 'sea-config.json'),
  JSON.stringify(
    {main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: !options['without-code-cache'], assets},
    null,
    2,
  ),
)
// Node says where it wrote the blob on success; that is the work directory's business, so it is shown only when
// Node fails.
const prepared = spawnSync(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], {
  encoding: 'utf8',
})
if (prepared.status !== 0) {
  process.stderr.write(`${prepared.stdout ?? ''}${prepared.stderr ?? prepared.error?.message ?? ''}`)
  process.exit(prepared.status ?? 1)
}

rmSync(output, {force: true})
copyFileSync(process.execPath, output)
chmodSync(output, 0o755)
// Node's symbol table and debugging information are a tenth of its file, and nothing a user runs needs them; the
// dynamic symbols the library loads against stay. (Linux only: on macOS the binary's signature would need redoing.)
const stripped =
  process.platform === 'linux' ? spawnSync('strip', ['--strip-all', output], {encoding: 'utf8'}) : {status: 0}
if (stripped.error || stripped.status !== 0)
  console.warn(
    `strip did not run (${stripped.error?.message ?? stripped.stderr.trim()}): the executable keeps its symbols`,
  )
// postject's ELF reader (LIEF, compiled to WebAssembly) prints a warning through console.warn for each of Node's ELF
// notes it cannot name, a dozen lines on every build of every Node binary. They are held back and shown only when
// the injection fails, beside its error.
const injectionWarnings = []
const warn = console.warn
console.warn = (...args) => injectionWarnings.push(args.join(' '))
try {
  await inject(output, 'NODE_SEA_BLOB', readFileSync(blob), {
    sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
    machoSegmentName: 'NODE_SEA',
  })
} catch (error) {
  for (const line of injectionWarnings) warn(line)
  throw error
} finally {
  console.warn = warn
}
rmSync(work, {recursive: true, force: true})
const megabytes = (statSync(output).size / 1024 / 1024).toFixed(1)
const seconds = ((performance.now() - started) / 1000).toFixed(1)
console.log(`wrote ${relative(process.cwd(), output)} (${megabytes} MB) in ${seconds} s`)
