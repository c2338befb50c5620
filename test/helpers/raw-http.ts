import {connect} from 'node:net'

export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/**
 * Sends `text` byte for byte on a new connection to 127.0.0.1:`port` and reads the answer until the server closes
 * the connection (send `Connection: close`): for requests fetch would refuse or rewrite (a foreign Host, repeated
 * headers, malformed HTTP).
 */
export function rawRequest(port: number, text: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const end = raw.indexOf('\r\n\r\n')
      const [statusLine = '', ...lines] = raw.slice(0, end === -1 ? raw.length : end).split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of lines) {
        const colon = line.indexOf(':')
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
      }
      resolve({status: Number(statusLine.split(' ')[1] ?? 0), headers, body: end === -1 ? '' : raw.slice(end + 4)})
    })
    socket.end(text)
  })
}

/** A GET with the given header lines (`Name: value`), closing the connection after the answer. */
export function rawGet(port: number, path: string, headerLines: string[], method = 'GET'): Promise<RawAnswer> {
  return rawRequest(port, [`${method} ${path} HTTP/1.1`, ...headerLines, 'Connection: close', '', ''].join('\r\n'))
}
