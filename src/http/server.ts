import {createServer, maxHeaderSize, type Server, STATUS_CODES} from 'node:http'
import type {AddressInfo, Socket} from 'node:net'
import {getRequestListener} from '@hono/node-server'
import {UnavailableError} from '../core/errors.js'
import type {Logger} from '../core/logger.js'
import {errorBody} from './errors.js'
import {requestHost} from './middleware/request-origin.js'
import {API_SECURITY_HEADERS} from './security-headers.js'

interface ServerOptions {
  host: string
  port: number
  logger: Logger
  /** How long a shutdown waits for requests in flight before it closes their connections. */
  shutdownTimeoutMs?: number
  /** Called as the shutdown begins, to end answers that never finish by themselves (event streams). */
  onClose?: () => void
  /** Called when the shutdown's wait is over and the connections still open are closed, to stop their work. */
  onForce?: () => void
}

export interface RunningServer {
  /** `http://127.0.0.1:8080`, with the port actually bound (port 0 picks a free one). */
  readonly url: string
  readonly port: number
  readonly server: Server
  /** Requests being answered right now. */
  inFlight(): number
  /** Stops accepting, lets requests in flight finish (up to the bound), then closes every connection. */
  close(): Promise<void>
}

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000

function baseUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`
}

function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new UnavailableError(`port ${port} on ${host} is already in use; choose another with --port`, {
        cause: error,
      })
    case 'EACCES':
      return new UnavailableError(`no permission to listen on port ${port} on ${host}`, {
        cause: error,
        hint: 'ports below 1024 need privileges; choose another with --port',
      })
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new UnavailableError(`cannot listen on ${host}: it is not an address of this machine`, {
        cause: error,
        hint: 'use 127.0.0.1 (this machine only) or 0.0.0.0 (every interface) with --host',
      })
    default:
      return new UnavailableError(`cannot listen on ${host}:${port}: ${error.message}`, {cause: error})
  }
}

/** What node's parser found wrong with a request, as the status and error body the API answers with. */
function parserError(error: NodeJS.ErrnoException): {status: number; code: string; message: string} {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        code: 'request_header_fields_too_large',
        message: `the request line and headers are larger than ${maxHeaderSize / 1024} KiB`,
      }
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {status: 413, code: 'payload_too_large', message: 'the chunk extensions of the request body are too large'}
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {status: 408, code: 'request_timeout', message: 'the request was not received in time'}
    default:
      return {
        status: 400,
        code: 'bad_request',
        message: `the request is not valid HTTP/1.1 (${error.code ?? 'parse error'})`,
      }
  }
}

/**
 * Node answers a request its parser rejects (malformed, headers too large) with a bare status line before any
 * route sees it; this sends the API's JSON error body and security headers instead, then closes the connection.
 * A socket already answering a request (its response started) or gone is only destroyed, as node does.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket, logger: Logger): void {
  const responding = (socket as Socket & {_httpMessage?: {headersSent?: boolean}})._httpMessage?.headersSent
  if (error.code === 'ECONNRESET' || !socket.writable || responding) {
    socket.destroy()
    return
  }
  const {status, code, message} = parserError(error)
  logger.debug(`refused a request node could not parse: ${status} ${message}`)
  const body = JSON.stringify(errorBody(code, message))
  const headers = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    ...Object.entries(API_SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`),
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ]
  socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`)
}

/** Starts the app on @hono/node-server and logs the address; a port in use is an UnavailableError, not a crash. */
export async function startServer(
  app: {fetch: (request: Request) => Response | Promise<Response>},
  options: ServerOptions,
): Promise<RunningServer> {
  const listener = getRequestListener(app.fetch)
  let active = 0
  // One function for every response, not a closure each.
  const ended = () => active--
  // Without a Host, HTTP/1.1 requests reach the app too, which refuses them with its error body and logs them.
  const server = createServer({requireHostHeader: false}, (request, response) => {
    active++
    response.on('close', ended)
    // @hono/node-server answers a Host it cannot take as it is (capitals with a port, `127.1`, none) with a bare
    // 400 before the app sees the request; the app answers those itself (see requestHost).
    request.headers.host = requestHost(request.headers.host)
    listener(request, response)
  })
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) =>
    answerClientError(error, socket, options.logger),
  )
  await new Promise<void>((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => reject(listenError(error, options.host, options.port))
    server.once('error', fail)
    server.listen(options.port, options.host, () => {
      server.off('error', fail)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const url = baseUrl(options.host, port)
  options.logger.info(`Listening on ${url} (docs: ${url}/docs)`)

  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      const timeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS
      options.onClose?.()
      // Keep-alive connections become idle once their request is answered; close them as soon as they do.
      const idle = setInterval(() => server.closeIdleConnections(), 50)
      const force = setTimeout(() => {
        options.logger.warning(`closing ${active} request(s) still in flight after ${timeoutMs} ms`)
        options.onForce?.()
        server.closeAllConnections()
      }, timeoutMs)
      server.close(() => {
        clearInterval(idle)
        clearTimeout(force)
        resolve()
      })
      server.closeIdleConnections()
    })
    return closing
  }
  return {url, port, server, inFlight: () => active, close}
}

/**
 * Resolves after the first SIGINT or SIGTERM has shut the server down gracefully. Later signals are ignored:
 * libraries that clean up on exit raise the signal again, and the shutdown bound already
 * limits the wait.
 */
export function closeOnSignal(running: RunningServer, logger: Logger): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let received = false
    const onSignal = (signal: NodeJS.Signals) => {
      if (received) return
      received = true
      logger.info(`${signal} received: shutting down, ${running.inFlight()} request(s) in flight`)
      // The listeners stay: a signal raised again after the shutdown must not kill the process with status 143.
      running.close().then(() => resolve(signal))
    }
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
  })
}
