import {z} from 'zod'
import {jsonFeedAdapter} from './board-adapter.js'
import {fixedPath, publicUrl, text} from './board-helpers.js'
import type {BoardSpec} from './board-source.js'
import {isObject} from './shared.js'

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

export const arbeitnowBoard = jsonFeedAdapter(ARBEITNOW)
