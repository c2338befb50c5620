import pLimit from 'p-limit'
import type {HtmlToText} from '../core/jobs/description.js'
import type {JobResponse, SearchCriteria} from '../core/jobs/job.js'
import type {BoardRef, SourceConfig} from '../core/jobs/source-config.js'
import type {Logger} from '../core/logger.js'
import {textHash} from '../core/text-hash.js'
import type {HttpAnswer, HttpClient} from '../http-client/index.js'
import {type BoardSpec, explainNotFound, mapItem, type PageRequest, readPage} from './board-source.js'
import {boardAdapter} from './registry.js'
import {adapterSettings, endpoint, isObject, type Json, keepsItsPath, toJob, withinDeadline} from './shared.js'

/** What a sweep sent back to a board last time, so an unchanged one answers 304 or hashes the same. */
export interface ListValidators {
  etag: string | null
  last_modified: string | null
  answer_hash: string | null
}

/** A job as its board's list gave it, with the list's item, from which its detail is asked and merged. */
export interface ListedJob {
  job: JobResponse
  item: Json | null
}

/** A board's list: unchanged since the validators given, or its jobs as listed, with the new validators. */
type ListResult = ListValidators & ({kind: 'unchanged'} | {kind: 'listed'; jobs: ListedJob[]})

/** One board of a sweep: the source entry it is read with (its `url` a mirror's), the board, the role words. */
export interface ListRequest {
  config: SourceConfig
  board: BoardRef
  /**
   * The words the board's own search is asked with where it has one: a sweep's profile role words (Workday,
   * SmartRecruiters), a run's search tags (the boards a run asks per tag).
   */
  roleWords: readonly string[]
  previous: ListValidators | null
  signal: AbortSignal
}

/** How a sweep reads the boards of one ATS: the list alone, then the details of the candidates it picks. */
export interface BoardReader {
  list(request: ListRequest): Promise<ListResult>
  /** The candidates with their details (descriptions) merged in where the board has them; a failed one as listed. */
  details(request: Omit<ListRequest, 'previous'>, candidates: readonly ListedJob[]): Promise<JobResponse[]>
}

interface SweepReaderDeps {
  http: HttpClient
  logger: Logger
  toText: HtmlToText
}

/** Detail requests in flight per board of a sweep; the sweep's limits per platform bound the boards. */
const DETAIL_CONCURRENCY = 4
/** Searches (one per role word) in flight per board, likewise. */
const SEARCH_CONCURRENCY = 4
const MAX_DETAIL_BYTES = 1024 * 1024
/** Details a sweep asks per board; candidates past it keep what the list gave. */
const MAX_DETAILS = 100

/**
 * What a reader is for: a sweep asks each list the lightest way and details for its candidates only; a run asks
 * each list as the run's own source does (Greenhouse with `content`, per search tag) and details for every job.
 */
type ReaderPurpose = 'sweep' | 'run'

/** The reader of an ATS's boards; undefined for a type no adapter reads as a list of boards. */
export function sweepReader(
  type: string,
  deps: SweepReaderDeps,
  purpose: ReaderPurpose = 'sweep',
): BoardReader | undefined {
  const adapter = boardAdapter(type)
  if (!adapter?.list) return undefined
  if (adapter.spec) return specReader(adapter.spec, deps, purpose)
  const source = adapter.source
  // A board read otherwise than as JSON (Personio's XML): its whole answer through its source, and the jobs it gives
  // hashed in place of the answer's text, so an unchanged board is gated and stored again no more than one that
  // answers 304.
  return {
    list: async ({config, board, signal, previous}) => {
      const jobs = await source(config, board, {...deps, logger: deps.logger}).fetchJobs(NO_CRITERIA, signal)
      const answer_hash = textHash(JSON.stringify(jobs))
      const validators = {etag: null, last_modified: null, answer_hash}
      if (previous?.answer_hash === answer_hash) return {kind: 'unchanged', ...validators}
      return {kind: 'listed', jobs: jobs.map((job) => ({job, item: null})), ...validators}
    },
    details: async (_request, candidates) => candidates.map((one) => one.job),
  }
}

const NO_CRITERIA: SearchCriteria = {
  tags: [],
  keywords: [],
  exclude_keywords: [],
  locations: [],
  remote_only: false,
  max_age_days: null,
  company_block_list: [],
  min_salary: null,
  fx: {},
}

/** A job of a sweep's list as the gates read it: without its description, which is read for candidates only. */
function listedWithoutDescription(spec: BoardSpec, item: Json, board: BoardRef, config: SourceConfig) {
  const raw = spec.job(item, board, config)
  return raw ? toJob(spec.type, {...raw, description: undefined, description_text: undefined}) : null
}

function specReader(spec: BoardSpec, deps: SweepReaderDeps, purpose: ReaderPurpose): BoardReader {
  const sweep = purpose === 'sweep' ? spec.sweep : undefined
  const byRole = sweep?.searchesByRole === true || spec.searchesByTag === true
  const query = sweep?.query ?? spec.query
  const detail = sweep?.detail ?? spec.detail
  // A sweep's gates read a list's titles, places and tags; turning every listed job's HTML into text, for the few
  // that become candidates, was most of the work of reading a list that carries descriptions (Lever, Ashby).
  const mapListed: ListMapper =
    purpose === 'sweep'
      ? (item, board, config) => listedWithoutDescription(spec, item, board, config)
      : (item, board, config) => mapItem(spec, item, board, config, deps.toText)
  /** A candidate as its list gave it, with the description its list carries. */
  const whole = (one: ListedJob, request: Omit<ListRequest, 'previous'>): JobResponse =>
    purpose === 'sweep' && one.item
      ? (mapItem(spec, one.item, request.board, request.config, deps.toText) ?? one.job)
      : one.job
  return {
    list: (request) => {
      const settings = adapterSettings(request.config, spec.defaultUrl(request.config, request.board), request.board)
      return withinDeadline(settings.deadlineMs, request.signal, (signal) =>
        listBoard(spec, query, byRole, mapListed, {...request, signal}, settings, deps),
      )
    },
    details: async (request, candidates) => {
      if (!detail) return candidates.map((one) => whole(one, request))
      const settings = adapterSettings(request.config, spec.defaultUrl(request.config, request.board), request.board)
      const limit = pLimit(DETAIL_CONCURRENCY)
      let left = MAX_DETAILS
      return Promise.all(
        candidates.map(async (one) => {
          const path = one.item ? detail.path(one.item, request.board) : undefined
          if (!one.item || path === undefined || !keepsItsPath(path) || left-- <= 0) return whole(one, request)
          const item = one.item
          return limit(async () => {
            try {
              const answer = await deps.http.getJson(endpoint(settings.baseUrl, path), {
                signal: request.signal,
                timeoutMs: settings.timeoutMs,
                logger: deps.logger,
                maxBodyBytes: MAX_DETAIL_BYTES,
              })
              if (!isObject(answer)) return whole(one, request)
              return (
                mapItem(spec, detail.merge(item, answer), request.board, request.config, deps.toText) ??
                whole(one, request)
              )
            } catch (error) {
              request.signal.throwIfAborted()
              deps.logger.debug(`a detail could not be read (${(error as Error).message}); the job keeps its list`)
              return whole(one, request)
            }
          })
        }),
      )
    },
  }
}

/** How a reader maps one item of a list to its job. */
type ListMapper = (item: Json, board: BoardRef, config: SourceConfig) => JobResponse | null

async function listBoard(
  spec: BoardSpec,
  query: BoardSpec['query'],
  byRole: boolean,
  mapListed: ListMapper,
  request: ListRequest,
  settings: ReturnType<typeof adapterSettings>,
  deps: SweepReaderDeps,
): Promise<ListResult> {
  const {config, board, signal, previous} = request
  const tags: (string | undefined)[] = byRole && request.roleWords.length > 0 ? [...request.roleWords] : [undefined]
  // One request answers for the whole board: it may be asked whether it changed, and its text hashed before parsing.
  const single = !spec.paged && tags.length === 1
  let validators = {etag: null as string | null, last_modified: null as string | null}

  /** One search's pages, in order: the text of each answer and the jobs listed, or how the board is unchanged. */
  const search = async (tag: string | undefined, signal: AbortSignal): Promise<Searched> => {
    const texts: string[] = []
    const seen = new Set<string>()
    const jobs: ListedJob[] = []
    let cursor: string | undefined
    const pages = spec.paged ? settings.maxPages : 1
    for (let page = 1; page <= pages; page++) {
      const pageRequest: PageRequest = {tag, page, cursor, config}
      const url = endpoint(settings.baseUrl, spec.path(board, pageRequest), query?.(pageRequest) ?? {})
      const headers: Record<string, string> = {accept: 'application/json'}
      if (single && previous?.etag) headers['if-none-match'] = previous.etag
      if (single && previous?.last_modified) headers['if-modified-since'] = previous.last_modified
      const body = spec.body?.(pageRequest)
      let answer: HttpAnswer
      try {
        answer = await deps.http.request(url, {
          signal,
          timeoutMs: settings.timeoutMs,
          logger: deps.logger,
          headers: body === undefined ? headers : {...headers, 'content-type': 'application/json'},
          ...(body === undefined ? {} : {method: 'POST' as const, body: JSON.stringify(body)}),
        })
      } catch (error) {
        throw spec.notFound ? explainNotFound(error, spec.notFound, board) : error
      }
      if (single) validators = {etag: answer.etag, last_modified: answer.lastModified}
      if (answer.status === 304 && previous) return {kind: 'not modified'}
      if (single && previous?.answer_hash && previous.answer_hash === textHash(answer.text)) return {kind: 'same'}
      texts.push(answer.text)
      let parsed: unknown
      try {
        parsed = deps.http.parseJson(url, answer)
      } catch (error) {
        throw spec.notFound ? explainNotFound(error, spec.notFound, board) : error
      }
      const result = await readPage(spec, board, url, Promise.resolve(parsed))
      const before = jobs.length
      for (const item of result.items) {
        if (!isObject(item)) continue
        const job = mapListed(item, board, config)
        if (!job || seen.has(job.url)) continue
        seen.add(job.url)
        jobs.push({job, item})
      }
      cursor = result.next
      // As a run's paging (board-source.ts): a page with no job not seen before is the board repeating itself.
      if (result.items.length === 0 || cursor === undefined || jobs.length === before) break
    }
    return {kind: 'listed', texts, jobs}
  }

  // The searches of one board (one per role word) run at once, as its details do: the platform's limit counts
  // boards, and a board's searches one after another held its place for their sum.
  const stop = new AbortController()
  const searching = AbortSignal.any([signal, stop.signal])
  const limit = pLimit(SEARCH_CONCURRENCY)
  let searches: Searched[]
  try {
    searches = await Promise.all(tags.map((tag) => limit(() => search(tag, searching))))
  } catch (error) {
    stop.abort()
    throw error
  }
  const [first] = searches
  if (first?.kind === 'not modified' && previous)
    return {...previous, ...keepOld(validators, previous), kind: 'unchanged'}
  if (first?.kind === 'same' && previous) return {kind: 'unchanged', ...validators, answer_hash: previous.answer_hash}
  // Merged in the order of the searches, each job once, so the answer's hash and the jobs' order do not depend on
  // which search answered first.
  const texts: string[] = []
  const seen = new Set<string>()
  const jobs: ListedJob[] = []
  for (const one of searches) {
    if (one.kind !== 'listed') continue
    texts.push(...one.texts)
    for (const listed of one.jobs) {
      if (seen.has(listed.job.url)) continue
      seen.add(listed.job.url)
      jobs.push(listed)
    }
  }
  const hash = texts.length > 0 ? textHash(...(texts as [string, ...string[]])) : null
  if (previous?.answer_hash && hash === previous.answer_hash) {
    return {kind: 'unchanged', ...validators, answer_hash: hash}
  }
  return {kind: 'listed', jobs, ...validators, answer_hash: hash}
}

/** What one search of a board gave: its answers and jobs, or (a board read in one request) that it is unchanged. */
type Searched = {kind: 'listed'; texts: string[]; jobs: ListedJob[]} | {kind: 'not modified'} | {kind: 'same'}

/** A 304 may leave out the validators; the ones sent stay valid then. */
function keepOld(
  sent: {etag: string | null; last_modified: string | null},
  previous: ListValidators,
): {etag: string | null; last_modified: string | null} {
  return {etag: sent.etag ?? previous.etag, last_modified: sent.last_modified ?? previous.last_modified}
}
