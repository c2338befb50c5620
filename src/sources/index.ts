import {type HtmlReader, htmlToText} from '../core/jobs/description.js'
import type {JobSource} from '../core/jobs/job-source.js'
import {type BoardListKey, type SourceConfig, sourceName, validateSourceConfigs} from '../core/jobs/source-config.js'
import type {Logger} from '../core/logger.js'
import type {HttpClient} from '../http-client/index.js'
import {bamboohrSource} from './bamboohr.js'
import {
  adzunaSource,
  arbeitnowSource,
  ashbySource,
  breezySource,
  greenhouseSource,
  himalayasSource,
  jobicySource,
  leverSource,
  pinpointSource,
  recruiteeSource,
  remoteOkSource,
  remotiveSource,
  teamtailorSource,
  workableSource,
  workingNomadsSource,
} from './boards.js'
import {fileSource} from './file.js'
import {hackerNewsSource} from './hackernews.js'
import {personioSource} from './personio.js'
import {ripplingSource} from './rippling.js'
import {rssSource} from './rss.js'
import {type AdapterDeps, boardDeadlineMs, boardRef, withinDeadline} from './shared.js'
import {smartRecruitersSource} from './smartrecruiters.js'
import {weWorkRemotelySource} from './weworkremotely.js'
import {workdaySource} from './workday.js'

interface CreateSourcesOptions {
  http: HttpClient
  /** The root logger; each board logs as `<root>.sources.<name>`. */
  logger: Logger
  /** Where relative `path`s of file sources start (default: the working directory). */
  cwd?: string
  /** Reads descriptions given as HTML; htmlToText when absent. */
  readHtml?: HtmlReader
  /** false: boards are read from their lists alone, without a request per job (see AdapterDeps.details). */
  details?: boolean
}

/**
 * One JobSource per enabled entry of `sources`; the ATS types (Greenhouse, Lever, Ashby, BambooHR, Breezy HR, Personio,
 * Pinpoint, Recruitee, Rippling, SmartRecruiters, Teamtailor, Workable, Workday) give one per board, site, company or account (`greenhouse:gitlab`), so each has its own outcome in the run. A misconfigured list is refused first, every
 * problem named with its entry, by the same check `config set` applies.
 */
export function createSources(configs: readonly SourceConfig[], options: CreateSourcesOptions): JobSource[] {
  validateSourceConfigs(configs)
  return configs.flatMap((config) =>
    config.enabled === false
      ? []
      : createEntry(config, options).map((source) => withDeadline(source, boardDeadlineMs(config))),
  )
}

/** Every board, whatever its type, ends within its deadline: a board that never finishes fails and the run goes on. */
function withDeadline(source: JobSource, deadlineMs: number): JobSource {
  return {
    name: source.name,
    serverSideFilters: source.serverSideFilters,
    fetchJobs: (criteria, signal) =>
      withinDeadline(deadlineMs, signal, (bounded) => source.fetchJobs(criteria, bounded)),
  }
}

/** Builds the adapters of one entry that validateSourceConfigs accepted. */
function createEntry(config: SourceConfig, options: CreateSourcesOptions): JobSource[] {
  const deps = (name: string): AdapterDeps => ({
    http: options.http,
    logger: options.logger.child(`sources.${name}`),
    readHtml: options.readHtml ?? htmlToText,
    details: options.details ?? true,
  })
  const boards = (listKey: BoardListKey) => (config[listKey] ?? []).map(boardRef)

  // Logger names follow the source names (`jobagent.sources.greenhouse:gitlab`), as the run's own lines do.
  const single = deps(sourceName(config))
  const perBoard = (slug: string) => deps(sourceName(config, slug))
  switch (config.type) {
    case 'adzuna':
      return [adzunaSource(config, single)]
    case 'remoteok':
      return [remoteOkSource(config, single)]
    case 'remotive':
      return [remotiveSource(config, single)]
    case 'arbeitnow':
      return [arbeitnowSource(config, single)]
    case 'jobicy':
      return [jobicySource(config, single)]
    case 'himalayas':
      return [himalayasSource(config, single)]
    case 'weworkremotely':
      return [weWorkRemotelySource(config, single)]
    case 'pinpoint':
      return boards('companies').map((company) => pinpointSource(config, company, perBoard(company.slug)))
    case 'teamtailor':
      return boards('companies').map((company) => teamtailorSource(config, company, perBoard(company.slug)))
    case 'workingnomads':
      return [workingNomadsSource(config, single)]
    case 'hackernews':
      return [hackerNewsSource(config, single)]
    case 'greenhouse':
      return boards('boards').map((board) => greenhouseSource(config, board, perBoard(board.slug)))
    case 'lever':
      return boards('sites').map((site) => leverSource(config, site, perBoard(site.slug)))
    case 'ashby':
      return boards('boards').map((board) => ashbySource(config, board, perBoard(board.slug)))
    case 'bamboohr':
      return boards('companies').map((company) => bamboohrSource(config, company, perBoard(company.slug)))
    case 'breezy':
      return boards('companies').map((company) => breezySource(config, company, perBoard(company.slug)))
    case 'recruitee':
      return boards('companies').map((company) => recruiteeSource(config, company, perBoard(company.slug)))
    case 'rippling':
      return boards('companies').map((company) => ripplingSource(config, company, perBoard(company.slug)))
    case 'smartrecruiters':
      return boards('companies').map((company) => smartRecruitersSource(config, company, perBoard(company.slug)))
    case 'workable':
      return boards('accounts').map((account) => workableSource(config, account, perBoard(account.slug)))
    case 'workday':
      return boards('sites').map((site) => workdaySource(config, site, perBoard(site.slug)))
    case 'personio':
      return boards('companies').map((company) => personioSource(config, company, perBoard(company.slug)))
    case 'rss':
      return [rssSource({...config, url: config.url ?? ''}, single)]
    case 'file':
      return [fileSource({...config, path: config.path ?? ''}, {cwd: options.cwd})]
  }
}
