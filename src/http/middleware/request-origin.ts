import {isIP} from 'node:net'
import type {MiddlewareHandler} from 'hono'
import {errorBody} from '../errors.js'

/** 127.0.0.0/8, ::1 and localhost: addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase()
  if (bare === 'localhost' || bare === '::1') return true
  const v4 = bare.replace(/^::ffff:/, '')
  return isIP(v4) === 4 && v4.startsWith('127.')
}

/** The host name of a Host header without its port: `[::1]:8080` is `::1`, `Example.org:80` is `example.org`. */
function hostName(header: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(header)
  return (bracketed ? (bracketed[1] ?? '') : header.replace(/:\d*$/, '')).toLowerCase()
}

/**
 * The host (and port) of an absolute URL as the request carries it, already normalised by the URL parser that
 * made it: the same as `new URL(url).host`, without parsing the URL again on every request.
 */
function hostOf(url: string): string {
  const start = url.indexOf('//') + 2
  const end = url.indexOf('/', start)
  const authority = end === -1 ? url.slice(start) : url.slice(start, end)
  return authority.slice(authority.lastIndexOf('@') + 1)
}

/**
 * The Host check of a server without a token. A page on a foreign domain whose name is made to resolve to
 * 127.0.0.1 (DNS rebinding) talks to the server as its own origin, and the browser sends that foreign name as
 * the Host: only names of this machine (and those the user allowed in `server.allowed_hosts`) are answered, any
 * other gets 421.
 */
export function hostGuard(allowedHosts: readonly string[]): MiddlewareHandler {
  const allowed = new Set(allowedHosts.map(hostName))
  return async (c, next) => {
    // The URL's host is the Host header as the server received it (app.request() without one gets localhost).
    const host = hostOf(c.req.url)
    const name = hostName(host)
    if (name !== '' && (isLoopback(name) || allowed.has(name))) return next()
    const named = host === '' ? 'no host' : `the host ${JSON.stringify(host)}`
    const message = `this server answers requests for 127.0.0.1, [::1] and localhost only, not for ${named}`
    return c.json(
      errorBody('misdirected_request', message, [
        {field: 'Host', message: 'add the name to the config key server.allowed_hosts to reach the server by it'},
      ]),
      421,
    )
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
/** Safe requests that still cost: GET /jobs searches every configured board. */
const COSTLY_READS = new Set(['/jobs'])

/**
 * Refuses (403) what a page of another origin makes a browser send: requests that change data (POST, PATCH, PUT,
 * DELETE) and requests that start work (GET /jobs). A request is foreign when its Origin is neither the server's
 * own nor one allowed by CORS, or when the browser marks it `Sec-Fetch-Site: cross-site` or `same-site` (another
 * port or subdomain) without an Origin allowed by CORS. Clients other than browsers send neither header and pass.
 */
export function sameOriginGuard(corsOrigins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(corsOrigins)
  return async (c, next) => {
    const method = c.req.method
    const guarded = !SAFE_METHODS.has(method) || (method !== 'OPTIONS' && COSTLY_READS.has(c.req.path))
    if (!guarded) return next()
    const origin = c.req.header('origin')
    const site = c.req.header('sec-fetch-site')
    const corsAllowed = origin !== undefined && allowed.has(origin)
    const foreignOrigin = origin !== undefined && !corsAllowed && origin !== new URL(c.req.url).origin
    const crossSite = (site === 'cross-site' || site === 'same-site') && !corsAllowed
    if (!foreignOrigin && !crossSite) return next()
    const from = origin === undefined ? 'another site' : origin
    const message = `${method} ${c.req.path} from a page of ${from} is refused: only this server's own pages and the origins allowed with --cors-origin may send it`
    return c.json(errorBody('forbidden', message), 403)
  }
}
