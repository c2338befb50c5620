import type {Logger} from './logger.js'
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
 * How a part of a URL is shown: as it is, or hidden because it is a credential (`always`: a password, a token
 * before `@`, a query value named like a secret) or because its place in a channel URL makes it one (`place`: the
 * path segments of a webhook, every query value, an ntfy topic).
 */
interface UrlPart {
  text: string
  hidden?: 'always' | 'place'
}

/** `user:password@`, or a lone `token@`, and the host; the user of `user:password` is no secret. */
interface Authority {
  user: string
  password: string | undefined
  host: string
}

/**
 * The parts of a URL, split once for every reader of it: `channel` hides what a notification URL or a monitor's
 * ping URL carries in its path and query (see maskUrl), `board` only its credentials (see maskCredentials).
 * Undefined when the text is no `scheme://` URL.
 */
function urlParts(value: string, kind: 'channel' | 'board'): {parts: UrlPart[]; authority?: Authority} | undefined {
  const match = URL_PARTS.exec(value)
  if (!match) return undefined
  const [, scheme = '', authorityText = '', path = '', query = '', fragment = ''] = match
  const parts: UrlPart[] = [{text: scheme}]
  const authority = parseAuthority(authorityText)
  const ntfy = kind === 'channel' && isNtfy(scheme, authorityText)
  // `ntfy://topic`: the public server's topic stands where a host would.
  if (ntfy && /^ntfys?:/i.test(scheme) && /^\/*$/.test(path) && authorityText !== '') {
    return {parts: [...parts, {text: authorityText, hidden: 'place'}, {text: path}]}
  }
  if (authority) {
    parts.push(
      authority.password === undefined ? {text: authority.user, hidden: 'always'} : {text: `${authority.user}:`},
      ...(authority.password === undefined ? [] : [{text: authority.password, hidden: 'always' as const}]),
      {text: `@${authority.host}`},
    )
  } else {
    parts.push({text: authorityText})
  }
  // The shown text between hidden segments is one part: a path of a million slashes is one part, not two million.
  let shown = ''
  path.split('/').forEach((segment, index) => {
    if (index > 0) shown += '/'
    const kept = kind === 'board' || index === 0 || segment === '' || (index === 1 && !ntfy && ROUTE_WORD.test(segment))
    if (kept) {
      shown += segment
      return
    }
    if (shown !== '') parts.push({text: shown})
    shown = ''
    parts.push({text: segment, hidden: 'place'})
  })
  if (shown !== '') parts.push({text: shown})
  if (query) parts.push(...queryParts(query, kind))
  if (kind === 'board' && fragment) parts.push({text: fragment})
  return authority ? {parts, authority} : {parts}
}

function parseAuthority(authority: string): Authority | undefined {
  const at = authority.lastIndexOf('@')
  if (at === -1) return undefined
  const credentials = authority.slice(0, at)
  const colon = credentials.indexOf(':')
  return colon === -1
    ? {user: credentials, password: undefined, host: authority.slice(at + 1)}
    : {user: credentials.slice(0, colon), password: credentials.slice(colon + 1), host: authority.slice(at + 1)}
}

/** `?name=value&...`: a channel hides every value, a board the values of parameters named like a credential. */
function queryParts(query: string, kind: 'channel' | 'board'): UrlPart[] {
  const parts: UrlPart[] = []
  query
    .slice(1)
    .split('&')
    .forEach((pair, index) => {
      parts.push({text: index === 0 ? '?' : '&'})
      const equals = pair.indexOf('=')
      if (equals === -1) {
        parts.push({text: pair})
        return
      }
      const name = pair.slice(0, equals)
      const credential = isCredentialName(safeDecode(name))
      parts.push({text: `${name}=`})
      const value = pair.slice(equals + 1)
      if (credential) parts.push({text: value, hidden: 'always'})
      else parts.push(kind === 'channel' ? {text: value, hidden: 'place'} : {text: value})
    })
  return parts
}

function joined(parts: readonly UrlPart[]): string {
  return parts.map((part) => (part.hidden ? MASK : part.text)).join('')
}

/**
 * Hides the secret parts of a URL for logs and listings: the password or token in the user-info, query values,
 * every path segment after the first (webhook URLs carry their token in the path), a first one that looks like a
 * token, and an ntfy topic.
 */
export function maskUrl(value: string): string {
  const read = urlParts(value, 'channel')
  if (!read) return value.length > 8 ? `${value.slice(0, 4)}${MASK}` : MASK
  return joined(read.parts)
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
  const read = urlParts(value, 'board')
  return read ? joined(read.parts) : value
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

/**
 * A credential shorter than this is not looked for in free text: it would hide parts of ordinary words and
 * numbers, and is guessed in moments anyway.
 */
const MIN_SECRET_LENGTH = 4
/**
 * A part hidden for its place alone (a webhook's path segment, a query value) is looked for in free text only when
 * it reads as a token: this long, and not a plain word (a topic such as `jobs`, a route such as `hooks/incoming`).
 */
const MIN_TOKEN_LENGTH = 8

function looksLikeToken(text: string): boolean {
  return text.length >= MIN_TOKEN_LENGTH && !ROUTE_WORD.test(text)
}

/**
 * The values a URL carries that a remote may echo back in any form, to be hidden wherever they appear: what
 * maskUrl (`channel`) or maskCredentials (`board`) hides (the parts hidden for their place only when they read
 * as tokens), and the Basic credentials `user:password@` becomes in an Authorization header.
 */
export function secretsOfUrl(value: string, kind: 'channel' | 'board'): string[] {
  const read = urlParts(value, kind)
  if (!read) return []
  const authority = read.authority
  // The user of `user:password@` is shown in the masked URL; the same text elsewhere in it (a mail channel's
  // `to=` naming its own account) is no secret either.
  const shown = authority?.password === undefined ? undefined : safeDecode(authority.user)
  const secrets = read.parts.flatMap((part) =>
    part.hidden === 'always' ||
    (part.hidden === 'place' && looksLikeToken(part.text) && safeDecode(part.text) !== shown)
      ? [part.text]
      : [],
  )
  if (authority) {
    const pair = new TextEncoder().encode(`${safeDecode(authority.user)}:${safeDecode(authority.password ?? '')}`)
    secrets.push(btoa(String.fromCharCode(...pair)))
  }
  return secrets
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** A value as text may hold it: as written, percent-decoded and percent-encoded, and each as JSON writes it. */
function formsOf(value: string): string[] {
  const decoded = safeDecode(value)
  const plain = [value, decoded, encodeURIComponent(decoded)]
  return [...plain, ...plain.map((form) => JSON.stringify(form).slice(1, -1))]
}

/**
 * Hides the configured secrets (a board's key, a channel's token, a monitor's UUID, Basic credentials) wherever
 * they appear in a text, not only inside a URL: a board or channel that echoes the request quotes them in its error
 * page or refusal. Each secret is looked for as a plain substring, so the cost is linear in the text for each.
 */
export class SecretMask {
  private readonly forms: readonly string[]

  constructor(secrets: Iterable<string>) {
    const forms = new Set<string>()
    for (const secret of secrets) {
      for (const form of formsOf(secret)) if (form.length >= MIN_SECRET_LENGTH) forms.add(form)
    }
    // The longest first, so a secret holding another is hidden whole.
    this.forms = [...forms].sort((a, b) => b.length - a.length)
  }

  get empty(): boolean {
    return this.forms.length === 0
  }

  mask(text: string): string {
    let result = text
    for (const form of this.forms) if (result.includes(form)) result = result.split(form).join(MASK)
    return result
  }

  /**
   * A document (a summary, a tool's answer) with every string in it masked; the keys and the shape stay, so it is
   * still the same JSON. What holds no secret is returned as it is, not copied.
   */
  maskStrings<T>(value: T): T {
    return this.empty ? value : (this.maskValue(value) as T)
  }

  private maskValue(value: unknown): unknown {
    if (typeof value === 'string') return this.mask(value)
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined
      value.forEach((item, index) => {
        const masked = this.maskValue(item)
        if (masked !== item) {
          copy ??= [...value]
          copy[index] = masked
        }
      })
      return copy ?? value
    }
    if (!isPlainObject(value)) return value
    let copy: Record<string, unknown> | undefined
    for (const [key, item] of Object.entries(value)) {
      const masked = this.maskValue(item)
      if (masked !== item) {
        copy ??= {...value}
        copy[key] = masked
      }
    }
    return copy ?? value
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/** A logger whose records have the secrets masked before they reach wherever it writes. */
export function maskedLogger(logger: Logger, secrets: SecretMask): Logger {
  if (secrets.empty) return logger
  return {
    name: logger.name,
    debug: (message) => logger.debug(secrets.mask(message)),
    info: (message) => logger.info(secrets.mask(message)),
    warning: (message) => logger.warning(secrets.mask(message)),
    error: (message) => logger.error(secrets.mask(message)),
    child: (suffix) => maskedLogger(logger.child(suffix), secrets),
  }
}
