import {z} from 'zod'
import {salaryFromAmounts} from '../core/jobs/salary.js'
import type {BoardRef} from '../core/jobs/source-config.js'
import {jsonBoardsAdapter} from './board-adapter.js'
import {placeName, publicUrl, text} from './board-helpers.js'
import type {BoardPage, BoardSpec} from './board-source.js'
import {isObject, type Json, keepsItsPath, picked} from './shared.js'

/** Postings per page: the most SmartRecruiters' posting list answers with, whatever `limit` asks. */
const PAGE_SIZE = 100

/** The posting list's path of one company (`/v1/companies/Nexity/postings`). */
const postingsPath = (company: BoardRef) => `/v1/companies/${encodeURIComponent(company.slug)}/postings`

const count = z.number().int().nonnegative()

/**
 * `{"offset": 0, "limit": 100, "totalFound": 4884, "content": [...]}`: the next page starts after the postings this
 * one echoes, until `totalFound` is reached.
 */
const page: z.ZodType<BoardPage, unknown> = z
  .object({offset: count.optional(), totalFound: count.optional(), content: z.array(z.unknown())})
  .transform(({offset, totalFound, content}) => {
    const next = offset === undefined ? undefined : offset + content.length
    return {
      items: content,
      ...(next !== undefined && totalFound !== undefined && next < totalFound ? {next: String(next)} : {}),
    }
  })

/** The fields of a posting that `job` reads, from the list or the detail (the list's `id` stays). */
const POSTING_FIELDS = [
  'name',
  'company',
  'location',
  'postingUrl',
  'releasedDate',
  'jobAd',
  'compensation',
  'typeOfEmployment',
  'experienceLevel',
  'department',
  'function',
]

/**
 * One SmartRecruiters company (`GET https://api.smartrecruiters.com/v1/companies/{company}/postings`, pages of 100
 * by `offset`), then each posting's detail (`.../postings/{id}`) for its job ad
 * (`jobAd.sections`). The list gives the rest: the company, the place, remote or hybrid, the date, the type, the
 * level, the department and function. An unknown company answers with no postings, as a company without any does.
 */
const SMARTRECRUITERS: BoardSpec = {
  type: 'smartrecruiters',
  defaultUrl: publicUrl('https://api.smartrecruiters.com'),
  path: postingsPath,
  query: ({cursor}) => ({limit: PAGE_SIZE, offset: cursor ?? 0}),
  paged: true,
  // A sweep asks with each role word as the posting list's own search (`q`).
  sweep: {query: ({cursor, tag}) => ({limit: PAGE_SIZE, offset: cursor ?? 0, q: tag}), searchesByRole: true},
  page,
  expected: 'an object with a "content" array',
  notFound: {
    what: (company) => `no SmartRecruiters company "${company.slug}"`,
    hint: 'check the company identifier in the companies list (the name in https://jobs.smartrecruiters.com/<company>, with its capitals)',
  },
  detail: {
    path: (item, company) => {
      const id = postingId(item)
      return id === '' ? undefined : `${postingsPath(company)}/${encodeURIComponent(id)}`
    },
    merge: (item, detail) => ({...item, ...picked(detail, POSTING_FIELDS)}),
  },
  job: (item, company) => {
    const place: Json = isObject(item.location) ? item.location : {}
    const owner: Json = isObject(item.company) ? item.company : {}
    const type: Json = isObject(item.typeOfEmployment) ? item.typeOfEmployment : {}
    const level: Json = isObject(item.experienceLevel) ? item.experienceLevel : {}
    const department = isObject(item.department) ? item.department.label : undefined
    const role = isObject(item.function) && item.function.id !== 'other' ? item.function.label : undefined
    return {
      title: item.name,
      company: text(owner.name) === '' ? (company.company ?? company.slug) : owner.name,
      // fullLocation names the country (`Toulouse, , France`); city, region and country code are the fallback.
      location: placeName(text(place.fullLocation).split(',')) || placeName([place.city, place.region, place.country]),
      // Always the posting's address by id, which SmartRecruiters serves: the detail's `postingUrl` adds a slug of
      // the title, and a job whose detail failed in one run and was read in the next would change its URL.
      url: publicPostingUrl(item, company) || text(item.postingUrl),
      posted_date: item.releasedDate,
      description: jobAd(item.jobAd),
      salary: pay(item.compensation),
      employment_type: [type.id, type.label],
      // `hybrid` and on site (`remote: false`) are both no remote job.
      remote: place.remote === true ? true : typeof place.remote === 'boolean' ? false : null,
      seniority: level.id === 'not_applicable' ? null : level.label,
      tags: [department, role],
      board_id: postingId(item),
    }
  },
}

/** `compensation` of a detail: `{"min": 68500, "max": 87500, "currency": "GBP", "period": "YEARLY"}`. */
function pay(value: unknown) {
  if (!isObject(value)) return null
  return salaryFromAmounts({min: value.min, max: value.max, currency: value.currency, period: value.period})
}

/** The posting's id; '' for none, and for one that would name another path in a URL (`..`, `%2e%2e`). */
function postingId(item: Json): string {
  const id = typeof item.id === 'number' ? String(item.id) : text(item.id)
  return keepsItsPath(`/${encodeURIComponent(id)}`) ? id : ''
}

/**
 * The posting's page on the public host (`https://jobs.smartrecruiters.com/Nexity/744000153698949`); the company as
 * the list spells it, else the configured slug.
 */
function publicPostingUrl(item: Json, company: BoardRef): string {
  const id = postingId(item)
  if (id === '') return ''
  const owner = isObject(item.company) ? text(item.company.identifier) : ''
  return `https://jobs.smartrecruiters.com/${encodeURIComponent(owner || company.slug)}/${encodeURIComponent(id)}`
}

/**
 * The job ad in full, in the board's order: each section with text (`companyDescription`, `jobDescription`,
 * `qualifications`, `additionalInformation`) under its title.
 */
function jobAd(value: unknown): string | undefined {
  const sections = isObject(value) && isObject(value.sections) ? value.sections : undefined
  if (!sections) return undefined
  return Object.values(sections)
    .filter((section): section is Json => isObject(section) && text(section.text) !== '')
    .map((section) => `${text(section.title) === '' ? '' : `<h3>${text(section.title)}</h3>`}${text(section.text)}`)
    .join('')
}

export const smartRecruitersBoard = jsonBoardsAdapter(SMARTRECRUITERS)
