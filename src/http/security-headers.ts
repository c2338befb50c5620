import type {MiddlewareHandler} from 'hono'
import {secureHeaders} from 'hono/secure-headers'

/**
 * Sent with every response, JSON included: the headers OWASP recommends for a REST API. The policy forbids
 * everything, since JSON is no document; `frame-ancestors` and X-Frame-Options keep any answer out of frames.
 *
 * Set by startServer on the Node response before the app runs, not by hono/secure-headers: the same headers go
 * on the answers node's parser makes before any app code runs (answerClientError), and adding them to every web
 * Response afterwards makes @hono/node-server build a full Response per request on the hottest reads
 * (docs/BENCHMARKS.md).
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
 * The document headers on the answers of `isDocument` paths (decided from the path alone, so an API request
 * pays one string test); on other paths the API headers set by the server stand alone.
 */
export function documentSecurityHeaders(isDocument: (path: string) => boolean): MiddlewareHandler {
  return (c, next) => (isDocument(c.req.path) ? documentHeaders(c, next) : next())
}
