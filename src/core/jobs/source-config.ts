/**
 * The settings of one `sources` entry: which board adapter to build and how. Defined here, beside the JobSource
 * port, so the adapters in src/sources and the config file's schema in src/app share one definition, and the
 * rules an entry must meet beyond its JSON shape, so `run` and `config set` judge a list alike.
 */

import {basename} from 'node:path'
import {ConfigurationError, type ErrorDetail} from '../errors.js'
import {isHttpUrl} from '../url-identity.js'

export const SOURCE_TYPES = [
  'remoteok',
  'remotive',
  'arbeitnow',
  'jobicy',
  'himalayas',
  'weworkremotely',
  'greenhouse',
  'lever',
  'ashby',
  'adzuna',
  'bamboohr',
  'breezy',
  'personio',
  'pinpoint',
  'recruitee',
  'rippling',
  'smartrecruiters',
  'teamtailor',
  'workable',
  'workday',
  'workingnomads',
  'hackernews',
  'rss',
  'file',
] as const

export type SourceType = (typeof SOURCE_TYPES)[number]

/** A board, site or company slug, with the company name to show when the board carries none (Lever, Ashby). */
export interface BoardRef {
  slug: string
  company?: string
}

export interface SourceConfig {
  type: SourceType
  name?: string
  url?: string
  enabled?: boolean
  timeout_seconds?: number
  /** The longest a board's whole search may take: its pages, retries and details. */
  deadline_seconds?: number
  max_pages?: number
  boards?: (string | BoardRef)[]
  sites?: (string | BoardRef)[]
  companies?: (string | BoardRef)[]
  accounts?: (string | BoardRef)[]
  region?: 'global' | 'eu'
  path?: string
  /** Adzuna: the country searched (`gb`, `de`), and the user's own application id and key. */
  country?: string
  app_id?: string
  app_key?: string
}

/** The countries Adzuna's search API serves, by the code in its path (`/v1/api/jobs/gb/search/1`). */
const ADZUNA_COUNTRIES = [
  'at',
  'au',
  'be',
  'br',
  'ca',
  'ch',
  'de',
  'es',
  'fr',
  'gb',
  'in',
  'it',
  'mx',
  'nl',
  'nz',
  'pl',
  'sg',
  'us',
  'za',
] as const

/** The settings that name the boards of an entry: one source per board, site, company or account. */
export type BoardListKey = 'boards' | 'sites' | 'companies' | 'accounts'

/** Settings that name the boards of one entry, by type: one source per board or site. */
const BOARD_LISTS: Partial<Record<SourceType, BoardListKey>> = {
  greenhouse: 'boards',
  lever: 'sites',
  ashby: 'boards',
  bamboohr: 'companies',
  breezy: 'companies',
  personio: 'companies',
  pinpoint: 'companies',
  recruitee: 'companies',
  rippling: 'companies',
  smartrecruiters: 'companies',
  teamtailor: 'companies',
  workable: 'accounts',
  workday: 'sites',
}

/** The list an entry of `type` names its boards in; undefined for a type that has none or that this build lacks. */
export function boardListKey(type: string): BoardListKey | undefined {
  return Object.hasOwn(BOARD_LISTS, type) ? BOARD_LISTS[type as SourceType] : undefined
}

const SOURCE_HINT = 'fix the entry with: jobagent config set sources <json> (or edit the config file)'
const DUPLICATE_HINT = 'remove one of the repeated entries, or give one a distinct "name"'

/** The name jobs of a generic feed carry as `source`: the configured `name`, else the feed's host. */
export function feedName(config: SourceConfig & {url: string}): string {
  return config.name ?? new URL(config.url).hostname.replace(/^www\./, '')
}

/**
 * The name a source built from a valid entry reports and logs under: `remoteok`, `greenhouse:gitlab` (`slug` is
 * the board or site of a multi-board entry), `rss:example.org`, `file:jobs.json`. Duplicates are found by it.
 */
export function sourceName(config: SourceConfig, slug?: string): string {
  if (BOARD_LISTS[config.type]) return `${config.name ?? config.type}:${slug}`
  if (config.type === 'rss' && config.url !== undefined) return `rss:${feedName({...config, url: config.url})}`
  if (config.type === 'file') return `file:${config.name ?? basename(config.path ?? '')}`
  if (config.type === 'adzuna') return config.name ?? `adzuna:${config.country ?? ''}`
  return config.name ?? config.type
}

/** A Workday career site: the tenant, the data centre of its host (`wd5`) and the site's name. */
interface WorkdaySite {
  tenant: string
  instance: string
  site: string
}

/**
 * `nvidia.wd5/NVIDIAExternalCareerSite`, as read from the career site's address
 * `https://nvidia.wd5.myworkdayjobs.com/NVIDIAExternalCareerSite`; undefined for any other form.
 */
export function workdaySite(slug: string): WorkdaySite | undefined {
  const match = /^([a-z0-9][a-z0-9-]*)\.(wd\d+)\/([a-z0-9][\w-]*)$/i.exec(slug)
  if (!match?.[1] || !match[2] || !match[3]) return undefined
  return {tenant: match[1], instance: match[2], site: match[3]}
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
  const listKey = BOARD_LISTS[config.type]
  const list = listKey && config[listKey]
  if (listKey && (list === undefined || (Array.isArray(list) && list.length === 0))) {
    problems.push(problem(listKey, `is required for ${config.type}`))
  }
  if (config.type === 'workday' && Array.isArray(list)) problems.push(...workdayProblems(list, key))
  if (config.type === 'adzuna') problems.push(...adzunaProblems(config, problem))
  if (config.type === 'rss' && config.url === undefined)
    problems.push(problem('url', "is required for rss (the feed's URL)"))
  if (
    config.type === 'file' &&
    (config.path === undefined || (typeof config.path === 'string' && config.path.trim() === ''))
  ) {
    problems.push(problem('path', 'is required for file'))
  }
  return problems
}

/** Each entry of a Workday `sites` list that is not written `{tenant}.{wdN}/{site}`, named by its place. */
function workdayProblems(list: readonly (string | BoardRef)[], key: (name: string) => string): ErrorDetail[] {
  return list.flatMap((entry, index) => {
    const slug = typeof entry === 'string' ? entry : entry?.slug
    if (typeof slug !== 'string' || workdaySite(slug)) return []
    const field = key(`sites[${index}]`)
    const message = `${field} ${JSON.stringify(slug)} is not a Workday site: write it as "{tenant}.{wdN}/{site}", as in https://{tenant}.{wdN}.myworkdayjobs.com/{site} (e.g. "nvidia.wd5/NVIDIAExternalCareerSite")`
    return [{field, message}]
  })
}

/**
 * Adzuna needs the country and the user's own application id and key (free at developer.adzuna.com). The
 * credentials are never quoted back: a refusal names the key only.
 */
function adzunaProblems(config: SourceConfig, problem: (name: string, message: string) => ErrorDetail): ErrorDetail[] {
  const problems: ErrorDetail[] = []
  if (config.country === undefined) {
    problems.push(problem('country', `is required for adzuna (one of ${ADZUNA_COUNTRIES.join(', ')})`))
  } else if (typeof config.country === 'string' && !(ADZUNA_COUNTRIES as readonly string[]).includes(config.country)) {
    problems.push(
      problem(
        'country',
        `${JSON.stringify(config.country)} is not an Adzuna country (one of ${ADZUNA_COUNTRIES.join(', ')})`,
      ),
    )
  }
  for (const key of ['app_id', 'app_key'] as const) {
    if (config[key] === undefined) problems.push(problem(key, 'is required for adzuna (from developer.adzuna.com)'))
  }
  return problems
}

/**
 * The sources a valid entry gives, enabled or not, by name, with the slug of each board of an ATS entry
 * (`greenhouse:gitlab`, slug `gitlab`; `remoteok`, slug null).
 */
export function entrySources(config: SourceConfig): {name: string; slug: string | null}[] {
  const listKey = BOARD_LISTS[config.type]
  const list = listKey ? config[listKey] : undefined
  if (!listKey) return [{name: sourceName(config), slug: null}]
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
