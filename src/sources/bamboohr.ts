import {parseSalaryText} from '../core/jobs/salary.js'
import type {BoardRef} from '../core/jobs/source-config.js'
import {jsonBoardsAdapter} from './board-adapter.js'
import {companyHost, jobsUnder, placeName, text} from './board-helpers.js'
import type {BoardSpec} from './board-source.js'
import {isObject, type Json, picked, UnexpectedShapeError} from './shared.js'

/** The opening's page on the company's career site, where the detail's `jobOpeningShareUrl` points. */
const publicPage = (company: BoardRef, id: string) =>
  `https://${encodeURIComponent(company.slug)}.bamboohr.com/careers/${encodeURIComponent(id)}`

/** The opening's number (`"36"`); '' when the item has none. */
function openingId(item: Json): string {
  return typeof item.id === 'string' || typeof item.id === 'number' ? String(item.id).trim() : ''
}

/**
 * `locationType` `1` is remote, `2` hybrid and `0` at the office (the career site then shows the place alone);
 * `isRemote`, where the board sets it, says remote too.
 */
function remote(item: Json): boolean | null {
  if (item.isRemote === true) return true
  const type =
    typeof item.locationType === 'string' || typeof item.locationType === 'number'
      ? String(item.locationType).trim()
      : ''
  if (type === '1') return true
  if (type === '0' || type === '2') return false
  return typeof item.isRemote === 'boolean' ? item.isRemote : null
}

/**
 * One of the two places an opening has: `location` (city, state, and on the detail the country) or, when that is
 * empty, `atsLocation` (city, state or province, country). A board fills one of them.
 */
function place(item: Json): string {
  const location: Json = isObject(item.location) ? item.location : {}
  const ats: Json = isObject(item.atsLocation) ? item.atsLocation : {}
  return (
    placeName([location.city, location.state, location.addressCountry]) ||
    placeName([ats.city, ats.state, ats.province, ats.country])
  )
}

/** The fields of an opening that `job` reads, from the list or the detail. */
const OPENING_FIELDS = [
  'jobOpeningName',
  'jobOpeningShareUrl',
  'datePosted',
  'description',
  'compensation',
  'employmentStatusLabel',
  'employmentType',
  'locationType',
  'isRemote',
  'minimumExperience',
  'departmentLabel',
  'location',
  'atsLocation',
]

/**
 * One BambooHR career site (`GET https://{company}.bamboohr.com/careers/list`): every open opening in brief, under
 * `result`, then `GET /careers/{id}/detail` for each, whose `result.jobOpening` adds the description, the date,
 * the compensation and the country. Neither names the company (the configured `company`, else the slug). An
 * unknown company is redirected to BambooHR's home page, an HTML page, which is reported as a 404.
 */
const BAMBOOHR: BoardSpec = {
  type: 'bamboohr',
  defaultUrl: companyHost('bamboohr.com'),
  path: () => '/careers/list',
  page: jobsUnder('result'),
  expected: 'an object with a "result" array',
  notFound: {
    what: (company) => `no BambooHR company "${company.slug}"`,
    hint: 'check the company name in the companies list (the name in https://<company>.bamboohr.com/careers)',
    htmlPage: true,
  },
  detail: {
    path: (item) => {
      const id = openingId(item)
      return id === '' ? undefined : `/careers/${encodeURIComponent(id)}/detail`
    },
    // The detail's fields over the list's, where the detail gives them; the list's `id` stays (the detail has none).
    merge: (item, detail) => {
      const opening = isObject(detail.result) ? detail.result.jobOpening : undefined
      if (!isObject(opening)) throw new UnexpectedShapeError('an object with "result.jobOpening"')
      return {...item, ...picked(opening, OPENING_FIELDS)}
    },
  },
  job: (item, company) => {
    const id = openingId(item)
    return {
      title: item.jobOpeningName,
      company: company.company ?? company.slug,
      location: place(item),
      // The posting on the company's public career site when the answer does not name it.
      url: text(item.jobOpeningShareUrl) || (id === '' ? '' : publicPage(company, id)),
      posted_date: item.datePosted,
      description: item.description,
      // Free text as the employer writes it, read by the salary parser.
      salary: parseSalaryText(item.compensation),
      employment_type: [item.employmentStatusLabel, item.employmentType],
      remote: remote(item),
      seniority: item.minimumExperience,
      tags: [item.departmentLabel],
      board_id: id,
    }
  },
}

export const bamboohrBoard = jsonBoardsAdapter(BAMBOOHR)
