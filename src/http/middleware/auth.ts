import {createHash, timingSafeEqual} from 'node:crypto'
import type {Context, MiddlewareHandler} from 'hono'
import {errorBody} from '../errors.js'

/** SHA-256 first so both sides have the same length and the comparison leaks neither content nor length. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest()
}

/**
 * `Authorization: Bearer <token>` on every request `isPublic` does not exempt; 401 with `WWW-Authenticate`
 * otherwise. The token is never logged or echoed.
 */
export function bearerAuth(token: string, isPublic: (c: Context) => boolean): MiddlewareHandler {
  const expected = digest(token)
  return async (c, next) => {
    if (isPublic(c)) return next()
    const header = c.req.header('authorization') ?? ''
    const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header)
    if (match?.[1] && timingSafeEqual(digest(match[1]), expected)) return next()
    const challenge = header === '' ? 'Bearer realm="jobagent"' : 'Bearer realm="jobagent", error="invalid_token"'
    c.header('WWW-Authenticate', challenge)
    const message =
      header === '' ? 'this request needs Authorization: Bearer <token>' : 'the bearer token is missing or wrong'
    return c.json(errorBody('unauthorized', message), 401)
  }
}
