import type {JobResponse} from '../core/jobs/job.js'
import type {JobSource} from '../core/jobs/job-source.js'
import {type BoardRef, type SourceConfig, sourceName} from '../core/jobs/source-config.js'
import {HttpError} from '../http-client/index.js'
import {
  type AdapterDeps,
  adapterSettings,
  endpoint,
  expectArray,
  explainNotFound,
  isObject,
  mapJobs,
  requestOptions,
  toJob,
} from './shared.js'

export const LEVER_URL = 'https://api.lever.co'
export const LEVER_EU_URL = 'https://api.eu.lever.co'
const SITE_HINT = 'check the site name in the sites list (the name in https://jobs.lever.co/<site>) and region'

/**
 * One Lever site (`GET /v0/postings/{site}?mode=json`), a bare array of postings. Postings carry no company
 * name: the configured `company`, else the site slug. `region: "eu"` uses api.eu.lever.co.
 */
export function leverSource(config: SourceConfig, site: BoardRef, deps: AdapterDeps): JobSource {
  const settings = adapterSettings(config, config.region === 'eu' ? LEVER_EU_URL : LEVER_URL)
  return {
    name: sourceName(config, site.slug),
    serverSideFilters: [],
    async fetchJobs(_criteria, signal) {
      const url = endpoint(settings.baseUrl, `/v0/postings/${encodeURIComponent(site.slug)}`, {mode: 'json'})
      const what = `no Lever site "${site.slug}"`
      const body = await explainNotFound(
        deps.http.getJson(url, requestOptions(settings, signal, deps.logger)),
        what,
        SITE_HINT,
      )
      // An unknown site is reported to answer {"ok": false, "error": "Document not found"}.
      if (isObject(body) && body.ok === false) {
        throw new HttpError(`Lever answered "${String(body.error ?? 'error')}": ${what}`, {url, hint: SITE_HINT})
      }
      return mapLever(expectArray(body), site)
    },
  }
}

export function mapLever(items: readonly unknown[], site: BoardRef): JobResponse[] {
  return mapJobs(items, (item) => {
    const categories = isObject(item.categories) ? item.categories : {}
    const all = Array.isArray(categories.allLocations)
      ? categories.allLocations.filter((l) => typeof l === 'string')
      : []
    return toJob('lever', {
      title: item.text,
      company: site.company ?? site.slug,
      location: typeof categories.location === 'string' && categories.location ? categories.location : all.join('; '),
      url: item.hostedUrl,
      posted_date: item.createdAt,
    })
  })
}
