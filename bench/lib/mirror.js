// What the benchmarks' loopback mirrors of the ATSs share: a list answered with an ETag (and 304 to a request that
// names it), as Greenhouse answers, and a server listening on 127.0.0.1 with a way to close it at once.
import {createHash} from 'node:crypto'

/** Sends `text` with its ETag, or 304 when the request names it (counted in `counts.notModified`). */
export function sendWithEtag(req, send, text, counts) {
  const etag = `"${createHash('sha1').update(text).digest('hex')}"`
  if (req.headers['if-none-match'] === etag) {
    counts.notModified++
    return send(304, '', {etag})
  }
  return send(200, text, {etag})
}

/** `server` listening on a free port of 127.0.0.1: its URL, its counts, `reset` and a `close` that ends it now. */
export function listenMirror(server, counts, reset) {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        counts,
        reset,
        close: () => {
          server.closeAllConnections()
          return new Promise((done) => server.close(done))
        },
      }),
    ),
  )
}
