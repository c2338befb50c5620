import {readdirSync, readFileSync} from 'node:fs'
import {dirname, join, posix, relative, sep} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROOT} from './helpers/cli.js'

/**
 * docs/ARCHITECTURE.md "Layers": commands/, src/http, src/ui, src/mcp -> src/app -> src/core <- src/storage,
 * src/sources, src/notifiers. src/http-client is the outbound HTTP client the sources, the notifiers and src/app
 * share: an adapter module every other adapter may use, while adapters never import one another. The shipment
 * feature is one slice, src/shipments, with the same layers inside (core, storage; app, http and cli as its front
 * ends): it may use the shared modules of src/core and src/storage, the job side never imports it, its database
 * drivers stay in it, and it plugs in at one seam (docs/ARCHITECTURE.md "Slices"): outside the slice and its
 * commands only the list of slices imports it. This reads the import specifiers of the source files with regular expressions, so it needs no
 * build and catches type-only imports as well, which vanish from the compiled output.
 */

/** npm packages core may use: pure libraries, no framework, driver or network code. */
const CORE_PACKAGES = new Set(['zod', 'papaparse', 'p-limit', 'html-entities', 'htmlparser2'])
/** Node built-ins that open connections; core reaches the network only through the ports adapters implement. */
const NETWORK_BUILTINS = new Set(['http', 'https', 'http2', 'net', 'tls', 'dns', 'dgram'])
const ADAPTER_LAYERS = ['src/sources', 'src/notifiers', 'src/storage', 'src/http-client', 'src/shipments/storage']
/** Adapter modules any adapter may import. */
const SHARED_ADAPTERS = ['src/http-client']
/** Adapter modules one adapter may import besides those: the shipment stores use the generic SQLite helpers. */
const SHARED_WITH: Record<string, string[]> = {'src/shipments/storage': ['src/storage']}
const FRONT_END_LAYERS = [
  'src/app',
  'src/http',
  'src/ui',
  'src/mcp',
  'src/cli',
  'commands',
  'src/shipments/app',
  'src/shipments/http',
  'src/shipments/cli',
]
/** Each pure domain layer and what it may import besides packages core may use. */
const CORE_LAYERS: Record<string, string[]> = {
  'src/core': ['src/core'],
  'src/shipments/core': ['src/core', 'src/shipments/core'],
}
/** The shipment slice. */
const SLICE = 'src/shipments'
/** The job side and the modules it shares with the slice: none of them imports the slice. */
const JOB_SIDE = ['src/core', 'src/storage', 'src/sources', 'src/notifiers', 'src/http-client']
/** The files that may import the slice's modules: its own, its commands', and the one list of slices. */
const SLICE_USERS = [SLICE, 'commands/shipment', 'src/app/slices.ts']
/** The database drivers only the shipment stores use. */
const SLICE_DRIVERS = new Set(['pg', 'mysql2', 'mongodb'])
/**
 * The core modules that decide what a run changes: the rules of a job's life, the change set they make, which job
 * is new, which board looks dead or empty, and the run itself. The stores write what these decide and decide nothing.
 */
const RUN_DECIDING = [
  'src/core/jobs/lifecycle.ts',
  'src/core/jobs/run-changes.ts',
  'src/core/jobs/job-tracking.ts',
  'src/core/jobs/dead-board.ts',
  'src/core/jobs/zero-yield.ts',
  'src/core/jobs/board-reports.ts',
  'src/core/run',
]
/** The stores. */
const STORAGE_LAYERS = ['src/storage', 'src/shipments/storage']

interface ImportSite {
  /** Repository-relative path with forward slashes: `src/sources/index.ts`. */
  file: string
  line: number
  specifier: string
}

// Static imports and re-exports; a newline may only sit inside the braces of a multi-line name list.
const STATIC_IMPORT = /^[ \t]*(?:import|export)\s(?:[^'"`;{}\n]|\{[^{}]*\})*?\bfrom\s*(['"])([^'"\n]+)\1/gm
const SIDE_EFFECT_IMPORT = /^[ \t]*import\s*(['"])([^'"\n]+)\1/gm
// Also `typeof import('./x.js')` in types.
const DYNAMIC_IMPORT = /\bimport\s*\(\s*(['"`])([^'"`\n]+)\1\s*\)/g

function importSpecifiers(text: string): {line: number; specifier: string}[] {
  const sites = [STATIC_IMPORT, SIDE_EFFECT_IMPORT, DYNAMIC_IMPORT].flatMap((pattern) =>
    [...text.matchAll(pattern)].map((match) => ({
      line: text.slice(0, match.index).split('\n').length,
      specifier: match[2] ?? '',
    })),
  )
  return sites.sort((a, b) => a.line - b.line)
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), {recursive: true, encoding: 'utf8'})
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => posix.join(dir, file.split(sep).join('/')))
    .sort()
}

function importsUnder(dir: string): ImportSite[] {
  return sourceFiles(dir).flatMap((file) =>
    importSpecifiers(readFileSync(join(ROOT, file), 'utf8')).map((site) => ({file, ...site})),
  )
}

/** The repository-relative path a relative specifier points at; undefined for packages and built-ins. */
function target(site: ImportSite): string | undefined {
  if (!site.specifier.startsWith('.')) return undefined
  return relative(ROOT, join(ROOT, dirname(site.file), site.specifier))
    .split(sep)
    .join('/')
}

function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`)
}

function packageName(specifier: string): string {
  const parts = specifier.split('/')
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/')
}

function coreViolation(site: ImportSite): string | undefined {
  const path = target(site)
  const layer = Object.keys(CORE_LAYERS).find((dir) => isUnder(site.file, dir)) ?? 'src/core'
  const allowed = CORE_LAYERS[layer] ?? [layer]
  if (path !== undefined) {
    return allowed.some((dir) => isUnder(path, dir)) ? undefined : `reaches outside ${allowed.join(', ')} (${path})`
  }
  if (site.specifier.startsWith('node:')) {
    const builtin = site.specifier.slice('node:'.length).split('/')[0] ?? ''
    return NETWORK_BUILTINS.has(builtin) ? 'is network code' : undefined
  }
  return CORE_PACKAGES.has(packageName(site.specifier)) ? undefined : 'is not a package core may use'
}

function adapterViolation(site: ImportSite): string | undefined {
  const path = target(site)
  const layer = path === undefined ? undefined : FRONT_END_LAYERS.find((dir) => isUnder(path, dir))
  return layer ? `is in ${layer}; adapters depend only on src/core` : undefined
}

/** The source file a relative specifier names (`./x.js` is `./x.ts` or `./x.tsx` before the build). */
function sourceFileOf(site: ImportSite, files: ReadonlySet<string>): string | undefined {
  const path = target(site)
  if (path === undefined) return undefined
  const stem = path.replace(/\.js$/, '')
  return [`${stem}.ts`, `${stem}.tsx`, path].find((candidate) => files.has(candidate))
}

/** Every import cycle among `sites` (static, type-only and dynamic alike), each as the files around it. */
function importCycles(sites: readonly ImportSite[]): string[][] {
  const files = new Set(sites.map((site) => site.file))
  const edges = new Map<string, Set<string>>()
  for (const site of sites) {
    const to = sourceFileOf(site, files)
    if (to) edges.set(site.file, (edges.get(site.file) ?? new Set()).add(to))
  }
  const cycles: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (file: string): void => {
    state.set(file, 'open')
    stack.push(file)
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next])
      else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(file, 'done')
  }
  for (const file of [...files].sort()) if (!state.has(file)) visit(file)
  return cycles
}

/** An adapter that imports another adapter (say a notifier reaching into src/sources) couples two channels. */
function crossAdapterViolation(site: ImportSite): string | undefined {
  const path = target(site)
  if (path === undefined) return undefined
  const own = ADAPTER_LAYERS.find((dir) => isUnder(site.file, dir))
  const other = ADAPTER_LAYERS.find((dir) => isUnder(path, dir))
  if (!other || other === own || SHARED_ADAPTERS.includes(other)) return undefined
  if (own && SHARED_WITH[own]?.includes(other)) return undefined
  return `is in ${other}; adapters share code only through ${SHARED_ADAPTERS.join(', ')}`
}

/** The job side reaching into the shipment slice, which it must work without. */
function sliceViolation(site: ImportSite): string | undefined {
  const path = target(site)
  return path !== undefined && isUnder(path, SLICE) ? `is in ${SLICE}; the job side never imports the slice` : undefined
}

/** A module of the slice or of its commands imported anywhere but by them and the list of slices. */
function seamViolation(site: ImportSite): string | undefined {
  const path = target(site)
  if (path === undefined || SLICE_USERS.some((dir) => isUnder(site.file, dir))) return undefined
  const module = [SLICE, 'commands/shipment'].find((dir) => isUnder(path, dir))
  return module ? `is in ${module}; only src/app/slices.ts plugs the slice in` : undefined
}

/** A shipment database driver imported outside the slice. */
function driverViolation(site: ImportSite): string | undefined {
  if (isUnder(site.file, SLICE) || target(site) !== undefined) return undefined
  return SLICE_DRIVERS.has(packageName(site.specifier)) ? `is a driver only ${SLICE} may import` : undefined
}

/** The web page's bundle (scripts/bundle-web.js): itself and the pure core at run time, the API's schemas as types. */
const WEB = 'src/web'
const WEB_TYPES_FROM = ['src/http/schemas.js']

/** An import of the web page that would bundle code a browser cannot run, or the server's own code. */
function webViolation(site: ImportSite, statement: string): string | undefined {
  const path = target(site)
  if (path === undefined)
    return statement.startsWith('import type') ? undefined : 'is a package the page does not bundle'
  if (isUnder(path, WEB) || isUnder(path, 'src/core')) return undefined
  if (WEB_TYPES_FROM.includes(path) && statement.startsWith('import type')) return undefined
  return `is outside ${WEB} and src/core; the page takes only types from ${WEB_TYPES_FROM.join(', ')}`
}

/** A store importing a module that decides what a run changes. */
function decidingViolation(site: ImportSite): string | undefined {
  const path = target(site)?.replace(/\.js$/, '.ts')
  if (path === undefined || !RUN_DECIDING.some((module) => isUnder(path, module))) return undefined
  return 'decides what a run changes; a store only writes the change set core works out'
}

function report(sites: ImportSite[], violation: (site: ImportSite) => string | undefined): string[] {
  return sites.flatMap((site) => {
    const reason = violation(site)
    return reason ? [`${site.file}:${site.line} imports '${site.specifier}', which ${reason}`] : []
  })
}

describe('layering', () => {
  it('reads static, re-exported, side-effect, multi-line and dynamic imports with their lines', () => {
    const text = [
      "import {a} from './a.js'",
      'import type {',
      '  B,',
      '  C,',
      "} from '../app/b.js'",
      "export {d} from './d.js'",
      "export * from 'node:http'",
      "import 'side-effect'",
      'const answer = {from: 1}',
      "const lazy = await import('../http/e.js')",
      "type Schemas = typeof import('./f.js')",
    ].join('\n')

    expect(importSpecifiers(text)).toEqual([
      {line: 1, specifier: './a.js'},
      {line: 2, specifier: '../app/b.js'},
      {line: 6, specifier: './d.js'},
      {line: 7, specifier: 'node:http'},
      {line: 8, specifier: 'side-effect'},
      {line: 10, specifier: '../http/e.js'},
      {line: 11, specifier: './f.js'},
    ])
  })

  it('finds the imports of the source tree', () => {
    expect(importsUnder('src/core').length).toBeGreaterThan(20)
    expect(importsUnder('src/sources').some((site) => site.specifier.includes('/core/'))).toBe(true)
  })

  it('keeps src/core free of other layers, frameworks, drivers and network code', () => {
    expect(report(importsUnder('src/core'), coreViolation)).toEqual([])
  })

  it('keeps the shipment core free of front ends, stores, frameworks, drivers and network code', () => {
    expect(importsUnder('src/shipments/core').length).toBeGreaterThan(10)
    expect(report(importsUnder('src/shipments/core'), coreViolation)).toEqual([])
  })

  it('keeps the job side and the modules it shares from importing the shipment slice', () => {
    expect(report(JOB_SIDE.flatMap(importsUnder), sliceViolation)).toEqual([])
  })

  it('finds a job side import of the slice, and a driver imported outside it', () => {
    const sites = [
      {file: 'src/storage/sqlite/database.ts', line: 1, specifier: '../../shipments/core/stores.js'},
      {file: 'src/sources/remoteok.ts', line: 2, specifier: '../core/errors.js'},
      {file: 'src/app/context.ts', line: 3, specifier: 'pg'},
      {file: 'src/http/app.ts', line: 4, specifier: 'mysql2/promise'},
      {file: 'src/shipments/storage/postgres/pool.ts', line: 5, specifier: 'pg'},
    ]
    expect(report(sites, sliceViolation)).toEqual([
      "src/storage/sqlite/database.ts:1 imports '../../shipments/core/stores.js', which is in src/shipments; the job side never imports the slice",
    ])
    expect(report(sites, driverViolation)).toEqual([
      "src/app/context.ts:3 imports 'pg', which is a driver only src/shipments may import",
      "src/http/app.ts:4 imports 'mysql2/promise', which is a driver only src/shipments may import",
    ])
  })

  it('lets only the slice, its commands and the list of slices import the slice', () => {
    const sites = [
      {file: 'src/app/slices.ts', line: 1, specifier: '../shipments/app/slice.js'},
      {file: 'src/app/context.ts', line: 2, specifier: '../shipments/app/shipments.js'},
      {file: 'src/http/app.ts', line: 3, specifier: '../shipments/http/shipments.js'},
      {file: 'commands/shipment/show.ts', line: 4, specifier: '../../src/shipments/app/slice.js'},
      {file: 'commands/serve.ts', line: 5, specifier: './shipment/show.js'},
      {file: 'src/shipments/http/slice.ts', line: 6, specifier: '../app/shipments.js'},
    ]
    expect(report(sites, seamViolation)).toEqual([
      "src/app/context.ts:2 imports '../shipments/app/shipments.js', which is in src/shipments; only src/app/slices.ts plugs the slice in",
      "src/http/app.ts:3 imports '../shipments/http/shipments.js', which is in src/shipments; only src/app/slices.ts plugs the slice in",
      "commands/serve.ts:5 imports './shipment/show.js', which is in commands/shipment; only src/app/slices.ts plugs the slice in",
    ])
    expect(report(['src', 'commands'].flatMap(importsUnder), seamViolation)).toEqual([])
  })

  it('keeps the PostgreSQL, MySQL and MongoDB drivers inside the shipment slice', () => {
    expect(report(['src', 'commands'].flatMap(importsUnder), driverViolation)).toEqual([])
    expect(importsUnder(SLICE).some((site) => site.specifier === 'mongodb')).toBe(true)
  })

  it('keeps the adapters from importing the composition root, the front ends and the commands', () => {
    const sites = ADAPTER_LAYERS.flatMap(importsUnder)
    expect(report(sites, adapterViolation)).toEqual([])
  })

  it('finds an import cycle, however the modules import each other', () => {
    const sites = [
      {file: 'src/app/a.ts', line: 1, specifier: './b.js'},
      {file: 'src/app/b.ts', line: 1, specifier: '../ui/c.js'},
      {file: 'src/ui/c.tsx', line: 1, specifier: '../app/a.js'},
      {file: 'src/app/d.ts', line: 1, specifier: './a.js'},
    ]
    expect(importCycles(sites)).toEqual([['src/app/a.ts', 'src/app/b.ts', 'src/ui/c.tsx', 'src/app/a.ts']])
    expect(importCycles(sites.slice(1))).toEqual([])
  })

  it('has no import cycle in src/ and commands/', () => {
    const sites = ['src', 'commands'].flatMap(importsUnder)
    expect(importCycles(sites).map((cycle) => cycle.join(' -> '))).toEqual([])
  })

  it('keeps the web page to its own modules and the core, with only types from the API schemas', () => {
    const sites = importsUnder(WEB)
    expect(sites.some((site) => site.specifier === '../http/schemas.js')).toBe(true)
    const statement = (site: ImportSite) =>
      (readFileSync(join(ROOT, site.file), 'utf8').split('\n')[site.line - 1] ?? '').trim()
    expect(report(sites, (site) => webViolation(site, statement(site)))).toEqual([])
  })

  it("finds a store importing a run's rules, and lets it import the port and the models", () => {
    const sites = [
      {file: 'src/storage/sqlite/sqlite-job-store.ts', line: 1, specifier: '../../core/jobs/lifecycle.js'},
      {file: 'src/storage/sqlite/sqlite-job-store.ts', line: 2, specifier: '../../core/run/agent-run.js'},
      {file: 'src/storage/sqlite/sqlite-job-store.ts', line: 3, specifier: '../../core/jobs/job-store.js'},
      {file: 'src/storage/sqlite/sqlite-job-store.ts', line: 4, specifier: '../../core/jobs/dedupe.js'},
    ]
    expect(report(sites, decidingViolation)).toEqual([
      "src/storage/sqlite/sqlite-job-store.ts:1 imports '../../core/jobs/lifecycle.js', which decides what a run changes; a store only writes the change set core works out",
      "src/storage/sqlite/sqlite-job-store.ts:2 imports '../../core/run/agent-run.js', which decides what a run changes; a store only writes the change set core works out",
    ])
  })

  it("keeps the stores from deciding what a run changes: they import none of the run's rules", () => {
    const sites = STORAGE_LAYERS.flatMap(importsUnder)
    expect(sites.some((site) => site.specifier.endsWith('/core/jobs/job-store.js'))).toBe(true)
    expect(report(sites, decidingViolation)).toEqual([])
  })

  it('keeps the adapters from importing one another, except the shared HTTP client', () => {
    const sites = ADAPTER_LAYERS.flatMap(importsUnder)
    expect(report(sites, crossAdapterViolation)).toEqual([])
  })
})
