import {spawn, spawnSync} from 'node:child_process'
import {copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {type CliResult, ROOT, runCli, startCli, tempDir} from '../helpers/cli.js'

/**
 * What a user gets from `npm pack`: the tarball is packed from a copy of the working tree with the build the suite
 * runs on (test/build-when-needed.ts brought dist/ up to date before this file loaded), installed offline into a
 * fresh prefix from the npm cache that `npm ci` filled, and run from outside the repository.
 *
 * The pack runs without scripts: its `prepare` is `npm run build`, the build this copy already holds, and building
 * it a second time took a third of this file's time. That `prepare` builds a clone is what `.ci/run` checks first
 * ("npm ci on a bare machine, then jobagent status", from a clone without dist/).
 *
 * The install runs no install scripts; the one native addon, better-sqlite3, gets the binary this repository's
 * `npm ci` built of the same version for the same Node (the lockfile pins it). A user's install downloads a
 * prebuilt binary or compiles one; compiling SQLite again here took most of this file's time, and `.ci/run`
 * compiles it from source on a bare machine already ("npm ci on a bare machine").
 */

const inGitCheckout = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], {cwd: ROOT}).status === 0
const skipReason = inGitCheckout ? '' : 'not a git checkout'
if (skipReason) console.warn(`skipping the package test: ${skipReason}`)

interface Step {
  code: number | null
  stdout: string
  stderr: string
  seconds: number
}

function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Step> {
  const started = performance.now()
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {cwd, env, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.on('error', reject)
    child.on('close', (code) =>
      resolvePromise({code, stdout, stderr, seconds: Math.round((performance.now() - started) / 100) / 10}),
    )
  })
}

/** npm as the user's shell runs it, offline. */
function npmEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  }
}

/** The directory of better-sqlite3's compiled addon, under a node_modules directory. */
const ADDON = 'better-sqlite3/build/Release'

/** Gives the installed better-sqlite3 the addon of this repository's, after checking both are one version. */
function copyAddon(prefix: string): void {
  const version = (dir: string) =>
    (JSON.parse(readFileSync(join(dir, 'better-sqlite3/package.json'), 'utf8')) as {version: string}).version
  const installed = join(prefix, 'node_modules')
  const own = join(ROOT, 'node_modules')
  expect(version(installed)).toBe(version(own))
  mkdirSync(join(installed, ADDON), {recursive: true})
  copyFileSync(join(own, ADDON, 'better_sqlite3.node'), join(installed, ADDON, 'better_sqlite3.node'))
}

interface LockEntry {
  dev?: boolean
  link?: boolean
}

/**
 * A prefix whose lockfile pins jobagent's dependencies to the versions in this repository's package-lock.json.
 * Without it, npm install resolves every range from the registry's full package documents, which npm ci never
 * stores in the cache (it needs only the tarballs), so an offline install would fail with ENOTCACHED.
 */
function seedPrefix(prefix: string, tarball: string): void {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>
  }
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>
  const spec = `file:${tarball}`
  const packages: Record<string, unknown> = {
    '': {dependencies: {jobagent: spec}},
    'node_modules/jobagent': {
      version: pkg.version,
      resolved: spec,
      license: pkg.license,
      dependencies: pkg.dependencies,
      bin: pkg.bin,
      engines: pkg.engines,
    },
  }
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path.startsWith('node_modules/') && !entry.dev && !entry.link) packages[path] = entry
  }
  writeFileSync(join(prefix, 'package.json'), JSON.stringify({private: true, dependencies: {jobagent: spec}}))
  writeFileSync(join(prefix, 'package-lock.json'), JSON.stringify({lockfileVersion: 3, requires: true, packages}))
}

describe.skipIf(Boolean(skipReason))('the npm package', () => {
  const work = tempDir('jobagent-package-')
  const source = join(work.path, 'source')
  const prefix = join(work.path, 'prefix')
  const outside = join(work.path, 'elsewhere')
  const home = join(work.path, 'home-not-created-yet')
  let packed: Step
  let files: string[] = []
  let install: Step

  /** The installed jobagent, run from outside the repository; HOME is not its data dir. */
  const installed = {
    home,
    cwd: outside,
    env: {HOME: outside},
    program: [join(prefix, 'node_modules/.bin/jobagent')],
    timeoutMs: 60_000,
  }
  const jobagent = (...args: string[]): Promise<CliResult> => runCli(args, installed)

  beforeAll(async () => {
    // The files of the working tree that git knows or would add (committed or not), without dist/ or node_modules.
    const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
    for (const file of listed.stdout.split('\0').filter((name) => name && existsSync(join(ROOT, name)))) {
      mkdirSync(dirname(join(source, file)), {recursive: true})
      copyFileSync(join(ROOT, file), join(source, file))
    }
    symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'), 'dir')
    cpSync(join(ROOT, 'dist'), join(source, 'dist'), {recursive: true})
    mkdirSync(prefix)
    mkdirSync(outside)

    packed = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work.path], source, npmEnv())
    if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`)
    const [entry] = JSON.parse(packed.stdout) as [{filename: string; files: {path: string}[]}]
    files = entry.files.map((file) => file.path)
    const tarball = join(work.path, entry.filename)

    seedPrefix(prefix, tarball)
    install = await run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', prefix, tarball],
      outside,
      npmEnv(),
    )
    if (install.code !== 0) throw new Error(`npm install failed:\n${install.stderr}`)
    copyAddon(prefix)
    console.info(
      `npm pack: ${packed.seconds} s; npm install --offline of the tarball ` +
        `(without install scripts): ${install.seconds} s`,
    )
  }, 900_000)

  afterAll(() => {
    work.cleanup()
  })

  it('holds the build and what a user needs, and nothing of the development tree', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {scripts: Record<string, string>}
    expect(pkg.scripts.prepare).toBe('npm run build')
    for (const file of [
      'LICENSE',
      'README.md',
      'package.json',
      'bin/run.js',
      'oclif.manifest.json',
      'dist/commands/status.js',
      'dist/src/web/index.html',
      'dist/src/web/app.js',
      'dist/src/http/swagger-ui/swagger-ui-bundle.js',
      'dist/src/http/swagger-ui/LICENSE',
      'examples/shipments/metadata.csv',
      'demo/applications.json',
      'docs/SOURCES.md',
      'demo/boards/remoteok.json',
      'demo/boards/weworkremotely.xml',
      'data/directory.tsv.gz',
      'NOTICE',
    ]) {
      expect(files).toContain(file)
    }
    expect(
      files.filter((file) => /^(bin\/dev\.js|test\/|src\/|commands\/|bench\/|scripts\/|\.ci\/)/.test(file)),
    ).toEqual([])
    // The web page ships built: its TypeScript modules are bundled into app.js.
    expect(files.filter((file) => /^dist\/src\/web\/.*\.ts$|^dist\/src\/web\/tsconfig/.test(file))).toEqual([])
  })

  it('installs offline without the docs assets package or any analytics script', () => {
    expect(existsSync(join(prefix, 'node_modules/jobagent/dist/commands/status.js'))).toBe(true)
    expect(existsSync(join(prefix, 'node_modules/swagger-ui-dist'))).toBe(false)
    expect(existsSync(join(prefix, 'node_modules/@scarf/scarf'))).toBe(false)
    expect(existsSync(join(prefix, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'))).toBe(true)
  })

  it('runs from outside the repository: --version and status on a home that does not exist yet', async () => {
    const version = await jobagent('--version')
    expect(version.code, version.stderr).toBe(0)
    expect(version.stdout).toMatch(/^jobagent\/0\.1\.0 \S+ node-v\d+/)

    const status = await jobagent('status')
    expect(status.code, status.stderr).toBe(0)
    expect(status.stdout).toContain('No applications tracked yet')
    expect(existsSync(join(home, 'jobagent.db'))).toBe(true)

    // The plugin and the hook are loaded from the package too.
    const completion = await jobagent('autocomplete', 'script', 'bash')
    expect(completion.code, completion.stderr).toBe(0)
    expect(completion.stdout).toContain('JOBAGENT_AC_BASH_SETUP_PATH')
    const typo = await jobagent('statu')
    expect(typo.code).toBe(2)
    expect(typo.stderr).toContain('Did you mean "status"?')

    // The offline demo runs from the sample boards shipped in the package, and leaves the user's home alone.
    const demo = await jobagent('run', '--demo', '--json', '--quiet')
    expect(demo.code, demo.stderr).toBe(0)
    const summary = JSON.parse(demo.stdout)
    expect(summary).toMatchObject({status: 'ok', applications: {total: 5, applied: 4, pending: 1}})
    expect(summary.sources.filter((source: {ok: boolean}) => source.ok)).toHaveLength(7)
    expect(summary.jobs_found).toBeGreaterThan(40)
    expect(JSON.parse((await jobagent('status', '--json')).stdout)).toEqual([])

    // The directory of boards is read from the package, offline.
    const directory = await jobagent('boards', 'directory', '--ats', 'pinpoint', '--limit', '1', '--json')
    expect(directory.code, directory.stderr).toBe(0)
    expect(JSON.parse(directory.stdout)).toMatchObject({total: 45_708, matched: 244, boards: [{type: 'pinpoint'}]})
  }, 60_000)

  it('serves the docs page from the Swagger UI files in the package', async () => {
    const server = startCli(['serve', '--port', '0'], installed)
    try {
      const url = await new Promise<string>((resolveUrl, reject) => {
        server.child.stderr.on('data', () => {
          const match = /Listening on (http:\/\/\S+)/.exec(server.stderr())
          if (match?.[1]) resolveUrl(match[1])
        })
        server.child.on('exit', (code) => reject(new Error(`jobagent serve exited ${code}: ${server.stderr()}`)))
      })
      expect((await fetch(`${url}/docs`)).status).toBe(200)
      const bundle = await fetch(`${url}/docs/swagger-ui-bundle.js`)
      expect(bundle.status).toBe(200)
      expect((await bundle.text()).length).toBeGreaterThan(100_000)
    } finally {
      server.child.kill('SIGKILL')
    }
  }, 60_000)
})
