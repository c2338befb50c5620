import type {JobResponse} from '../core/jobs/job.js'
import type {JobSource} from '../core/jobs/job-source.js'
import {type SourceConfig, sourceName} from '../core/jobs/source-config.js'
import {
  type AdapterDeps,
  adapterSettings,
  endpoint,
  expectArray,
  fetchPerTag,
  lowerCaseHost,
  mapJobs,
  queryTags,
  requestOptions,
  tidyList,
  toJob,
} from './shared.js'

export const REMOTEOK_URL = 'https://remoteok.com'

/**
 * RemoteOK (`GET /api`): a JSON array whose first element is the legal notice (no `id`), then ~100 jobs.
 * Terms: link back to the job's RemoteOK URL (followed) and name Remote OK as the source; jobagent keeps `url`.
 */
export function remoteOkSource(config: SourceConfig, deps: AdapterDeps): JobSource {
  const settings = adapterSettings(config, REMOTEOK_URL)
  const logger = deps.logger
  return {
    name: sourceName(config),
    serverSideFilters: ['tags'],
    fetchJobs: (criteria, signal) =>
      fetchPerTag(queryTags(criteria), async (tag) => {
        const body = await deps.http.getJson(
          endpoint(settings.baseUrl, '/api', {tags: tag}),
          requestOptions(settings, signal, logger),
        )
        return mapRemoteOk(expectArray(body))
      }),
  }
}

export function mapRemoteOk(items: readonly unknown[]): JobResponse[] {
  return mapJobs(items, (item) => {
    // The legal notice has no id; an element with neither company nor position is a blank placeholder.
    if (item.id === undefined || item.id === null) return null
    if (!item.company && !item.position) return null
    const location = tidyList(typeof item.location === 'string' ? item.location : '')
    return toJob('remoteok', {
      title: item.position,
      company: item.company,
      location: location === '' ? 'Remote' : location,
      url: lowerCaseHost(item.url),
      posted_date: item.date ?? item.epoch,
    })
  })
}
