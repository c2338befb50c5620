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
 * What the server puts in place of a Host header it cannot build a URL from as it is (none, `127.1`, `::1`,
 * `127.0.0.1:abc`): the reserved `.invalid` name (RFC 6761), which wellFormedHost answers with 400. Without it
 * @hono/node-server answers such a request itself with a bare 400, before the app (error body, access log) sees it.
 */
const UNUSABLE_HOST = 'unusable-host.invalid'

/**
 * The Host header as the request's URL is built from: lower case (host names are case-insensitive), or
 * UNUSABLE_HOST when it is missing or the URL parser would not keep it as it is (a short or numeric IPv4 address,
 * an IPv6 address without brackets, a port that is no number, a path or user part).
 */
export function requestHost(header: string | undefined): string {
  if (header === undefined) return UNUSABLE_HOST
  const host = header.toLowerCase()
  try {
    if (new URL(`http://${host}/`).hostname !== host.replace(/:\d+$/, '')) return UNUSABLE_HOST
  } catch {
    return UNUSABLE_HOST
  }
  return host
}

/** Refuses (400) a request whose Host the server put UNUSABLE_HOST in place of, naming the Host it was sent. */
export const wellFormedHost: MiddlewareHandler = async (c, next) => {
  if (hostOf(c.req.url) !== UNUSABLE_HOST) return next()
  const sent = c.req.header('host')
  const message =
    sent === undefined
      ? 'the request has no Host header'
      : `the Host header ${JSON.stringify(sent)} is not a host name or address with an optional port as a URL writes it (127.0.0.1:8080, [::1]:8080, localhost:8080)`
  return c.json(errorBody('bad_request', message, [{field: 'Host', message}]), 400)
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
