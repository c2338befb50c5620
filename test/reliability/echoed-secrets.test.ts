import {writeFileSync} from 'node:fs'
import type {IncomingMessage} from 'node:http'
import {join} from 'node:path'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {BIN, tempDir} from '../helpers/cli.js'
import {type MockServer, sendText, startMockServer} from '../helpers/mock-board.js'
import {runCommandLine} from '../helpers/run-command.js'

/**
 * Boards and channels that echo the request in their refusal (an HTML error page titled with the URL, an error
 * body quoting the URL and the Authorization header) put every configured secret into text jobagent quotes.
 */
const APP_ID = 'adzid5v8k2m4q'
const APP_KEY = 'adzkey9x7c3b1n6m'
const NTFY_TOKEN = 'tk_ntfy4h8j2k6l0p'
const HOOK_TOKEN = 'hooktok3f7g1h5j9'
const HOOK_KEY = 'hookkey2w4e6r8t0'
const HOOK_PASSWORD = 'hookpw8u6y4t2r'
const DISCORD_ID = '99887766554433'
const DISCORD_TOKEN = 'distok1q3w5e7r9t'
const HEALTHCHECK_UUID = '5f4c1b0e-97a4-4b7e-9d0c-2c3f8a61e2b7'
const BASIC = Buffer.from(`hookuser:${HOOK_PASSWORD}`).toString('base64')
const SECRETS = {
  APP_ID,
  APP_KEY,
  NTFY_TOKEN,
  HOOK_TOKEN,
  HOOK_KEY,
  HOOK_PASSWORD,
  DISCORD_ID,
  DISCORD_TOKEN,
  HEALTHCHECK_UUID,
  BASIC,
}

/** Every 8 characters of every secret: a quote cut at its limit must not leave the start of one either. */
function leaks(text: string): string[] {
  const found: string[] = []
  for (const [name, secret] of Object.entries(SECRETS)) {
    for (let start = 0; start + 8 <= secret.length; start++) {
      if (text.includes(secret.slice(start, start + 8))) {
        found.push(`${name} (${secret.slice(start, start + 8)})`)
        break
      }
    }
  }
  return found
}

/** What an echoing server says back: the request line, the Authorization header and what Basic credentials hold. */
function echo(req: IncomingMessage): string {
  const authorization = req.headers.authorization ?? ''
  const basic = /^Basic (.*)$/.exec(authorization)?.[1]
  const decoded = basic ? Buffer.from(basic, 'base64').toString('utf8') : ''
  return `${req.method} ${req.url} authorization: ${authorization} ${decoded}`
}

let server: MockServer
let home: {path: string; cleanup: () => void}
const healthcheckBodies: string[] = []

beforeAll(async () => {
  server = await startMockServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    const url = req.url ?? '/'
    if (url.startsWith('/adzuna/')) {
      // A bot wall whose title quotes the request; the key falls across the 80 characters a title is cut to.
      const title = `Denied ${'.'.repeat(60)} ${url.slice(url.indexOf('app_key=') + 'app_key='.length)} ${url}`
      sendText(res, `<!doctype html><html><head><title>${title}</title></head><body></body></html>`, 200, {
        'content-type': 'text/html',
      })
      return
    }
    if (url.startsWith(`/hc/${HEALTHCHECK_UUID}/start`)) {
      sendText(res, `no check at ${url}`, 400)
      return
    }
    if (url.startsWith('/hc/')) {
      healthcheckBodies.push(body)
      sendText(res, 'OK', 200)
      return
    }
    if (url.startsWith('/hooks/')) {
      // The token falls across the 200 characters a refusal is quoted to.
      sendText(res, `unknown webhook ${'.'.repeat(190 - 'unknown webhook '.length)} ${url.slice(7)} ${echo(req)}`, 404)
      return
    }
    sendText(res, `refused: ${echo(req)}`, 401)
  })
  home = tempDir('jobagent-echoed-secrets-')
  const jobsFile = join(home.path, 'jobs.json')
  writeFileSync(
    jobsFile,
    JSON.stringify([{title: 'Backend Engineer', company: 'Acme', location: 'Remote', url: 'https://acme.example/1'}]),
  )
  const host = server.url.replace('http://', '')
  const config = {
    sources: [
      {type: 'adzuna', url: `${server.url}/adzuna`, country: 'gb', app_id: APP_ID, app_key: APP_KEY},
      {type: 'file', path: jobsFile},
    ],
    notify: {
      urls: [
        `ntfy://${NTFY_TOKEN}@${host}/jobs`,
        `json://${host}/hooks/${HOOK_TOKEN}?key=${HOOK_KEY}`,
        `json://hookuser:${HOOK_PASSWORD}@${host}/basic`,
        `discord+http://${host}/api/webhooks/${DISCORD_ID}/${DISCORD_TOKEN}`,
      ],
    },
    run: {healthcheck_url: `${server.url}/hc/${HEALTHCHECK_UUID}`},
  }
  writeFileSync(join(home.path, 'config.json'), JSON.stringify(config), {mode: 0o600})
})

afterAll(async () => {
  await server.close()
  home.cleanup()
})

describe('secrets a board or channel echoes back', {timeout: 60_000}, () => {
  it('stay out of run --json, the run log and the log the healthcheck service gets', async () => {
    const result = await runCommandLine(['run', '--json', '--verbose'], {home: home.path})

    // The echoes did reach the run: the board's page title and each channel's refusal are quoted.
    expect(result.stderr).toMatch(/WARNING \| jobagent\.sources\.adzuna:gb \| .*HTML instead of JSON \("Denied/)
    expect(result.stderr).toMatch(/HTTP 401 Unauthorized: refused: POST \/jobs authorization: Bearer \*\*\*/)
    expect(result.stderr).toContain('HTTP 404 Not Found: unknown webhook')
    const summary = JSON.parse(result.stdout)
    expect(summary.notifications.channels).toHaveLength(4)
    expect(healthcheckBodies.length).toBeGreaterThan(0)
    expect(leaks(result.stdout)).toEqual([])
    expect(leaks(result.stderr)).toEqual([])
    expect(leaks(healthcheckBodies.join('\n'))).toEqual([])
  })

  it('stay out of notify test, as text and as JSON', async () => {
    const text = await runCommandLine(['notify', 'test'], {home: home.path})
    const json = await runCommandLine(['notify', 'test', '--json'], {home: home.path})

    expect(text.code).toBe(1)
    expect(text.stdout).toContain('refused: POST')
    expect(JSON.parse(json.stdout).channels).toHaveLength(4)
    for (const output of [text.stdout, text.stderr, json.stdout, json.stderr]) expect(leaks(output)).toEqual([])
  })

  it('stay out of the answer of the MCP tool search_jobs', async () => {
    const client = new Client({name: 'test', version: '1.0.0'})
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp'],
        env: {PATH: process.env.PATH ?? '', HOME: home.path, JOBAGENT_HOME: home.path, NO_COLOR: '1'},
        stderr: 'pipe',
      }),
    )
    try {
      const result = await client.callTool({name: 'search_jobs', arguments: {}})
      const text = JSON.stringify(result)
      expect(text).toContain('HTML instead of JSON')
      expect(leaks(text)).toEqual([])
    } finally {
      await client.close()
    }
  })
})
