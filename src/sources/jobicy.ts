import type {JobResponse} from '../core/jobs/job.js'
import type {JobSource} from '../core/jobs/job-source.js'
import {type SourceConfig, sourceName} from '../core/jobs/source-config.js'
import {
  type AdapterDeps,
  adapterSettings,
  arrayField,
  endpoint,
  fetchPerTag,
  mapJobs,
  queryTags,
  requestOptions,
  toJob,
} from './shared.js'

export const JOBICY_URL = 'https://jobicy.com'
/** The documented maximum per request; Jobicy has no pagination. */
const JOBICY_COUNT = 50

/**
 * Jobicy (`GET /api/v2/remote-jobs?count=50`, `tag=` per tag). Terms: credit Jobicy with a direct link, apply
 * through the original job URL, no redistribution to other job sites, poll a few times a day at most.
 */
export function jobicySource(config: SourceConfig, deps: AdapterDeps): JobSource {
  const settings = adapterSettings(config, JOBICY_URL)
  return {
    name: sourceName(config),
    serverSideFilters: ['tags'],
    fetchJobs: (criteria, signal) =>
      fetchPerTag(queryTags(criteria), async (tag) => {
        const body = await deps.http.getJson(
          endpoint(settings.baseUrl, '/api/v2/remote-jobs', {count: JOBICY_COUNT, tag}),
          requestOptions(settings, signal, deps.logger),
        )
        return mapJobicy(arrayField(body, 'jobs'))
      }),
  }
}

export function mapJobicy(items: readonly unknown[]): JobResponse[] {
  // pubDate is `2024-12-07 04:10:26` (naive, UTC) in older responses and `2026-08-15T15:28:49+00:00` in newer.
  return mapJobs(items, (item) =>
    toJob('jobicy', {
      title: item.jobTitle,
      company: item.companyName,
      location: item.jobGeo,
      url: item.url,
      posted_date: item.pubDate,
    }),
  )
}
