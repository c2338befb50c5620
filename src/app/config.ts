import {existsSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join} from 'node:path'
import type Conf from 'conf'
import envPaths from 'env-paths'
import {
  ConfigurationError,
  describeFileError,
  isJobagentError,
  isSystemError,
  type JobagentError,
} from '../core/errors.js'
import type {SourceConfig} from '../core/jobs/source-config.js'
import {ensurePrivateDirectory, writeFileDurably} from '../storage/durable-file.js'
import {configProperties, schemaAt, unknownKeysAt} from './config-schema.js'

export type {SourceConfig} from '../core/jobs/source-config.js'

export type Mode = 'production' | 'development'

export interface SearchConfig {
  tags: string[]
  keywords: string[]
  exclude_keywords: string[]
  locations: string[]
  remote_only: boolean
  max_age_days: number | null
  company_block_list: string[]
}

export interface StoreConfig {
  url: string
  pool_size: number
  timeout_ms: number
}

export interface JobagentConfig {
  mode: Mode
  search: SearchConfig
  sources: SourceConfig[]
  notify: {urls: string[]; max_items: number}
  /** `healthcheck_url`: a dead-man's switch pinged at the start and end of each run (healthchecks.io protocol). */
  run: {healthcheck_url: string | null}
  /** `allowed_hosts`: names a server without a token answers besides 127.0.0.1, [::1] and localhost. */
  server: {host: string; port: number; allowed_hosts: string[]}
  shipments: {
    metadata: StoreConfig & {table: string; id_column: string}
    telemetry: StoreConfig & {collection: string; id_field: string; time_field: string}
    stale_after_seconds: number
  }
}

export interface Paths {
  configFile: string
  dataDir: string
  trackerDb: string
  shipmentsDb: string
}

/** Without a `sources` key the keyless public boards are searched. */
export const DEFAULT_SOURCES: SourceConfig[] = [
  {type: 'remoteok'},
  {type: 'remotive'},
  {type: 'arbeitnow'},
  {type: 'jobicy'},
  {type: 'himalayas'},
  {type: 'weworkremotely'},
]

export type Env = Readonly<Record<string, string | undefined>>

export function resolvePaths(env: Env = process.env): {configDir: string; dataDir: string} {
  const home = env.JOBAGENT_HOME
  if (home) return {configDir: home, dataDir: home}
  const paths = envPaths('jobagent', {suffix: ''})
  return {configDir: paths.config, dataDir: paths.data}
}

// conf compiles its JSON schema with ajv when it is constructed, a large share of a short command's start time.
// It is loaded only when a config file exists or is written; require() of this ES module is synchronous, so the
// context stays synchronous to build.
const requireModule = createRequire(import.meta.url)
const loadConf = (): typeof Conf => (requireModule('conf') as {default: typeof Conf}).default

let durableConf: typeof Conf | undefined

/**
 * conf with its two file hooks replaced: conf's own writer (atomically) issues one write(2) and ignores a short
 * count, so on a nearly full disk it renamed a truncated config over the user's. Every write of the config file
 * goes through the durable writer instead (complete, fsynced, verified, or the old file left as it was), and the
 * config directory is created as every jobagent directory is. conf keeps what it is here for: the schema, reads,
 * dotted keys.
 */
function loadDurableConf(): typeof Conf {
  if (durableConf) return durableConf
  const Base = loadConf()
  const hooks = Base.prototype as unknown as Record<string, unknown>
  if (typeof hooks._write !== 'function' || typeof hooks._ensureDirectory !== 'function') {
    throw new Error('conf no longer has _write/_ensureDirectory: the config file would bypass the durable writer')
  }
  class DurableConf extends Base {}
  Object.assign(DurableConf.prototype, {
    _write(this: {path: string}, value: unknown): void {
      // conf's own format, so a file written before reads the same.
      writeFileDurably(this.path, JSON.stringify(value, undefined, '\t'), {links: 'follow'})
    },
    _ensureDirectory(this: {path: string}): void {
      ensurePrivateDirectory(dirname(this.path))
    },
  })
  durableConf = DurableConf as typeof Conf
  return durableConf
}

export function configFilePath(env: Env = process.env): string {
  return join(resolvePaths(env).configDir, 'config.json')
}

/** The config file, read and written through conf: schema-checked, durable atomic writes, mode 0600. */
export function openConfigFile(env: Env = process.env): Conf<Record<string, unknown>> {
  const {configDir} = resolvePaths(env)
  try {
    const Conf = loadDurableConf()
    return new Conf<Record<string, unknown>>({
      projectName: 'jobagent',
      projectSuffix: '',
      cwd: configDir,
      configName: 'config',
      schema: configProperties as never,
      rootSchema: {additionalProperties: false},
      configFileMode: 0o600,
      clearInvalidConfig: false,
      watch: false,
    })
  } catch (error) {
    const file = join(configDir, 'config.json')
    throw describeConfError(error, file, {stored: readStoredConfig(file)})
  }
}

/** The file as it is, for naming what the schema refused; undefined when it cannot be read as JSON. */
function readStoredConfig(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return undefined
  }
}

function valueAt(value: unknown, path: string): unknown {
  let node = value
  for (const segment of path === '' ? [] : path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined
    node = (node as Record<string, unknown>)[segment]
  }
  return node
}

/** One problem of conf's message (`\`search\` must NOT have additional properties`) in the user's terms. */
function describeProblem(key: string, reason: string, stored: unknown): {field: string; message: string}[] {
  if (reason === 'must NOT have additional properties') {
    const known = Object.keys(schemaAt(key)?.properties ?? {})
    const unknown = unknownKeysAt(valueAt(stored, key), key)
    const where = key === '' ? 'top-level keys' : `keys under ${key}`
    const hint = known.length > 0 ? ` (${where} are: ${known.join(', ')})` : ''
    if (unknown.length === 0) return [{field: key || '(root)', message: `${key || 'config'} has an unknown key${hint}`}]
    return unknown.map((name) => {
      const field = key === '' ? name : `${key}.${name}`
      return {field, message: `"${field}" is not a known key${hint}`}
    })
  }
  if (reason === 'must be equal to one of the allowed values') {
    const allowed = schemaAt(key)?.enum
    if (allowed) return [{field: key, message: `${key} must be one of: ${allowed.join(', ')}`}]
  }
  return [{field: key || '(root)', message: `${key || 'config'} ${reason}`}]
}

/**
 * Rewrites conf's and ajv's messages so they name the file and the key ("`search.tags` must be array"), each
 * unknown key by name and the allowed values of an enum. `stored` is the refused configuration, when known.
 */
export function describeConfError(
  error: unknown,
  file: string,
  context: {stored?: unknown; action?: string} = {},
): JobagentError {
  // Already described (a full disk while writing the file), or the environment's doing (a directory in its place,
  // no permission): exit 1 with what to do, not a configuration error.
  if (isJobagentError(error)) return error
  if (isSystemError(error)) return describeFileError(error, file, 'read') as JobagentError
  const {stored, action = `invalid configuration in ${file}`} = context
  const message = error instanceof Error ? error.message : String(error)
  const violation = /^Config schema violation: (.*)$/s.exec(message)
  if (violation?.[1]) {
    const problems = violation[1].split('; ').flatMap((text) => {
      const key = /^`([^`]*)`/.exec(text)?.[1]?.replaceAll('/', '.') ?? ''
      return describeProblem(key, text.replace(/^`[^`]*`\s*/, ''), stored)
    })
    return new ConfigurationError(`${action}: ${problems.map((p) => p.message).join('; ')}`, {
      details: problems,
      hint: 'fix it with: jobagent config set <key> <value> (or jobagent config unset <key>)',
      cause: error,
    })
  }
  if (error instanceof SyntaxError) {
    return new ConfigurationError(`${file} is not valid JSON: ${message}`, {
      hint: 'fix the file by hand; jobagent never overwrites it',
      cause: error,
    })
  }
  return new ConfigurationError(`cannot read ${file}: ${message}`, {cause: error})
}

function defaults(dataDir: string): JobagentConfig {
  const shipmentsUrl = `sqlite://${join(dataDir, 'shipments.db')}`
  return {
    mode: 'production',
    search: {
      tags: [],
      keywords: [],
      exclude_keywords: [],
      locations: [],
      remote_only: false,
      max_age_days: null,
      company_block_list: [],
    },
    sources: DEFAULT_SOURCES,
    notify: {urls: [], max_items: 20},
    run: {healthcheck_url: null},
    server: {host: '127.0.0.1', port: 8080, allowed_hosts: []},
    shipments: {
      metadata: {url: shipmentsUrl, table: 'shipments', id_column: 'shipment_id', pool_size: 10, timeout_ms: 2000},
      telemetry: {
        url: shipmentsUrl,
        collection: 'telemetry',
        id_field: 'shipment_id',
        time_field: 'recorded_at',
        pool_size: 10,
        timeout_ms: 2000,
      },
      stale_after_seconds: 900,
    },
  }
}

type Layer = Record<string, unknown>

function isPlainObject(value: unknown): value is Layer {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Deep merge where a later layer's arrays and scalars replace earlier ones. */
function merge<T>(base: T, layer: Layer): T {
  const result: Layer = {...(base as Layer)}
  for (const [key, value] of Object.entries(layer)) {
    if (value === undefined) continue
    result[key] = isPlainObject(value) && isPlainObject(result[key]) ? merge(result[key], value) : value
  }
  return result as T
}

/** A comma-separated list (`a, b,c`), as environment variables and `config set` take one. */
export function splitList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
}

function parsePort(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined
  const port = Number(value)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigurationError(`JOBAGENT_PORT must be a port number (0-65535), got ${JSON.stringify(value)}`)
  }
  return port
}

function envLayer(env: Env): Layer {
  const mode = env.JOBAGENT_MODE
  if (mode !== undefined && mode !== 'production' && mode !== 'development') {
    throw new ConfigurationError(`JOBAGENT_MODE must be production or development, got ${JSON.stringify(mode)}`)
  }
  return {
    mode,
    notify: {urls: splitList(env.JOBAGENT_NOTIFY_URLS)},
    run: {healthcheck_url: env.JOBAGENT_HEALTHCHECK_URL || undefined},
    server: {host: env.JOBAGENT_HOST || undefined, port: parsePort(env.JOBAGENT_PORT)},
    shipments: {
      metadata: {url: env.JOBAGENT_SHIPMENT_METADATA_URL || undefined},
      telemetry: {url: env.JOBAGENT_SHIPMENT_TELEMETRY_URL || undefined},
    },
  }
}

export interface LoadedConfig {
  config: JobagentConfig
  paths: Paths
}

/**
 * The effective configuration: built-in defaults < config file < JOBAGENT_* environment < command-line flags
 * (`overrides`, already shaped like the config).
 */
export function loadConfig(options: {env?: Env; overrides?: Layer} = {}): LoadedConfig {
  const env = options.env ?? process.env
  const {dataDir} = resolvePaths(env)
  const configFile = configFilePath(env)
  // Without a file there is nothing to validate: the defaults stand, and conf is not loaded at all.
  const stored = existsSync(configFile) ? openConfigFile(env).store : {}
  let config = merge(defaults(dataDir), stored)
  config = merge(config, envLayer(env))
  config = merge(config, options.overrides ?? {})
  return {
    config,
    paths: {
      configFile,
      dataDir,
      trackerDb: join(dataDir, 'jobagent.db'),
      shipmentsDb: join(dataDir, 'shipments.db'),
    },
  }
}

/**
 * `sources` with the entries named by `--source` (type or name) enabled, even if the config disables them, and
 * the others disabled; entries keep their places, so a problem is named by its index in the config file.
 */
export function selectSources(sources: readonly SourceConfig[], wanted: readonly string[]): SourceConfig[] {
  const available = sources.map((source) => source.name ?? source.type)
  const unknown = wanted.filter((name) => !sources.some((source) => source.type === name || source.name === name))
  if (unknown.length > 0) {
    throw new ConfigurationError(`unknown source ${unknown.map((name) => `"${name}"`).join(', ')}`, {
      hint: `configured sources: ${available.join(', ') || 'none'}`,
    })
  }
  return sources.map((source) => ({
    ...source,
    enabled: wanted.includes(source.type) || (source.name !== undefined && wanted.includes(source.name)),
  }))
}
