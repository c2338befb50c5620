import {trimEndOf} from './text-runs.js'

const MASK = '***'

/**
 * A URL's parts: scheme, authority, path, query, fragment. Each part stops where the next begins and the fragment
 * takes the rest, line breaks included (`s`), so the pattern never goes back to split a long URL another way.
 */
const URL_PARTS = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/is

/**
 * A first path segment that reads as a route word (`services`, `api`, `hooks`) is kept; one with digits or longer
 * than a word is a token, as in `https://hook.eu1.make.com/<token>`.
 */
const ROUTE_WORD = /^[a-z][a-z_-]{0,23}$/i

/** An ntfy topic is its password: whoever knows it reads and posts the messages (`ntfy://topic`, `ntfy.sh/topic`). */
function isNtfy(scheme: string, authority: string): boolean {
  return /^ntfys?:/i.test(scheme) || (/^https?:/i.test(scheme) && /(^|@)ntfy\.sh(:\d+)?$/i.test(authority))
}

/**
 * Hides the secret parts of a URL for logs and listings: the password or token in the user-info, query values,
 * every path segment after the first (webhook URLs carry their token in the path), a first one that looks like a
 * token, and an ntfy topic.
 */
export function maskUrl(value: string): string {
  const match = URL_PARTS.exec(value)
  if (!match) return value.length > 8 ? `${value.slice(0, 4)}${MASK}` : MASK
  const [, scheme = '', authority = '', path = '', query = ''] = match
  const ntfy = isNtfy(scheme, authority)
  // `ntfy://topic`: the public server's topic stands where a host would.
  if (ntfy && /^ntfys?:/i.test(scheme) && /^\/*$/.test(path) && authority !== '') return `${scheme}${MASK}${path}`
  const segments = path.split('/')
  const kept = (segment: string, index: number) =>
    index === 0 || segment === '' || (index === 1 && !ntfy && ROUTE_WORD.test(segment))
  const maskedPath = segments.map((segment, index) => (kept(segment, index) ? segment : MASK)).join('/')
  const maskedQuery = query ? query.replace(/=([^&]*)/g, `=${MASK}`) : ''
  return `${scheme}${maskAuthority(authority)}${maskedPath}${maskedQuery}`
}

/** `user:password@host` keeps the user; a lone `token@` (ntfy, some webhooks, git hosts) is itself the secret. */
function maskAuthority(authority: string): string {
  const at = authority.lastIndexOf('@')
  if (at === -1) return authority
  const user = authority.slice(0, at)
  const host = authority.slice(at + 1)
  return user.includes(':') ? `${user.split(':')[0]}:${MASK}@${host}` : `${MASK}@${host}`
}

/** Query parameter names that carry a credential: `token`, `api_key`, `apiKey`, `private_token`, `X-Amz-Signature`. */
const SECRET_NAME_PART = new Set(['token', 'key', 'apikey', 'secret', 'signature', 'sig', 'password', 'passwd', 'pwd'])
const SECRET_NAME_END = /(token|apikey|api_key|secret|signature|password)$/i
/** Names of no secret-sounding word that are half of a credential: Adzuna's `app_id` goes with its `app_key`. */
const SECRET_NAMES = new Set(['app_id'])

/** Whether a query parameter or setting of this name holds a credential (`app_key`, `api_key`, `token`, `app_id`). */
export function isCredentialName(name: string): boolean {
  const parts = name.toLowerCase().split(/[_.-]/)
  return (
    SECRET_NAMES.has(name.toLowerCase()) ||
    parts.some((part) => SECRET_NAME_PART.has(part)) ||
    SECRET_NAME_END.test(name)
  )
}

/**
 * Hides the credentials of a URL that is otherwise worth reading in full (a job board's, whose path and query say
 * what was asked): the password or lone token before `@` and the values of query parameters named like a secret
 * (token, key, api_key, app_key, app_id, secret, private_token, signature, ...). Other parameters and the path stay.
 */
export function maskCredentials(value: string): string {
  const match = URL_PARTS.exec(value)
  if (!match) return value
  const [, scheme = '', authority = '', path = '', query = '', fragment = ''] = match
  const maskedQuery = query === '' ? '' : `?${query.slice(1).split('&').map(maskParameter).join('&')}`
  return `${scheme}${maskAuthority(authority)}${path}${maskedQuery}${fragment}`
}

/** One `name=value` of a query, its value masked when the name is a credential's. */
function maskParameter(parameter: string): string {
  const equals = parameter.indexOf('=')
  if (equals === -1) return parameter
  const name = parameter.slice(0, equals)
  let decoded = name
  try {
    decoded = decodeURIComponent(name)
  } catch {}
  return isCredentialName(decoded) ? `${name}=${MASK}` : parameter
}

/** Punctuation that ends a sentence rather than a URL quoted in it. */
const SENTENCE_END = /[.,;:!?)]/

/** Text (an error message, a log line) with the credentials of every URL in it masked as maskCredentials does. */
export function maskCredentialsIn(text: string): string {
  // Punctuation that ends a sentence after a URL stays out of it: `...?token=abc; retrying` keeps its `;`.
  return text.replace(URL_IN_TEXT, (url) => {
    const bare = trimEndOf(url, SENTENCE_END)
    return `${maskCredentials(bare)}${url.slice(bare.length)}`
  })
}

/**
 * A URL in a text. No scheme is longer than 32 characters, and the bound keeps a long run of scheme characters
 * without `://` from being read again from every word start in it.
 */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]{0,31}:\/\/[^\s"'<>`]+/gi

/**
 * Text (a database driver's message) with the password of every `scheme://user:password@` in it masked: a database
 * URL's user name is no secret and says which account was refused.
 */
export function withoutPasswords(text: string): string {
  // The password stops at a `/` (a URL's user information holds none): each try ends at the next `//`.
  return text.replace(/(\/\/[^/:@\s]*):[^/@\s]*@/g, `$1:${MASK}@`)
}

/** Text (an error message) with every URL in it masked as maskUrl does, for readers other than the user's terminal. */
export function maskUrlsIn(text: string): string {
  return text.replace(URL_IN_TEXT, (url) => maskUrl(url))
}
