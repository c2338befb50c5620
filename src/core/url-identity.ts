import {withoutTrailingSlashes} from './text-runs.js'

/**
 * The identity of a URL, in one place: when two job URLs name the same posting (canonicalJobUrl), when two
 * application URLs name the same application (applicationUrlKey), the keys a found job can be tracked under
 * (jobApplicationKeys), and which URLs are web addresses at all (isHttpUrl). Core, storage, the run, the job
 * lists, the dashboard and the API all compare URLs through these functions only.
 */

/** Query parameters that only track where a click came from; they never change which job a URL names. */
const TRACKING_PARAMS = /^(utm_.*|gh_src|ref|ref_src|referrer|source|fbclid|gclid|mc_cid|mc_eid|_hsenc|_hsmi)$/i

/**
 * The URL used to recognise the same posting twice: lower-case scheme and host, tracking parameters removed,
 * no fragment, no trailing slash. Unparseable URLs are compared as trimmed text.
 */
export function canonicalJobUrl(url: string): string {
  const trimmed = url.trim()
  let parsed: URL
  try {
    parsed = new URL(trimmed)
  } catch {
    return withoutTrailingSlashes(trimmed)
  }
  for (const name of [...parsed.searchParams.keys()]) {
    if (TRACKING_PARAMS.test(name)) parsed.searchParams.delete(name)
  }
  parsed.hash = ''
  const query = parsed.searchParams.toString()
  const path = withoutTrailingSlashes(parsed.pathname)
  return `${parsed.protocol}//${parsed.host}${path}${query ? `?${query}` : ''}`
}

/** A percent-encoded octet; RFC 3986 calls the letters, digits and `-._~` unreserved. */
const PERCENT_ESCAPE = /%([0-9A-Fa-f]{2})/g
const UNRESERVED = /^[A-Za-z0-9._~-]$/

/**
 * The escapes of a URL's path and query in one spelling (RFC 3986, 6.2.2): an unreserved character written as its
 * escape (`%64` for `d`) is the character, and every other escape is written in capitals (`%2f` is `%2F`).
 */
function normalEscapes(text: string): string {
  if (!text.includes('%')) return text
  return text.replace(PERCENT_ESCAPE, (encoded, hex: string) => {
    const character = String.fromCharCode(Number.parseInt(hex, 16))
    return UNRESERVED.test(character) ? character : encoded.toUpperCase()
  })
}

/**
 * The identity of an application URL: scheme and host compared case-insensitively, a trailing slash ignored and
 * percent-escapes read as RFC 3986 says (`/%64up` is `/dup`). The URL itself is stored as given; this key only
 * decides whether two URLs name the same application.
 */
export function applicationUrlKey(url: string): string {
  const trimmed = url.trim()
  // `s`: the rest is taken whole, line breaks included, so a failed end never sends the host part back to try
  // shorter lengths.
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/is.exec(trimmed)
  if (!match) return withoutTrailingSlashes(trimmed)
  // Only the path's trailing slash is ignored; a slash at the end of a query value is meaningful.
  const parts = /^([^?#]*)(.*)$/s.exec(match[3] ?? '')
  const path = withoutTrailingSlashes(normalEscapes(parts?.[1] ?? ''))
  const rest = normalEscapes(parts?.[2] ?? '')
  return `${(match[1] ?? '').toLowerCase()}://${(match[2] ?? '').toLowerCase()}${path}${rest}`
}

export function isHttpUrl(value: string): boolean {
  try {
    const parsed = new URL(value)
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== ''
  } catch {
    return false
  }
}

/**
 * The key of an application's URL without its tracking parameters: an application tracked from a link with
 * `?utm_source=...` is the application of the job whose URL is the same link without them, and the other way round.
 */
export function applicationCanonicalKey(url: string): string {
  return applicationUrlKey(canonicalJobUrl(url))
}

/**
 * The application URL keys a job can be tracked under: its URL as posted and its canonical URL (tracking
 * parameters such as utm_* removed), as posted first; one key when both agree. Pass `canonical` when it is
 * known (a stored job's url_key), so the URL is not parsed again.
 */
export function jobApplicationKeys(url: string, canonical: string = canonicalJobUrl(url)): string[] {
  const asPosted = applicationUrlKey(url)
  // Most URLs are posted canonical already: their one key is taken once (a job list takes every job's).
  const canonicalKey = canonical === url ? asPosted : applicationUrlKey(canonical)
  return asPosted === canonicalKey ? [asPosted] : [asPosted, canonicalKey]
}
