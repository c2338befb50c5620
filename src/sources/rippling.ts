import {z} from 'zod'
import {salaryFromAmounts} from '../core/jobs/salary.js'
import type {BoardRef} from '../core/jobs/source-config.js'
import {jsonBoardsAdapter} from './board-adapter.js'
import {nonEmptyStrings, remoteRegion, text} from './board-helpers.js'
import type {BoardPage, BoardSpec} from './board-source.js'
import {eligibility, isObject, type Json, picked} from './shared.js'

/** The path of a company's board on the API; a job's detail is under it (`/jobs/{uuid}`). */
const jobsPath = (company: BoardRef) => `/platform/api/ats/v1/board/${encodeURIComponent(company.slug)}/jobs`

/**
 * The list's rows of one job as one item: the list gives a row per job and place, with one uuid (a job in four
 * places is four rows), so the first row stands for the job and `places` holds every row's place.
 */
function jobsByUuid(rows: readonly unknown[]): unknown[] {
  const jobs = new Map<string, Json & {places: unknown[]}>()
  const items: unknown[] = []
  for (const row of rows) {
    const uuid = isObject(row) ? text(row.uuid) : ''
    if (!isObject(row) || uuid === '') {
      items.push(row)
      continue
    }
    const place = isObject(row.workLocation) ? row.workLocation.label : undefined
    const job = jobs.get(uuid)
    if (job) {
      job.places.push(place)
      continue
    }
    const item = {...row, places: [place]}
    jobs.set(uuid, item)
    items.push(item)
  }
  return items
}

const page: z.ZodType<BoardPage, unknown> = z.array(z.unknown()).transform((rows) => ({items: jobsByUuid(rows)}))

/**
 * Rippling's pay ranges (`payRangeDetails`, one per place or level: `currency`, `frequency` `YEAR`/`HOUR`,
 * `rangeStart`, `rangeEnd`): the lowest start and the highest end of the ranges in the first one's currency and
 * period; nothing when the employer states none (an empty list).
 */
function ripplingSalary(value: unknown) {
  const ranges = (Array.isArray(value) ? value : []).filter(isObject)
  const first = ranges[0]
  if (!first) return null
  const alike = ranges.filter((range) => range.currency === first.currency && range.frequency === first.frequency)
  const amounts = (key: string) =>
    alike.map((range) => range[key]).filter((amount): amount is number => typeof amount === 'number' && amount > 0)
  const starts = amounts('rangeStart')
  const ends = amounts('rangeEnd')
  return salaryFromAmounts({
    min: starts.length > 0 ? Math.min(...starts) : undefined,
    max: ends.length > 0 ? Math.max(...ends) : undefined,
    currency: first.currency,
    period: first.frequency,
  })
}

/**
 * Whether the job is remote: a place named remote (`Remote (Connecticut, US)`) makes it so; otherwise a place named
 * hybrid, or pay ranges that all say `isRemote: false`, make it not; nothing said is null.
 */
function ripplingRemote(places: readonly string[], remoteFrom: readonly string[], ranges: readonly Json[]) {
  if (remoteFrom.length > 0) return true
  if (places.some((place) => /^hybrid\b/i.test(place))) return false
  const flags = ranges.map((range) => range.isRemote).filter((flag) => typeof flag === 'boolean')
  return flags.length === 0 ? null : flags.includes(true)
}

/** The fields of a job's detail that `job` reads; the employer's name is taken from `board` when merged. */
const JOB_FIELDS = [
  'name',
  'url',
  'description',
  'workLocations',
  'department',
  'employmentType',
  'createdOn',
  'payRangeDetails',
]

/**
 * One Rippling job board (`GET https://api.rippling.com/platform/api/ats/v1/board/{company}/jobs`): a bare array
 * of every open job in brief (title, department, one place per row, the job's page on ats.rippling.com), then one
 * request per job (`.../jobs/{uuid}`) for the rest: the description in parts (`company`, `role`), every place, the
 * employment type, the creation date, the pay ranges and the employer's name.
 */
const RIPPLING: BoardSpec = {
  type: 'rippling',
  defaultUrl: () => 'https://api.rippling.com',
  path: jobsPath,
  page,
  expected: 'an array',
  notFound: {
    what: (company) => `no Rippling job board "${company.slug}"`,
    hint: 'check the company name in the companies list (the name in https://ats.rippling.com/<company>/jobs, with its case)',
  },
  detail: {
    path: (item, company) =>
      text(item.uuid) === '' ? undefined : `${jobsPath(company)}/${encodeURIComponent(text(item.uuid))}`,
    merge: (item, detail) => {
      const board: Json = isObject(detail.board) ? detail.board : {}
      const employer = text(detail.companyName) || text(board.companyName)
      return {...item, detail: {...picked(detail, JOB_FIELDS), companyName: employer}}
    },
  },
  job: (item, company) => {
    const detail: Json = isObject(item.detail) ? item.detail : {}
    const listed = nonEmptyStrings(item.places)
    const places = [...new Set([...listed, ...nonEmptyStrings(detail.workLocations)].map((place) => place.trim()))]
    const remoteFrom = places.map(remoteRegion).filter((region) => region !== undefined)
    const where = eligibility(remoteFrom.join(', '))
    const ranges = (Array.isArray(detail.payRangeDetails) ? detail.payRangeDetails : []).filter(isObject)
    const employer = text(detail.companyName)
    const description: Json = isObject(detail.description) ? detail.description : {}
    const department: Json = isObject(detail.department) ? detail.department : {}
    const listedDepartment: Json = isObject(item.department) ? item.department : {}
    const tree = nonEmptyStrings(department.department_tree)
    const uuid = text(item.uuid)
    return {
      title: item.name ?? detail.name,
      company: employer === '' ? (company.company ?? company.slug) : employer,
      location: places.join('; '),
      // The job's page on the public board when the answers leave it out.
      url:
        text(item.url) ||
        text(detail.url) ||
        (uuid === ''
          ? ''
          : `https://ats.rippling.com/${encodeURIComponent(company.slug)}/jobs/${encodeURIComponent(uuid)}`),
      posted_date: detail.createdOn,
      description: nonEmptyStrings(Object.values(description)).join(''),
      salary: ripplingSalary(ranges),
      // `label` is the code (`SALARIED_FT`), `id` the words (`Salaried, full-time`).
      employment_type: isObject(detail.employmentType)
        ? [detail.employmentType.label, detail.employmentType.id]
        : undefined,
      remote: ripplingRemote(places, remoteFrom, ranges),
      regions: where.regions,
      timezones: where.timezones,
      tags: tree.length > 0 ? tree : [department.base_department, department.name, listedDepartment.label],
      board_id: uuid,
    }
  },
}

export const ripplingBoard = jsonBoardsAdapter(RIPPLING)
