import {createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'

export type MockHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>

/** Routes keyed by `"/path"`, `"/path?query"` (exact) or `"METHOD /path"`; the most specific key wins. */
export type MockRoutes = Record<string, MockHandler>

export interface RecordedRequest {
  method: string
  /** Path and query as received, e.g. `/api?tags=go`. */
  url: string
  headers: IncomingHttpHeaders
}

export interface MockServer {
  /** `http://127.0.0.1:<port>` without a trailing slash. */
  url: string
  requests: RecordedRequest[]
  close(): Promise<void>
}

/**
 * A real HTTP server on 127.0.0.1 and an ephemeral port, standing in for a job board (or anything else).
 * Unmatched requests get a 404 JSON body. `close()` also drops connections a handler left hanging.
 */
export async function startMockServer(routes: MockRoutes | MockHandler): Promise<MockServer> {
  const requests: RecordedRequest[] = []
  const server = createServer((req, res) => {
    const url = req.url ?? '/'
    const method = req.method ?? 'GET'
    requests.push({method, url, headers: req.headers})
    const handler = typeof routes === 'function' ? routes : findRoute(routes, method, url)
    if (!handler) {
      sendJson(res, {error: `no route for ${method} ${url}`}, 404)
      return
    }
    Promise.resolve(handler(req, res)).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, {error: String(error)}, 500)
      else res.destroy()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function findRoute(routes: MockRoutes, method: string, url: string): MockHandler | undefined {
  const path = url.split('?')[0] ?? url
  return routes[`${method} ${url}`] ?? routes[url] ?? routes[`${method} ${path}`] ?? routes[path]
}

export function sendJson(res: ServerResponse, body: unknown, status = 200, headers: Record<string, string> = {}): void {
  sendText(res, JSON.stringify(body), status, {'content-type': 'application/json', ...headers})
}

export function sendText(
  res: ServerResponse,
  body: string | Buffer,
  status = 200,
  headers: Record<string, string> = {'content-type': 'text/plain; charset=utf-8'},
): void {
  res.writeHead(status, {'content-length': String(Buffer.byteLength(body)), ...headers})
  res.end(body)
}

/** Answers with `body` as given (a captured file's bytes); the content type defaults to JSON. */
export function serveBody(body: string | Buffer, contentType = 'application/json; charset=utf-8'): MockHandler {
  return (_req, res) => sendText(res, body, 200, {'content-type': contentType})
}

/** Answers each request with the next handler in turn; the last one repeats. */
export function sequence(...handlers: MockHandler[]): MockHandler {
  let next = 0
  return (req, res) => {
    const handler = handlers[Math.min(next, handlers.length - 1)]
    next++
    return handler?.(req, res)
  }
}

/** Accepts the request and never answers (until the server closes). */
export const hang: MockHandler = () => {}

/** A URL of 127.0.0.1 whose port refuses every connection. */
export async function closedPortUrl(): Promise<string> {
  // Port 4 (unassigned, below the ephemeral range, not on fetch's blocked list) on loopback: nothing listens
  // there and no test binds it, whereas a released ephemeral port can be taken by a parallel run meanwhile.
  return 'http://127.0.0.1:4'
}
