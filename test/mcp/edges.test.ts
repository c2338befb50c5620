import {existsSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {afterEach, describe, expect, it} from 'vitest'
import {BIN, runCli, startCli, tempDir} from '../helpers/cli.js'
import {startMockServer} from '../helpers/mock-board.js'
import {DAY_AFTER_SEEDING} from '../helpers/tracker.js'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'raw', version: '1'}},
}
const INITIALIZED = {jsonrpc: '2.0', method: 'notifications/initialized'}
const line = (message: unknown) => `${JSON.stringify(message)}\n`

/** An MCP client of `jobagent mcp` on `home`, with what the server wrote on stderr. */
async function connect(home: string): Promise<{client: Client; stderr: () => string}> {
  let stderr = ''
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: join(home, '..'),
      JOBAGENT_HOME: home,
      NO_COLOR: '1',
      ...DAY_AFTER_SEEDING,
    },
    stderr: 'pipe',
  })
  transport.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const client = new Client({name: 'jobagent-test', version: '1.0.0'})
  await client.connect(transport)
  cleanups.push(() => client.close())
  return {client, stderr: () => stderr}
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({name, arguments: args})) as CallToolResult
}

function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')
}

async function readError(client: Client, uri: string): Promise<{code: unknown; message: string}> {
  try {
    await client.readResource({uri})
  } catch (error) {
    return {code: (error as {code?: unknown}).code, message: (error as Error).message}
  }
  throw new Error(`${uri} was read`)
}

describe('jobagent mcp on a fresh home', () => {
  it('answers the reading tools and resources from an empty tracker and creates no file or directory', async () => {
    const parent = tempDir('jobagent-mcp-fresh-')
    cleanups.push(parent.cleanup)
    const home = join(parent.path, 'home')
    const {client} = await connect(home)

    const jobs = await call(client, 'list_jobs')
    expect(jobs.isError).toBeFalsy()
    expect(jobs.structuredContent).toMatchObject({run: null, jobs: [], count: 0, total: 0})
    expect((await call(client, 'list_applications')).structuredContent).toMatchObject({count: 0, total: 0})
    expect((await call(client, 'list_followups')).structuredContent).toMatchObject({count: 0})
    expect((await call(client, 'list_interviews', {all: true})).structuredContent).toEqual({interviews: [], count: 0})
    expect((await call(client, 'stats')).structuredContent).toMatchObject({total: 0})
    expect(textOf(await call(client, 'get_job', {job_id: 1}))).toMatch(/^Error: no job with id 1\n/)
    expect(textOf(await call(client, 'get_application', {application: '1'}))).toMatch(/^Error: no application #1\n/)
    const digest = await client.readResource({uri: 'jobagent://digest/latest'})
    expect(digest.contents).toHaveLength(1)
    expect((await readError(client, 'jobagent://jobs/1')).message).toContain('Error: no job with id 1')

    expect(existsSync(home)).toBe(false)
  })

  it('reads what a change wrote once the change has made the tracker', async () => {
    const parent = tempDir('jobagent-mcp-fresh-')
    cleanups.push(parent.cleanup)
    const home = join(parent.path, 'home')
    const {client} = await connect(home)
    expect((await call(client, 'list_applications')).structuredContent).toMatchObject({count: 0})
    const job = {url: 'https://acme.example/jobs/1', title: 'Backend Engineer', company: 'Acme', source: 'manual'}
    const tracked = await call(client, 'track_job', job)
    expect(tracked.isError).toBeFalsy()
    expect(existsSync(join(home, 'jobagent.db'))).toBe(true)
    const listed = await call(client, 'list_applications')
    expect(listed.structuredContent).toMatchObject({count: 1, applications: [{id: 1, company: 'Acme'}]})
  })
})

describe('jobagent mcp resources', () => {
  it('answers a URI whose id is not percent-encoded with a mistake naming the id, never a bug', async () => {
    const home = tempDir('jobagent-mcp-uri-')
    cleanups.push(home.cleanup)
    const {client, stderr} = await connect(home.path)
    for (const uri of ['jobagent://jobs/%', 'jobagent://applications/%E0%A4%A']) {
      const {code, message} = await readError(client, uri)
      expect(code).toBe(-32602)
      expect(message).toMatch(/^MCP error -32602: Error: the id in the URI is not percent-encoded: "%/)
      expect(message).toMatch(/\nHint: /)
      expect(message).not.toContain('bug')
    }
    expect(stderr()).not.toContain('unexpected failure')
  })

  it('says "MCP error" once, with the code of a resource that does not exist', async () => {
    const home = tempDir('jobagent-mcp-uri-')
    cleanups.push(home.cleanup)
    const {client} = await connect(home.path)
    const {code, message} = await readError(client, 'jobagent://applications/77')
    expect(code).toBe(-32002)
    expect(message).toBe(
      'MCP error -32002: Error: no application #77\nHint: list tracked applications with their ids: jobagent status',
    )
  })
})

/** `jobagent mcp` as a client starts it, with the messages it wrote and how it ended. */
function startMcp(home: string) {
  // The test's own clock, as every spawned jobagent takes it; nothing here depends on the date.
  const mcp = startCli(['mcp'], {home, env: DAY_AFTER_SEEDING, timeoutMs: 60_000})
  cleanups.push(() => {
    mcp.child.kill('SIGKILL')
  })
  const answers = () =>
    mcp
      .stdout()
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text) as {id?: number; result?: CallToolResult})
  return {child: mcp.child, exited: mcp.exited, answers, stderr: mcp.stderr}
}

describe('jobagent mcp as a process', () => {
  it('stops a search at once when the client closes stdin, answers it, and retries no board', async () => {
    const home = tempDir('jobagent-mcp-stop-')
    cleanups.push(home.cleanup)
    // A board that asks to be tried again in 30 s: a search left running would hold the process that long.
    const board = await startMockServer((_req, res) => {
      res.writeHead(503, {'retry-after': '30', 'content-type': 'application/json'})
      res.end('{}')
    })
    cleanups.push(board.close)
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({sources: [{type: 'remoteok', url: board.url}]}))
    const mcp = startMcp(home.path)
    const search = {jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'search_jobs', arguments: {}}}
    mcp.child.stdin.write(line(INITIALIZE) + line(INITIALIZED) + line(search))
    await expect.poll(() => board.requests.length, {timeout: 15_000}).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 200))

    const closed = performance.now()
    mcp.child.stdin.end()
    const {code, at} = await mcp.exited
    expect(code).toBe(0)
    expect(at - closed).toBeLessThan(5000)
    expect(board.requests).toHaveLength(1)
    const answer = mcp.answers().find((message) => message.id === 2)
    expect(answer?.result?.isError).toBe(true)
    expect(textOf(answer?.result as CallToolResult)).toMatch(/^Error: the client closed stdin; the search was stopped/)
  }, 60_000)

  it('stops with exit 2 and an error naming the limit when a message is over 10 MB, after answering the ones before', async () => {
    const home = tempDir('jobagent-mcp-large-')
    cleanups.push(home.cleanup)
    const before = {jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'list_applications', arguments: {}}}
    const huge = {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: {name: 'list_jobs', arguments: {search: 'x'.repeat(11 * 1024 * 1024)}},
    }
    const input = line(INITIALIZE) + line(INITIALIZED) + line(before) + line(huge)
    const result = await runCli(['mcp'], {home: home.path, input})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Error: a message from the MCP client is larger than 10 MB')
    expect(result.stderr).toMatch(/\nHint: /)
    const answers = result.stdout.split('\n').filter(Boolean)
    expect(answers.map((text) => JSON.parse(text).id)).toEqual([1, 2])
  })
})
