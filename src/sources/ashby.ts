import type {JobResponse} from '../core/jobs/job.js'
import type {JobSource} from '../core/jobs/job-source.js'
import {type BoardRef, type SourceConfig, sourceName} from '../core/jobs/source-config.js'
import {
  type AdapterDeps,
  adapterSettings,
  arrayField,
  endpoint,
  explainNotFound,
  isObject,
  mapJobs,
  requestOptions,
  toJob,
} from './shared.js'

export const ASHBY_URL = 'https://api.ashbyhq.com'

/**
 * One Ashby job board (`GET /posting-api/job-board/{board}`), all jobs in one response. Jobs carry no company
 * name: the configured `company`, else the board slug. Unlisted jobs (`isListed: false`) are skipped.
 */
export function ashbySource(config: SourceConfig, board: BoardRef, deps: AdapterDeps): JobSource {
  const settings = adapterSettings(config, ASHBY_URL)
  return {
    name: sourceName(config, board.slug),
    serverSideFilters: [],
    async fetchJobs(_criteria, signal) {
      const url = endpoint(settings.baseUrl, `/posting-api/job-board/${encodeURIComponent(board.slug)}`)
      const body = await explainNotFound(
        deps.http.getJson(url, requestOptions(settings, signal, deps.logger)),
        `no Ashby board "${board.slug}"`,
        'check the board name in the boards list (the name in https://jobs.ashbyhq.com/<board>)',
      )
      return mapAshby(arrayField(body, 'jobs'), board)
    },
  }
}

export function mapAshby(items: readonly unknown[], board: BoardRef): JobResponse[] {
  return mapJobs(items, (item) => {
    if (item.isListed === false) return null
    const secondary = Array.isArray(item.secondaryLocations)
      ? item.secondaryLocations.map((entry) => (isObject(entry) ? entry.location : undefined))
      : []
    const locations = [item.location, ...secondary].filter(
      (location): location is string => typeof location === 'string' && location.trim() !== '',
    )
    return toJob('ashby', {
      title: item.title,
      company: board.company ?? board.slug,
      location: [...new Set(locations.map((location) => location.trim()))].join('; '),
      url: item.jobUrl,
      posted_date: item.publishedAt,
    })
  })
}
