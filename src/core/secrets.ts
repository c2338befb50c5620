const MASK = '***'

/**
 * A first path segment that reads as a route word (`services`, `api`, `hooks`, the ntfy topic `my-jobs`) is kept;
 * one with digits or longer than a word is a token, as in `https://hook.eu1.make.com/<token>`.
 */
const ROUTE_WORD = /^[a-z][a-z_-]{0,23}$/i

/**
 * Hides the secret parts of a URL for logs and listings: the password or token in the user-info, query values,
 * every path segment after the first (webhook URLs carry their token in the path) and a first one that looks
 * like a token.
 */
export function maskUrl(value: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i.exec(value)
  if (!match) return value.length > 8 ? `${value.slice(0, 4)}${MASK}` : MASK
  const [, scheme = '', authority = '', path = '', query = ''] = match
  const at = authority.lastIndexOf('@')
  const host = at === -1 ? authority : authority.slice(at + 1)
  // `user:password@` keeps the user; a lone `token@` (ntfy, some webhooks) is itself the secret.
  const user = authority.slice(0, at)
  const userInfo = at === -1 ? '' : user.includes(':') ? `${user.split(':')[0]}:${MASK}@` : `${MASK}@`
  const segments = path.split('/')
  const kept = (segment: string, index: number) =>
    index === 0 || segment === '' || (index === 1 && ROUTE_WORD.test(segment))
  const maskedPath = segments.map((segment, index) => (kept(segment, index) ? segment : MASK)).join('/')
  const maskedQuery = query ? query.replace(/=([^&]*)/g, `=${MASK}`) : ''
  return `${scheme}${userInfo}${host}${maskedPath}${maskedQuery}`
}

/** Masks a secret that is not a URL (an API token): keeps nothing but its length class. */
export function maskToken(token: string): string {
  return token.length === 0 ? '' : MASK
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi

/** Text (an error message) with every URL in it masked as maskUrl does, for readers other than the user's terminal. */
export function maskUrlsIn(text: string): string {
  return text.replace(URL_IN_TEXT, (url) => maskUrl(url))
}
