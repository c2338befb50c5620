import {salaryFromAmounts} from '../core/jobs/salary.js'
import {jsonFeedAdapter} from './board-adapter.js'
import {bareArray, fixedPath, publicUrl} from './board-helpers.js'
import type {BoardSpec} from './board-source.js'
import {lowerCaseHost, tidyList} from './shared.js'

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

export const remoteOkBoard = jsonFeedAdapter(REMOTEOK)
