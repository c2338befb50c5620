import {ConfigurationError, NotFoundError} from '../core/errors.js'
import {SOURCE_TYPES, type SourceConfig, validateSourceConfigs} from '../core/jobs/source-config.js'
import {maskUrl} from '../core/secrets.js'
import {describeConfError, type Env, openConfigFile, splitList} from './config.js'
import {configProperties, schemaAt, unknownKeysAt} from './config-schema.js'
import {checkNotifySetting} from './notify-settings.js'

/**
 * Values are given on the command line as JSON (`true`, `20`, `["a","b"]`) or as plain text. Text for a list of
 * strings is a comma-separated list (`typescript,node`), as in the JOBAGENT_* variables and `run --tags`.
 */
function parseValue(key: string, raw: string): unknown {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    value = raw
  }
  const node = schemaAt(key)
  const stringList = node?.type === 'array' && node.items?.type === 'string'
  return stringList && typeof value === 'string' ? splitList(value) : value
}

type SchemaNode = {properties?: Record<string, SchemaNode>}

/** Walks the schema so a nested typo (`search.foo`) is named, not just reported as "search has an unknown key". */
function checkKey(key: string): void {
  let properties: Record<string, SchemaNode> | undefined = configProperties as Record<string, SchemaNode>
  const parents: string[] = []
  for (const segment of key.split('.')) {
    // Below an array or a scalar the schema check on write decides.
    if (!properties) return
    const child: SchemaNode | undefined = Object.hasOwn(properties, segment) ? properties[segment] : undefined
    if (!child) {
      const where = parents.length === 0 ? 'top-level keys' : `keys under ${parents.join('.')}`
      throw new ConfigurationError(`unknown configuration key "${key}"`, {
        details: [{field: [...parents, segment].join('.'), message: 'unknown key'}],
        hint: `${where} are: ${Object.keys(properties).join(', ')}`,
      })
    }
    parents.push(segment)
    properties = child.properties
  }
}

/** Secrets never leave `config list`/`get` in full: notification URLs and source URLs with credentials. */
export function maskSecrets(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, key))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([child, item]) => [child, maskSecrets(item, key ? `${key}.${child}` : child)]),
    )
  }
  if (typeof value === 'string' && (key === 'notify.urls' || /:\/\/[^/]*:[^/]*@/.test(value))) return maskUrl(value)
  return value
}

/** A copy of the stored configuration with `key` set (`undefined`: removed), to judge an edit before writing it. */
function withValue(store: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(store)
  const segments = key.split('.')
  const last = segments.pop() as string
  let node: Record<string, unknown> = copy
  for (const segment of segments) {
    const child = node[segment]
    node[segment] = typeof child === 'object' && child !== null ? child : {}
    node = node[segment] as Record<string, unknown>
  }
  if (value === undefined) delete node[last]
  else node[last] = value
  return copy
}

/**
 * Refuses an edit under `sources` that `run` would refuse, before anything is written, by the check `run` uses.
 * Edits elsewhere leave a list edited by hand alone: `run` and `GET /jobs` report it.
 */
function checkSources(key: string, candidate: Record<string, unknown>, file: string): void {
  if (key !== 'sources' && !key.startsWith('sources.')) return
  // Shape problems (a misspelt key or type, a value of the wrong JSON type) are the schema's to name, with the
  // keys and values it allows, when conf writes; the rules below assume the shape.
  const sources = candidate.sources
  if (!Array.isArray(sources)) return
  const misshapen = (entry: unknown, index: number) =>
    !(SOURCE_TYPES as readonly unknown[]).includes((entry as SourceConfig | null)?.type) ||
    unknownKeysAt(entry, `sources.${index}`).length > 0
  if (sources.some(misshapen)) return
  try {
    validateSourceConfigs(sources as SourceConfig[])
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error
    throw new ConfigurationError(`cannot set ${key} in ${file}: ${error.message}`, {
      details: error.details,
      hint: error.hint ?? '',
    })
  }
}

/** `jobagent config list|get|set|unset|path`: edits the file only, never the environment or flags. */
export class ConfigEditor {
  private readonly file

  constructor(env: Env = process.env) {
    this.file = openConfigFile(env)
  }

  get path(): string {
    return this.file.path
  }

  list(options: {showSecrets?: boolean} = {}): Record<string, unknown> {
    return (options.showSecrets ? this.file.store : maskSecrets(this.file.store)) as Record<string, unknown>
  }

  get(key: string, options: {showSecrets?: boolean} = {}): unknown {
    checkKey(key)
    if (!this.file.has(key)) {
      throw new NotFoundError(`${key} is not set in ${this.file.path}`, {hint: 'the built-in default applies'})
    }
    const value = this.file.get(key)
    return options.showSecrets ? value : maskSecrets(value, key)
  }

  set(key: string, raw: string): unknown {
    checkKey(key)
    const value = parseValue(key, raw)
    checkNotifySetting(key, value)
    checkSources(key, withValue(this.file.store, key, value), this.file.path)
    try {
      this.file.set(key, value)
    } catch (error) {
      throw describeConfError(error, this.file.path, {
        action: `cannot set ${key} in ${this.file.path}`,
        stored: withValue(this.file.store, key, value),
      })
    }
    return value
  }

  unset(key: string): void {
    checkKey(key)
    checkSources(key, withValue(this.file.store, key, undefined), this.file.path)
    try {
      this.file.delete(key)
    } catch (error) {
      throw describeConfError(error, this.file.path)
    }
  }
}
