import {parseSalaryText} from '../core/jobs/salary.js'
import {jsonBoardsAdapter} from './board-adapter.js'
import {bareArray, companyHost, fixedPath, nonEmptyStrings, text} from './board-helpers.js'
import type {BoardSpec} from './board-source.js'
import {isObject} from './shared.js'

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

export const breezyBoard = jsonBoardsAdapter(BREEZY)
