import {execFile, execFileSync, spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {type CliResult, IMPORT_EXAMPLE_SHIPMENTS, ROOT, runCli, tempDir} from '../helpers/cli.js'
import {serveBuilt} from '../helpers/serve.js'
import {mountSmallFilesystem, tmpfsUnavailable} from '../helpers/tmpfs.js'
import {scrapeWorkers, serveWorkers} from '../helpers/workers.js'
import {waitFor} from '../ui/harness.js'

/**
 * The single executable of `npm run package`, as a user gets it: the one file copied into an empty directory and
 * run from there with a PATH that holds no node (an empty directory) and an empty HOME and JOBAGENT_HOME. The
 * executable is built once here, after `npm test`'s build, and a second one under another version at the same time.
 */

const EXECUTABLE = `jobagent-${process.platform}-${process.arch}`
const addonFile = createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node')
const addonHash = createHash('sha256').update(readFileSync(addonFile)).digest('hex')
/** The uid and gid of `nobody`, the other user of the cache tests. */
const NOBODY = 65534
const hasTmux = spawnSync('sh', ['-c', 'command -v tmux']).status === 0
if (!hasTmux) console.warn('skipping the dashboard check of the single executable: tmux is not installed')

let work: ReturnType<typeof tempDir>
/** The directory holding nothing but the executable, and the one run from it. */
let dir: string
let executable: string
let home: string
let data: string
let emptyPath: string

/** What `npm run package` printed when it built the executable under test. */
let packaged: {stdout: string; stderr: string}

/** Builds the executable into `output` with `npm run package`'s script; resolves with what it printed. */
function build(output: string, version?: string): Promise<{stdout: string; stderr: string}> {
  const args = ['scripts/package.js', '--output', output, ...(version ? ['--version', version] : [])]
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, {cwd: ROOT, encoding: 'utf8'}, (error, stdout, stderr) => {
      if (error) reject(new Error(`npm run package failed: ${stdout}${stderr}`))
      else resolve({stdout, stderr})
    })
  })
}

/** The executable with nothing of the machine's: no node on PATH, empty home and data directories. */
function run(
  args: readonly string[],
  options: {program?: string; input?: string; env?: Record<string, string>} = {},
): Promise<CliResult> {
  return runCli(args, {
    home: data,
    cwd: dir,
    program: [options.program ?? executable],
    env: {PATH: emptyPath, HOME: home, ...options.env},
    timeoutMs: 60_000,
    ...(options.input === undefined ? {} : {input: options.input}),
  })
}

function cachedAddons(cacheHome: string): string[] {
  const cache = join(cacheHome, '.cache', 'jobagent')
  return existsSync(cache) ? readdirSync(cache).sort() : []
}

/** The executable under another version, built beside the first: both builds wait on their own processes. */
let otherExecutable: string
let otherBuilt: Promise<unknown>

beforeAll(async () => {
  work = tempDir('jobagent-binary-')
  const built = join(work.path, 'build', EXECUTABLE)
  otherExecutable = join(work.path, 'next', 'jobagent')
  otherBuilt = build(otherExecutable, '0.1.0-next')
  // A failure is the last test's to report; the first build's failure fails every test here.
  otherBuilt.catch(() => {})
  packaged = await build(built)
  dir = join(work.path, 'run')
  home = join(work.path, 'home')
  data = join(work.path, 'data')
  emptyPath = join(work.path, 'empty-bin')
  for (const made of [dir, home, data, emptyPath]) mkdirSync(made)
  executable = join(dir, 'jobagent')
  copyFileSync(built, executable)
}, 180_000)

afterAll(async () => {
  await otherBuilt?.catch(() => {})
  work?.cleanup()
})

describe('the single executable', () => {
  it('runs serve --workers 2: both workers start from the executable and answer', async () => {
    // Homes of its own: the library cache and the tracker the workers write must not be there for the tests below.
    const ownHome = join(work.path, 'workers-home')
    mkdirSync(ownHome)
    const served = await serveWorkers(ownHome, 2, {PATH: emptyPath}, {program: [executable], cwd: dir})
    try {
      expect([...(await scrapeWorkers(served.url, 2)).keys()].sort()).toEqual(['1', '2'])
      process.kill(served.pid, 'SIGTERM')
      expect(await served.exit).toEqual({code: 0, signal: null})
    } finally {
      await served.stop()
    }
  })

  it('is built quietly: one line saying what was written', () => {
    expect(packaged.stderr).toBe('')
    expect(packaged.stdout).toMatch(/^wrote \S+ \(\d+\.\d MB\) in \d+\.\d s\n$/)
  })

  it('is one file that runs without Node.js on the PATH and prints its version and help', async () => {
    expect(spawnSync('sh', ['-c', 'command -v node'], {env: {PATH: emptyPath}}).status).not.toBe(0)
    expect(readdirSync(dir)).toEqual(['jobagent'])

    const version = await run(['--version'])
    expect(version.code).toBe(0)
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {version: string}
    expect(version.stdout).toContain(`jobagent/${pkg.version} ${process.platform}-${process.arch}`)
    const verbose = await run(['--version', '--verbose'])
    expect(verbose.code).toBe(0)
    expect(verbose.stdout).toContain('O*NET 29.3 Database by the U.S. Department of Labor')
    expect(verbose.stdout).toBe(`${version.stdout}\n${readFileSync(join(ROOT, 'NOTICE'), 'utf8').trimEnd()}\n`)

    const help = await run(['--help'])
    expect(help.code).toBe(0)
    const npmHelp = await runCli(['--help'], {home: data})
    expect(help.stdout).toBe(npmHelp.stdout)
    for (const word of ['TOPICS', 'config', 'shipment', 'COMMANDS', 'autocomplete', 'serve', 'ui'])
      expect(help.stdout).toContain(word)
    expect((await run(['shipment', '--help'])).stdout).toBe((await runCli(['shipment', '--help'], {home: data})).stdout)
  })

  it('reads the directory of boards from its assets, offline', async () => {
    const listed = await run(['boards', 'directory', '--ats', 'pinpoint', '--limit', '1'])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toMatch(/^SOURCE\s+ATS\s+COMPANY\s+LINK\npinpoint:\S+\s+Pinpoint\s/)
    expect(listed.stdout).toContain('… and 243 more on pinpoint')
    const found = await run(['boards', 'find', 'Airbnb', '--json'])
    expect(found.code, found.stderr).toBe(0)
    expect(JSON.parse(found.stdout).boards).toEqual([
      expect.objectContaining({name: 'greenhouse:airbnb', from: 'directory'}),
    ])
  })

  it('serves MCP on stdio: answers initialize and lists the tools, then exits when stdin closes', async () => {
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'raw', version: '1'}},
      },
      {jsonrpc: '2.0', method: 'notifications/initialized'},
      {jsonrpc: '2.0', id: 2, method: 'tools/list'},
    ]
    const mcp = await run(['mcp'], {input: messages.map((message) => `${JSON.stringify(message)}\n`).join('')})
    expect(mcp.code).toBe(0)
    const answers = mcp.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(answers[0]).toMatchObject({id: 1, result: {serverInfo: {name: 'jobagent'}}})
    expect(answers[1].result.tools.map((tool: {name: string}) => tool.name)).toContain('update_status')
  })

  it('writes better-sqlite3 to a cache directory named by version and hash, 0700, and loads it from there', async () => {
    expect(cachedAddons(home)).toEqual([])
    const status = await run(['status', '--json'])
    expect(status.stderr).toBe('')
    expect(status.code).toBe(0)
    expect(JSON.parse(status.stdout)).toEqual([])

    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {version: string}
    const cacheDir = join(home, '.cache', 'jobagent', `${pkg.version}-${addonHash.slice(0, 16)}`)
    expect(cachedAddons(home)).toEqual([`${pkg.version}-${addonHash.slice(0, 16)}`])
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700)
    const cached = join(cacheDir, 'better_sqlite3.node')
    expect(createHash('sha256').update(readFileSync(cached)).digest('hex')).toBe(addonHash)
    expect(readdirSync(cacheDir)).toEqual(['better_sqlite3.node'])
  })

  it('says where to point the cache when the library cannot be written there', async () => {
    const notADirectory = join(work.path, 'a-file')
    writeFileSync(notADirectory, '')
    const status = await run(['status'], {env: {XDG_CACHE_HOME: notADirectory}})
    expect(status.code).toBe(1)
    expect(status.stderr).toContain(
      `Error: SQLite's library cannot be kept in the cache: cannot create the directory ${notADirectory}: a file of that name is in the way`,
    )
    expect(status.stderr).toContain('Hint: point XDG_CACHE_HOME at a directory you can write to')
    expect(status.stderr).not.toMatch(/\n\s+at /)
  })

  it('refuses a cache directory other users can write to, and writes nothing into it', async () => {
    const shared = join(work.path, 'shared-cache')
    mkdirSync(shared)
    chmodSync(shared, 0o1777)
    const status = await run(['status'], {env: {XDG_CACHE_HOME: shared}})
    expect(status.code).toBe(1)
    expect(status.stderr).toContain(
      `Error: refusing the cache directory ${shared}: other users can write to it (mode 1777), and could replace the SQLite library jobagent loads from it`,
    )
    expect(status.stderr).toContain(`Hint: remove their write permission (chmod go-w ${shared})`)
    expect(readdirSync(shared)).toEqual([])
  })

  it.skipIf(process.geteuid?.() !== 0)('refuses a cache directory of another user, as root too', async () => {
    const theirs = join(work.path, 'their-cache')
    mkdirSync(theirs, {mode: 0o755})
    chownSync(theirs, NOBODY, NOBODY)
    const status = await run(['status'], {env: {XDG_CACHE_HOME: theirs}})
    expect(status.code).toBe(1)
    expect(status.stderr).toContain(
      `Error: refusing the cache directory ${theirs}: it belongs to another user (uid ${NOBODY}; you are uid 0)`,
    )
    expect(status.stderr).toContain('Hint: point XDG_CACHE_HOME at a directory of your own')
    expect(readdirSync(theirs)).toEqual([])
  })

  it('ignores a relative XDG_CACHE_HOME, as the XDG spec says, and uses ~/.cache', async () => {
    const otherHome = join(work.path, 'relative-home')
    mkdirSync(otherHome)
    const status = await run(['status', '--json'], {env: {HOME: otherHome, XDG_CACHE_HOME: 'relative-cache'}})
    expect(status.stderr).toBe('')
    expect(status.code).toBe(0)
    expect(cachedAddons(otherHome)).toHaveLength(1)
    expect(readdirSync(dir)).toEqual(['jobagent'])
  })

  it.skipIf(tmpfsUnavailable !== undefined)('says a read-only cache is read-only', async () => {
    const disk = mountSmallFilesystem(64)
    try {
      disk.remountReadOnly()
      const status = await run(['status'], {env: {XDG_CACHE_HOME: disk.path}})
      expect(status.code).toBe(1)
      expect(status.stderr).toContain(
        `cannot create the directory ${join(disk.path, 'jobagent')}: read-only file system`,
      )
      expect(status.stderr).not.toContain('no such file')
      expect(status.stderr).toContain('Hint: point XDG_CACHE_HOME at a directory you can write to')
    } finally {
      disk.unmount()
    }
  })

  it('does not follow a symbolic link in place of the library, even to a good copy: it writes a file of its own', async () => {
    const [ownDir = ''] = cachedAddons(home)
    const cached = join(home, '.cache', 'jobagent', ownDir, 'better_sqlite3.node')
    const elsewhere = join(work.path, 'good-copy.node')
    copyFileSync(cached, elsewhere)
    rmSync(cached)
    symlinkSync(elsewhere, cached)
    const status = await run(['status', '--json'])
    expect(status.stderr).toBe('')
    expect(status.code).toBe(0)
    expect(lstatSync(cached).isFile()).toBe(true)
    expect(createHash('sha256').update(readFileSync(cached)).digest('hex')).toBe(addonHash)
  })

  it('runs the demo, tracks an application, lists it and exports it', async () => {
    const demo = await run(['run', '--demo'])
    expect(demo.code).toBe(0)
    expect(demo.stderr).toMatch(/Job Search Agent v\S+ starting/)
    expect(demo.stdout).toMatch(/Demo finished: \d+ jobs on 7 sample boards/)
    // What the demo points at works with the executable alone.
    expect(demo.stdout).toContain('see jobagent help sources')
    const topic = await run(['help', 'sources'])
    expect(topic.code).toBe(0)
    expect(topic.stdout).toMatch(/^ {2}greenhouse +boards: /m)

    const url = 'https://example.org/jobs/binary'
    const apply = await run(['apply', url, '--title', 'Backend Engineer', '--company', 'Acme', '--source', 'referral'])
    expect(apply.code).toBe(0)

    const status = await run(['status', '--json'])
    expect(status.code).toBe(0)
    expect(JSON.parse(status.stdout)).toMatchObject([
      {url, title: 'Backend Engineer', company: 'Acme', status: 'applied'},
    ])

    const output = join(work.path, 'applications.csv')
    const exported = await run(['export-csv', '--output', output])
    expect(exported.code).toBe(0)
    expect(exported.stdout).toContain(output)
    expect(readFileSync(output, 'utf8')).toMatch(
      /^title,company,location,url,source,applied_date,status,notes,id,salary_expected,salary_offered,referral,contacts\r?\nBackend Engineer,Acme,/,
    )
  })

  it('serves the shipments alone, configured by its environment, on a home that does not exist', async () => {
    const store = `sqlite://${join(work.path, 'fleet.db')}`
    const stores = {JOBAGENT_SHIPMENT_METADATA_URL: store, JOBAGENT_SHIPMENT_TELEMETRY_URL: store}
    expect((await run(IMPORT_EXAMPLE_SHIPMENTS, {env: stores})).code).toBe(0)
    const absent = join(work.path, 'absent-home')
    const server = await serveBuilt(
      absent,
      {PATH: emptyPath, HOME: home, ...stores},
      {program: [executable], cwd: dir, args: ['--only', 'shipments']},
    )
    try {
      expect((await fetch(`${server.url}/health/live`)).status).toBe(200)
      const ready = await fetch(`${server.url}/health/ready`)
      expect(ready.status).toBe(200)
      expect(Object.keys(((await ready.json()) as {checks: object}).checks)).toEqual([
        'shipments_metadata',
        'shipments_telemetry',
      ])
      const unified = await fetch(`${server.url}/shipments/SHP-1001/unified`)
      expect(await unified.json()).toMatchObject({shipment_id: 'SHP-1001', metadata: {carrier: 'Nordline'}})
      expect((await fetch(`${server.url}/applications`)).status).toBe(404)
    } finally {
      await server.stop()
    }
    expect(existsSync(absent)).toBe(false)
  })

  it('imports the example shipments, shows one and serves the API, the web page and the docs', async () => {
    const imported = await run(IMPORT_EXAMPLE_SHIPMENTS)
    expect(imported.code).toBe(0)
    const shown = await run(['shipment', 'show', 'SHP-1001', '--json'])
    expect(shown.code).toBe(0)
    expect(JSON.parse(shown.stdout)).toMatchObject({shipment_id: 'SHP-1001', metadata: {carrier: 'Nordline'}})

    const server = await serveBuilt(data, {PATH: emptyPath, HOME: home}, {program: [executable], cwd: dir})
    try {
      const health = await fetch(`${server.url}/health`)
      expect(health.status).toBe(200)
      expect(((await health.json()) as {status: string}).status).toMatch(/^(pass|warn)$/)
      expect(await (await fetch(server.url)).json()).toMatchObject({service: 'jobagent', docs: '/docs'})

      const page = await fetch(server.url, {headers: {accept: 'text/html'}})
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
      const html = await page.text()
      // The built page (scripts/bundle-web.js): index.html as written, the modules bundled into app.js.
      expect(html).toBe(readFileSync(join(ROOT, 'src', 'web', 'index.html'), 'utf8'))
      const script = await fetch(`${server.url}/app.js`)
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
      expect(await script.text()).toBe(readFileSync(join(ROOT, 'dist', 'src', 'web', 'app.js'), 'utf8'))

      expect(await (await fetch(`${server.url}/docs`)).text()).toContain('swagger-ui-bundle.js')
      const css = await fetch(`${server.url}/docs/swagger-ui.css`)
      expect(css.status).toBe(200)
      expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
      const bundle = await fetch(`${server.url}/docs/swagger-ui-bundle.js`)
      expect(Number(bundle.headers.get('content-length'))).toBeGreaterThan(100_000)
      expect(((await (await fetch(`${server.url}/openapi.json`)).json()) as {openapi: string}).openapi).toMatch(/^3\./)

      const unified = await fetch(`${server.url}/shipments/SHP-1001/unified`)
      expect(unified.status).toBe(200)
      expect(await unified.json()).toMatchObject({shipment_id: 'SHP-1001', telemetry: {payload: {event: 'delivered'}}})
      const missing = await fetch(`${server.url}/shipments/SHP-9999/unified`)
      expect(missing.status).toBe(404)
    } finally {
      await server.stop()
    }
  })

  it("carries React's production build only, as the dashboard's packages choose under NODE_ENV=production", () => {
    const program = readFileSync(executable)
    // A warning only React's development build has.
    expect(program.includes('Each child in a list should have a unique')).toBe(false)
    expect(program.includes('react.development')).toBe(false)
  })

  it.skipIf(!hasTmux)('draws the dashboard in a terminal', async () => {
    const socket = join(work.path, 'tmux.sock')
    const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], {encoding: 'utf8'})
    const variables = {PATH: emptyPath, HOME: home, JOBAGENT_HOME: data, TERM: 'xterm-256color'}
    const assignments = Object.entries(variables).map(([name, value]) => `${name}=${JSON.stringify(value)}`)
    try {
      tmux(
        'new-session',
        '-d',
        '-x',
        '80',
        '-y',
        '24',
        '-s',
        'ui',
        '-c',
        dir,
        `env -i ${assignments.join(' ')} ./jobagent ui`,
      )
      const pane = () => tmux('capture-pane', '-p', '-t', 'ui')
      await waitFor(
        () => /Applications 1/.test(pane()),
        () => `the dashboard's first frame:\n${pane()}`,
        30_000,
      )
      expect(pane().split('\n')[0]).toMatch(/^ Jobs \d+ +Applications 1 /)
      tmux('send-keys', '-t', 'ui', 'Tab')
      await waitFor(
        () => pane().includes('Backend Engineer'),
        () => `the applications view:\n${pane()}`,
        10_000,
      )
      tmux('send-keys', '-t', 'ui', 'q')
    } finally {
      spawnSync('tmux', ['-S', socket, 'kill-server'])
    }
  })

  it('replaces a damaged cached library, and an executable of another version keeps its own', async () => {
    const [ownDir = ''] = cachedAddons(home)
    const cached = join(home, '.cache', 'jobagent', ownDir, 'better_sqlite3.node')
    writeFileSync(cached, 'not a library')
    const status = await run(['status', '--json'])
    expect(status.code).toBe(0)
    expect(createHash('sha256').update(readFileSync(cached)).digest('hex')).toBe(addonHash)

    const other = otherExecutable
    await otherBuilt
    const otherStatus = await run(['status', '--json'], {program: other})
    expect(otherStatus.code).toBe(0)
    expect(JSON.parse(otherStatus.stdout)).toHaveLength(1)
    expect((await run(['--version'], {program: other})).stdout).toContain('jobagent/0.1.0-next')
    expect(cachedAddons(home)).toEqual([ownDir, `0.1.0-next-${addonHash.slice(0, 16)}`].sort())
    // The first executable still loads its own copy, untouched by the second.
    expect((await run(['status', '--json'])).code).toBe(0)
  }, 120_000)
})
