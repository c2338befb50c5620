import type {MiddlewareHandler} from 'hono'
import {bodyLimit} from 'hono/body-limit'
import {httpError} from '../errors.js'

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

/** By RFC 9112 a request has a body only with a non-zero Content-Length or a Transfer-Encoding. */
function hasBody(contentLength: string | undefined, transferEncoding: string | undefined): boolean {
  if (contentLength !== undefined) return contentLength.trim() !== '0'
  return transferEncoding !== undefined
}

/**
 * A POST, PUT or PATCH with a body must say it is JSON (415) and stay within `maxBytes` (413), before anything
 * reads it. Other methods pass untouched: the size check reads the request as a web Request, which costs
 * more than the rest of a small GET.
 */
export function jsonBodies(maxBytes: number): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw httpError(413)
    },
  })
  return (c, next) => {
    const method = c.req.method
    if (method !== 'POST' && method !== 'PATCH' && method !== 'PUT') return next()
    const type = c.req.header('content-type')
    if (hasBody(c.req.header('content-length'), c.req.header('transfer-encoding')) && !JSON_TYPE.test(type ?? '')) {
      throw httpError(415)
    }
    return limit(c, next)
  }
}
