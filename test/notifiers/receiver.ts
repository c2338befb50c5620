import {execFileSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse} from 'node:http'
import {createServer as createHttpsServer} from 'node:https'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {tempDir} from '../helpers/cli.js'

export interface ReceivedRequest {
  method: string
  /** Path and query as received. */
  url: string
  headers: IncomingHttpHeaders
  body: string
  /** performance.now() when the request arrived. */
  at: number
}

/** What to answer: a status (with headers and body), or `hang` to never answer. */
export type Answer = {status: number; headers?: Record<string, string>; body?: string} | 'hang'

export interface Receiver {
  /** `http(s)://127.0.0.1:<port>` */
  origin: string
  port: number
  requests: ReceivedRequest[]
  close(): Promise<void>
}

/** A real HTTP(S) server on 127.0.0.1 that records every request with its body and answers as told. */
export async function startReceiver(
  answer: (request: ReceivedRequest, index: number) => Answer = () => ({status: 200, body: 'ok'}),
  tls?: {key: string; cert: string},
): Promise<Receiver> {
  const requests: ReceivedRequest[] = []
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
      }
      requests.push(request)
      const reply = answer(request, requests.length - 1)
      if (reply === 'hang') return
      res.writeHead(reply.status, reply.headers)
      res.end(reply.body ?? '')
    })
  }
  const server = tls ? createHttpsServer(tls, handle) : createServer(handle)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    origin: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A port of 127.0.0.1 that refuses every connection. */
export async function closedPort(): Promise<number> {
  // Port 4 (unassigned, below the ephemeral range, not on fetch's blocked list) on loopback: nothing listens
  // there and no test binds it, whereas a released ephemeral port can be taken by a parallel run meanwhile.
  return 4
}

/** A throwaway self-signed certificate for 127.0.0.1, made with the system's openssl. */
export function selfSignedCertificate(): {key: string; cert: string} {
  const dir = tempDir('jobagent-tls-')
  try {
    const key = join(dir.path, 'key.pem')
    const cert = join(dir.path, 'cert.pem')
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      {stdio: 'ignore'},
    )
    return {key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8')}
  } finally {
    dir.cleanup()
  }
}
