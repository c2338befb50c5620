import {ConfigurationError, NotFoundError} from '../core/errors.js'
import {validateSourceConfigs} from '../core/jobs/source-config.js'
import {maskUrl} from '../core/secrets.js'
import {configFilePath, configProblemsError, type Env, readConfigFile, splitList, writeConfigFile} from './config.js'
import {checkConfig, schemaAt} from './config-schema.js'
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
  const stringList = node?.type === 'array' && node.child('0')?.type === 'string'
  return stringList && typeof value === 'string' ? splitList(value) : value
}

/** Walks the schema so a nested typo (`search.foo`) is named, not just reported as "search has an unknown key". */
function checkKey(key: string): void {
  let node = schemaAt('')
  const parents: string[] = []
  for (const segment of key.split('.')) {
    // Below an array or a scalar the schema check of the edited file decides.
    if (!node?.keys) return
    const child = node.keys.includes(segment) ? node.child(segment) : undefined
    if (!child) {
      const where = parents.length === 0 ? 'top-level keys' : `keys under ${parents.join('.')}`
      throw new ConfigurationError(`unknown configuration key "${key}"`, {
        details: [{field: [...parents, segment].join('.'), message: 'unknown key'}],
        hint: `${where} are: ${node.keys.join(', ')}`,
      })
    }
    parents.push(segment)
    node = child
  }
}

/** Secrets never leave `config list`/`get` in full: notification URLs and source URLs with credentials. */
function maskSecrets(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, key))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([child, item]) => [child, maskSecrets(item, key ? `${key}.${child}` : child)]),
    )
  }
  if (typeof value === 'string' && (key === 'notify.urls' || /:\/\/[^/]*:[^/]*@/.test(value))) return maskUrl(value)
  return value
}

function isContainer(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

/** The value at a dotted key (`sources.0.type`), or undefined where the stored file has none. */
function valueAt(stored: Record<string, unknown>, key: string): unknown {
  let node: unknown = stored
  for (const segment of key.split('.')) {
    if (!isContainer(node) || !Object.hasOwn(node, segment)) return undefined
    node = node[segment]
  }
  return node
}

/** A copy of the stored configuration with `key` set (`undefined`: removed), to judge an edit before writing it. */
function withValue(stored: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(stored)
  const segments = key.split('.')
  const last = segments.pop() as string
  let node: Record<string, unknown> = copy
  for (const segment of segments) {
    const child = node[segment]
    node[segment] = isContainer(child) ? child : {}
    node = node[segment] as Record<string, unknown>
  }
  if (value === undefined) delete node[last]
  else node[last] = value
  return copy
}

/** `jobagent config list|get|set|unset|path`: edits the file only, never the environment or flags. */
export class ConfigEditor {
  readonly path: string

  constructor(env: Env = process.env) {
    this.path = configFilePath(env)
  }

  list(options: {showSecrets?: boolean} = {}): Record<string, unknown> {
    const stored = readConfigFile(this.path)
    return (options.showSecrets ? stored : maskSecrets(stored)) as Record<string, unknown>
  }

  get(key: string, options: {showSecrets?: boolean} = {}): unknown {
    checkKey(key)
    const value = valueAt(readConfigFile(this.path), key)
    if (value === undefined) {
      throw new NotFoundError(`${key} is not set in ${this.path}`, {hint: 'the built-in default applies'})
    }
    return options.showSecrets ? value : maskSecrets(value, key)
  }

  set(key: string, raw: string): unknown {
    checkKey(key)
    const value = parseValue(key, raw)
    checkNotifySetting(key, value)
    this.write(`set ${key}`, withValue(readConfigFile(this.path), key, value))
    return value
  }

  unset(key: string): void {
    checkKey(key)
    this.write(`unset ${key}`, withValue(readConfigFile(this.path), key, undefined))
  }

  /**
   * Writes the edited file (`edit`: `set search.tags`) only if every command could read it: the schema's checks
   * first, then, for an edit under `sources`, the rules `run` applies to the list. Edits elsewhere leave a list edited by hand alone:
   * `run` and `GET /jobs` report it.
   */
  private write(edit: string, candidate: Record<string, unknown>): void {
    const checked = checkConfig(candidate)
    if (!checked.ok) throw configProblemsError(`cannot ${edit} in ${this.path}`, checked.problems)
    if (/^(set|unset) sources(\.|$)/.test(edit)) {
      try {
        validateSourceConfigs(checked.config.sources)
      } catch (error) {
        if (!(error instanceof ConfigurationError)) throw error
        throw new ConfigurationError(`cannot ${edit} in ${this.path}: ${error.message}`, {
          details: error.details,
          hint: error.hint ?? '',
        })
      }
    }
    writeConfigFile(this.path, candidate)
  }
}
