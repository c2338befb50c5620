import {ConfigurationError} from '../core/errors.js'
import type {JobSource} from '../core/jobs/job-source.js'
import {SOURCE_TYPES, type SourceConfig} from '../core/jobs/source-config.js'
import type {Logger} from '../core/logger.js'
import {arbeitnowSource} from './arbeitnow.js'
import {ashbySource} from './ashby.js'
import {fileSource} from './file.js'
import {greenhouseSource} from './greenhouse.js'
import {hackerNewsSource} from './hackernews.js'
import {himalayasSource} from './himalayas.js'
import type {HttpClient} from './http-client.js'
import {jobicySource} from './jobicy.js'
import {leverSource} from './lever.js'
import {remoteOkSource} from './remoteok.js'
import {remotiveSource} from './remotive.js'
import {feedName, rssSource} from './rss.js'
import {type AdapterDeps, boardRef} from './shared.js'
import {weWorkRemotelySource} from './weworkremotely.js'

export {createHttpClient, HttpClient, type HttpClientOptions, HttpError} from './http-client.js'

export interface CreateSourcesOptions {
  http: HttpClient
  /** The root logger; each board logs as `<root>.sources.<name>`. */
  logger: Logger
  /** Where relative `path`s of file sources start (default: the working directory). */
  cwd?: string
}

const SOURCE_HINT = 'fix the entry with: jobagent config set sources <json> (or edit the config file)'

/**
 * One JobSource per enabled entry of `sources`; Greenhouse, Lever and Ashby give one per board or site
 * (`greenhouse:gitlab`), so each has its own outcome in the run. Misconfigured entries fail with the key.
 */
export function createSources(configs: readonly SourceConfig[], options: CreateSourcesOptions): JobSource[] {
  const sources: JobSource[] = []
  const firstIndex = new Map<string, number>()
  configs.forEach((config, index) => {
    if (config.enabled === false) return
    for (const source of createEntry(config, index, options)) {
      const earlier = firstIndex.get(source.name)
      if (earlier !== undefined) {
        throw new ConfigurationError(`sources[${index}] repeats the source ${source.name} of sources[${earlier}]`, {
          hint: 'remove one of them, or give one a distinct "name"',
        })
      }
      firstIndex.set(source.name, index)
      sources.push(source)
    }
  })
  return sources
}

function createEntry(config: SourceConfig, index: number, options: CreateSourcesOptions): JobSource[] {
  const key = (name: string) => `sources[${index}].${name}`
  const invalid = (message: string) => new ConfigurationError(message, {hint: SOURCE_HINT})
  if (!(SOURCE_TYPES as readonly string[]).includes(config.type)) {
    throw invalid(
      `${key('type')} ${JSON.stringify(config.type)} is not a source type (one of ${SOURCE_TYPES.join(', ')})`,
    )
  }
  if (config.url !== undefined && !isHttpUrl(config.url)) {
    throw invalid(`${key('url')} must be an absolute http(s) URL, got ${JSON.stringify(config.url)}`)
  }
  if (config.timeout_seconds !== undefined && !(config.timeout_seconds > 0)) {
    throw invalid(`${key('timeout_seconds')} must be a positive number of seconds`)
  }
  if (config.max_pages !== undefined && !(Number.isInteger(config.max_pages) && config.max_pages >= 1)) {
    throw invalid(`${key('max_pages')} must be a whole number of 1 or more`)
  }
  const deps = (name: string): AdapterDeps => ({http: options.http, logger: options.logger.child(`sources.${name}`)})
  const boards = (listKey: 'boards' | 'sites') => {
    const list = config[listKey]
    if (!list || list.length === 0) throw invalid(`${key(listKey)} is required for ${config.type}`)
    return list.map(boardRef)
  }

  // Logger names follow the source names (`jobagent.sources.greenhouse:gitlab`), as the run's own lines do.
  const single = config.name ?? config.type
  const perBoard = (slug: string) => deps(`${single}:${slug}`)
  switch (config.type) {
    case 'remoteok':
      return [remoteOkSource(config, deps(single))]
    case 'remotive':
      return [remotiveSource(config, deps(single))]
    case 'arbeitnow':
      return [arbeitnowSource(config, deps(single))]
    case 'jobicy':
      return [jobicySource(config, deps(single))]
    case 'himalayas':
      return [himalayasSource(config, deps(single))]
    case 'weworkremotely':
      return [weWorkRemotelySource(config, deps(single))]
    case 'hackernews':
      return [hackerNewsSource(config, deps(single))]
    case 'greenhouse':
      return boards('boards').map((board) => greenhouseSource(config, board, perBoard(board.slug)))
    case 'lever':
      return boards('sites').map((site) => leverSource(config, site, perBoard(site.slug)))
    case 'ashby':
      return boards('boards').map((board) => ashbySource(config, board, perBoard(board.slug)))
    case 'rss': {
      const url = config.url
      if (url === undefined) throw invalid(`${key('url')} is required for rss (the feed's URL)`)
      return [rssSource({...config, url}, deps(`rss:${feedName({...config, url})}`))]
    }
    case 'file': {
      const path = config.path
      if (path === undefined || path.trim() === '') throw invalid(`${key('path')} is required for file`)
      return [fileSource({...config, path}, {cwd: options.cwd})]
    }
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}
