/**
 * Every board type jobagent reads, one row each, in the order `jobagent help sources` and the config's refusals
 * name them: the one list that the source types, the board lists, the config schema's settings and the ATSs
 * `boards find` recognises are all derived from. A row holds pure facts only; the adapter that reads the board is
 * `src/sources/<type>.ts`, whose descriptor adds to its row how the board is read, and `src/sources/registry.ts`
 * lists those descriptors. The facts live here, in core, because the config file that every command reads is
 * checked with them, and loading the adapters (their HTTP client, parsers and schemas) would cost each command
 * more than its own work; core never imports the adapters.
 */

import {basename} from 'node:path'
import type {ErrorDetail} from '../errors.js'
import {
  type BoardKind,
  type BoardRef,
  firstSegmentOn,
  hostIs,
  type ProblemOf,
  SLUG,
  type SourceEntry,
  slugOf,
  subdomainOf,
  type UrlBoard,
  type UrlParts,
  word,
} from './board-kind.js'

/** `boards.greenhouse.io/acme`, `job-boards.greenhouse.io/acme`, `boards.greenhouse.io/embed/job_board?for=acme`. */
function greenhouseBoard(url: UrlParts) {
  const onBoards = ['boards.greenhouse.io', 'job-boards.greenhouse.io', 'job-boards.eu.greenhouse.io']
  if (!onBoards.some((host) => hostIs(url, host))) return undefined
  if (word(url, 0) === 'embed') return slugOf(url.query.get('for') ?? undefined)
  return slugOf(url.segments[0])
}

/** `jobs.lever.co/acme`; `jobs.eu.lever.co/acme` is a site in Lever's EU region. */
function leverSite(url: UrlParts) {
  if (hostIs(url, 'jobs.lever.co')) return slugOf(url.segments[0])
  if (hostIs(url, 'jobs.eu.lever.co')) return slugOf(url.segments[0], 'eu')
  return undefined
}

/**
 * `acme.teamtailor.com`, whose slug is `acme`; a career site in Teamtailor's North American region
 * (`acme.na.teamtailor.com`) is named by its host, as a site on the company's own host is (`careers.acme.com`),
 * which no URL says is Teamtailor's: the directory knows those.
 */
function teamtailorSite(url: UrlParts) {
  if (url.labels.length === 4 && url.labels.slice(1).join('.') === 'na.teamtailor.com') {
    return slugOf(url.labels.join('.'))
  }
  return subdomainOf('teamtailor.com')(url)
}

/** `https://acme.teamtailor.com/jobs` for `acme`; a slug that is a host (`careers.acme.com`) is the site's own. */
function teamtailorPage(board: UrlBoard): string {
  return board.slug.includes('.') ? `https://${board.slug}/jobs` : `https://${board.slug}.teamtailor.com/jobs`
}

/** The page of a board named by the first segment of its path on `host`: `https://jobs.lever.co/acme`. */
const pathPage = (host: string) => (board: UrlBoard) => `https://${host}/${encodeURIComponent(board.slug)}`
/** The page of a board on its own host under `suffix`: `https://acme.breezy.hr`. */
const hostPage =
  (suffix: string, path = '') =>
  (board: UrlBoard) =>
    `https://${board.slug}.${suffix}${path}`

/** `apply.workable.com/acme` (`/api/...` and `/j/<job>` are Workable's own paths, not accounts). */
function workableAccount(url: UrlParts) {
  if (!hostIs(url, 'apply.workable.com') || ['api', 'j'].includes(word(url, 0))) return undefined
  return slugOf(url.segments[0])
}

/** `{company}.bamboohr.com/careers` or `/jobs`: the company's host is its board only on those paths. */
function bamboohrCompany(url: UrlParts) {
  if (!['careers', 'jobs'].includes(word(url, 0))) return undefined
  return subdomainOf('bamboohr.com')(url)
}

/** `ats.rippling.com/{company}/jobs`. */
function ripplingCompany(url: UrlParts) {
  if (!hostIs(url, 'ats.rippling.com') || word(url, 1) !== 'jobs') return undefined
  return slugOf(url.segments[0])
}

/** A locale segment of a Workday URL (`en-US`, `de`), which comes before the site when present. */
const LOCALE = /^[a-z]{2}(-[a-z]{2})?$/i

/**
 * `{tenant}.{wdN}.myworkdayjobs.com/{locale}/{site}`: the slug `{tenant}.{wdN}/{site}`, the locale left out and
 * the site as written (`NVIDIAExternalCareerSite`).
 */
function workdayUrlSite(url: UrlParts) {
  const [tenant, centre, ...rest] = url.labels
  if (rest.join('.') !== 'myworkdayjobs.com' || tenant === undefined || !/^wd\d{1,3}$/.test(centre ?? '')) {
    return undefined
  }
  const site = LOCALE.test(url.segments[0] ?? '') ? url.segments[1] : url.segments[0]
  if (!SLUG.test(tenant) || site === undefined || !/^[a-z0-9][a-z0-9._-]*$/i.test(site)) return undefined
  return {slug: `${tenant}.${centre}/${site}`}
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

/**
 * `https://nvidia.wd5.myworkdayjobs.com/NVIDIAExternalCareerSite` for `nvidia.wd5/NVIDIAExternalCareerSite`; ''
 * for a slug that names no site, which the config refuses.
 */
function workdayPage(board: UrlBoard): string {
  const site = workdaySite(board.slug)
  if (!site) return ''
  return `https://${site.tenant}.${site.instance}.myworkdayjobs.com/${site.site}`
}

/** Each entry of a Workday `sites` list that is not written `{tenant}.{wdN}/{site}`, named by its place. */
function workdayProblems(entry: SourceEntry, _problem: ProblemOf, key: (name: string) => string): ErrorDetail[] {
  const list: readonly (string | BoardRef)[] = Array.isArray(entry.sites) ? entry.sites : []
  return list.flatMap((site, index) => {
    const slug = typeof site === 'string' ? site : site?.slug
    if (typeof slug !== 'string' || workdaySite(slug)) return []
    const field = key(`sites[${index}]`)
    const message = `${field} ${JSON.stringify(slug)} is not a Workday site: write it as "{tenant}.{wdN}/{site}", as in https://{tenant}.{wdN}.myworkdayjobs.com/{site} (e.g. "nvidia.wd5/NVIDIAExternalCareerSite")`
    return [{field, message}]
  })
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

/**
 * Adzuna needs the country and the user's own application id and key (free at developer.adzuna.com). The
 * credentials are never quoted back: a refusal names the key only.
 */
function adzunaProblems(entry: SourceEntry, problem: ProblemOf): ErrorDetail[] {
  const problems: ErrorDetail[] = []
  const countries = ADZUNA_COUNTRIES.join(', ')
  if (entry.country === undefined) {
    problems.push(problem('country', `is required for adzuna (one of ${countries})`))
  } else if (typeof entry.country === 'string' && !(ADZUNA_COUNTRIES as readonly string[]).includes(entry.country)) {
    problems.push(problem('country', `${JSON.stringify(entry.country)} is not an Adzuna country (one of ${countries})`))
  }
  for (const key of ['app_id', 'app_key'] as const) {
    if (entry[key] === undefined) problems.push(problem(key, 'is required for adzuna (from developer.adzuna.com)'))
  }
  return problems
}

/** The name jobs of a generic feed carry as `source`: the configured `name`, else the feed's host. */
export function feedName(entry: SourceEntry & {url: string}): string {
  return entry.name ?? new URL(entry.url).hostname.replace(/^www\./, '')
}

export const BOARD_KINDS = [
  {type: 'remoteok', label: 'RemoteOK'},
  {type: 'remotive', label: 'Remotive'},
  {type: 'arbeitnow', label: 'Arbeitnow'},
  {type: 'jobicy', label: 'Jobicy'},
  {type: 'himalayas', label: 'Himalayas'},
  {type: 'weworkremotely', label: 'We Work Remotely'},
  {
    type: 'greenhouse',
    label: 'Greenhouse',
    list: 'boards',
    ats: {
      probe: true,
      recognise: greenhouseBoard,
      example: 'https://boards.greenhouse.io/acme',
      page: pathPage('job-boards.greenhouse.io'),
    },
  },
  {
    type: 'lever',
    label: 'Lever',
    list: 'sites',
    settings: {region: ['global', 'eu']},
    ats: {
      probe: true,
      recognise: leverSite,
      example: 'https://jobs.lever.co/acme',
      page: (board) => pathPage(board.region === 'eu' ? 'jobs.eu.lever.co' : 'jobs.lever.co')(board),
    },
  },
  {
    type: 'ashby',
    label: 'Ashby',
    list: 'boards',
    ats: {
      probe: true,
      recognise: firstSegmentOn('jobs.ashbyhq.com'),
      example: 'https://jobs.ashbyhq.com/acme',
      page: pathPage('jobs.ashbyhq.com'),
    },
  },
  {
    type: 'adzuna',
    label: 'Adzuna',
    settings: {country: 'text', app_id: 'text', app_key: 'text'},
    problems: adzunaProblems,
    name: (entry) => entry.name ?? `adzuna:${entry.country ?? ''}`,
  },
  {
    type: 'bamboohr',
    label: 'BambooHR',
    list: 'companies',
    ats: {
      probe: true,
      recognise: bamboohrCompany,
      example: 'https://acme.bamboohr.com/careers',
      page: hostPage('bamboohr.com', '/careers'),
    },
  },
  {
    type: 'breezy',
    label: 'Breezy HR',
    list: 'companies',
    ats: {
      probe: true,
      recognise: subdomainOf('breezy.hr'),
      example: 'https://acme.breezy.hr',
      page: hostPage('breezy.hr'),
    },
  },
  {
    type: 'personio',
    label: 'Personio',
    list: 'companies',
    ats: {
      probe: true,
      recognise: (url) => subdomainOf('jobs.personio.de')(url) ?? subdomainOf('jobs.personio.com')(url),
      example: 'https://acme.jobs.personio.de',
      page: hostPage('jobs.personio.de'),
    },
  },
  {
    type: 'pinpoint',
    label: 'Pinpoint',
    list: 'companies',
    ats: {
      probe: true,
      recognise: subdomainOf('pinpointhq.com'),
      example: 'https://acme.pinpointhq.com',
      page: hostPage('pinpointhq.com'),
    },
  },
  {
    type: 'recruitee',
    label: 'Recruitee',
    list: 'companies',
    ats: {
      probe: true,
      recognise: subdomainOf('recruitee.com'),
      example: 'https://acme.recruitee.com',
      page: hostPage('recruitee.com'),
    },
  },
  {
    type: 'rippling',
    label: 'Rippling',
    list: 'companies',
    ats: {
      probe: true,
      recognise: ripplingCompany,
      example: 'https://ats.rippling.com/acme/jobs',
      page: (board) => `${pathPage('ats.rippling.com')(board)}/jobs`,
    },
  },
  {
    type: 'smartrecruiters',
    label: 'SmartRecruiters',
    list: 'companies',
    ats: {
      probe: true,
      paged: true,
      recognise: firstSegmentOn('jobs.smartrecruiters.com', 'careers.smartrecruiters.com'),
      example: 'https://jobs.smartrecruiters.com/acme',
      page: pathPage('jobs.smartrecruiters.com'),
    },
  },
  {
    type: 'teamtailor',
    label: 'Teamtailor',
    list: 'companies',
    ats: {
      probe: true,
      recognise: teamtailorSite,
      example: 'https://acme.teamtailor.com/jobs',
      page: teamtailorPage,
    },
  },
  {
    type: 'workable',
    label: 'Workable',
    list: 'accounts',
    ats: {
      probe: true,
      recognise: workableAccount,
      example: 'https://apply.workable.com/acme',
      page: pathPage('apply.workable.com'),
    },
  },
  {
    type: 'workday',
    label: 'Workday',
    list: 'sites',
    slugForm: '<tenant>.<wdN>/<site>',
    ats: {
      probe: false,
      recognise: workdayUrlSite,
      example: 'https://acme.wd5.myworkdayjobs.com/en-US/Careers',
      page: workdayPage,
    },
    problems: workdayProblems,
  },
  {type: 'workingnomads', label: 'Working Nomads'},
  {type: 'hackernews', label: 'Hacker News'},
  {
    type: 'rss',
    label: 'RSS',
    problems: (entry, problem) =>
      entry.url === undefined ? [problem('url', "is required for rss (the feed's URL)")] : [],
    name: (entry) => (entry.url === undefined ? (entry.name ?? 'rss') : `rss:${feedName({...entry, url: entry.url})}`),
  },
  {
    type: 'file',
    label: 'file',
    settings: {path: 'text'},
    problems: (entry, problem) =>
      entry.path === undefined || (typeof entry.path === 'string' && entry.path.trim() === '')
        ? [problem('path', 'is required for file')]
        : [],
    name: (entry) => `file:${entry.name ?? basename(entry.path ?? '')}`,
  },
] as const satisfies readonly BoardKind[]
