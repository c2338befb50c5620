import {isCredentialName, maskCredentials, maskUrl, SecretMask, secretsOfUrl} from '../core/secrets.js'
import type {Env} from './config.js'

/**
 * Where the configuration keeps a secret: a notification channel's or the monitor's URL (`channel`, secret in its
 * path and query), a source's credential setting such as Adzuna's `app_id` and `app_key` (`credential`, secret as
 * a whole), or any other URL (`url`: a board's or a store's, secret in its user-info and credential parameters).
 */
type SecretKind = 'channel' | 'credential' | 'url'

/** `key` is the dotted path of the setting; list positions (`notify.urls.0`) count as the list. */
function secretKind(key: string, value: string): SecretKind | undefined {
  const path = key
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
