/**
 * The settings of one `sources` entry: which board adapter to build and how. Defined here, beside the JobSource
 * port, so the adapters in src/sources and the config file's schema in src/app share one definition, and the
 * rules an entry must meet beyond its JSON shape, so `run` and `config set` judge a list alike. The types, their
 * lists and their own rules are the rows of BOARD_KINDS (board-kinds.ts); nothing here names a board.
 */

import {ConfigurationError, type ErrorDetail} from '../errors.js'
import {isHttpUrl} from '../url-identity.js'
import type {BoardKind, BoardListKey, BoardRef, SettingShape, SourceEntry} from './board-kind.js'
import {BOARD_KINDS} from './board-kinds.js'

export type {BoardListKey, BoardRef} from './board-kind.js'

export type SourceType = (typeof BOARD_KINDS)[number]['type']

/** Every source type, in the order of BOARD_KINDS. */
export const SOURCE_TYPES = BOARD_KINDS.map((kind) => kind.type) as [SourceType, ...SourceType[]]

export interface SourceConfig extends SourceEntry {
  type: SourceType
}

const KINDS: ReadonlyMap<string, BoardKind> = new Map(BOARD_KINDS.map((kind) => [kind.type, kind]))

/** The row of BOARD_KINDS of `type`; undefined for a type this build lacks. */
export function boardKind(type: string): BoardKind | undefined {
  return KINDS.get(type)
}

/** The keys some type's entries add to those every entry takes, with what each accepts (the config schema's). */
export function sourceSettings(): [string, SettingShape][] {
  const settings = new Map<string, SettingShape>()
  for (const kind of BOARD_KINDS as readonly BoardKind[]) {
    for (const [key, shape] of Object.entries(kind.settings ?? {})) settings.set(key, shape)
  }
  return [...settings]
}

/** The list an entry of `type` names its boards in; undefined for a type that has none or that this build lacks. */
export function boardListKey(type: string): BoardListKey | undefined {
  return KINDS.get(type)?.list
}

const SOURCE_HINT = 'fix the entry with: jobagent config set sources <json> (or edit the config file)'
const DUPLICATE_HINT = 'remove one of the repeated entries, or give one a distinct "name"'

/**
 * The name a source built from a valid entry reports and logs under: `remoteok`, `greenhouse:gitlab` (`slug` is
 * the board or site of a multi-board entry), `rss:example.org`, `file:jobs.json`. Duplicates are found by it.
 */
export function sourceName(config: SourceConfig, slug?: string): string {
  const kind = KINDS.get(config.type)
  if (kind?.list && slug === undefined && config.boards_file !== undefined) {
    return `${config.name ?? config.type}:${fileName(config.boards_file)}`
  }
  if (kind?.list) return `${config.name ?? config.type}:${slug}`
  return kind?.name?.(config) ?? config.name ?? config.type
}

/** The last part of a path, `/` or `\\` separated (core reads no file system). */
function fileName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path
}

/** The keys an entry of `type` cannot do without (`boards` for greenhouse, `path` for file), as the checks see them. */
export function requiredKeys(type: SourceType): string[] {
  return entryProblems({type}, (name) => name).flatMap((problem) => (problem.field ? [problem.field] : []))
}

/** The slugs of a board or site list, whether given as text or as `{slug, company}`. */
export function boardSlugs(list: readonly (string | BoardRef)[]): string[] {
  return list.map((entry) => (typeof entry === 'string' ? entry : entry.slug))
}

/**
 * What is wrong with one entry beyond its JSON shape, which the config schema checks: keys a type requires, a
 * `url` that is not http(s). Values of the wrong JSON type are left to the schema, so each problem is named once.
 */
function entryProblems(config: SourceConfig, key: (name: string) => string): ErrorDetail[] {
  const problem = (name: string, message: string): ErrorDetail => ({
    field: key(name),
    message: `${key(name)} ${message}`,
  })
  if (!(SOURCE_TYPES as readonly unknown[]).includes(config.type)) {
    return [problem('type', `${JSON.stringify(config.type)} is not a source type (one of ${SOURCE_TYPES.join(', ')})`)]
  }
  const problems: ErrorDetail[] = []
  if (typeof config.url === 'string' && !isHttpUrl(config.url)) {
    problems.push(problem('url', `must be an absolute http(s) URL, got ${JSON.stringify(config.url)}`))
  }
  if (typeof config.timeout_seconds === 'number' && !(config.timeout_seconds > 0)) {
    problems.push(problem('timeout_seconds', 'must be a positive number of seconds'))
  }
  if (typeof config.deadline_seconds === 'number' && !(config.deadline_seconds > 0)) {
    problems.push(problem('deadline_seconds', 'must be a positive number of seconds'))
  }
  if (typeof config.max_pages === 'number' && !(Number.isInteger(config.max_pages) && config.max_pages >= 1)) {
    problems.push(problem('max_pages', 'must be a whole number of 1 or more'))
  }
  const kind = KINDS.get(config.type)
  const listKey = kind?.list
  const list = listKey && config[listKey]
  const file = config.boards_file
  if (file !== undefined && !listKey) {
    problems.push(problem('boards_file', `is for an ATS entry, and ${config.type} names no boards`))
  } else if (file !== undefined && list !== undefined) {
    problems.push(problem('boards_file', `and ${listKey} cannot both name the boards; keep one`))
  } else if (listKey && file === undefined && (list === undefined || (Array.isArray(list) && list.length === 0))) {
    problems.push(problem(listKey, `is required for ${config.type}`))
  }
  problems.push(...(kind?.problems?.(config, problem, key) ?? []))
  return problems
}

/**
 * The sources a valid entry gives, enabled or not, by name, with the slug of each board of an ATS entry
 * (`greenhouse:gitlab`, slug `gitlab`; `remoteok`, slug null).
 */
export function entrySources(config: SourceConfig): {name: string; slug: string | null}[] {
  const listKey = boardListKey(config.type)
  const list = listKey ? config[listKey] : undefined
  if (!listKey || config.boards_file !== undefined) return [{name: sourceName(config), slug: null}]
  return Array.isArray(list) ? boardSlugs(list).map((slug) => ({name: sourceName(config, slug), slug})) : []
}

/** The sources an enabled, valid entry gives, by name. */
function entryNames(config: SourceConfig): string[] {
  return entrySources(config).map((source) => source.name)
}

/**
 * Every problem of a `sources` list, each naming its entry (`sources[1].boards is required for greenhouse`):
 * the checks of every entry, enabled or not, and a board that two enabled entries would both search. `run`,
 * `GET /jobs` and `config set` all judge a list by this.
 */
function sourceConfigProblems(configs: readonly SourceConfig[]): ErrorDetail[] {
  const problems: ErrorDetail[] = []
  const firstIndex = new Map<string, number>()
  configs.forEach((config, index) => {
    if (typeof config !== 'object' || config === null) return
    const entry = `sources[${index}]`
    const own = entryProblems(config, (name) => `${entry}.${name}`)
    problems.push(...own)
    if (own.length > 0 || config.enabled === false) return
    for (const name of entryNames(config)) {
      const earlier = firstIndex.get(name)
      if (earlier === undefined) firstIndex.set(name, index)
      else problems.push({field: entry, message: `${entry} repeats the source ${name} of sources[${earlier}]`})
    }
  })
  return problems
}

/** Throws one ConfigurationError listing every problem of `configs` (see sourceConfigProblems). */
export function validateSourceConfigs(configs: readonly SourceConfig[]): void {
  const problems = sourceConfigProblems(configs)
  if (problems.length === 0) return
  const onlyRepeats = problems.every((problem) => problem.message.includes(' repeats the source '))
  throw new ConfigurationError(problems.map((problem) => problem.message).join('; '), {
    details: problems,
    hint: onlyRepeats ? DUPLICATE_HINT : SOURCE_HINT,
  })
}
