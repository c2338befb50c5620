import {jsonBoardsAdapter} from './board-adapter.js'
import {companyHost, fixedPath, jobsUnder, nonEmptyStrings, text} from './board-helpers.js'
import type {BoardSpec} from './board-source.js'
import {isObject, type Json} from './shared.js'

/**
 * A career site's host: `{company}.teamtailor.com`, or the slug itself when it is a host. Sites in Teamtailor's
 * North American region (`acme.na.teamtailor.com`) and sites on a company's own domain (`careers.acme.com`) have no
 * `{company}` of their own, and the directory of boards names them by their host.
 */
const siteHost: BoardSpec['defaultUrl'] = (config, company) =>
  company.slug.includes('.')
    ? `https://${encodeURIComponent(company.slug)}`
    : companyHost('teamtailor.com')(config, company)

/**
 * One Teamtailor career site (`GET https://{company}.teamtailor.com/jobs.json`): a JSON Feed whose items carry
 * the schema.org JobPosting of the job under `_jobposting` (its employer, places and number). Jobs link to the
 * posting on the career site (`url`).
 */
const TEAMTAILOR: BoardSpec = {
  type: 'teamtailor',
  defaultUrl: siteHost,
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

export const teamtailorBoard = jsonBoardsAdapter(TEAMTAILOR)
