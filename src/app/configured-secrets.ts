import {isCredentialName, maskCredentials, maskUrl, SecretMask, secretsOfUrl} from '../core/secrets.js'
import type {Env} from './config.js'
import {dottedKey, settingName} from './config-schema.js'

/**
 * Where the configuration keeps a secret: a notification channel's or the monitor's URL (`channel`, secret in its
 * path and query), a source's credential setting such as Adzuna's `app_id` and `app_key` (`credential`, secret as
 * a whole), or any other URL (`url`: a board's or a store's, secret in its user-info and credential parameters).
 */
type SecretKind = 'channel' | 'credential' | 'url'

/** `key` is the dotted path of the setting; list positions (`notify.urls.0`) count as the list. */
function secretKind(key: string, value: string): SecretKind | undefined {
  const path = dottedKey(key)
    .split('.')
    .filter((segment) => !/^\d+$/.test(segment))
    .join('.')
  if (path === 'notify.urls' || path === 'run.healthcheck_url') return 'channel'
  if (path.startsWith('sources.') && isCredentialName(path.split('.').pop() ?? '')) return 'credential'
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return 'url'
  return undefined
}

/** Every string of a settings tree with its dotted key; lists keep the key of the list. */
function mapStrings(value: unknown, key: string, map: (key: string, text: string) => unknown): unknown {
  if (typeof value === 'string') return map(key, value)
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, key, map))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([child, item]) => [child, mapStrings(item, key ? `${key}.${child}` : child, map)]),
    )
  }
  return value
}

/**
 * Settings as `config list`/`get` show them: channel and monitor URLs masked (maskUrl), other URLs' credentials
 * masked (maskCredentials), a source's credential settings as `***`.
 */
export function maskSettings(value: unknown, key = ''): unknown {
  return mapStrings(value, key, (setting, text) => {
    switch (secretKind(setting, text)) {
      case 'channel':
        return maskUrl(text)
      case 'credential':
        return '***'
      case 'url':
        return maskCredentials(text)
      default:
        return text
    }
  })
}

/**
 * Every secret value the configuration in force holds (from the file, the environment and the flags), and the API
 * token, for masking wherever they may appear in what jobagent writes: a remote that echoes the request quotes them
 * outside any URL, percent-encoded or as Basic credentials.
 */
export function configuredSecrets(config: unknown, env: Env): SecretMask {
  const secrets: string[] = []
  mapStrings(config, '', (setting, text) => {
    const kind = secretKind(setting, text)
    if (kind === 'channel') secrets.push(...secretsOfUrl(text, 'channel'))
    else if (kind === 'credential') secrets.push(text)
    else if (kind === 'url') secrets.push(...secretsOfUrl(text, 'board'))
    return text
  })
  if (env.JOBAGENT_API_TOKEN) secrets.push(env.JOBAGENT_API_TOKEN)
  return new SecretMask(secrets)
}

/** A setting's place in a settings tree: keys and list positions, `['sources', 2, 'app_key']`. */
type SettingPath = (string | number)[]

/**
 * Whether a setting's text is a secret a copy of the settings must leave out: a channel's or the monitor's URL
 * (its path and query carry the token), a source's credential setting, any other URL with credentials in it.
 */
function isSecretSetting(key: string, text: string): boolean {
  const kind = secretKind(key, text)
  return kind === 'channel' || kind === 'credential' || (kind === 'url' && maskCredentials(text) !== text)
}

/**
 * Every secret setting of a settings tree, with its place: a string that is one, or a whole list of strings of
 * which one is (a list of notification URLs is left out as a whole, its order being part of it).
 */
function secretSettings(value: unknown, path: SettingPath = []): {path: SettingPath; value: unknown}[] {
  const key = path.filter((part) => typeof part === 'string').join('.')
  if (typeof value === 'string') return isSecretSetting(key, value) ? [{path, value}] : []
  if (Array.isArray(value)) {
    if (value.some((item) => typeof item === 'string' && isSecretSetting(key, item))) return [{path, value}]
    return value.flatMap((item, index) => secretSettings(item, [...path, index]))
  }
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([child, item]) => secretSettings(item, [...path, child]))
  }
  return []
}

/** A copy of a settings tree without its secret settings (secretSettings), and the names of those left out. */
export function withoutSecrets(settings: Record<string, unknown>): {
  settings: Record<string, unknown>
  leftOut: string[]
} {
  const secrets = secretSettings(settings)
  const copy = structuredClone(settings)
  for (const {path} of secrets.toReversed()) {
    const parent = path.slice(0, -1).reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], copy)
    const last = path.at(-1) as string | number
    if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1)
    else delete (parent as Record<string, unknown>)[last]
  }
  return {settings: copy, leftOut: secrets.map(({path}) => settingName(path))}
}

/**
 * The settings tree with each secret setting of `from` put back at its place, the objects on the way made where
 * missing (a list entry only where the list has it): a restored config file keeps the secrets of the file it replaces.
 */
export function withSecretsOf(
  settings: Record<string, unknown>,
  from: Record<string, unknown>,
): Record<string, unknown> {
  const copy = structuredClone(settings)
  for (const {path, value} of secretSettings(from)) {
    let node: unknown = copy
    for (const [index, part] of path.entries()) {
      if (typeof node !== 'object' || node === null) break
      const container = node as Record<string | number, unknown>
      if (index === path.length - 1) container[part] = value
      else if (container[part] === undefined && typeof part === 'string' && !Array.isArray(node)) container[part] = {}
      node = container[part]
    }
  }
  return copy
}
