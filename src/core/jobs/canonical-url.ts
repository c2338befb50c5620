/** Query parameters that only track where a click came from; they never change which job a URL names. */
const TRACKING_PARAMS = /^(utm_.*|ref|ref_src|referrer|source|fbclid|gclid|mc_cid|mc_eid|_hsenc|_hsmi)$/i

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
    return trimmed.replace(/\/+$/, '')
  }
  for (const name of [...parsed.searchParams.keys()]) {
    if (TRACKING_PARAMS.test(name)) parsed.searchParams.delete(name)
  }
  parsed.hash = ''
  const query = parsed.searchParams.toString()
  const path = parsed.pathname.replace(/\/+$/, '')
  return `${parsed.protocol}//${parsed.host}${path}${query ? `?${query}` : ''}`
}
