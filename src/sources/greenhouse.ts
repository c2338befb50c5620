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

export const GREENHOUSE_URL = 'https://boards-api.greenhouse.io'

/**
 * One Greenhouse job board (`GET /v1/boards/{board}/jobs`): the whole board in one response, no pagination.
 * Jobs link to the employer's own posting (`absolute_url`).
 */
export function greenhouseSource(config: SourceConfig, board: BoardRef, deps: AdapterDeps): JobSource {
  const settings = adapterSettings(config, GREENHOUSE_URL)
  return {
    name: sourceName(config, board.slug),
    serverSideFilters: [],
    async fetchJobs(_criteria, signal) {
      const url = endpoint(settings.baseUrl, `/v1/boards/${encodeURIComponent(board.slug)}/jobs`)
      const body = await explainNotFound(
        deps.http.getJson(url, requestOptions(settings, signal, deps.logger)),
        `no Greenhouse board "${board.slug}"`,
        'check the board token in the boards list (the name in https://job-boards.greenhouse.io/<token>)',
      )
      return mapGreenhouse(arrayField(body, 'jobs'), board)
    },
  }
}

export function mapGreenhouse(items: readonly unknown[], board: BoardRef): JobResponse[] {
  return mapJobs(items, (item) =>
    toJob('greenhouse', {
      title: item.title,
      company: nonEmpty(item.company_name) ?? board.company ?? board.slug,
      location: isObject(item.location) ? item.location.name : '',
      url: item.absolute_url,
      // updated_at changes on every edit; first_published is when the job appeared (absent in old boards).
      posted_date: item.first_published ?? item.updated_at,
    }),
  )
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined
}
