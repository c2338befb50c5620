/**
 * Sent with every response. The API, the docs page and the web page load nothing from other origins, and no
 * page runs inline scripts (Swagger UI sets style attributes, hence 'unsafe-inline' for styles only). HSTS is
 * left to a TLS proxy: the server itself speaks plain HTTP.
 *
 * These are the values hono/secure-headers produces for this policy. The server sets them on the Node response
 * before the app runs (see startServer): adding them to each web Response afterwards made the app build a full
 * Response per request and cost about a tenth of a status lookup's time.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
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
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Frame-Options': 'DENY',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'X-XSS-Protection': '0',
}
