/**
 * What a board type is, as the config, its checks and `boards find` need to know it, without the code that reads
 * the board: the contract of each row of BOARD_KINDS (board-kinds.ts), and the pieces its URL recognisers are
 * made of. Core holds these pure facts so the config file, which every command reads, is checked without loading
 * a single adapter; each adapter in src/sources adds to its row how the board is read.
 */

import type {ErrorDetail} from '../errors.js'

/** The settings that name the boards of an entry: one source per board, site, company or account. */
export type BoardListKey = 'boards' | 'sites' | 'companies' | 'accounts'

/** A board, site or company slug, with the company name to show when the board carries none (Lever, Ashby). */
export interface BoardRef {
  slug: string
  company?: string
}

/** The settings of one `sources` entry as a board type's own rules read them (SourceConfig, any type). */
export interface SourceEntry {
  type: string
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
  /**
   * An ATS entry's boards named in a file instead of its list (one slug a line, or the directory's JSONL shape):
   * read by the run as one source through the sweep's limits and per-board state.
   */
  boards_file?: string
  region?: 'global' | 'eu'
  path?: string
  /** Adzuna: the country searched (`gb`, `de`), and the user's own application id and key. */
  country?: string
  app_id?: string
  app_key?: string
}

/** A setting one type's entries add to those every entry takes: free text, or one of a few words. */
export type SettingShape = 'text' | readonly [string, ...string[]]

/** The parts of a URL a recogniser reads: hostname labels in lower case, the non-empty path segments decoded. */
export interface UrlParts {
  labels: string[]
  segments: string[]
  query: URLSearchParams
}

/** The board a URL names: its slug and, for a Lever site in the EU region, `region: "eu"`. */
export interface UrlBoard {
  slug: string
  /** `eu`: a Lever site on jobs.eu.lever.co, whose entry needs `"region": "eu"`. */
  region?: 'eu'
}

/** An applicant tracking system: a board per company, which `boards find` recognises and may probe. */
export interface AtsFacts {
  /**
   * Whether a slug alone names a board, so a company's name can be tried on it; Workday needs a tenant, a data
   * centre and a site, which no name gives.
   */
  probe: boolean
  /** Its list comes in pages and a probe reads the first: the count it shows is a lower bound. */
  paged?: boolean
  /** The board a URL on this ATS names, or undefined. */
  recognise: (url: UrlParts) => UrlBoard | undefined
  /** A careers URL it recognises, naming the board `acme` (Workday: `acme.wd5/Careers`): help texts and tests. */
  example: string
  /** The board's public page, where a person sees its jobs: the link `boards find` and `boards directory` show. */
  page: (board: UrlBoard) => string
}

/** A problem of one entry: the key it concerns and the message after the key's name. */
export type ProblemOf = (name: string, message: string) => ErrorDetail

/** One board type: every fact about it that is not how it is read. */
export interface BoardKind {
  /** The config `type` (`greenhouse`) and the `source` of its jobs. */
  type: string
  /** How people call it: `Greenhouse`. */
  label: string
  /** The list an entry names its boards in: one source per board. None for a single feed. */
  list?: BoardListKey
  /** How one entry of its list is written when a bare slug is not enough (`<tenant>.<wdN>/<site>`). */
  slugForm?: string
  /** The keys its entries add to those every entry takes. */
  settings?: Readonly<Record<string, SettingShape>>
  ats?: AtsFacts
  /**
   * What is wrong with an entry of this type beyond its JSON shape and the checks every entry gets (a missing
   * list among them); `key` names a place of the entry as the report shows it (`sources[2].sites[0]`).
   */
  problems?: (entry: SourceEntry, problem: ProblemOf, key: (name: string) => string) => ErrorDetail[]
  /** The name of the one source of an entry without a list; `name`, else the type, when absent. */
  name?: (entry: SourceEntry) => string
}

export const SLUG = /^[a-z0-9][a-z0-9._-]*$/

/** A slug as boards take it, in lower case; undefined for a value no board is named by. */
export function slugOf(value: string | undefined, region?: 'eu'): UrlBoard | undefined {
  const slug = value?.toLowerCase()
  if (slug === undefined || !SLUG.test(slug)) return undefined
  return region ? {slug, region} : {slug}
}

/** The path segment at `index` in lower case, to compare with an ATS's own words (`embed`, `jobs`). */
export const word = (url: UrlParts, index: number) => url.segments[index]?.toLowerCase() ?? ''

export const hostIs = (url: UrlParts, host: string) => url.labels.join('.') === host

/** The first path segment on one of `hosts`: `jobs.lever.co/acme`. */
export const firstSegmentOn =
  (...hosts: string[]) =>
  (url: UrlParts) =>
    hosts.some((host) => hostIs(url, host)) ? slugOf(url.segments[0]) : undefined

/** The label before `suffix`, the company's own host on the ATS: `acme.recruitee.com`. */
export const subdomainOf = (suffix: string) => (url: UrlParts) => {
  const tail = suffix.split('.')
  const labels = url.labels
  if (labels.length !== tail.length + 1 || labels.slice(1).join('.') !== suffix) return undefined
  return slugOf(labels[0])
}
