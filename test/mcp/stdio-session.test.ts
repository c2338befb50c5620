import {PassThrough} from 'node:stream'
import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js'
import {describe, expect, it} from 'vitest'
import {MAX_MESSAGE_BYTES, StdioSession} from '../../src/mcp/stdio-session.js'

/** A session on streams of its own, with every message it read and whether it closed. */
async function session() {
  const stdin = new PassThrough()
  const stdout = new PassThrough()
  const transport = new StdioSession(stdin, stdout)
  const messages: JSONRPCMessage[] = []
  let closed = false
  let ended = false
  transport.onmessage = (message) => {
    messages.push(message)
  }
  transport.onclose = () => {
    closed = true
  }
  transport.onend = () => {
    ended = true
  }
  await transport.start()
  return {stdin, stdout, transport, messages, closed: () => closed, ended: () => ended}
}

/** A request whose text is `bytes` long, newline excluded. */
function requestOf(bytes: number, id = 1): string {
  const empty = JSON.stringify({jsonrpc: '2.0', id, method: 'tools/call', params: {name: 'list_jobs', text: ''}})
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {name: 'list_jobs', text: 'x'.repeat(bytes - empty.length)},
  })
}

/** Writes `text` in chunks of `size` bytes, as a pipe delivers a long line. */
function writeInChunks(stdin: PassThrough, text: string, size: number): void {
  const bytes = Buffer.from(text)
  for (let start = 0; start < bytes.length; start += size) stdin.write(bytes.subarray(start, start + size))
}

describe('StdioSession', () => {
  it('reads messages split across chunks, several in one chunk, and CRLF line ends', async () => {
    const {stdin, messages} = await session()
    const [first, second, third] = [1, 2, 3].map((id) => requestOf(200, id))
    writeInChunks(stdin, `${first}\n${second}\r\n`, 7)
    stdin.write(`${third}\n`)
    await new Promise((resolve) => setImmediate(resolve))
    expect(messages.map((message) => (message as {id: number}).id)).toEqual([1, 2, 3])
  })

  it('reads a long message delivered in small chunks in linear time', async () => {
    const {stdin, messages} = await session()
    const text = requestOf(1024 * 1024)
    const started = performance.now()
    writeInChunks(stdin, `${text}\n`, 1024)
    await new Promise((resolve) => setImmediate(resolve))
    const took = performance.now() - started
    expect(messages).toHaveLength(1)
    // Joining and searching all that came so far again for every chunk (the SDK's buffer) takes many seconds here.
    expect(took).toBeLessThan(1000)
  })

  it('reads a message of exactly the limit', async () => {
    const {stdin, messages, ended} = await session()
    writeInChunks(stdin, `${requestOf(MAX_MESSAGE_BYTES)}\n`, 64 * 1024)
    await new Promise((resolve) => setImmediate(resolve))
    expect(messages).toHaveLength(1)
    expect(ended()).toBe(false)
  })

  it('says when the client has closed stdin, after the last whole message', async () => {
    const {stdin, messages, ended} = await session()
    stdin.end(`${requestOf(100, 1)}\n{"jsonrpc":`)
    await new Promise((resolve) => stdin.once('end', resolve))
    expect(messages).toHaveLength(1)
    expect(ended()).toBe(true)
  })

  it('stops reading at a message over the limit, says so, and keeps why as its failure', async () => {
    const {stdin, transport, messages, closed, ended} = await session()
    stdin.write(`${requestOf(100, 1)}\n`)
    writeInChunks(stdin, `${requestOf(MAX_MESSAGE_BYTES + 1, 2)}\n${requestOf(100, 3)}\n`, 64 * 1024)
    await new Promise((resolve) => setImmediate(resolve))
    expect(messages.map((message) => (message as {id: number}).id)).toEqual([1])
    expect(ended()).toBe(true)
    // Still open: the request read before is answered first.
    expect(closed()).toBe(false)
    const answered = transport.allAnswered(5000)
    await transport.send({jsonrpc: '2.0', id: 1, result: {}})
    await answered
    expect(transport.failure?.message).toBe(
      'a message from the MCP client is larger than 10 MB; the MCP server stopped',
    )
  })

  it('writes each message as one line of JSON', async () => {
    const {stdout, transport} = await session()
    await transport.send({jsonrpc: '2.0', id: 1, result: {}})
    expect(stdout.read().toString()).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n')
  })
})
