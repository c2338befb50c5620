import {salaryFromAmounts} from '../core/jobs/salary.js'
import {jsonBoardsAdapter} from './board-adapter.js'
import {companyHost, fixedPath, jobsUnder, placeName, text} from './board-helpers.js'
import type {BoardSpec} from './board-source.js'
import {isObject} from './shared.js'

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

export const recruiteeBoard = jsonBoardsAdapter(RECRUITEE)
