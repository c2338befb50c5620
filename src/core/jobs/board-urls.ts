/**
 * Where companies post: the applicant tracking systems (ATS) jobagent knows, how a careers URL on each names the
 * company's board, and which of them a bare slug is enough to ask. `jobagent boards find` reads this table; an ATS
 * added to it is one row. URLs are read with `new URL` and compared by hostname labels and path segments, so a
 * hostile string costs time in proportion to its length.
 */

import type {SourceType} from './source-config.js'

/** A board named by a careers URL: the source type, the slug, and settings its entry needs. */
export interface RecognisedBoard {
  /** The source type (`greenhouse`). */
  type: AtsType
  slug: string
  /** `eu`: a Lever site on jobs.eu.lever.co, whose entry needs `"region": "eu"`. */
  region?: 'eu'
}

/** The parts of a URL the table reads: hostname labels in lower case, the non-empty path segments decoded. */
interface UrlParts {
  labels: string[]
  segments: string[]
  query: URLSearchParams
}

/** The source types that are an ATS with a list of boards; the table names only these. */
export type AtsType = Extract<
  SourceType,
  | 'ashby'
  | 'bamboohr'
  | 'breezy'
  | 'greenhouse'
  | 'lever'
  | 'personio'
  | 'pinpoint'
  | 'recruitee'
  | 'rippling'
  | 'smartrecruiters'
  | 'teamtailor'
  | 'workable'
  | 'workday'
>

/** One ATS. The list a slug goes into (`boards`, `sites`) is the config's (boardListKey). */
interface AtsRow {
  type: AtsType
  /** How people call it: `Greenhouse`. */
  label: string
  /**
   * Whether a slug alone names a board, so a company's name can be tried on it; Workday needs a tenant, a data
   * centre and a site, which no name gives.
   */
  probe: boolean
  /** Its list comes in pages and a probe reads the first: the count it shows is a lower bound. */
  paged?: boolean
  /** The board a URL on this ATS names, or undefined. */
  recognise: (url: UrlParts) => Pick<RecognisedBoard, 'slug' | 'region'> | undefined
}

const SLUG = /^[a-z0-9][a-z0-9._-]*$/

/** A slug as boards take it, in lower case; undefined for a value no board is named by. */
const slugOf = (value: string | undefined, region?: 'eu') => {
  const slug = value?.toLowerCase()
  if (slug === undefined || !SLUG.test(slug)) return undefined
  return region ? {slug, region} : {slug}
}

/** The path segment at `index` in lower case, to compare with an ATS's own words (`embed`, `jobs`). */
const word = (url: UrlParts, index: number) => url.segments[index]?.toLowerCase() ?? ''

const hostIs = (url: UrlParts, host: string) => url.labels.join('.') === host

/** The first path segment on one of `hosts`: `jobs.lever.co/acme`. */
const firstSegmentOn =
  (...hosts: string[]) =>
  (url: UrlParts) =>
    hosts.some((host) => hostIs(url, host)) ? slugOf(url.segments[0]) : undefined

/** The label before `suffix`, the company's own host on the ATS: `acme.recruitee.com`. */
const subdomainOf = (suffix: string) => (url: UrlParts) => {
  const tail = suffix.split('.')
  const labels = url.labels
  if (labels.length !== tail.length + 1 || labels.slice(1).join('.') !== suffix) return undefined
  return slugOf(labels[0])
}

/** `boards.greenhouse.io/acme`, `job-boards.greenhouse.io/acme`, `boards.greenhouse.io/embed/job_board?for=acme`. */
function greenhouse(url: UrlParts) {
  const onBoards = ['boards.greenhouse.io', 'job-boards.greenhouse.io', 'job-boards.eu.greenhouse.io']
  if (!onBoards.some((host) => hostIs(url, host))) return undefined
  if (word(url, 0) === 'embed') return slugOf(url.query.get('for') ?? undefined)
  return slugOf(url.segments[0])
}

/** `jobs.lever.co/acme`; `jobs.eu.lever.co/acme` is a site in Lever's EU region. */
function lever(url: UrlParts) {
  if (hostIs(url, 'jobs.lever.co')) return slugOf(url.segments[0])
  if (hostIs(url, 'jobs.eu.lever.co')) return slugOf(url.segments[0], 'eu')
  return undefined
}

/** `apply.workable.com/acme` (`/api/...` and `/j/<job>` are Workable's own paths, not accounts). */
function workable(url: UrlParts) {
  if (!hostIs(url, 'apply.workable.com') || ['api', 'j'].includes(word(url, 0))) return undefined
  return slugOf(url.segments[0])
}

/** `{company}.bamboohr.com/careers` or `/jobs`: the company's host is its board only on those paths. */
function bamboohr(url: UrlParts) {
  if (!['careers', 'jobs'].includes(word(url, 0))) return undefined
  return subdomainOf('bamboohr.com')(url)
}

/** `ats.rippling.com/{company}/jobs`. */
function rippling(url: UrlParts) {
  if (!hostIs(url, 'ats.rippling.com') || word(url, 1) !== 'jobs') return undefined
  return slugOf(url.segments[0])
}

/** A locale segment of a Workday URL (`en-US`, `de`), which comes before the site when present. */
const LOCALE = /^[a-z]{2}(-[a-z]{2})?$/i

/**
 * `{tenant}.{wdN}.myworkdayjobs.com/{locale}/{site}`: the slug `{tenant}.{wdN}/{site}`, the locale left out and
 * the site as written (`NVIDIAExternalCareerSite`).
 */
function workday(url: UrlParts) {
  const [tenant, centre, ...rest] = url.labels
  if (rest.join('.') !== 'myworkdayjobs.com' || tenant === undefined || !/^wd\d{1,3}$/.test(centre ?? '')) {
    return undefined
  }
  const site = LOCALE.test(url.segments[0] ?? '') ? url.segments[1] : url.segments[0]
  if (!SLUG.test(tenant) || site === undefined || !/^[a-z0-9][a-z0-9._-]*$/i.test(site)) return undefined
  return {slug: `${tenant}.${centre}/${site}`}
}

/** Every ATS jobagent recognises, in the order probes are reported. */
const ATS_TABLE: readonly AtsRow[] = [
  {type: 'greenhouse', label: 'Greenhouse', probe: true, recognise: greenhouse},
  {type: 'lever', label: 'Lever', probe: true, recognise: lever},
  {
    type: 'ashby',
    label: 'Ashby',
    probe: true,
    recognise: firstSegmentOn('jobs.ashbyhq.com'),
  },
  {type: 'workable', label: 'Workable', probe: true, recognise: workable},
  {
    type: 'recruitee',
    label: 'Recruitee',
    probe: true,
    recognise: subdomainOf('recruitee.com'),
  },
  {
    type: 'personio',
    label: 'Personio',
    probe: true,
    recognise: (url) => subdomainOf('jobs.personio.de')(url) ?? subdomainOf('jobs.personio.com')(url),
  },
  {type: 'breezy', label: 'Breezy HR', probe: true, recognise: subdomainOf('breezy.hr')},
  {
    type: 'teamtailor',
    label: 'Teamtailor',
    probe: true,
    recognise: subdomainOf('teamtailor.com'),
  },
  {
    type: 'pinpoint',
    label: 'Pinpoint',
    probe: true,
    recognise: subdomainOf('pinpointhq.com'),
  },
  {
    type: 'smartrecruiters',
    label: 'SmartRecruiters',
    probe: true,
    paged: true,
    recognise: firstSegmentOn('jobs.smartrecruiters.com', 'careers.smartrecruiters.com'),
  },
  {type: 'bamboohr', label: 'BambooHR', probe: true, recognise: bamboohr},
  {type: 'rippling', label: 'Rippling', probe: true, recognise: rippling},
  {type: 'workday', label: 'Workday', probe: false, recognise: workday},
]

/** Longer input is no careers URL; refusing it keeps every step below bounded. */
const MAX_URL_LENGTH = 2048

/** The URL in `text` when it is one (with or without `https://`), else undefined. */
export function parseCareersUrl(text: string): URL | undefined {
  const trimmed = text.trim()
  if (trimmed.length === 0 || trimmed.length > MAX_URL_LENGTH || /\s/.test(trimmed)) return undefined
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    return undefined
  }
  if (!['http:', 'https:'].includes(url.protocol)) return undefined
  // `Inc.` parses as a host too: without a scheme, a URL's host ends in a top-level domain of letters.
  if (withScheme !== trimmed && !/\.[a-z]{2,63}$/.test(url.hostname)) return undefined
  return url
}

/** The board a careers URL names on a known ATS, without any request; undefined for any other URL. */
export function recogniseBoardUrl(url: URL): RecognisedBoard | undefined {
  const labels = url.hostname.toLowerCase().replace(/\.$/, '').split('.')
  if (labels[0] === 'www') labels.shift()
  const parts: UrlParts = {
    labels,
    segments: url.pathname
      .split('/')
      .filter((segment) => segment !== '')
      .map(safeDecode),
    query: url.searchParams,
  }
  for (const row of ATS_TABLE) {
    const found = row.recognise(parts)
    if (found) return {type: row.type, ...found}
  }
  return undefined
}

/** Links a page holds at most that are read; a careers page has a few hundred. */
const MAX_PAGE_LINKS = 5000

/**
 * The boards a company's own careers page links to or embeds (`<iframe src="https://boards.greenhouse.io/embed/
 * job_board?for=acme">`, `<a href="https://jobs.lever.co/acme/...">`), each once, in the page's order. Every
 * absolute or scheme-relative link is matched by one pattern without alternatives inside its repeat, so the page
 * is read once.
 */
export function boardsInPage(html: string): RecognisedBoard[] {
  const found = new Map<string, RecognisedBoard>()
  let links = 0
  for (const match of html.matchAll(/(?:https?:)?\/\/[^\s"'<>\\]+/gi)) {
    if (++links > MAX_PAGE_LINKS) break
    const link = match[0].replaceAll('&amp;', '&')
    const url = parseCareersUrl(link.startsWith('//') ? `https:${link}` : link)
    const board = url ? recogniseBoardUrl(url) : undefined
    if (board) found.set(`${board.type}:${board.region ?? ''}:${board.slug}`, board)
  }
  return [...found.values()]
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** The ATSs a company's name is tried on: a slug names a board there. */
export function probeableAts(): {type: AtsType; label: string; paged: boolean}[] {
  return ATS_TABLE.filter((row) => row.probe).map((row) => ({
    type: row.type,
    label: row.label,
    paged: row.paged === true,
  }))
}

/** `Greenhouse` for `greenhouse`; the type itself for a type the table does not hold. */
export function atsLabel(type: string): string {
  return ATS_TABLE.find((row) => row.type === type)?.label ?? type
}
