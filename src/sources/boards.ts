import {z} from 'zod'
import type {JobSource} from '../core/jobs/job-source.js'
import {parseSalaryText, salaryFromAmounts} from '../core/jobs/salary.js'
import type {BoardRef, SourceConfig} from '../core/jobs/source-config.js'
import {foldWhiteSpace} from '../core/text-runs.js'
import {type BoardPage, type BoardSpec, boardSource} from './board-source.js'
import {type AdapterDeps, eligibility, isObject, type Json, lowerCaseHost, tidyList} from './shared.js'

/** `{"<key>": [...]}`, the one page of a board that answers with its jobs under one key. */
export function jobsUnder(key: string): z.ZodType<BoardPage, unknown> {
  return z.object({[key]: z.array(z.unknown())}).transform((body) => ({items: body[key] ?? []}))
}

/** `[...]`, the one page of a board that answers with a bare array of its jobs. */
const bareArray: z.ZodType<BoardPage, unknown> = z.array(z.unknown()).transform((items) => ({items}))

export const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '')
export const nonEmptyStrings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '') : []
const slugPath = (prefix: string) => (board: BoardRef) => `${prefix}${encodeURIComponent(board.slug)}`
const fixedPath = (path: string) => () => path
export const publicUrl = (url: string) => () => url
/** The company's own host on an ATS that gives each company one (`https://{company}.teamtailor.com`). */
export const companyHost = (host: string) => (_config: SourceConfig, board: BoardRef) =>
  `https://${encodeURIComponent(board.slug)}.${host}`
const names = (value: unknown): unknown[] =>
  Array.isArray(value) ? value.map((entry) => (isObject(entry) ? entry.name : entry)) : []

/**
 * RemoteOK (`GET /api`): a JSON array whose first element is the legal notice (no `id`), then ~100 jobs.
 * Terms: link back to the job's RemoteOK URL (followed) and name Remote OK as the source; jobagent keeps `url`.
 */
const REMOTEOK: BoardSpec = {
  type: 'remoteok',
  defaultUrl: publicUrl('https://remoteok.com'),
  path: fixedPath('/api'),
  query: ({tag}) => ({tags: tag}),
  searchesByTag: true,
  page: bareArray,
  expected: 'an array',
  job: (item) => {
    // The legal notice has no id; an element with neither company nor position is a blank placeholder.
    if (item.id === undefined || item.id === null) return null
    if (!item.company && !item.position) return null
    const location = tidyList(typeof item.location === 'string' ? item.location : '')
    return {
      title: item.position,
      company: item.company,
      location: location === '' ? 'Remote' : location,
      url: lowerCaseHost(item.url),
      posted_date: item.date ?? item.epoch,
      description: item.description,
      // RemoteOK states yearly amounts in US dollars; 0 is "not disclosed".
      salary: salaryFromAmounts({min: item.salary_min, max: item.salary_max, currency: 'USD', period: 'year'}),
      remote: true,
      tags: item.tags,
      board_id: item.id,
    }
  },
}

/**
 * Remotive (`GET /api/remote-jobs`, `search=` per tag). Terms: link back to the Remotive URL, name Remotive,
 * no resubmission to other job sites, at most about 4 requests a day.
 */
const REMOTIVE: BoardSpec = {
  type: 'remotive',
  defaultUrl: publicUrl('https://remotive.com'),
  path: fixedPath('/api/remote-jobs'),
  query: ({tag}) => ({search: tag}),
  searchesByTag: true,
  page: jobsUnder('jobs'),
  expected: 'an object with a "jobs" array',
  // publication_date is naive ISO (`2026-07-28T14:23:05`); normalisePostedDate takes it as UTC.
  job: (item) => ({
    title: item.title,
    company: item.company_name,
    location: item.candidate_required_location,
    url: item.url,
    posted_date: item.publication_date,
    description: item.description,
    salary: parseSalaryText(item.salary),
    employment_type: item.job_type,
    remote: true,
    ...eligibility(item.candidate_required_location),
    tags: [item.category, ...(Array.isArray(item.tags) ? item.tags : [])],
    board_id: item.id,
  }),
}

/**
 * Jobicy (`GET /api/v2/remote-jobs?count=50`, `tag=` per tag; 50 is the documented maximum and there are no
 * pages). Terms: credit Jobicy with a direct link, apply through the original job URL, no redistribution to other
 * job sites, poll a few times a day at most.
 */
const JOBICY: BoardSpec = {
  type: 'jobicy',
  defaultUrl: publicUrl('https://jobicy.com'),
  path: fixedPath('/api/v2/remote-jobs'),
  query: ({tag}) => ({count: 50, tag}),
  searchesByTag: true,
  page: jobsUnder('jobs'),
  expected: 'an object with a "jobs" array',
  // pubDate is `2024-12-07 04:10:26` (naive, UTC) in older responses and `2026-08-15T15:28:49+00:00` in newer.
  job: (item) => ({
    title: item.jobTitle,
    company: item.companyName,
    location: item.jobGeo,
    url: item.url,
    posted_date: item.pubDate,
    description: item.jobDescription,
    // 2026: salaryMin/salaryMax numbers with salaryPeriod; 2024: annualSalaryMin/annualSalaryMax strings, yearly.
    salary:
      item.salaryMin !== undefined || item.salaryMax !== undefined
        ? salaryFromAmounts({
            min: item.salaryMin,
            max: item.salaryMax,
            currency: item.salaryCurrency,
            period: item.salaryPeriod,
          })
        : salaryFromAmounts({
            min: item.annualSalaryMin,
            max: item.annualSalaryMax,
            currency: item.salaryCurrency,
            period: 'year',
          }),
    employment_type: item.jobType,
    remote: true,
    ...eligibility(item.jobGeo),
    // "Any" is no level.
    seniority: text(item.jobLevel).toLowerCase() === 'any' ? null : item.jobLevel,
    tags: item.jobIndustry,
    board_id: item.id,
  }),
}

/**
 * Arbeitnow (`GET /api/job-board-api?page=N`): pages until `links.next` is null or empty, or `data` is empty.
 * Its query parameters are reported ignored, so nothing is filtered on its side. `links.next` only says whether
 * another page exists: its URL names the public host (not a configured mirror) and has been seen echoing another
 * client's `search=` from a shared cache, so it is never requested as given.
 * Terms: a free public API, "please do not abuse"; link back to arbeitnow.com.
 */
const ARBEITNOW: BoardSpec = {
  type: 'arbeitnow',
  defaultUrl: publicUrl('https://www.arbeitnow.com'),
  path: fixedPath('/api/job-board-api'),
  query: ({page}) => ({page}),
  paged: true,
  page: z.object({data: z.array(z.unknown()), links: z.unknown().optional()}).transform(({data, links}) => ({
    items: data,
    ...(isObject(links) && text(links.next) !== '' ? {next: 'more'} : {}),
  })),
  expected: 'an object with a "data" array',
  job: (item) => {
    const location = text(item.location)
    return {
      title: item.title,
      company: item.company_name,
      location: item.remote === true ? (location ? `${location} (Remote)` : 'Remote') : location,
      url: item.url,
      posted_date: item.created_at,
      description: item.description,
      employment_type: item.job_types,
      remote: typeof item.remote === 'boolean' ? item.remote : null,
      tags: item.tags,
      board_id: item.slug,
    }
  },
}

/** A placeholder Himalayas has sent in place of the company name (with `companyLogo: "thumbnail_url"`). */
const PLACEHOLDER_COMPANY = 'name'

/**
 * Himalayas browse API (`GET /jobs/api?limit=20`, then `&cursor=<nextCursor>`; it caps `limit` at 20 whatever is
 * asked). Terms: link back and name Himalayas; no resubmission to other job sites; data changes about daily.
 */
const HIMALAYAS: BoardSpec = {
  type: 'himalayas',
  defaultUrl: publicUrl('https://himalayas.app'),
  path: fixedPath('/jobs/api'),
  query: ({cursor}) => ({limit: 20, cursor}),
  paged: true,
  page: z.object({jobs: z.array(z.unknown()), nextCursor: z.unknown().optional()}).transform(({jobs, nextCursor}) => {
    const next = typeof nextCursor === 'number' ? String(nextCursor) : text(nextCursor) === '' ? undefined : nextCursor
    return {items: jobs, ...(typeof next === 'string' ? {next} : {})}
  }),
  expected: 'an object with a "jobs" array',
  job: (item) => {
    const name = text(item.companyName)
    const restrictions = nonEmptyStrings(item.locationRestrictions)
    return {
      title: item.title,
      company: name === '' || name === PLACEHOLDER_COMPANY ? item.companySlug : name,
      location: restrictions.length > 0 ? restrictions.join(', ') : 'Worldwide',
      url: item.applicationLink ?? item.guid,
      posted_date: item.pubDate,
      description: item.description,
      salary: salaryFromAmounts({
        min: item.minSalary,
        max: item.maxSalary,
        currency: item.currency,
        period: item.salaryPeriod,
      }),
      employment_type: item.employmentType,
      remote: true,
      regions: restrictions,
      timezones: item.timezoneRestrictions,
      seniority: nonEmptyStrings(item.seniority).join(', '),
      tags: item.categories,
    }
  },
}

/** Results per Adzuna page; a shorter page is the last one. 50 is the most its search answers with. */
const ADZUNA_PAGE_SIZE = 50

/** The currency of Adzuna's salary amounts, by the country searched (amounts are yearly, in its currency). */
const ADZUNA_CURRENCIES: Readonly<Record<string, string>> = {
  at: 'EUR',
  au: 'AUD',
  be: 'EUR',
  br: 'BRL',
  ca: 'CAD',
  ch: 'CHF',
  de: 'EUR',
  es: 'EUR',
  fr: 'EUR',
  gb: 'GBP',
  in: 'INR',
  it: 'EUR',
  mx: 'MXN',
  nl: 'EUR',
  nz: 'NZD',
  pl: 'PLN',
  sg: 'SGD',
  us: 'USD',
  za: 'ZAR',
}

/**
 * Adzuna's job search (`GET /v1/api/jobs/{country}/search/{page}`, `what=` per tag), with the user's own
 * `app_id` and `app_key` as query parameters: both are masked wherever a request URL is shown. Pages of 50 up to
 * `max_pages`. Jobs link to Adzuna's landing page (`redirect_url`), which the terms require.
 */
const ADZUNA: BoardSpec = {
  type: 'adzuna',
  defaultUrl: publicUrl('https://api.adzuna.com'),
  path: (_board, {config, page}) => `/v1/api/jobs/${encodeURIComponent(config.country ?? '')}/search/${page}`,
  query: ({tag, config}) => ({
    app_id: config.app_id,
    app_key: config.app_key,
    results_per_page: ADZUNA_PAGE_SIZE,
    what: tag,
  }),
  searchesByTag: true,
  paged: true,
  page: z
    .object({results: z.array(z.unknown())})
    .transform(({results}) => ({items: results, ...(results.length >= ADZUNA_PAGE_SIZE ? {next: 'more'} : {})})),
  expected: 'an object with a "results" array',
  job: (item, _board, config) => {
    const category = isObject(item.category) ? item.category.label : undefined
    return {
      // Search terms come back highlighted in titles (`DevOps <strong>Engineer</strong>`).
      title: text(item.title).replace(/<\/?strong>/gi, ''),
      company: isObject(item.company) ? item.company.display_name : '',
      location: isObject(item.location) ? item.location.display_name : '',
      url: item.redirect_url,
      posted_date: item.created,
      // A snippet of the ad, cut off with `…`; highlights are HTML.
      description: item.description,
      // `salary_is_predicted: "1"` is Adzuna's estimate, not the employer's: no salary then.
      salary:
        String(item.salary_is_predicted ?? '0') === '0'
          ? salaryFromAmounts({
              min: item.salary_min,
              max: item.salary_max,
              currency: ADZUNA_CURRENCIES[config.country ?? ''],
              period: 'year',
            })
          : null,
      // `contract_type` permanent or contract, `contract_time` full_time or part_time: contract work wins.
      employment_type: [
        item.contract_type === 'contract' ? 'contract' : undefined,
        item.contract_time,
        item.contract_type,
      ],
      tags: [category],
      board_id: item.id,
    }
  },
}

/**
 * Working Nomads (`GET /api/exposed_jobs/`): a bare array of its latest remote jobs, all in one response. Items
 * carry no id and no salary; `tags` is one comma-separated text. Every job is remote: `location` says where a
 * candidate may be (`Canada`, `Japan - Remote`, `Global`).
 */
const WORKINGNOMADS: BoardSpec = {
  type: 'workingnomads',
  defaultUrl: publicUrl('https://www.workingnomads.com'),
  path: fixedPath('/api/exposed_jobs/'),
  page: bareArray,
  expected: 'an array',
  // pub_date carries its zone (`2026-07-10T09:24:39-04:00`).
  job: (item) => {
    const location = text(item.location)
    const places = location.split(',').map((entry) => remoteRegion(entry.trim()) ?? entry.trim())
    const where = eligibility(places.join(', '))
    return {
      title: item.title,
      company: item.company_name,
      location,
      url: item.url,
      posted_date: item.pub_date,
      description: item.description,
      remote: true,
      regions: where.regions,
      timezones: where.timezones,
      tags: [item.category_name, ...text(item.tags).split(',')],
    }
  },
}

/**
 * One Greenhouse job board (`GET /v1/boards/{board}/jobs`): the whole board in one response, no pagination.
 * Jobs link to the employer's own posting (`absolute_url`).
 */
const GREENHOUSE: BoardSpec = {
  type: 'greenhouse',
  defaultUrl: publicUrl('https://boards-api.greenhouse.io'),
  path: (board) => `${slugPath('/v1/boards/')(board)}/jobs`,
  // The description (`content`), departments and offices come only with content=true.
  query: () => ({content: 'true'}),
  page: jobsUnder('jobs'),
  expected: 'an object with a "jobs" array',
  notFound: {
    what: (board) => `no Greenhouse board "${board.slug}"`,
    hint: 'check the board token in the boards list (the name in https://job-boards.greenhouse.io/<token>)',
  },
  job: (item, board) => ({
    title: item.title,
    company: text(item.company_name) === '' ? (board.company ?? board.slug) : item.company_name,
    location: isObject(item.location) ? item.location.name : '',
    url: item.absolute_url,
    // updated_at changes on every edit; first_published is when the job appeared (absent in old boards).
    posted_date: item.first_published ?? item.updated_at,
    // content is HTML escaped once more (`&lt;p&gt;`), which the description reader unescapes.
    description: item.content,
    tags: names(item.departments),
    board_id: item.id,
  }),
}

/**
 * One Lever site (`GET /v0/postings/{site}?mode=json`), a bare array of postings. Postings carry no company
 * name: the configured `company`, else the site slug. `region: "eu"` uses api.eu.lever.co.
 */
const LEVER: BoardSpec = {
  type: 'lever',
  defaultUrl: (config) => (config.region === 'eu' ? 'https://api.eu.lever.co' : 'https://api.lever.co'),
  path: slugPath('/v0/postings/'),
  query: () => ({mode: 'json'}),
  page: bareArray,
  expected: 'an array',
  // An unknown site is reported to answer {"ok": false, "error": "Document not found"}.
  refusal: (body) =>
    isObject(body) && body.ok === false ? `Lever answered "${String(body.error ?? 'error')}"` : undefined,
  notFound: {
    what: (site) => `no Lever site "${site.slug}"`,
    hint: 'check the site name in the sites list (the name in https://jobs.lever.co/<site>) and region',
  },
  job: (item, site) => {
    const categories: Json = isObject(item.categories) ? item.categories : {}
    const location = typeof categories.location === 'string' ? categories.location : ''
    const all = Array.isArray(categories.allLocations)
      ? categories.allLocations.filter((entry) => typeof entry === 'string')
      : []
    return {
      title: item.text,
      company: site.company ?? site.slug,
      location: location || all.join('; '),
      url: item.hostedUrl,
      posted_date: item.createdAt,
      description: leverDescription(item),
      salary: isObject(item.salaryRange)
        ? salaryFromAmounts({
            min: item.salaryRange.min,
            max: item.salaryRange.max,
            currency: item.salaryRange.currency,
            period: item.salaryRange.interval,
          })
        : null,
      employment_type: categories.commitment,
      remote: workplace(item.workplaceType),
      tags: [categories.department, categories.team],
      board_id: item.id,
    }
  },
}

/**
 * One Ashby job board (`GET /posting-api/job-board/{board}`), all jobs in one response. Jobs carry no company
 * name: the configured `company`, else the board slug. Unlisted jobs (`isListed: false`) are skipped.
 */
const ASHBY: BoardSpec = {
  type: 'ashby',
  defaultUrl: publicUrl('https://api.ashbyhq.com'),
  path: slugPath('/posting-api/job-board/'),
  query: () => ({includeCompensation: 'true'}),
  page: jobsUnder('jobs'),
  expected: 'an object with a "jobs" array',
  notFound: {
    what: (board) => `no Ashby board "${board.slug}"`,
    hint: 'check the board name in the boards list (the name in https://jobs.ashbyhq.com/<board>)',
  },
  job: (item, board) => {
    if (item.isListed === false) return null
    const secondary = Array.isArray(item.secondaryLocations)
      ? item.secondaryLocations.map((entry) => (isObject(entry) ? entry.location : undefined))
      : []
    const locations = nonEmptyStrings([item.location, ...secondary]).map((location) => location.trim())
    const remoteFrom = locations.map(remoteRegion).filter((region) => region !== undefined)
    const where = eligibility(remoteFrom.join(', '))
    return {
      title: item.title,
      company: board.company ?? board.slug,
      location: [...new Set(locations)].join('; '),
      url: item.jobUrl,
      posted_date: item.publishedAt,
      description: item.descriptionHtml,
      salary: ashbySalary(item),
      employment_type: item.employmentType,
      // A location named remote (`Remote (US)`) opens the job to remote work from there, whatever else it is.
      // Otherwise workplaceType says what the job is: isRemote has been seen true on Hybrid jobs at offices only.
      remote:
        remoteFrom.length > 0
          ? true
          : (workplace(item.workplaceType) ?? (typeof item.isRemote === 'boolean' ? item.isRemote : null)),
      regions: where.regions,
      timezones: where.timezones,
      tags: [item.department, item.team],
      board_id: item.id,
    }
  },
}

/**
 * One Teamtailor career site (`GET https://{company}.teamtailor.com/jobs.json`): a JSON Feed whose items carry
 * the schema.org JobPosting of the job under `_jobposting` (its employer, places and number). Jobs link to the
 * posting on the career site (`url`).
 */
const TEAMTAILOR: BoardSpec = {
  type: 'teamtailor',
  defaultUrl: companyHost('teamtailor.com'),
  path: fixedPath('/jobs.json'),
  page: jobsUnder('items'),
  expected: 'an object with an "items" array',
  notFound: {
    what: (company) => `no Teamtailor career site "${company.slug}"`,
    hint: 'check the company name in the companies list (the name in https://<company>.teamtailor.com/jobs)',
  },
  job: (item, company) => {
    const posting: Json = isObject(item._jobposting) ? item._jobposting : {}
    const employer = isObject(posting.hiringOrganization) ? text(posting.hiringOrganization.name) : ''
    const places = Array.isArray(posting.jobLocation) ? posting.jobLocation : [posting.jobLocation]
    const locations = places.map((place) => {
      const address = isObject(place) && isObject(place.address) ? place.address : {}
      return nonEmptyStrings([address.addressLocality, address.addressCountry]).join(', ')
    })
    return {
      title: item.title ?? posting.title,
      company: employer === '' ? (company.company ?? company.slug) : employer,
      location: [...new Set(locations.filter((location) => location !== ''))].join('; '),
      url: item.url,
      posted_date: item.date_published ?? posting.datePosted,
      description: item.content_html ?? posting.description,
      // The job's number on the career site (`/jobs/8323453-...`); the feed's own id is a UUID.
      board_id: isObject(posting.identifier) ? posting.identifier.value : item.id,
    }
  },
}

/**
 * One Pinpoint career site (`GET https://{company}.pinpointhq.com/postings.json`): every posting under `data`, in
 * one response. Postings carry no company name (the configured `company`, else the slug) and no date.
 */
const PINPOINT: BoardSpec = {
  type: 'pinpoint',
  defaultUrl: companyHost('pinpointhq.com'),
  path: fixedPath('/postings.json'),
  page: jobsUnder('data'),
  expected: 'an object with a "data" array',
  notFound: {
    what: (company) => `no Pinpoint career site "${company.slug}"`,
    hint: 'check the company name in the companies list (the name in https://<company>.pinpointhq.com)',
  },
  job: (item, company) => {
    const place: Json = isObject(item.location) ? item.location : {}
    const job: Json = isObject(item.job) ? item.job : {}
    const path = text(item.path)
    return {
      title: item.title,
      company: company.company ?? company.slug,
      location: [...new Set(nonEmptyStrings([place.city, place.province, place.name]).map((part) => part.trim()))].join(
        ', ',
      ),
      // The posting on the company's public career site, which `path` names when `url` is missing.
      url:
        item.url ?? (path.startsWith('/') ? `https://${encodeURIComponent(company.slug)}.pinpointhq.com${path}` : ''),
      posted_date: undefined,
      description: pinpointDescription(item),
      salary:
        item.compensation_visible === false
          ? null
          : salaryFromAmounts({
              min: item.compensation_minimum,
              max: item.compensation_maximum,
              currency: item.compensation_currency,
              period: item.compensation_frequency,
              text: item.compensation,
            }),
      employment_type: item.employment_type ?? item.employment_type_text,
      remote: workplace(item.workplace_type),
      tags: names([job.department, job.division]),
      board_id: item.id,
    }
  },
}

/** Workable's careers page API gives the employment type in one word (`full`, `part`). */
const WORKABLE_TYPES: Readonly<Record<string, string>> = {full: 'full time', part: 'part time'}

/**
 * One Workable account (`GET https://apply.workable.com/api/v1/widget/accounts/{account}?details=true`): the
 * account's `name` and all its published jobs in one response; `details=true` adds each job's description. The
 * page pairs each job with the account's name, the company of every job. The answer of the careers page API
 * (`POST /api/v3/accounts/{account}/jobs`: `{total, results, nextPage}`, without the account's name or
 * descriptions), as a mirror may keep it, is read the same way.
 */
const WORKABLE: BoardSpec = {
  type: 'workable',
  defaultUrl: publicUrl('https://apply.workable.com'),
  path: slugPath('/api/v1/widget/accounts/'),
  query: () => ({details: 'true'}),
  page: z.union([
    z
      .object({name: z.unknown().optional(), jobs: z.array(z.unknown())})
      .transform(({name, jobs}) => ({items: jobs.map((job) => ({job, account: name}))})),
    z.object({results: z.array(z.unknown())}).transform(({results}) => ({items: results.map((job) => ({job}))})),
  ]),
  expected: 'an object with a "jobs" array (or the careers page\'s "results" array)',
  notFound: {
    what: (account) => `no Workable account "${account.slug}"`,
    hint: 'check the account name in the accounts list (the name in https://apply.workable.com/<account>)',
  },
  job: (entry, account) => {
    if (!isObject(entry.job)) return null
    const item = entry.job
    const places = (Array.isArray(item.locations) ? item.locations : [])
      .filter(isObject)
      .filter((place) => place.hidden !== true)
      .map((place) => placeName([place.city, place.region, place.country]))
    const single: Json = isObject(item.location) ? item.location : item
    const location =
      places.filter(Boolean).join('; ') || placeName([single.city, single.state ?? single.region, single.country])
    const type = text(item.type).toLowerCase()
    return {
      title: item.title,
      company: text(entry.account) === '' ? (account.company ?? account.slug) : entry.account,
      location,
      // The job's page on apply.workable.com (as `url` names it) when the answer leaves both links out.
      url:
        text(item.url) ||
        text(item.shortlink) ||
        (text(item.shortcode) === '' ? '' : `https://apply.workable.com/j/${encodeURIComponent(text(item.shortcode))}`),
      posted_date: item.published_on ?? item.created_at ?? item.published,
      description: item.description,
      employment_type: item.employment_type ?? WORKABLE_TYPES[type] ?? item.type,
      // The widget's `telecommuting`; the careers page's `workplace` (`on_site`, `hybrid`, `remote`), else `remote`.
      remote:
        typeof item.telecommuting === 'boolean'
          ? item.telecommuting
          : (workplace(item.workplace) ?? (typeof item.remote === 'boolean' ? item.remote : null)),
      seniority: item.experience,
      tags: [...(Array.isArray(item.department) ? item.department : [item.department]), item.function],
      board_id: item.shortcode,
    }
  },
}

/**
 * One Recruitee company (`GET https://{company}.recruitee.com/api/offers/`): its published offers in one response,
 * each with the company's name, its careers page link, structured salary and the offer's text in two parts.
 */
const RECRUITEE: BoardSpec = {
  type: 'recruitee',
  defaultUrl: companyHost('recruitee.com'),
  path: fixedPath('/api/offers/'),
  page: jobsUnder('offers'),
  expected: 'an object with an "offers" array',
  notFound: {
    what: (company) => `no Recruitee company "${company.slug}"`,
    hint: 'check the company name in the companies list (the name in https://<company>.recruitee.com)',
  },
  job: (item, company) => {
    const places = (Array.isArray(item.locations) ? item.locations : [])
      .filter(isObject)
      .map((place) => placeName([place.city, place.state, place.country]))
    const salary = isObject(item.salary) ? item.salary : {}
    return {
      title: item.title,
      company: text(item.company_name) === '' ? (company.company ?? company.slug) : item.company_name,
      location: places.filter(Boolean).join('; ') || item.location,
      // The offer's page on the company's public careers host when the answer leaves it out.
      url:
        text(item.careers_url) ||
        (text(item.slug) === ''
          ? ''
          : `https://${encodeURIComponent(company.slug)}.recruitee.com/o/${encodeURIComponent(text(item.slug))}`),
      posted_date: item.published_at ?? item.created_at,
      description: [text(item.description), text(item.requirements)].join(''),
      salary: salaryFromAmounts({min: salary.min, max: salary.max, currency: salary.currency, period: salary.period}),
      employment_type: item.employment_type_code,
      remote: item.remote === true ? true : item.hybrid === true || item.on_site === true ? false : null,
      tags: [item.department, ...(Array.isArray(item.tags) ? item.tags : [])],
      board_id: item.id,
    }
  },
}

/**
 * One Breezy HR company (`GET https://{company}.breezy.hr/json`): a bare array of its published positions, with
 * the company, the places, the position's public page and its salary as the board writes it, but no description.
 */
const BREEZY: BoardSpec = {
  type: 'breezy',
  defaultUrl: companyHost('breezy.hr'),
  path: fixedPath('/json'),
  page: bareArray,
  expected: 'an array',
  notFound: {
    what: (company) => `no Breezy HR company "${company.slug}"`,
    hint: 'check the company name in the companies list (the name in https://<company>.breezy.hr)',
  },
  job: (item, company) => {
    const places = (Array.isArray(item.locations) ? item.locations : []).filter(isObject)
    const primary = isObject(item.location) ? [item.location] : []
    const all = places.length > 0 ? places : primary
    const remote = all.map((place) => place.is_remote).filter((value) => typeof value === 'boolean')
    const owner = isObject(item.company) ? item.company.name : undefined
    return {
      title: item.name,
      company: text(owner) === '' ? (company.company ?? company.slug) : owner,
      location: [...new Set(nonEmptyStrings(all.map((place) => place.name)))].join('; '),
      // The position's page on the company's public host when the answer leaves it out.
      url:
        text(item.url) ||
        (text(item.friendly_id) === ''
          ? ''
          : `https://${encodeURIComponent(company.slug)}.breezy.hr/p/${encodeURIComponent(text(item.friendly_id))}`),
      posted_date: item.published_date,
      salary: parseSalaryText(item.salary),
      employment_type: isObject(item.type) ? [item.type.id, item.type.name] : undefined,
      remote: remote.length === 0 ? null : remote.includes(true),
      tags: [item.department],
      board_id: item.id,
    }
  },
}

/** `London, England, United Kingdom`: the non-empty parts of a place, repeats left out. */
export function placeName(parts: readonly unknown[]): string {
  return [...new Set(nonEmptyStrings(parts).map((part) => part.trim()))].join(', ')
}

/** `remote` of a workplace type (Lever `remote`/`hybrid`/`onsite`, Ashby `Remote`/`Hybrid`/`OnSite`). */
export function workplace(value: unknown): boolean | null {
  const type = text(value)
    .toLowerCase()
    .replace(/[^a-z]/g, '')
  if (type === 'remote') return true
  if (type === 'onsite' || type === 'hybrid' || type === 'inoffice') return false
  return null
}

/**
 * `Remote (US)`, `Remote - Canada`, `Remote, EMEA`, `Germany (Remote)`, `US Remote`: the place after or before the
 * word. A dash separates only with a space beside it: `Remote-friendly office` is an office.
 */
const REMOTE_FROM =
  /^remote(?:\s*\((.*)\)|\s*\[(.*)\]|(?:\s*[:,/|]|\s+[-–—]|\s*[-–—]\s)\s*(.*))$|^(.*?)(?:\s*\(remote\)|(?:\s*[:,/|]|\s+[-–—]|\s*[-–—]\s)\s*remote|\s+remote)$/i

/**
 * Where a location that names remote work lets a candidate be: its place (`Remote (US)` is `US`), `''` for
 * `Remote` alone (anywhere); undefined for a location that is no remote one (an office).
 */
export function remoteRegion(location: string): string | undefined {
  // Only a location that starts or ends with the word can name remote work; any other is no remote one at once.
  const edges = `${location.slice(0, 6)} ${location.slice(-7)}`.toLowerCase()
  if (!edges.startsWith('remote') && !edges.endsWith('remote') && !edges.endsWith('remote)')) return undefined
  // White space folded first: REMOTE_FROM's `\s*` then takes at most one character wherever it is tried, so a long
  // run of spaces in a board's location is read once.
  const folded = foldWhiteSpace(location)
  if (/^remote$/i.test(folded)) return ''
  const match = REMOTE_FROM.exec(folded)
  if (!match) return undefined
  return (match[1] ?? match[2] ?? match[3] ?? match[4] ?? '').trim()
}

/** Lever's posting in full: the opening description, each list under its heading, the closing text. */
function leverDescription(item: Json): string {
  const lists = Array.isArray(item.lists) ? item.lists.filter(isObject) : []
  return [
    text(item.description),
    ...lists.map((list) => `<h3>${text(list.text)}</h3><ul>${text(list.content)}</ul>`),
    text(item.additional),
  ].join('')
}

/** Pinpoint's posting in full: the description, then each section it fills under its heading. */
function pinpointDescription(item: Json): string {
  const sections: [unknown, unknown][] = [
    [item.key_responsibilities_header, item.key_responsibilities],
    [item.skills_knowledge_expertise_header, item.skills_knowledge_expertise],
    [item.benefits_header, item.benefits],
  ]
  return [
    text(item.description),
    ...sections
      .filter(([, body]) => text(body) !== '')
      .map(([header, body]) => `${text(header) === '' ? '' : `<h3>${text(header)}</h3>`}${text(body)}`),
  ].join('')
}

/**
 * Ashby's salary: the Salary component of `compensation.summaryComponents` (`interval` `1 YEAR`, `1 HOUR`, ...),
 * with the summary text the board shows; nothing when the employer hides compensation on postings.
 */
function ashbySalary(item: Json) {
  if (item.shouldDisplayCompensationOnJobPostings === false || !isObject(item.compensation)) return null
  const components = Array.isArray(item.compensation.summaryComponents) ? item.compensation.summaryComponents : []
  const salary = components.find((entry) => isObject(entry) && entry.compensationType === 'Salary')
  const summary = item.compensation.scrapeableCompensationSalarySummary ?? item.compensation.compensationTierSummary
  if (!isObject(salary)) return parseSalaryText(summary)
  return salaryFromAmounts({
    min: salary.minValue,
    max: salary.maxValue,
    currency: salary.currencyCode,
    period: text(salary.interval).replace(/^1\s+/, ''),
    text: summary,
  })
}

type BoardFactory = (config: SourceConfig, deps: AdapterDeps) => JobSource
type AtsFactory = (config: SourceConfig, board: BoardRef, deps: AdapterDeps) => JobSource

const board =
  (spec: BoardSpec): BoardFactory =>
  (config, deps) =>
    boardSource(spec, config, deps)
/** The factory of an ATS's sources: one JobSource per board, site or company of the entry. */
export const ats =
  (spec: BoardSpec): AtsFactory =>
  (config, ref, deps) =>
    boardSource(spec, config, deps, ref)

export const remoteOkSource = board(REMOTEOK)
export const remotiveSource = board(REMOTIVE)
export const jobicySource = board(JOBICY)
export const arbeitnowSource = board(ARBEITNOW)
export const himalayasSource = board(HIMALAYAS)
export const workingNomadsSource = board(WORKINGNOMADS)
export const greenhouseSource = ats(GREENHOUSE)
export const leverSource = ats(LEVER)
export const ashbySource = ats(ASHBY)
export const pinpointSource = ats(PINPOINT)
export const teamtailorSource = ats(TEAMTAILOR)
export const breezySource = ats(BREEZY)
export const recruiteeSource = ats(RECRUITEE)
export const workableSource = ats(WORKABLE)
export const adzunaSource = board(ADZUNA)
