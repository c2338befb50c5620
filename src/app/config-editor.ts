import {nearestWord} from '../core/edit-distance.js'
import {ConfigurationError, type ErrorDetail, NotFoundError} from '../core/errors.js'
import {validateSourceConfigs} from '../core/jobs/source-config.js'
import {notifyFloor} from '../core/notifications/notify-floor.js'
import {valueAtPath} from '../core/value-at.js'
import {readBoardsFile} from './boards-file.js'
import {configFilePath, configProblemsError, type Env, listHolding, readConfigFile, writeConfigFile} from './config.js'
import {
  checkConfig,
  dottedKey,
  inlineJson,
  keyName,
  PROTOTYPE_KEY_MESSAGE,
  PROTOTYPE_KEYS,
  schemaAt,
} from './config-schema.js'
import {maskSettings} from './configured-secrets.js'
import {checkNotifySetting} from './notify-settings.js'

/**
 * Values are given on the command line as JSON (`true`, `20`, `["a","b"]`) or as plain text. Text for a list of
 * strings is a comma-separated list (`typescript,node`), as in the JOBAGENT_* variables and `run --tags`. A value
 * that starts like a JSON object or array is meant as one: a typo in it is reported, not stored as text.
 */
function parseValue(key: string, raw: string): unknown {
  const node = schemaAt(key)
  const stringList = node?.type === 'array' && node.child('0')?.type === 'string'
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch (error) {
    if (/^\s*[[{]/.test(raw)) {
      const asText = stringList ? ', or give the list as comma-separated text: a,b' : ''
      throw new ConfigurationError(`cannot set ${key}: the value is not valid JSON: ${(error as Error).message}`, {
        details: [{field: key, message: 'not valid JSON'}],
        hint: `JSON wants double-quoted names and texts and no trailing comma; quote the whole value for the shell ('{"name": "text"}')${asText}`,
      })
    }
    value = raw
  }
  return stringList && typeof value === 'string' ? textList(value) : value
}

/**
 * A comma-separated list given as text, every entry kept: a blank one (`a,,b`) is refused by the schema, naming its
 * position, as the same list given as JSON is. Text with nothing in it is the empty list.
 */
function textList(text: string): string[] {
  return text.trim() === '' ? [] : text.split(',').map((item) => item.trim())
}

/**
 * What a refused `config set` can do instead: the accepted values of the key where the schema lists them, an
 * example of the value where it gives one, else where the value in force is shown. The command just run is never
 * repeated back.
 */
function setHint(key: string, problems: readonly ErrorDetail[], candidate: Record<string, unknown>): string {
  const unchanged = 'the file is unchanged'
  const hints = problems.map(({field = key}) => {
    const node = schemaAt(field)
    // A key inside a list (`sources[0].type`) is set with its whole list: `config set` names no list entry.
    const list = listHolding(field)
    if (node?.values && list !== undefined) {
      const given = valueAt(candidate, field)
      const nearest = typeof given === 'string' ? nearestWord(given, node.values.map(String)) : undefined
      const guess = nearest === undefined ? '' : `did you mean "${nearest}"? `
      return `${guess}set the whole list again with ${field} fixed: jobagent config set ${list} '<JSON list>'`
    }
    if (node?.values) return `set one of them, for example: jobagent config set ${field} ${node.values[0]}`
    if (node?.type === 'boolean') return `set true or false, for example: jobagent config set ${field} true`
    const entry = /^(.*)\.(\d+)$/.exec(dottedKey(field))
    if (entry && node?.type === 'string' && schemaAt(entry[1] ?? '')?.type === 'array') {
      return `leave out the blank entry at position ${entry[2]} of ${keyName(entry[1] ?? '')} (counted from 0)`
    }
    const example = node?.example()
    if (example !== undefined) return `${unchanged}; for example: jobagent config set ${field} '${inlineJson(example)}'`
    return `${unchanged}; jobagent config get ${key} shows the value in force`
  })
  // "the file is unchanged" is said once, first.
  const unique = [...new Set(hints)]
  const said = unique.some((hint) => hint.startsWith(unchanged))
  const rest = unique.map((hint) => (hint.startsWith(unchanged) ? hint.slice(unchanged.length + 2) : hint))
  return [...(said ? [unchanged] : []), ...rest].join('; ')
}

/** Walks the schema so a nested typo (`search.foo`) is named, not just reported as "search has an unknown key". */
function checkKey(key: string): void {
  const segments = dottedKey(key).split('.')
  const prototypeKey = segments.find((segment) => PROTOTYPE_KEYS.has(segment))
  if (prototypeKey !== undefined) {
    throw new ConfigurationError(`cannot use the key "${key}": ${PROTOTYPE_KEY_MESSAGE}`, {
      details: [{field: key, message: PROTOTYPE_KEY_MESSAGE}],
      hint: 'name a skill, a currency or a setting by its own name',
    })
  }
  let node = schemaAt('')
  const parents: string[] = []
  for (const segment of segments) {
    // A list's entry by its position has the keys of the list's entries (`sources[0].colour` is a typo too).
    if (node?.type === 'array' && /^\d+$/.test(segment)) {
      parents.push(segment)
      node = node.child(segment)
      continue
    }
    // Below a scalar or a record the schema check of the edited file decides.
    if (!node?.keys) return
    const child = node.keys.includes(segment) ? node.child(segment) : undefined
    if (!child) {
      const where = parents.length === 0 ? 'top-level keys' : `keys under ${keyName(parents.join('.'))}`
      throw new ConfigurationError(`unknown configuration key "${key}"`, {
        details: [{field: keyName([...parents, segment].join('.')), message: 'unknown key'}],
        hint: `${where} are: ${node.keys.join(', ')}`,
      })
    }
    parents.push(segment)
    node = child
  }
}

function isContainer(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

/** The value at a key (`sources[0].type`), or undefined where the stored file has none. */
function valueAt(stored: Record<string, unknown>, key: string): unknown {
  return valueAtPath(stored, dottedKey(key).split('.'))
}

/** A copy of the stored configuration with `key` set (`undefined`: removed), to judge an edit before writing it. */
function withValue(stored: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(stored)
  const segments = dottedKey(key).split('.')
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

/** The built-in default at `key` as it applies to the stored file (the defaults of a valid file's sections). */
function defaultAt(stored: Record<string, unknown>, key: string): unknown {
  const checked = checkConfig(stored)
  const defaults = checked.ok ? checked.config : (checkConfig({}) as {ok: true; config: object}).config
  return valueAt(defaults as Record<string, unknown>, key)
}

function sameProblem(a: ErrorDetail, b: ErrorDetail): boolean {
  return a.field === b.field && a.message === b.message
}

/** `jobagent config list|get|set|unset|path`: edits the file only, never the environment or flags. */
export class ConfigEditor {
  readonly path: string

  constructor(env: Env = process.env) {
    this.path = configFilePath(env)
  }

  list(options: {showSecrets?: boolean} = {}): Record<string, unknown> {
    const stored = readConfigFile(this.path)
    return (options.showSecrets ? stored : maskSettings(stored)) as Record<string, unknown>
  }

  /** The value in the file, else the built-in default in force (`isDefault`); a key with neither is not found. */
  get(given: string, options: {showSecrets?: boolean} = {}): {value: unknown; isDefault: boolean} {
    const key = keyName(given)
    checkKey(key)
    const stored = readConfigFile(this.path)
    const set = valueAt(stored, key)
    // notify.min_score has no default in the schema, so that an explicit 0 stays apart from an unset key; the floor
    // in force when it is unset is notifyFloor's.
    const value = set ?? defaultAt(stored, key) ?? (key === 'notify.min_score' ? notifyFloor({}) : undefined)
    if (value === undefined) {
      throw new NotFoundError(`${key} is not set in ${this.path} and has no fixed default`, {
        hint: `set it with: jobagent config set ${key} <value>`,
      })
    }
    return {value: options.showSecrets ? value : maskSettings(value, key), isDefault: set === undefined}
  }

  /**
   * Sets one key. In a file that is invalid already, a set that fixes one of its problems and adds none is written
   * (as an unset is), so the file can be repaired key by key; the problems that remain are returned.
   */
  set(given: string, raw: string): {value: unknown; problems: ErrorDetail[]} {
    const key = keyName(given)
    checkKey(key)
    const value = parseValue(key, raw)
    checkNotifySetting(key, value)
    const stored = readConfigFile(this.path)
    const problems = this.write(`set ${key}`, withValue(stored, key, value), stored, {repairs: 'when it fixes one'})
    return {value, problems}
  }

  /**
   * Removes a key that is in the file even when the schema does not know it (a typo such as `mdoe`), so a file
   * that fails to load can be repaired key by key. A known key the file does not hold leaves the file as it is
   * (`removed: false`). Returns the file's problems that remain.
   */
  unset(given: string): {removed: boolean; problems: ErrorDetail[]} {
    const key = keyName(given)
    const stored = readConfigFile(this.path)
    if (valueAt(stored, key) === undefined) {
      checkKey(key)
      return {removed: false, problems: []}
    }
    return {
      removed: true,
      problems: this.write(`unset ${key}`, withValue(stored, key, undefined), stored, {repairs: true}),
    }
  }

  /**
   * Writes the edited file (`edit`: `set search.tags`) only if every command could read it: the schema's checks
   * first, then, for an edit under `sources`, the rules `run` applies to the list. Edits elsewhere leave a list edited by hand alone:
   * `run` and `GET /jobs` report it. An edit that `repairs` (an unset; a set that fixes one of the file's problems)
   * is written into a file that was invalid already unless it adds a problem of its own; it returns the problems that
   * remain.
   */
  private write(
    edit: string,
    candidate: Record<string, unknown>,
    stored: Record<string, unknown>,
    options: {repairs?: true | 'when it fixes one'} = {},
  ): ErrorDetail[] {
    const checked = checkConfig(candidate)
    if (!checked.ok) {
      // Problems the file had before this edit are not the edit's.
      const before = checkConfig(stored)
      const added = before.ok
        ? checked.problems
        : checked.problems.filter((problem) => !before.problems.some((known) => sameProblem(known, problem)))
      const fixes =
        !before.ok && before.problems.some((known) => !checked.problems.some((problem) => sameProblem(known, problem)))
      const repairs = options.repairs === true || (options.repairs !== undefined && fixes)
      if (repairs && added.length === 0) {
        writeConfigFile(this.path, candidate)
        return checked.problems
      }
      // Only problems of its own refuse a repair; any other edit waits until the file's are fixed (the hint names how).
      const first = added.length === 0 ? ": fix the file's problems first" : ''
      const problems = options.repairs === true ? added : checked.problems
      // The value given is refused: what the key takes helps, the command to set it (just run) does not.
      const setting = /^set (.+)$/.exec(edit)?.[1]
      const hint = setting !== undefined && added.length > 0 ? setHint(setting, added, candidate) : undefined
      throw configProblemsError(`cannot ${edit} in ${this.path}${first}`, problems, hint)
    }
    if (/^(set|unset) sources(\.|\[|$)/.test(edit)) {
      try {
        validateSourceConfigs(checked.config.sources)
        // A file of boards is read as the run reads it, so a missing file or a bad line is refused now, not at 7 am.
        for (const source of checked.config.sources) {
          if (source.boards_file !== undefined && source.enabled !== false) readBoardsFile(source, this.path)
        }
      } catch (error) {
        if (!(error instanceof ConfigurationError)) throw error
        throw new ConfigurationError(`cannot ${edit} in ${this.path}: ${error.message}`, {
          details: error.details,
          hint: error.hint ?? '',
        })
      }
    }
    writeConfigFile(this.path, candidate)
    return []
  }
}
