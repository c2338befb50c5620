import type {JobResponse} from '../core/jobs/job.js'
import type {JobSource} from '../core/jobs/job-source.js'
import {type SourceConfig, sourceName} from '../core/jobs/source-config.js'
import {
  type AdapterDeps,
  adapterSettings,
  arrayField,
  endpoint,
  isObject,
  mapJobs,
  requestOptions,
  toJob,
} from './shared.js'

export const ARBEITNOW_URL = 'https://www.arbeitnow.com'

/**
 * Arbeitnow (`GET /api/job-board-api?page=N`): pages until `links.next` is null or empty, or `data` is empty,
 * up to `max_pages`. Its query parameters are reported ignored, so nothing is filtered on its side.
 * Terms: a free public API, "please do not abuse"; link back to arbeitnow.com.
 */
export function arbeitnowSource(config: SourceConfig, deps: AdapterDeps): JobSource {
  const settings = adapterSettings(config, ARBEITNOW_URL)
  return {
    name: sourceName(config),
    serverSideFilters: [],
    async fetchJobs(_criteria, signal) {
      const jobs: JobResponse[] = []
      for (let page = 1; page <= settings.maxPages; page++) {
        const body = await deps.http.getJson(
          endpoint(settings.baseUrl, '/api/job-board-api', {page}),
          requestOptions(settings, signal, deps.logger),
        )
        const data = arrayField(body, 'data')
        jobs.push(...mapArbeitnow(data))
        if (data.length === 0 || !hasNextPage(body)) break
        if (page === settings.maxPages) deps.logger.debug(`stopped after max_pages (${settings.maxPages}) pages`)
      }
      return jobs
    },
  }
}

/**
 * `links.next` only says whether another page exists. Its URL is not requested as given: it names the public
 * host (not a configured mirror) and has been seen echoing another client's `search=` from a shared cache.
 */
function hasNextPage(body: unknown): boolean {
  const links = isObject(body) ? body.links : undefined
  return isObject(links) && typeof links.next === 'string' && links.next.trim() !== ''
}

export function mapArbeitnow(items: readonly unknown[]): JobResponse[] {
  return mapJobs(items, (item) => {
    const location = typeof item.location === 'string' ? item.location.trim() : ''
    const remote = item.remote === true
    return toJob('arbeitnow', {
      title: item.title,
      company: item.company_name,
      location: remote ? (location ? `${location} (Remote)` : 'Remote') : location,
      url: item.url,
      posted_date: item.created_at,
    })
  })
}
