import type {Readable, Writable} from 'node:stream'
import {deserializeMessage, serializeMessage} from '@modelcontextprotocol/sdk/shared/stdio.js'
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js'
import {ValidationError} from '../core/errors.js'

/** The most one message from the client may hold, newline excluded. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024

const NEWLINE = 0x0a
const LIMIT = `${MAX_MESSAGE_BYTES / (1024 * 1024)} MB`

/**
 * MCP's stdio transport: one JSON-RPC message per line on stdin and stdout, read and written with the SDK's own
 * message functions. The SDK's transport joins everything buffered again for each chunk that arrives, so a message
 * of a few MB took seconds; here each chunk is searched for a newline once and a line is joined once. It also keeps
 * what an orderly end needs: the requests read and not yet answered, so the server can answer them before it
 * stops, and `failure`, the reason it stopped reading on its own (a message over MAX_MESSAGE_BYTES).
 */
export class StdioSession implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void
  /** Reading has ended: the client closed stdin, or sent a message over the limit (`failure` says so). */
  onend?: () => void
  /** Why the session stopped reading before the client closed stdin; undefined otherwise. */
  failure: ValidationError | undefined
  /** The parts of the line being read, and their length in bytes. */
  private parts: Buffer[] = []
  private size = 0
  private readonly unanswered = new Set<RequestId>()
  private whenAnswered: (() => void) | undefined
  /** No more is read: stdin ended, a message was too large, or the session closed. */
  private ended = false
  private closed = false

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.read)
    this.stdin.on('error', this.fail)
    this.stdin.once('end', this.end)
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.stdout.write(serializeMessage(message))) {
      await new Promise<void>((resolve) => this.stdout.once('drain', resolve))
    }
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) this.answered(message.id)
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.stopReading()
    this.onclose?.()
  }

  /** Resolves once every request read so far is answered, or after `deadlineMs`, whichever comes first. */
  allAnswered(deadlineMs: number): Promise<void> {
    if (this.unanswered.size === 0) return Promise.resolve()
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, deadlineMs)
      this.whenAnswered = () => {
        clearTimeout(timer)
        resolve()
      }
    })
  }

  private stopReading(): void {
    this.ended = true
    this.stdin.off('data', this.read)
    this.stdin.off('error', this.fail)
    this.stdin.off('end', this.end)
    // Nothing else reads stdin: paused, it no longer keeps the process alive.
    this.stdin.pause()
    this.parts = []
    this.size = 0
  }

  private readonly end = (): void => {
    if (this.ended) return
    this.stopReading()
    this.onend?.()
  }

  private readonly read = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    let start = 0
    for (let end = bytes.indexOf(NEWLINE); end !== -1 && !this.ended; end = bytes.indexOf(NEWLINE, start)) {
      this.take(bytes.subarray(start, end))
      this.endLine()
      start = end + 1
    }
    if (start < bytes.length) this.take(bytes.subarray(start))
  }

  private take(part: Buffer): void {
    if (this.ended || part.length === 0) return
    this.size += part.length
    if (this.size > MAX_MESSAGE_BYTES) {
      this.failure = new ValidationError(
        `a message from the MCP client is larger than ${LIMIT}; the MCP server stopped`,
        {
          hint: `send less in one request (at most ${LIMIT}): ask for fewer items, or give a path or URL instead of the content`,
        },
      )
      this.end()
      return
    }
    this.parts.push(part)
  }

  private endLine(): void {
    if (this.ended) return
    const bytes = this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts, this.size)
    this.parts = []
    this.size = 0
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length
    if (end === 0) return
    let message: JSONRPCMessage
    try {
      message = deserializeMessage(bytes.toString('utf8', 0, end))
    } catch (error) {
      // As the SDK's transport does: the line is reported and skipped, the session goes on.
      this.onerror?.(error as Error)
      return
    }
    if (isJSONRPCRequest(message)) this.unanswered.add(message.id)
    // A cancelled request is never answered (the SDK drops its answer): nothing to wait for.
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      this.answered((message.params as {requestId?: RequestId} | undefined)?.requestId)
    }
    this.onmessage?.(message)
  }

  private readonly fail = (error: Error): void => {
    this.onerror?.(error)
  }

  private answered(id: RequestId | undefined): void {
    if (id === undefined) return
    this.unanswered.delete(id)
    if (this.unanswered.size === 0) this.whenAnswered?.()
  }
}
