import {jsonFeedAdapter} from './board-adapter.js'
import {bareArray, fixedPath, publicUrl, remoteRegion, text} from './board-helpers.js'
import type {BoardSpec} from './board-source.js'
import {eligibility} from './shared.js'

/**
 * Working Nomads (`GET /api/exposed_jobs/`): a bare array of its latest remote jobs, all in one response. Items
 * carry no id and no salary; `tags` is one comma-separated text. Every job is remote: `location` says where a
 * candidate may be (`Canada`, `Japan - Remote`, `Global`).
 */
const WORKINGNOMADS: BoardSpec = {
  type: 'workingnomads',
  defaultUrl: publicUrl('https://www.workingnomads.com'),
  path: fixedPath('/api/exposed_jobs/'),
  page: bareArray,
  expected: 'an array',
  // pub_date carries its zone (`2026-07-10T09:24:39-04:00`).
  job: (item) => {
    const location = text(item.location)
    const places = location.split(',').map((entry) => remoteRegion(entry.trim()) ?? entry.trim())
    const where = eligibility(places.join(', '))
    return {
      title: item.title,
      company: item.company_name,
      location,
      url: item.url,
      posted_date: item.pub_date,
      description: item.description,
      remote: true,
      regions: where.regions,
      timezones: where.timezones,
      tags: [item.category_name, ...text(item.tags).split(',')],
    }
  },
}

export const workingNomadsBoard = jsonFeedAdapter(WORKINGNOMADS)
