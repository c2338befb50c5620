import {createHash, timingSafeEqual} from 'node:crypto'
import type {Context, MiddlewareHandler} from 'hono'
import {answerWith, type ErrorAnswer, errorBody} from '../errors.js'

/** SHA-256 first so both sides have the same length and the comparison leaks neither content nor length. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest()
}

/**
 * Checks an Authorization header against `token`: undefined when it carries `Bearer <token>`, else the 401 answer
 * with its `WWW-Authenticate` challenge. The token is never logged or echoed.
 */
export function bearerCheck(token: string): (authorization: string | undefined) => ErrorAnswer | undefined {
  const expected = digest(token)
  return (authorization) => {
    const header = authorization ?? ''
    const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header)
    if (match?.[1] && timingSafeEqual(digest(match[1]), expected)) return undefined
    const challenge = header === '' ? 'Bearer realm="jobagent"' : 'Bearer realm="jobagent", error="invalid_token"'
    const message =
      header === '' ? 'this request needs Authorization: Bearer <token>' : 'the bearer token is missing or wrong'
    return {status: 401, body: errorBody('unauthorized', message), headers: {'WWW-Authenticate': challenge}}
  }
}

/** bearerCheck on every request `isPublic` does not exempt. */
export function bearerAuth(token: string, isPublic: (c: Context) => boolean): MiddlewareHandler {
  const check = bearerCheck(token)
  return async (c, next) => {
    if (isPublic(c)) return next()
    const refusal = check(c.req.header('authorization'))
    return refusal ? answerWith(c, refusal) : next()
  }
}
