import {ConfigurationError} from '../core/errors.js'
import {maskUrl} from '../core/secrets.js'
import {trimEdgesOf} from '../core/text-runs.js'

/**
 * Channel URLs understood without loading any channel's code, so `config set` can refuse an invalid one
 * cheaply and the run can refuse it before searching.
 */

export interface NtfyTarget {
  /** `https://ntfy.sh/my-topic` */
  endpoint: string
  /** The Authorization header value, if the topic is protected. */
  authorization?: string
}

export interface WebhookTarget {
  endpoint: string
  authorization?: string
}

export interface EmailTarget {
  host: string
  port: number
  /** Implicit TLS from the first byte (`mailtos://`, port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean
  user?: string
  password?: string
  from: string
  to: string[]
}

/** A channel URL understood: its kind, its masked name (safe for logs) and what the channel needs to send. */
export type NotifierSpec = {name: string} & (
  | {kind: 'ntfy'; target: NtfyTarget}
  | {kind: 'slack'; endpoint: string}
  | {kind: 'discord'; endpoint: string}
  | {kind: 'email'; target: EmailTarget}
  | {kind: 'webhook'; target: WebhookTarget}
  | {kind: 'log'}
)

const CHANNEL_EXAMPLES = [
  'ntfy://my-topic',
  'ntfys://tk_token@ntfy.example.org/jobs',
  'https://hooks.slack.com/services/T…/B…/…',
  'https://discord.com/api/webhooks/<id>/<token>',
  'mailto://user:password@smtp.example.org?to=me@example.org',
  'jsons://hooks.example.org/jobs',
  'log://',
]

function decode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    throw new ConfigurationError('malformed percent-encoding')
  }
}

function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`
}

const PUBLIC_NTFY = 'https://ntfy.sh'
const SLASH = /\//
const NTFY_TOPIC = /^[-_A-Za-z0-9]{1,64}$/

/**
 * `ntfy://topic` (the public server), `ntfy://[token@]host[:port]/topic` (http) and
 * `ntfys://[token@]host[:port]/topic` (https); `user:password@` is sent as basic auth.
 */
function parseNtfyUrl(url: URL): NtfyTarget {
  const path = trimEdgesOf(url.pathname, SLASH)
  const onPublicServer = path === ''
  const topic = onPublicServer ? url.hostname : path
  if (!topic || (onPublicServer && url.port)) {
    throw new ConfigurationError('missing topic (ntfy://topic or ntfy://host[:port]/topic)')
  }
  if (!NTFY_TOPIC.test(topic)) {
    throw new ConfigurationError('the topic may only hold letters, digits, "-" and "_" (1-64 characters)')
  }
  const base = onPublicServer ? PUBLIC_NTFY : `${url.protocol === 'ntfys:' ? 'https' : 'http'}://${url.host}`
  const user = decode(url.username)
  const password = decode(url.password)
  const authorization = password ? basicAuth(user, password) : user ? `Bearer ${user}` : undefined
  return {endpoint: `${base}/${topic}`, ...(authorization ? {authorization} : {})}
}

/**
 * `https://hooks.slack.com/services/T.../B.../...` (an incoming webhook), or any Slack-compatible webhook
 * (Mattermost, a local receiver) named with `slack+https://` or `slack+http://`.
 */
function parseSlackUrl(url: URL): {endpoint: string} {
  if (url.protocol === 'https:') {
    const segments = url.pathname.split('/').filter(Boolean)
    if (segments[0] !== 'services' || segments.length !== 4) {
      throw new ConfigurationError('a Slack webhook URL looks like https://hooks.slack.com/services/T…/B…/…')
    }
    return {endpoint: url.href}
  }
  if (url.pathname.replace(/\//g, '') === '') throw new ConfigurationError('missing the webhook path')
  return {endpoint: url.href.replace(/^slack\+/, '')}
}

const DISCORD_HOSTS = new Set(['discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com'])
const DISCORD_PATH = /^\/api(\/v\d+)?\/webhooks\/\d+\/[\w-]+\/?$/

/**
 * `https://discord.com/api/webhooks/<id>/<token>` (discordapp.com too), or a Discord-compatible receiver named
 * with `discord+https://` or `discord+http://`.
 */
function parseDiscordUrl(url: URL): {endpoint: string} {
  if (url.protocol === 'https:') {
    if (!DISCORD_PATH.test(url.pathname)) {
      throw new ConfigurationError('a Discord webhook URL looks like https://discord.com/api/webhooks/<id>/<token>')
    }
    return {endpoint: url.href}
  }
  if (url.pathname.replace(/\//g, '') === '') throw new ConfigurationError('missing the webhook path')
  return {endpoint: url.href.replace(/^discord\+/, '')}
}

/** `json://[user:password@]host[:port]/path` posts over http, `jsons://` over https; credentials go as basic auth. */
function parseWebhookUrl(url: URL): WebhookTarget {
  if (!url.hostname) throw new ConfigurationError('missing host (json://host[:port]/path)')
  const scheme = url.protocol === 'jsons:' ? 'https' : 'http'
  const endpoint = `${scheme}://${url.host}${url.pathname || '/'}${url.search}`
  const user = decode(url.username)
  const password = decode(url.password)
  return user || password ? {endpoint, authorization: basicAuth(user, password)} : {endpoint}
}

const ADDRESS = /^[^\s@<>,]+@[^\s@<>,]+$/
/** `jobs@example.org` or `Job alerts <jobs@example.org>`. */
const SENDER = /^([^<>]*<)?[^\s@<>,]+@[^\s@<>,]+>?$/
const EMAIL_PARAMETERS = new Set(['to', 'from'])

/** The query by hand: URLSearchParams would turn the `+` of `me+jobs@example.org` into a space. */
function queryOf(url: URL): Map<string, string> {
  const query = new Map<string, string>()
  for (const pair of url.search.slice(1).split('&').filter(Boolean)) {
    const [key = '', ...rest] = pair.split('=')
    query.set(decode(key), decode(rest.join('=')))
  }
  return query
}

/**
 * `mailto://user:password@host[:port]?to=a@x.org,b@y.org&from=...` (port 587, STARTTLS when offered) and
 * `mailtos://...` (implicit TLS, port 465). Without `from`, the user name is the sender if it is an address.
 */
function parseEmailUrl(url: URL): EmailTarget {
  if (!url.hostname) throw new ConfigurationError('missing the SMTP host (mailto://user:password@host?to=...)')
  const query = queryOf(url)
  const unknown = [...query.keys()].find((key) => !EMAIL_PARAMETERS.has(key))
  if (unknown !== undefined) throw new ConfigurationError(`unknown parameter "${unknown}" (known: to, from)`)
  const to = (query.get('to') ?? '')
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean)
  if (to.length === 0) throw new ConfigurationError('missing "to" (mailto://...?to=you@example.org)')
  const invalid = to.find((address) => !ADDRESS.test(address))
  if (invalid !== undefined) throw new ConfigurationError(`"${invalid}" in "to" is not an email address`)
  const user = decode(url.username)
  const password = decode(url.password)
  const from = query.get('from') || (ADDRESS.test(user) ? user : `jobagent@${url.hostname}`)
  if (!SENDER.test(from)) throw new ConfigurationError('"from" is not an email address')
  const secure = url.protocol === 'mailtos:'
  return {
    // nodemailer wants an IPv6 address without the brackets of a URL.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(user ? {user} : {}),
    ...(password ? {password} : {}),
    from,
    to,
  }
}

function kindOf(url: URL): NotifierSpec['kind'] {
  switch (url.protocol) {
    case 'ntfy:':
    case 'ntfys:':
      return 'ntfy'
    case 'slack+http:':
    case 'slack+https:':
      return 'slack'
    case 'discord+http:':
    case 'discord+https:':
      return 'discord'
    case 'mailto:':
    case 'mailtos:':
      return 'email'
    case 'json:':
    case 'jsons:':
      return 'webhook'
    case 'log:':
      return 'log'
    case 'https:':
      if (url.hostname === 'hooks.slack.com') return 'slack'
      if (DISCORD_HOSTS.has(url.hostname)) return 'discord'
      throw new ConfigurationError(
        'not a Slack or Discord webhook; for another webhook use jsons://host/path (slack+https:// if it speaks Slack)',
      )
    case 'http:':
      throw new ConfigurationError('plain http is not a channel; for a webhook use json://host/path')
    default:
      throw new ConfigurationError(`unknown scheme "${url.protocol.slice(0, -1)}"`)
  }
}

function specOf(url: URL, name: string): NotifierSpec {
  const kind = kindOf(url)
  switch (kind) {
    case 'ntfy':
      return {kind, name, target: parseNtfyUrl(url)}
    case 'slack':
      return {kind, name, ...parseSlackUrl(url)}
    case 'discord':
      return {kind, name, ...parseDiscordUrl(url)}
    case 'email':
      return {kind, name, target: parseEmailUrl(url)}
    case 'webhook':
      return {kind, name, target: parseWebhookUrl(url)}
    case 'log':
      return {kind, name: 'log://'}
  }
}

/** Understands one channel URL or throws a ConfigurationError naming it (masked) and the reason. */
export function parseNotifierUrl(raw: string): NotifierSpec {
  const text = raw.trim()
  const name = maskUrl(text)
  try {
    let url: URL
    try {
      url = new URL(text)
    } catch {
      throw new ConfigurationError('not a URL')
    }
    return specOf(url, name)
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error
    throw new ConfigurationError(`invalid notification URL ${name}: ${error.message}`, {
      details: [{field: 'notify.urls', message: `${name}: ${error.message}`}],
      hint: `channel URLs look like: ${CHANNEL_EXAMPLES.join(', ')}`,
    })
  }
}
