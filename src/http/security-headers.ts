import type {MiddlewareHandler} from 'hono'

/**
 * Sent with every response, JSON included: the headers OWASP recommends for a REST API. The server sets them on
 * the Node response before the app runs (see startServer), and fast routes write them with their own answer:
 * adding them to each web Response afterwards made the app build a full Response per request and cost about a
 * tenth of a status lookup's time. The policy forbids
 * everything, since JSON is no document; `frame-ancestors` and X-Frame-Options keep any answer out of frames.
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
 * Added to what a browser renders (the web page, the docs page and their assets): the values hono/secure-headers
 * produces for this policy. The pages load nothing from other origins and run no inline scripts (Swagger UI
 * sets style attributes, hence 'unsafe-inline' for styles only). HSTS is left to a TLS proxy: the server itself
 * speaks plain HTTP.
 */
export const DOCUMENT_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Origin-Agent-Cluster': '?1',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'X-XSS-Protection': '0',
}

/**
 * Adds the document headers to the answers of `isDocument` paths (decided from the path alone, so an API request
 * pays one string test); on other paths the API headers set by the server stand alone.
 */
export function documentSecurityHeaders(isDocument: (path: string) => boolean): MiddlewareHandler {
  return async (c, next) => {
    if (!isDocument(c.req.path)) return next()
    await next()
    for (const [name, value] of Object.entries(DOCUMENT_SECURITY_HEADERS)) c.res.headers.set(name, value)
  }
}
