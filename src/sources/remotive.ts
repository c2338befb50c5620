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

export const REMOTIVE_URL = 'https://remotive.com'

/**
 * Remotive (`GET /api/remote-jobs`, `search=` per tag). Terms: link back to the Remotive URL, name Remotive,
 * no resubmission to other job sites, at most about 4 requests a day.
 */
export function remotiveSource(config: SourceConfig, deps: AdapterDeps): JobSource {
  const settings = adapterSettings(config, REMOTIVE_URL)
  return {
    name: sourceName(config),
    serverSideFilters: ['tags'],
    fetchJobs: (criteria, signal) =>
      fetchPerTag(queryTags(criteria), async (tag) => {
        const body = await deps.http.getJson(
          endpoint(settings.baseUrl, '/api/remote-jobs', {search: tag}),
          requestOptions(settings, signal, deps.logger),
        )
        return mapRemotive(arrayField(body, 'jobs'))
      }),
  }
}

export function mapRemotive(items: readonly unknown[]): JobResponse[] {
  // publication_date is naive ISO (`2026-07-28T14:23:05`); normalisePostedDate takes it as UTC.
  return mapJobs(items, (item) =>
    toJob('remotive', {
      title: item.title,
      company: item.company_name,
      location: item.candidate_required_location,
      url: item.url,
      posted_date: item.publication_date,
    }),
  )
}
