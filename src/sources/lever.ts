import {salaryFromAmounts} from '../core/jobs/salary.js'
import {jsonBoardsAdapter} from './board-adapter.js'
import {bareArray, slugPath, text, workplace} from './board-helpers.js'
import type {BoardSpec} from './board-source.js'
import {isObject, type Json} from './shared.js'

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

/** Lever's posting in full: the opening description, each list under its heading, the closing text. */
function leverDescription(item: Json): string {
  const lists = Array.isArray(item.lists) ? item.lists.filter(isObject) : []
  return [
    text(item.description),
    ...lists.map((list) => `<h3>${text(list.text)}</h3><ul>${text(list.content)}</ul>`),
    text(item.additional),
  ].join('')
}

export const leverBoard = jsonBoardsAdapter(LEVER)
