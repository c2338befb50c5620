import {z} from 'zod'
import {workdaySite} from '../core/jobs/board-kinds.js'
import type {BoardRef} from '../core/jobs/source-config.js'
import {jsonBoardsAdapter} from './board-adapter.js'
import {nonEmptyStrings, text, workplace} from './board-helpers.js'
import type {BoardPage, BoardSpec} from './board-source.js'
import {isObject, type Json, keepsItsPath} from './shared.js'

/** Jobs per page: the most a Workday site answers with (a larger `limit` is refused with HTTP 400). */
const PAGE_SIZE = 20

/** The tenant, host and site of a `sites` entry, which the config check has accepted. */
function siteOf(board: BoardRef) {
  return workdaySite(board.slug) ?? {tenant: '', instance: '', site: ''}
}

/** The career site's own public host (`https://nvidia.wd5.myworkdayjobs.com`). */
function publicHost(board: BoardRef): string {
  const {tenant, instance} = siteOf(board)
  return `https://${tenant}.${instance}.myworkdayjobs.com`
}

/**
 * The job's path under its site (`/job/China-Shanghai/Custom-SOC-Intern---2027_JR2024692`), if it names one that
 * stays under the site once read as a URL: no white space, query, fragment or dot segment in any spelling.
 */
function externalPath(item: Json): string | undefined {
  const path = text(item.externalPath)
  return /^\/\S+$/.test(path) && keepsItsPath(path) ? path : undefined
}

/** A list's `locationsText` when it names a place; `2 Locations` only counts them (the detail names them). */
function listedPlace(value: unknown): string {
  const place = text(value)
  return /^\d+ locations?$/i.test(place) ? '' : place
}

/**
 * One Workday career site (`POST https://{tenant}.{wdN}.myworkdayjobs.com/wday/cxs/{tenant}/{site}/jobs`, a JSON
 * body with `offset` and `searchText`): 20 jobs a page, each in brief (title, path, places, `Posted 3 Days Ago`),
 * then each job's detail (`GET .../wday/cxs/{tenant}/{site}{externalPath}`) for its description, its start date,
 * places, time type, workplace and public link. `searchText` takes one term: one search per tag.
 */
const WORKDAY: BoardSpec = {
  type: 'workday',
  defaultUrl: (_config, board) => publicHost(board),
  path: (board) => {
    const {tenant, site} = siteOf(board)
    return `/wday/cxs/${encodeURIComponent(tenant)}/${encodeURIComponent(site)}/jobs`
  },
  body: ({tag, page}) => ({appliedFacets: {}, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE, searchText: tag ?? ''}),
  searchesByTag: true,
  paged: true,
  // A sweep asks with each role word as the site's own search (`searchText`).
  sweep: {searchesByRole: true},
  // `total` is left aside: it is filled on the first page only, and capped.
  page: z.object({jobPostings: z.array(z.unknown())}).transform(
    ({jobPostings}): BoardPage => ({
      items: jobPostings,
      ...(jobPostings.length >= PAGE_SIZE ? {next: 'more'} : {}),
    }),
  ),
  expected: 'an object with a "jobPostings" array',
  notFound: {
    what: (site) => `no Workday site "${site.slug}"`,
    hint: 'check the site in the sites list: "{tenant}.{wdN}/{site}", as in https://{tenant}.{wdN}.myworkdayjobs.com/{site}',
  },
  detail: {
    path: (item, board) => {
      const path = externalPath(item)
      const {tenant, site} = siteOf(board)
      return path === undefined
        ? undefined
        : `/wday/cxs/${encodeURIComponent(tenant)}/${encodeURIComponent(site)}${path}`
    },
    merge: (item, detail) => ({
      ...item,
      jobPostingInfo: detail.jobPostingInfo,
      hiringOrganization: detail.hiringOrganization,
    }),
  },
  job: (item, board) => {
    const info: Json = isObject(item.jobPostingInfo) ? item.jobPostingInfo : {}
    // The employing entity as Workday names it (`CN05 NVIDIA Shanghai WFOE`): a configured company comes first.
    const employer = isObject(item.hiringOrganization) ? text(item.hiringOrganization.name) : ''
    const others = Array.isArray(info.additionalLocations) ? info.additionalLocations : []
    const places = [...new Set(nonEmptyStrings([info.location, ...others]).map((place) => place.trim()))]
    const path = externalPath(item)
    return {
      title: text(info.title) || item.title,
      company: board.company ?? (employer || siteOf(board).tenant),
      location: places.length > 0 ? places.join('; ') : listedPlace(item.locationsText),
      // The posting on the site's public host when the detail gives no link.
      url: text(info.externalUrl) || (path === undefined ? '' : `${publicHost(board)}/${siteOf(board).site}${path}`),
      // The list's `postedOn` is relative text; the detail's `startDate` is the day the posting opened.
      posted_date: info.startDate,
      description: info.jobDescription,
      employment_type: info.timeType,
      // The detail's workplace, else the list's (`On-site`), which a job whose detail failed still has.
      remote: workplace(info.remoteType) ?? workplace(item.remoteType),
      board_id: info.jobReqId,
    }
  },
}

export const workdayBoard = jsonBoardsAdapter(WORKDAY)
