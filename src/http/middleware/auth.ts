import {createHash, timingSafeEqual} from 'node:crypto'
import type {Context, MiddlewareHandler} from 'hono'
import {errorBody} from '../errors.js'

/** SHA-256 first so both sides have the same length and the comparison leaks neither content nor length. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest()
}

const withToken = new WeakSet<Context>()

/** The request carried the right token: an open route (health, metrics) then shows what only its owner may see. */
export function carriesToken(c: Context): boolean {
  return withToken.has(c)
}

/**
 * `Authorization: Bearer <token>` on every request `isPublic` does not exempt, else 401 with a `WWW-Authenticate`
 * challenge; the token is never logged or echoed. Repeated Authorization headers reach it joined by a comma, which
 * is no token: two credentials are none.
 *
 * Not hono/bearer-auth: it reads only RFC 6750 token characters, so a configured token with any other character
 * (accepted since the first release, e.g. `!`) could never be sent, and it answers 400 rather than 401 for a header
 * of another scheme.
 */
export function bearerAuth(token: string, isPublic: (c: Context) => boolean): MiddlewareHandler {
  const expected = digest(token)
  return async (c, next) => {
    const header = c.req.header('authorization') ?? ''
    const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header)
    if (match?.[1] && timingSafeEqual(digest(match[1]), expected)) {
      withToken.add(c)
      return next()
    }
    // An open route answers without the token, or with a wrong one, as it would to anyone.
    if (isPublic(c)) return next()
    const missing = header === ''
    c.header('WWW-Authenticate', missing ? 'Bearer realm="jobagent"' : 'Bearer realm="jobagent", error="invalid_token"')
    const message = missing
      ? 'this request needs Authorization: Bearer <token>'
      : 'the bearer token is missing or wrong'
    return c.json(errorBody('unauthorized', message), 401)
  }
}
