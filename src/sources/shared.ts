import {UnavailableError} from '../core/errors.js'
import {type HtmlToText, htmlToText, plainToText} from '../core/jobs/description.js'
import {employmentType} from '../core/jobs/employment-type.js'
import type {JobResponse, SearchCriteria} from '../core/jobs/job.js'
import {cleanText, cleanUrl, normalisePostedDate} from '../core/jobs/normalise.js'
import type {Salary} from '../core/jobs/salary.js'
import type {BoardRef, SourceConfig} from '../core/jobs/source-config.js'
import type {Logger} from '../core/logger.js'
import {trimEdgesOf, withoutTrailingSlashes} from '../core/text-runs.js'
import {isHttpUrl} from '../core/url-identity.js'
import {formatSeconds, type HttpClient, type RequestOptions} from '../http-client/index.js'

const DEFAULT_SOURCE_TIMEOUT_SECONDS = 20
const DEFAULT_MAX_PAGES = 5
/** A board's whole search takes at most this long by default, or three of its request timeouts when that is longer. */
const DEFAULT_DEADLINE_SECONDS = 60

/** What every adapter is built from: the shared client, its logger and the settings of its config entry. */
export interface AdapterDeps {
  http: HttpClient
  logger: Logger
  /** Reads descriptions given as HTML (htmlToText, or a reader that remembers earlier reads). */
  toText: HtmlToText
  /**
   * false: a board whose list gives each job in brief is read from its list alone, without a request per job
   * (a probe asks whether the board is there and how many jobs it lists). Each job's detail is read otherwise.
   */
  details?: boolean
}

export interface AdapterSettings {
  /** The board's base URL without a trailing slash: the config `url` or the public host. */
  baseUrl: string
  timeoutMs: number
  /** The board's whole search, from its first request to its last job (boardDeadlineMs). */
  deadlineMs: number
  maxPages: number
}

/**
 * The settings of one board of an entry. A configured `url` stands for every board of the entry, so `{slug}` in it
 * names the board: a mirror of an ATS whose boards each have a host of their own (BambooHR, Personio, ...) can tell
 * them apart (`http://127.0.0.1:8000/bamboohr/{slug}`).
 */
export function adapterSettings(config: SourceConfig, defaultBaseUrl: string, board?: BoardRef): AdapterSettings {
  const url = config.url === undefined ? defaultBaseUrl : withSlug(config.url, board)
  return {
    baseUrl: withoutTrailingSlashes(url),
    timeoutMs: requestTimeoutMs(config),
    deadlineMs: boardDeadlineMs(config),
    maxPages: config.max_pages ?? DEFAULT_MAX_PAGES,
  }
}

function withSlug(url: string, board: BoardRef | undefined): string {
  return board && url.includes('{slug}') ? url.replaceAll('{slug}', encodeURIComponent(board.slug)) : url
}

function requestTimeoutMs(config: SourceConfig): number {
  return (config.timeout_seconds ?? DEFAULT_SOURCE_TIMEOUT_SECONDS) * 1000
}

/** `deadline_seconds`, else 60 s or three request timeouts, whichever is longer. */
export function boardDeadlineMs(config: SourceConfig): number {
  return config.deadline_seconds !== undefined
    ? config.deadline_seconds * 1000
    : Math.max(DEFAULT_DEADLINE_SECONDS * 1000, 3 * requestTimeoutMs(config))
}

/**
 * The board's search given a signal that also stops at its deadline; past the deadline it fails at once, whether or
 * not the board's requests have stopped yet, so a board that never finishes costs the run its deadline and no more.
 */
export async function withinDeadline<T>(
  deadlineMs: number,
  signal: AbortSignal,
  search: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const stop = new AbortController()
  const passed = new UnavailableError(`board deadline of ${formatSeconds(deadlineMs)} passed`, {
    hint: 'the board answers too slowly or never finishes; raise deadline_seconds in its sources entry, or disable it',
  })
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      stop.abort(passed)
      reject(passed)
    }, deadlineMs)
  })
  // An adapter that throws before its first await fails the board the same way as one that rejects.
  const work = (async () => search(AbortSignal.any([signal, stop.signal])))()
  // The loser of the race settles later; its outcome is no longer anyone's.
  work.catch(() => {})
  try {
    return await Promise.race([work, expired])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * `base` + `path` + query; empty parameters are left out. A base with a path (a mirror's prefix) keeps it, and a
 * base that already is the full endpoint (`http://mirror/api` for RemoteOK's `/api`) is used as it is, so users
 * may paste either form into `url`.
 */
export function endpoint(base: string, path: string, params: Record<string, string | number | undefined> = {}): string {
  const url = new URL(base.endsWith(path) ? base : `${base}${path}`)
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value))
  }
  return url.toString()
}

/**
 * Whether the URL parser reads `path` as the path written, so a request or link built from it stays where it was
 * put: no `.` or `..` segment in any spelling (`%2e%2e`, `.%2E`), no backslash (read as a slash), no tab or line
 * break (dropped), no `?` or `#`. The path is compared after the parser has normalised it; percent-encoding alone
 * (`ü` as `%C3%BC`) is no change.
 */
export function keepsItsPath(path: string): boolean {
  // `//host/...` would be read as another host.
  if (!path.startsWith('/') || path.startsWith('//')) return false
  const parsed = new URL(path, 'http://path.invalid')
  return parsed.search === '' && parsed.hash === '' && decoded(parsed.pathname) === decoded(path)
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    // A malformed escape (`%zz`) is kept as written by the parser, so the texts compare as they are.
    return text
  }
}

export function requestOptions(settings: AdapterSettings, signal: AbortSignal, logger: Logger): RequestOptions {
  return {signal, timeoutMs: settings.timeoutMs, logger}
}

/** The board answered, but not with the shape sources.md documents. */
export class UnexpectedShapeError extends UnavailableError {
  constructor(expected: string) {
    super(`unexpected response shape: expected ${expected}`, {
      hint: 'the board may have changed its API; check its documentation or disable the source',
    })
  }
}

export type Json = Record<string, unknown>

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The fields of a detail that a board's mapping reads, and no other: a merge keeps these, so a detail's unread
 * fields, however large, never outlive its answer.
 */
export function picked(value: Json, keys: readonly string[]): Json {
  const kept: Json = {}
  for (const key of keys) {
    if (Object.hasOwn(value, key) && value[key] !== undefined && value[key] !== null) kept[key] = value[key]
  }
  return kept
}

/** The array under `key` of a response object, e.g. `{"jobs": [...]}`. */
export function arrayField(value: unknown, key: string): unknown[] {
  const items = isObject(value) ? value[key] : undefined
  if (!Array.isArray(items)) throw new UnexpectedShapeError(`an object with a "${key}" array`)
  return items
}

/** A board's job fields as its mapping picks them, before cleaning; the details are optional. */
export interface RawJob {
  title: unknown
  company: unknown
  location: unknown
  url: unknown
  posted_date: unknown
  /** The description as HTML. */
  description?: unknown
  /** The description as plain text, for boards that give no HTML. */
  description_text?: unknown
  salary?: Salary | null
  /** The board's value or values, mapped by the employment type table. */
  employment_type?: unknown
  remote?: boolean | null
  /** A list of names, or one text of names separated by commas. */
  regions?: unknown
  /** UTC offsets in hours (numbers) or zone names. */
  timezones?: unknown
  seniority?: unknown
  tags?: unknown
  board_id?: unknown
  company_url?: unknown
}

/**
 * The job of a board's raw fields: text through cleanText, the date through normalisePostedDate, the description
 * through `toText` (htmlToText by default) or plainToText, lists cleaned and without repeats; null when the title or URL is empty.
 */
export function toJob(source: string, raw: RawJob, toText: HtmlToText = htmlToText): JobResponse | null {
  const title = cleanText(raw.title)
  const url = cleanUrl(raw.url)
  if (title === '' || url === '') return null
  const companyUrl = cleanUrl(raw.company_url)
  return {
    title,
    company: cleanText(raw.company),
    location: cleanText(raw.location),
    url,
    source,
    posted_date: normalisePostedDate(raw.posted_date),
    description: raw.description !== undefined ? toText(raw.description) : plainToText(raw.description_text),
    salary: raw.salary ?? null,
    employment_type: employmentType(raw.employment_type),
    remote: typeof raw.remote === 'boolean' ? raw.remote : null,
    regions: textList(typeof raw.regions === 'string' ? raw.regions.split(',') : raw.regions),
    timezones: textList(Array.isArray(raw.timezones) ? raw.timezones.map(utcOffset) : []),
    seniority: cleanText(raw.seniority) || null,
    tags: textList(raw.tags),
    board_id: cleanText(raw.board_id) || null,
    company_url: isHttpUrl(companyUrl) ? companyUrl : null,
  }
}

/** Cleaned, non-empty texts without repeats (compared without case), in the board's order. */
function textList(value: unknown): string[] {
  if (!Array.isArray(value)) return []
  const seen = new Set<string>()
  const list: string[] = []
  for (const entry of value) {
    const text = cleanText(entry)
    const key = text.toLowerCase()
    if (text === '' || seen.has(key)) continue
    seen.add(key)
    list.push(text)
  }
  return list
}

/** `-5` -> `UTC-5`, `5.5` -> `UTC+5:30`, `0` -> `UTC`; a zone name as given. */
function utcOffset(value: unknown): unknown {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > 14) return value
  if (value === 0) return 'UTC'
  const hours = Math.trunc(Math.abs(value))
  const minutes = Math.round((Math.abs(value) - hours) * 60)
  return `UTC${value < 0 ? '-' : '+'}${hours}${minutes === 0 ? '' : `:${String(minutes).padStart(2, '0')}`}`
}

/** Lower-cases scheme and host only (`https://remoteOK.com/x` -> `https://remoteok.com/x`); the path is kept. */
export function lowerCaseHost(url: unknown): string {
  if (typeof url !== 'string') return ''
  return url.trim().replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#]+)/i, (origin) => origin.toLowerCase())
}

/** "Company: Job title" split on the first ": "; undefined when the text has no such separator. */
export function splitCompanyTitle(text: string): {company: string; title: string} | undefined {
  const at = text.indexOf(': ')
  if (at <= 0) return undefined
  const company = text.slice(0, at).trim()
  const title = text.slice(at + 2).trim()
  return company && title ? {company, title} : undefined
}

const SEPARATOR = /[\s,;|/-]/

/** Removes separators a board left at either end (`Cammeray, ` -> `Cammeray`). */
export function tidyList(text: string): string {
  return trimEdgesOf(text, SEPARATOR)
}

export function boardRef(entry: string | BoardRef): BoardRef {
  return typeof entry === 'string' ? {slug: entry} : entry
}

/** Tags as query terms: trimmed, lower-case, without duplicates. */
export function queryTags(criteria: SearchCriteria): string[] {
  return [...new Set(criteria.tags.map((tag) => tag.trim().toLowerCase()).filter(Boolean))]
}

/**
 * Boards whose search takes one term: one request per tag (a job matching any tag is wanted) or one unfiltered
 * request without tags, merged on the job URL.
 */
export async function fetchPerTag(
  tags: readonly string[],
  fetchOne: (tag: string | undefined) => Promise<JobResponse[]>,
): Promise<JobResponse[]> {
  if (tags.length === 0) return fetchOne(undefined)
  const seen = new Set<string>()
  const jobs: JobResponse[] = []
  for (const tag of tags) {
    for (const job of await fetchOne(tag)) {
      if (seen.has(job.url)) continue
      seen.add(job.url)
      jobs.push(job)
    }
  }
  return jobs
}

/** Words a board writes where a candidate may be anywhere: no restriction, so no region. */
const ANYWHERE = /^(anywhere|worldwide|anywhere in the world|global|remote)$/i
/** A region entry that names a time zone (`CST (UTC-6)`) rather than a place. */
const TIME_ZONE = /\b(UTC|GMT)\b/

/**
 * A board's "where may the candidate be" text split on commas into regions and time zones: `USA, CST (UTC-6)`
 * is the region `USA` and the time zone `CST (UTC-6)`; `Worldwide` and `Anywhere` are no restriction.
 */
export function eligibility(text: unknown): {regions: string[]; timezones: string[]} {
  const entries = typeof text === 'string' ? text.split(',').map((entry) => entry.trim()) : []
  const kept = entries.filter((entry) => entry !== '' && !ANYWHERE.test(entry))
  return {
    regions: kept.filter((entry) => !TIME_ZONE.test(entry)),
    timezones: kept.filter((entry) => TIME_ZONE.test(entry)),
  }
}
