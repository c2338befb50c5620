import {existsSync, readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import envPaths from 'env-paths'
import {ConfigurationError, describeFileError, type ErrorDetail, isSystemError} from '../core/errors.js'
import type {SourceConfig} from '../core/jobs/source-config.js'
import {jsonSyntaxMessage} from '../core/json-syntax.js'
import {ensurePrivateDirectory, writeFileDurably} from '../storage/durable-file.js'
import {
  checkConfig,
  dottedKey,
  type JobagentConfig,
  logLevelSchema,
  modeSchema,
  PROTOTYPE_KEYS,
  portSchema,
  schemaAt,
} from './config-schema.js'
import type {AnySlice} from './slice.js'
import {SLICES} from './slices.js'

export type {JobagentConfig} from './config-schema.js'

export interface Paths {
  configFile: string
  dataDir: string
  trackerDb: string
}

export type Env = Readonly<Record<string, string | undefined>>

export function resolvePaths(env: Env = process.env): {configDir: string; dataDir: string} {
  const home = env.JOBAGENT_HOME
  if (home) return {configDir: home, dataDir: home}
  const paths = envPaths('jobagent', {suffix: ''})
  return {configDir: paths.config, dataDir: paths.data}
}

export function configFilePath(env: Env = process.env): string {
  return join(resolvePaths(env).configDir, 'config.json')
}

/**
 * The commands that fix the schema's problems: `config unset` for a key the schema does not know (it removes a
 * key that is in the file, known or not), `config set` for a value it refuses.
 */
function configFixHint(problems: readonly ErrorDetail[]): string {
  const steps = problems.map(({field}) => {
    if (!field) return 'jobagent config set <key> <value>'
    // A key inside a list (`sources[0].type`) is fixed by setting the whole list; `config set` names no entry.
    const list = listHolding(field)
    if (list !== undefined) return `jobagent config set ${list} '<JSON list>'`
    const settable = schemaAt(field) && !PROTOTYPE_KEYS.has(field.split('.').at(-1) ?? '')
    return settable ? `jobagent config set ${field} <value>` : `jobagent config unset ${field}`
  })
  return `fix it with: ${[...new Set(steps)].join(', ')}`
}

/** The key of the list a key lies in (`sources` for `sources[0].type`); undefined for a key in no list. */
export function listHolding(key: string): string | undefined {
  const segments = dottedKey(key).split('.')
  const entryAt = segments.findIndex((segment) => /^\d+$/.test(segment))
  return entryAt > 0 ? segments.slice(0, entryAt).join('.') : undefined
}

/** The warning after an edit that was written into a file still invalid: what is left, and how to fix it. */
export function problemsLeftWarning(path: string, problems: readonly ErrorDetail[]): string {
  const left = problems.map((problem) => problem.message).join('; ')
  return `Warning: ${path} still has problems: ${left}\nHint: ${configFixHint(problems)}\n`
}

/** The schema's problems with a configuration as one error that says what was refused (`action`) and every key. */
export function configProblemsError(
  action: string,
  problems: ErrorDetail[],
  hint: string = configFixHint(problems),
): ConfigurationError {
  return new ConfigurationError(`${action}: ${problems.map((problem) => problem.message).join('; ')}`, {
    details: problems,
    hint,
  })
}

/**
 * The config file's content as stored, `{}` when there is none. Text that is not JSON, or JSON that is not an
 * object (`[]`, `null`), is refused and never overwritten: no `config set` or `unset` can fix the file as a whole.
 * A file that cannot be read is the environment's problem (exit 1), named with what to do.
 */
export function readConfigFile(file: string): Record<string, unknown> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if (isSystemError(error) && error.code === 'ENOENT') return {}
    throw describeFileError(error, file, 'read')
  }
  let stored: unknown
  try {
    stored = JSON.parse(text)
  } catch (error) {
    throw new ConfigurationError(`${file} is not valid JSON: ${jsonSyntaxMessage(error, text)}`, {
      hint: `edit the file, or remove it to start again from the defaults: ${file}`,
      cause: error,
    })
  }
  if (!isPlainObject(stored)) {
    const found = stored === null ? 'null' : Array.isArray(stored) ? 'an array' : typeof stored
    throw new ConfigurationError(`${file} must hold a JSON object ({"key": value, ...}), not ${found}`, {
      hint: `edit the file, or remove it to start again from the defaults: ${file}`,
    })
  }
  return stored
}

/** Replaces the config file completely or not at all (see durable-file), mode 0600, following a symbolic link. */
export function writeConfigFile(file: string, stored: Record<string, unknown>): void {
  ensurePrivateDirectory(dirname(file))
  writeFileDurably(file, JSON.stringify(stored, undefined, '\t'), {links: 'follow'})
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

/** A comma-separated list (`a, b,c`) in an environment variable; blank entries are left out. */
function splitList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
}

/** An environment variable, checked by the schema of the key it sets and refused under its own name. */
function fromEnv<T>(
  env: Env,
  name: string,
  schema: {safeParse(value: unknown): {success: true; data: T} | {success: false}},
  expected: string,
  read: (raw: string) => unknown = (raw) => raw,
): T | undefined {
  const raw = env[name]
  if (raw === undefined || raw === '') return undefined
  const result = schema.safeParse(read(raw))
  if (!result.success) throw new ConfigurationError(`${name} must be ${expected}, got ${JSON.stringify(raw)}`)
  return result.data
}

/**
 * JOBAGENT_PORT, refused under its own name when it is no port. Only what uses the port (serve) calls this: a
 * server setting never stops another command, so the configuration of every command ignores a bad value.
 */
export function serverPortFromEnv(env: Env): number | undefined {
  return fromEnv(env, 'JOBAGENT_PORT', portSchema, 'a port number (0-65535)', Number)
}

function envLayer(env: Env): Layer {
  return {
    mode: fromEnv(env, 'JOBAGENT_MODE', modeSchema, 'production or development'),
    notify: {urls: splitList(env.JOBAGENT_NOTIFY_URLS)},
    run: {healthcheck_url: env.JOBAGENT_HEALTHCHECK_URL || undefined},
    server: {
      host: env.JOBAGENT_HOST || undefined,
      // A value that is no port is ignored here and refused by serve, which uses it (serverPortFromEnv).
      port: env.JOBAGENT_PORT ? portSchema.safeParse(Number(env.JOBAGENT_PORT)).data : undefined,
      log_level: fromEnv(env, 'JOBAGENT_LOG_LEVEL', logLevelSchema, 'DEBUG, INFO, WARNING or ERROR', (raw) =>
        raw.toUpperCase(),
      ),
    },
    ...Object.fromEntries(SLICES.map((slice) => [slice.key, slice.environment(env)])),
  }
}

interface LoadedConfig {
  config: JobagentConfig
  paths: Paths
}

/**
 * The effective configuration: built-in defaults < config file < JOBAGENT_* environment < command-line flags
 * (`overrides`, already shaped like the config). The file is checked by the schema on every read.
 */
export function loadConfig(options: {env?: Env; overrides?: Layer} = {}): LoadedConfig {
  const env = options.env ?? process.env
  const {dataDir} = resolvePaths(env)
  const configFile = configFilePath(env)
  // Where no file can be (JOBAGENT_HOME names a file, say) the defaults stand, and creating the data dir reports it.
  const checked = checkConfig(existsSync(configFile) ? readConfigFile(configFile) : {})
  if (!checked.ok) throw configProblemsError(`invalid configuration in ${configFile}`, checked.problems)
  // A slice's defaults may lie in the data dir (an embedded database), which only the paths know.
  const parsed: Layer = checked.config
  const sections = SLICES.map((slice: AnySlice) => [slice.key, slice.withPaths(parsed[slice.key] as never, {dataDir})])
  let config = {...checked.config, ...Object.fromEntries(sections)} as JobagentConfig
  config = merge(config, envLayer(env))
  config = merge(config, options.overrides ?? {})
  return {config, paths: {configFile, dataDir, trackerDb: join(dataDir, 'jobagent.db')}}
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
