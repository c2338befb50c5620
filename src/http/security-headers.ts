import type {MiddlewareHandler} from 'hono'
import {secureHeaders} from 'hono/secure-headers'

/**
 * Sent with every response, JSON included: the headers OWASP recommends for a REST API. The policy forbids
 * everything, since JSON is no document; `frame-ancestors` and X-Frame-Options keep any answer out of frames.
 * The app sets them (apiSecurityHeaders); the server sends the same on the answers node's parser makes before
 * the app sees a request (answerClientError).
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  // Answers hold the user's own data and change from one request to the next; pages and assets set their own.
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
}

const apiHeaderEntries = Object.entries(API_SECURITY_HEADERS)

/**
 * Added to what a browser renders (the web page, the docs page and their assets), by hono/secure-headers. The
 * pages load nothing from other origins and run no inline scripts (Swagger UI sets style attributes, hence
 * 'unsafe-inline' for styles only). HSTS is left to a TLS proxy: the server itself speaks plain HTTP.
 */
const documentHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
  strictTransportSecurity: false,
  xFrameOptions: 'DENY',
})

/**
 * The security headers of every answer of the app, error answers included; which ones is decided from the path
 * alone, so an API request pays one string test.
 *
 * An API answer gets the API headers before its route runs, so a route's own value of one of them stands (set
 * through the Context, as every route does). A document (an `isDocument` path) gets the document headers after
 * its route, then the API headers it still lacks (Cache-Control where the page sets none): a page's own
 * Cache-Control stands even when CORS has already touched the response, which makes earlier headers win.
 */
export function securityHeaders(isDocument: (path: string) => boolean): MiddlewareHandler {
  return async (c, next) => {
    if (!isDocument(c.req.path)) {
      for (const [name, value] of apiHeaderEntries) c.header(name, value)
      return next()
    }
    await documentHeaders(c, next)
    for (const [name, value] of apiHeaderEntries) if (!c.res.headers.has(name)) c.res.headers.set(name, value)
  }
}
