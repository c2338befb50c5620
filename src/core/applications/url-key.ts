/**
 * The identity of an application URL: scheme and host compared case-insensitively and a trailing slash ignored.
 * The URL itself is stored as given; this key only decides whether two URLs name the same application.
 */
export function applicationUrlKey(url: string): string {
  const trimmed = url.trim()
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/i.exec(trimmed)
  if (!match) return trimmed.replace(/\/+$/, '')
  const [, scheme = '', authority = '', rest = ''] = match
  // Only the path's trailing slash is ignored; a slash at the end of a query value is meaningful.
  const [, path = '', suffix = ''] = /^([^?#]*)(.*)$/s.exec(rest) ?? []
  return `${scheme.toLowerCase()}://${authority.toLowerCase()}${path.replace(/\/+$/, '')}${suffix}`
}

export function isHttpUrl(value: string): boolean {
  try {
    const parsed = new URL(value)
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== ''
  } catch {
    return false
  }
}
