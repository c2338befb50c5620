import {type HtmlToText, htmlToText} from '../core/jobs/description.js'
import type {JobSource} from '../core/jobs/job-source.js'
import {type BoardListKey, type SourceConfig, sourceName, validateSourceConfigs} from '../core/jobs/source-config.js'
import type {Logger} from '../core/logger.js'
import type {HttpClient} from '../http-client/index.js'
import {boardAdapter} from './registry.js'
import {type AdapterDeps, boardDeadlineMs, boardRef, withinDeadline} from './shared.js'

interface CreateSourcesOptions {
  http: HttpClient
  /** The root logger; each board logs as `<root>.sources.<name>`. */
  logger: Logger
  /** Where relative `path`s of file sources start (default: the working directory). */
  cwd?: string
  /** Reads descriptions given as HTML; htmlToText when absent. */
  toText?: HtmlToText
  /** false: boards are read from their lists alone, without a request per job (see AdapterDeps.details). */
  details?: boolean
}

/**
 * One JobSource per enabled entry of `sources`, built by the adapter the registry holds for its type; a type with a
 * list of boards (an ATS) gives one per board, site, company or account (`greenhouse:gitlab`), so each has its own
 * outcome in the run. A misconfigured list is refused first, every problem named with its entry, by the same check
 * `config set` applies.
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
    toText: options.toText ?? htmlToText,
    details: options.details ?? true,
  })
  const boards = (listKey: BoardListKey) => (config[listKey] ?? []).map(boardRef)

  // Logger names follow the source names (`jobagent.sources.greenhouse:gitlab`), as the run's own lines do.
  const single = deps(sourceName(config))
  const perBoard = (slug: string) => deps(sourceName(config, slug))
  const adapter = boardAdapter(config.type)
  if (!adapter) throw new Error(`no adapter reads ${config.type}`)
  if (adapter.list) return boards(adapter.list).map((board) => adapter.source(config, board, perBoard(board.slug)))
  return [adapter.source(config, single, {cwd: options.cwd})]
}
