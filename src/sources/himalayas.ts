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

export const HIMALAYAS_URL = 'https://himalayas.app'
/** Himalayas caps `limit` at 20 whatever is asked. */
const PAGE_SIZE = 20
/** A placeholder seen in place of the company name (with `companyLogo: "thumbnail_url"`). */
const PLACEHOLDER_COMPANY = 'name'

/**
 * Himalayas browse API (`GET /jobs/api?limit=20`, then `&cursor=<nextCursor>`) up to `max_pages` pages.
 * Terms: link back and name Himalayas; no resubmission to other job sites; data changes about daily.
 */
export function himalayasSource(config: SourceConfig, deps: AdapterDeps): JobSource {
  const settings = adapterSettings(config, HIMALAYAS_URL)
  return {
    name: sourceName(config),
    serverSideFilters: [],
    async fetchJobs(_criteria, signal) {
      const jobs: JobResponse[] = []
      let cursor: string | undefined
      for (let page = 1; page <= settings.maxPages; page++) {
        const body = await deps.http.getJson(
          endpoint(settings.baseUrl, '/jobs/api', {limit: PAGE_SIZE, cursor}),
          requestOptions(settings, signal, deps.logger),
        )
        const items = arrayField(body, 'jobs')
        jobs.push(...mapHimalayas(items))
        cursor = nextCursor(body)
        if (items.length === 0 || cursor === undefined) break
      }
      return jobs
    },
  }
}

function nextCursor(body: unknown): string | undefined {
  const value = isObject(body) ? body.nextCursor : undefined
  if (typeof value === 'number') return String(value)
  return typeof value === 'string' && value.trim() !== '' ? value : undefined
}

export function mapHimalayas(items: readonly unknown[]): JobResponse[] {
  return mapJobs(items, (item) => {
    const name = typeof item.companyName === 'string' ? item.companyName.trim() : ''
    const restrictions = Array.isArray(item.locationRestrictions)
      ? item.locationRestrictions.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '')
      : []
    return toJob('himalayas', {
      title: item.title,
      company: name === '' || name === PLACEHOLDER_COMPANY ? item.companySlug : name,
      location: restrictions.length > 0 ? restrictions.join(', ') : 'Worldwide',
      url: item.applicationLink ?? item.guid,
      posted_date: item.pubDate,
    })
  })
}
