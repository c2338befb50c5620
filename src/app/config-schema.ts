/**
 * The one definition of config.json: its shape, the built-in defaults, the types the rest of jobagent reads
 * (z.output), and the words of every refusal, all taken from this schema. Every key of the file is optional.
 */

import type * as ZodMini from 'zod/mini'
import type {ErrorDetail} from '../core/errors.js'
import type {SettingShape} from '../core/jobs/board-kind.js'
import {atsTypes} from '../core/jobs/board-urls.js'
import type {SearchCriteria} from '../core/jobs/job.js'
import {type BoardRef, SOURCE_TYPES, type SourceConfig, sourceSettings} from '../core/jobs/source-config.js'
import {type Profile, SENIORITIES} from '../core/matching/profile.js'
import * as z from '../core/zod-mini.js'
import {examples, section, text, withExample} from './config-section.js'
import {SLICES, type SliceConfigs} from './slices.js'

/** A list of words or phrases: a blank entry would match every job (an empty tag) or nothing, so it is refused. */
const stringList = (example: string[]) =>
  z._default(withExample(z.array(z.string().check(z.regex(/\S/, 'must not be empty'))), example), () => [])
/** A board, site or company slug, optionally with the company name to show (Lever and Ashby carry none). */
const boardList = z.array(z.union([text(), z.strictObject({slug: text(), company: z.optional(z.string())})]))

/** What a setting of a board type accepts: free text (not empty), or one of its words. */
function settingSchema(shape: SettingShape) {
  return shape === 'text' ? text() : z.enum(shape)
}

const sourceSchema = z.strictObject({
  type: z.enum(SOURCE_TYPES),
  name: z.optional(text()),
  url: z.optional(text()),
  enabled: z.optional(z.boolean()),
  timeout_seconds: z.optional(z.number().check(z.gt(0), z.lte(600))),
  deadline_seconds: z.optional(z.number().check(z.gt(0), z.lte(3600))),
  max_pages: z.optional(z.int().check(z.gte(1), z.lte(100))),
  boards: z.optional(boardList),
  sites: z.optional(boardList),
  companies: z.optional(boardList),
  accounts: z.optional(boardList),
  boards_file: z.optional(text()),
  // The keys some board types add (Lever's `region`, Adzuna's `country`), from their rows of BOARD_KINDS.
  ...Object.fromEntries(sourceSettings().map(([key, shape]) => [key, z.optional(settingSchema(shape))])),
})

/** Without a `sources` key the keyless public boards are searched. */
export const DEFAULT_SOURCES: SourceConfig[] = [
  {type: 'remoteok'},
  {type: 'remotive'},
  {type: 'arbeitnow'},
  {type: 'jobicy'},
  {type: 'himalayas'},
  {type: 'weworkremotely'},
]

export const modeSchema = z.enum(['production', 'development'])
export const portSchema = z.int().check(z.gte(0), z.lte(65535))
export const logLevelSchema = z.enum(['DEBUG', 'INFO', 'WARNING', 'ERROR'])

const currencyCode = withExample(
  z.string().check(z.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 currency code such as EUR or USD')),
  'EUR',
)
/** Each slice's section under its key, after the job side's sections. */
const sliceSections = Object.fromEntries(SLICES.map((slice) => [slice.key, slice.configSection])) as {
  [S in (typeof SLICES)[number] as S['key']]: ZodMini.ZodMiniType
}

const configSchema = z.strictObject({
  mode: z._default(modeSchema, 'production'),
  search: section({
    tags: stringList(['typescript', 'rust']),
    keywords: stringList(['backend']),
    exclude_keywords: stringList(['php']),
    locations: stringList(['remote', 'europe']),
    remote_only: z._default(z.boolean(), false),
    max_age_days: z._default(z.nullable(z.number().check(z.gt(0))), null),
    company_block_list: stringList(['Acme']),
    // Compared on annual amounts; a job in another currency goes through `fx` or counts as without a salary.
    min_salary: z._default(
      z.nullable(
        withExample(
          z.strictObject({
            amount: z.number().check(z.gt(0)),
            currency: currencyCode,
            period: z._default(z.enum(['year', 'month', 'week', 'day', 'hour']), 'year'),
            unknown: z._default(z.enum(['keep', 'drop']), 'keep'),
          }),
          {amount: 70000, currency: 'EUR'},
        ),
      ),
      null,
    ),
    fx: z._default(withExample(z.record(currencyCode, z.number().check(z.gt(0))), {USD: 0.92}), () => ({})),
  }),
  sources: z._default(z.array(sourceSchema), () => DEFAULT_SOURCES),
  notify: section({
    urls: stringList(['ntfy://ntfy.sh/my-jobs']),
    max_items: z._default(z.int().check(z.gte(1), z.lte(1000)), 20),
    // Jobs scored below this (with a profile) are stored and listed but not notified. Not set: the default floor
    // (notifyFloor); 0, set, is no floor. Left without a default here so the two stay apart.
    min_score: z.optional(z.int().check(z.gte(0), z.lte(100))),
  }),
  // Applications waiting on an employer (applied, interviewing) are due for a follow-up after `after_days`; one
  // in `applied` that long whose posting closed is suggested as ghosted after `ghosted_after_days`.
  followups: section({
    after_days: z._default(z.int().check(z.gte(1), z.lte(365)), 7),
    ghosted_after_days: z._default(z.int().check(z.gte(1), z.lte(365)), 21),
    // An application with an interview ahead, or one less than this many days ago, is not due (docs/LIFECYCLE.md).
    after_interview_days: z._default(z.int().check(z.gte(0), z.lte(365)), 5),
  }),
  // docs/MATCHING.md: what the person wants (roles), knows (skills), rules out (avoid), and where they live and work.
  profile: section({
    roles: stringList(['backend engineer']),
    // A skill of blanks only would match between every two characters of a posting.
    skills: z._default(
      withExample(z.record(z.string().check(z.regex(/\S/, 'must not be empty')), z.int().check(z.gte(1), z.lte(3))), {
        typescript: 3,
        'node.js': 2,
      }),
      () => ({}),
    ),
    avoid: stringList(['php']),
    seniority: z._default(z.enum([...SENIORITIES, 'any']), 'any'),
    home: z._default(z.nullable(withExample(z.string().check(z.regex(/\S/, 'must not be empty')), 'Germany')), null),
    locations: stringList(['remote', 'europe']),
  }),
  /** `healthcheck_url`: a dead-man's switch pinged at the start and end of each run (healthchecks.io protocol). */
  run: section({
    healthcheck_url: z._default(z.nullable(z.string().check(z.regex(/^https?:\/\//, 'must be an http(s) URL'))), null),
    // A job missing from this many successful runs in a row of every board that listed it is closed.
    closed_after_runs: z._default(z.int().check(z.gte(1), z.lte(100)), 2),
    // A board that answered 404 or no jobs this many runs in a row is reported dead (the ledger read holds 50 runs).
    dead_after_runs: z._default(z.int().check(z.gte(1), z.lte(50)), 3),
  }),
  // docs/SOURCES.md "Sweeping the directory": how politely and how often `jobagent sweep` asks the boards.
  sweep: section({
    // The directory file swept without --directory (as --directory takes it); null sweeps the shipped directory.
    directory: z._default(z.nullable(text()), null),
    interval_hours: z._default(z.number().check(z.gt(0), z.lte(8760)), 24),
    // Boards asked at once over all ATSs, and on one ATS platform (all of its boards are one API).
    concurrency: z._default(z.int().check(z.gte(1), z.lte(64)), 48),
    per_ats: z._default(z.int().check(z.gte(1), z.lte(16)), 8),
    timeout_seconds: z._default(z.number().check(z.gt(0), z.lte(120)), 15),
    // A candidate scored at least this, once its description is read, is a match.
    min_score: z._default(z.int().check(z.gte(0), z.lte(100)), 30),
    // Each ATS's base URL, for a mirror: {"greenhouse": "http://127.0.0.1:8000"}.
    // Keyed by ATS name only: a misspelt ATS would otherwise sweep the public host unnoticed.
    urls: z._default(
      withExample(
        z.partialRecord(z.enum(atsTypes()), z.string().check(z.regex(/^https?:\/\//, 'must be an http(s) URL'))),
        {
          greenhouse: 'http://127.0.0.1:8000',
        },
      ),
      () => ({}),
    ),
  }),
  server: section({
    host: z._default(text(), '127.0.0.1'),
    port: z._default(portSchema, 8080),
    // The access log's and request errors' threshold; --verbose, --quiet and DEBUG=jobagent* win over it.
    log_level: z._default(logLevelSchema, 'INFO'),
    // Names a browser may use in the Host header of a server without a token: a DNS name or an IP, no port.
    allowed_hosts: z._default(
      z.array(
        z
          .string()
          .check(
            z.regex(
              /^([A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*|\[[0-9A-Fa-f:.]+\])$/,
              'must be a host name or a bracketed IPv6 address, without a scheme or port',
            ),
          ),
      ),
      () => [],
    ),
  }),
  ...sliceSections,
})

type ParsedConfig = ZodMini.output<typeof configSchema>

/** The effective configuration: every key set, each slice's section with the defaults its paths give. */
export type JobagentConfig = Omit<ParsedConfig, keyof SliceConfigs> & SliceConfigs

// The domain's own types and the schema must agree; a schema change that breaks either fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const agree = <T extends true>(value: T): T => value
agree<Same<ParsedConfig['search'], SearchCriteria>>(true)
agree<Same<ParsedConfig['profile'], Profile>>(true)
agree<Same<ZodMini.output<typeof sourceSchema>, SourceConfig>>(true)
agree<Same<ZodMini.output<typeof boardList>[number], string | BoardRef>>(true)

/** What the schema says about one place in the file, for messages and for reading values given as text. */
interface SchemaNode {
  type: string
  keys?: string[]
  values?: unknown[]
  isInteger?: boolean
  /** Whether the key must be given where its object is (it has no default and is not optional). */
  required: boolean
  child(segment: string): SchemaNode | undefined
  /** A value this place accepts, for messages; undefined where the schema suggests none. */
  example(): unknown
}

type Def = {
  type: string
  innerType?: ZodMini.ZodMiniType
  shape?: Record<string, ZodMini.ZodMiniType>
  element?: ZodMini.ZodMiniType
  /** Of a record (`profile.skills`, `search.fx`): every key's value. */
  valueType?: ZodMini.ZodMiniType
  keyType?: ZodMini.ZodMiniType
  options?: ZodMini.ZodMiniType[]
  entries?: Record<string, unknown>
  format?: string
  defaultValue?: unknown
}

/** An example worth showing: a default of nothing (null, [], {}) shows no shape. */
function telling(value: unknown): boolean {
  if (value === null || value === undefined) return false
  return typeof value !== 'object' || Object.keys(value).length > 0
}

/**
 * A value that `def` accepts, made from its parts when no node gave one: the first of an enum, an object of its
 * required keys (or, without any, of its first key that has an example), a list of one entry.
 */
function exampleOf(def: Def, object: Def | undefined): unknown {
  if (def.entries) return Object.values(def.entries)[0]
  if (def.type === 'boolean') return true
  if (def.element) {
    const entry = describe(def.element).example()
    return entry === undefined ? undefined : [entry]
  }
  if (def.valueType) {
    const key = def.keyType ? describe(def.keyType).example() : undefined
    const value = describe(def.valueType).example()
    return typeof key === 'string' && value !== undefined ? {[key]: value} : undefined
  }
  if (def.options) {
    return def.options.map((option) => describe(option).example()).find((example) => example !== undefined)
  }
  if (!object?.shape) return undefined
  const children = Object.entries(object.shape).map(([key, child]) => [key, describe(child)] as const)
  const required = children.filter(([, child]) => child.required)
  const shown = required.length > 0 ? required : children.filter(([, child]) => telling(child.example())).slice(0, 1)
  const entries = shown.map(([key, child]) => [key, child.example()] as const)
  if (entries.length === 0 || entries.some(([, example]) => example === undefined)) return undefined
  return Object.fromEntries(entries)
}

/** The schema as it is read in (defaults, optional and null aside), through zod's public definition objects. */
function describe(schema: ZodMini.ZodMiniType): SchemaNode {
  let def = schema._zod.def as unknown as Def
  let given = examples.get(schema)
  let fallback: unknown
  let required = true
  while (def.innerType) {
    if (def.type === 'default' || def.type === 'prefault') fallback ??= def.defaultValue
    if (def.type === 'default' || def.type === 'prefault' || def.type === 'optional') required = false
    given ??= examples.get(def.innerType)
    def = def.innerType._zod.def as unknown as Def
  }
  const object = def.shape ? def : def.options?.map((option) => option._zod.def as unknown as Def).find((o) => o.shape)
  return {
    type: def.type,
    ...(object?.shape ? {keys: Object.keys(object.shape)} : {}),
    ...(def.entries ? {values: Object.values(def.entries)} : {}),
    ...(def.format === 'safeint' ? {isInteger: true} : {}),
    required,
    child(segment) {
      if (def.element) return /^\d+$/.test(segment) ? describe(def.element) : undefined
      if (def.valueType) return describe(def.valueType)
      const child = object?.shape && Object.hasOwn(object.shape, segment) ? object.shape[segment] : undefined
      return child && describe(child)
    },
    example() {
      if (given) return given.example
      // A default list (`sources`) is long; one of its entries shows the shape.
      if (telling(fallback)) return Array.isArray(fallback) ? fallback.slice(0, 1) : fallback
      return exampleOf(def, object)
    },
  }
}

/** JSON on one line, spaced as people write it: `{"amount": 70000, "currency": "EUR"}`. */
export function inlineJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inlineJson).join(', ')}]`
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${inlineJson(item)}`)
      .join(', ')}}`
  }
  return JSON.stringify(value)
}

/**
 * A setting's name as every message says it and `config get` takes it: keys joined by dots, a list's entry by its
 * position in brackets (`sources[0].type`, `search.tags[1]`), as the sources' own checks name their entries.
 */
export function settingName(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? String(part) : `.${String(part)}`))
    .join('')
}

/** A key as given, `sources[0].type` or `sources.0.type`, in the dotted form the file is walked by: `sources.0.type`. */
export function dottedKey(key: string): string {
  return key.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '')
}

/** A key as given, `sources.0.type` or `sources[0].type`, as messages name it (settingName): `sources[0].type`. */
export function keyName(key: string): string {
  const dotted = dottedKey(key)
  return dotted === '' ? '' : settingName(dotted.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)))
}

/** The schema at a key of the file (`sources[0].type`), or undefined where the file has no such key. */
export function schemaAt(path: string): SchemaNode | undefined {
  let node: SchemaNode | undefined = describe(configSchema)
  const key = dottedKey(path)
  for (const segment of key === '' ? [] : key.split('.')) node = node?.child(segment)
  return node
}

const KINDS: Record<string, string> = {
  object: 'an object',
  record: 'an object',
  array: 'an array',
  number: 'a number',
  string: 'a text',
  boolean: 'true or false',
}

/** What a place takes, in words, with an example where the schema gives one: `an integer like 20`. */
function shapeOf(node: SchemaNode | undefined, expected: string): string {
  const kind = node?.isInteger || expected === 'int' ? 'an integer' : (KINDS[expected] ?? expected)
  const example = expected === 'boolean' ? undefined : node?.example()
  return example === undefined ? kind : `${kind} like ${inlineJson(example)}`
}

/** One refusal of the schema in the user's words: the key, and what is allowed there. */
function describeIssue(issue: ZodMini.core.$ZodIssue): ErrorDetail[] {
  const key = settingName(issue.path)
  const name = key || 'config'
  const field = key || '(root)'
  const node = schemaAt(key)
  switch (issue.code) {
    case 'unrecognized_keys': {
      const where = key === '' ? 'top-level keys' : `keys under ${key}`
      const hint = node?.keys ? ` (${where} are: ${node.keys.join(', ')})` : ''
      return issue.keys.map((unknown) => {
        const path = settingName([...issue.path, unknown])
        return {field: path, message: `"${path}" is not a known key${hint}`}
      })
    }
    case 'invalid_value':
      return [{field, message: `${name} must be one of: ${issue.values.join(', ')}`}]
    case 'invalid_type':
      return [{field, message: `${name} must be ${shapeOf(node, issue.expected)}`}]
    case 'too_big':
      return [{field, message: `${name} must be ${issue.inclusive ? '<=' : '<'} ${issue.maximum}`}]
    case 'too_small':
      if (issue.origin === 'string') return [{field, message: `${name} must not be empty`}]
      return [{field, message: `${name} must be ${issue.inclusive ? '>=' : '>'} ${issue.minimum}`}]
    case 'invalid_format':
      // A check that says in words what it wants (`must be an http(s) URL`) is clearer than its pattern.
      if (issue.message.startsWith('must ')) return [{field, message: `${name} ${issue.message}`}]
      return [{field, message: `${name} must match pattern ${issue.pattern ?? issue.format}`}]
    case 'invalid_key': {
      // A key of a record (`profile.skills`): the path ends with the key itself.
      const parent = settingName(issue.path.slice(0, -1))
      const inner = issue.issues[0]?.message ?? 'is not valid'
      const keyName = JSON.stringify(String(issue.path.at(-1) ?? ''))
      return [{field, message: `${parent}: the key ${keyName} ${inner.startsWith('must ') ? inner : 'is not valid'}`}]
    }
    case 'invalid_union':
      return [{field, message: `${name} must be a text or an object with the keys ${node?.keys?.join(', ')}`}]
    default:
      return [{field, message: `${name} is not valid`}]
  }
}

type ConfigCheck = {ok: true; config: ParsedConfig} | {ok: false; problems: ErrorDetail[]}

/**
 * Keys that name an object's prototype: copied or assigned into an object they would change what every object of
 * the process inherits, so no place of the config may have them (a skill, a currency, a key path).
 */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])
export const PROTOTYPE_KEY_MESSAGE = '__proto__, constructor and prototype are not allowed as keys'

/** The names (settingName) of every prototype key in a parsed config file, at any depth. */
function prototypeKeysIn(value: unknown, path: PropertyKey[] = []): string[] {
  if (typeof value !== 'object' || value === null) return []
  return Object.keys(value).flatMap((key) => {
    const at = [...path, Array.isArray(value) ? Number(key) : key]
    return PROTOTYPE_KEYS.has(key) ? [settingName(at)] : prototypeKeysIn((value as Record<string, unknown>)[key], at)
  })
}

/** Checks the content of a config file against the schema; the parsed config has every default filled in. */
export function checkConfig(stored: unknown): ConfigCheck {
  const forbidden = prototypeKeysIn(stored)
  if (forbidden.length > 0) {
    return {
      ok: false,
      problems: forbidden.map((field) => ({field, message: `${field}: ${PROTOTYPE_KEY_MESSAGE}`})),
    }
  }
  const result = configSchema.safeParse(stored)
  if (result.success) return {ok: true, config: result.data}
  return {ok: false, problems: result.error.issues.flatMap(describeIssue)}
}
