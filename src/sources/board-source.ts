import pLimit from 'p-limit'
import type {z} from 'zod'
import type {HtmlToText} from '../core/jobs/description.js'
import type {JobResponse, SearchCriteria} from '../core/jobs/job.js'
import type {JobSource} from '../core/jobs/job-source.js'
import {type BoardRef, type SourceConfig, sourceName} from '../core/jobs/source-config.js'
import {HttpError} from '../http-client/index.js'
import {
  type AdapterDeps,
  type AdapterSettings,
  adapterSettings,
  endpoint,
  fetchPerTag,
  isObject,
  type Json,
  keepsItsPath,
  queryTags,
  type RawJob,
  requestOptions,
  toJob,
  UnexpectedShapeError,
} from './shared.js'

/** One response of a board, as its schema reads it: the job items and, for paged boards, the next page's key. */
export interface BoardPage {
  items: unknown[]
  /** Absent on the last page. */
  next?: string
}

/**
 * What one request asks for: the tag of a one-term search, the page number, the previous page's `next`, and the
 * source's entry for boards whose requests carry its settings (Adzuna's country and credentials).
 */
export interface PageRequest {
  tag?: string
  page: number
  cursor?: string
  config: SourceConfig
}

/**
 * A JSON job board as data: where to ask, how to page, the response's shape (a zod schema that yields a
 * BoardPage) and how one item becomes a job. Every board in the table runs through boardSource.
 */
export interface BoardSpec {
  /** `source` of its jobs, and the config `type`. */
  type: string
  /**
   * The scheme, host and port asked when the source has no `url`; per board for an ATS that gives each company its
   * own host (`https://{company}.recruitee.com`). A `url` replaces it for every board of the source, paths kept.
   */
  defaultUrl: (config: SourceConfig, board: BoardRef) => string
  path: (board: BoardRef, request: PageRequest) => string
  query?: (request: PageRequest) => Record<string, string | number | undefined>
  /** One request per tag when its search takes one term; otherwise the whole board is read. */
  searchesByTag?: boolean
  /** Pages up to `max_pages` while a page is not empty and names a next one. */
  paged?: boolean
  page: z.ZodType<BoardPage, unknown>
  /** How the failure of `page` is reported: `unexpected response shape: expected <expected>`. */
  expected: string
  /** An answer the board sends for an unknown board instead of a 404 (Lever's `{"ok": false}`): its error text. */
  refusal?: (body: unknown) => string | undefined
  /**
   * A board of an ATS: what a 404 means and what to check. `htmlPage`: the board redirects an unknown board to an
   * HTML page (its own home page) instead of answering 404, so an HTML page for the list counts as a 404.
   */
  notFound?: {what: (board: BoardRef) => string; hint: string; htmlPage?: boolean}
  job: (item: Json, board: BoardRef, config: SourceConfig) => RawJob | null
  /**
   * A board whose list gives each job in brief: one more request per job, on the same base URL, for the rest (its
   * description, compensation). The item `job` maps is what `merge` makes of the list's item and the detail's
   * answer; a detail that fails leaves the item as the list gave it.
   */
  detail?: {
    /** The path of one item's detail; undefined when the item names none (no request is made). */
    path: (item: Json, board: BoardRef) => string | undefined
    merge: (item: Json, detail: Json) => Json
  }
  /** A list that is asked with a POST: the JSON body of one page's request (Workday's `offset`, `searchText`). */
  body?: (request: PageRequest) => Json
  /**
   * How a sweep of the directory asks this board, where it differs: a lighter list (Greenhouse without `content`),
   * the role words as the board's own search (one request per word, as a tag), and a detail for a list that then
   * lacks descriptions. A sweep asks details for its candidates only.
   */
  sweep?: {
    query?: (request: PageRequest) => Record<string, string | number | undefined>
    searchesByRole?: boolean
    detail?: BoardSpec['detail']
  }
}

/** Detail requests in flight per board; the client's limit per host (4) bounds boards sharing a host. */
const DETAIL_CONCURRENCY = 4
/** Details asked per board, over all its pages and tags; the jobs past it keep what the list gave. */
const MAX_DETAILS_PER_BOARD = 100
/** One job's detail is a few KB; a list holds every job and keeps the client's 10 MB. */
const MAX_DETAIL_BYTES = 1024 * 1024

/** The JobSource of one board of the table (of one slug, for an ATS). */
export function boardSource(spec: BoardSpec, config: SourceConfig, deps: AdapterDeps, board?: BoardRef): JobSource {
  const ref = board ?? {slug: ''}
  const settings = adapterSettings(config, spec.defaultUrl(config, ref), board)
  const toJobs = (items: readonly unknown[], details: BoardDetails | undefined) =>
    details ? details.jobsOf(items) : mapItems(spec, items, ref, config, deps.toText)
  return {
    name: board ? sourceName(config, board.slug) : sourceName(config),
    serverSideFilters: spec.searchesByTag ? ['tags'] : [],
    fetchJobs: async (criteria: SearchCriteria, signal: AbortSignal) => {
      const details =
        spec.detail && deps.details !== false
          ? new BoardDetails(spec, spec.detail, config, ref, settings, deps, signal)
          : undefined
      try {
        const read = (tag: string | undefined) =>
          readPages(spec, config, ref, settings, deps, signal, tag, (items) => toJobs(items, details))
        return spec.searchesByTag ? await fetchPerTag(queryTags(criteria), read) : await read(undefined)
      } finally {
        details?.finish()
      }
    },
  }
}

async function readPages(
  spec: BoardSpec,
  config: SourceConfig,
  board: BoardRef,
  settings: AdapterSettings,
  deps: AdapterDeps,
  signal: AbortSignal,
  tag: string | undefined,
  toJobs: (items: readonly unknown[]) => JobResponse[] | Promise<JobResponse[]>,
): Promise<JobResponse[]> {
  const jobs: JobResponse[] = []
  const seen = new Set<string>()
  const pages = spec.paged ? settings.maxPages : 1
  let cursor: string | undefined
  for (let page = 1; page <= pages; page++) {
    const request = {tag, page, cursor, config}
    const url = endpoint(settings.baseUrl, spec.path(board, request), spec.query?.(request) ?? {})
    const options = requestOptions(settings, signal, deps.logger)
    const body = spec.body?.(request)
    const answer = deps.http.getJson(
      url,
      body === undefined
        ? options
        : {...options, method: 'POST', body: JSON.stringify(body), headers: {'content-type': 'application/json'}},
    )
    const result = await readPage(spec, board, url, answer)
    let added = 0
    for (const job of await toJobs(result.items)) {
      jobs.push(job)
      if (!seen.has(job.url)) added++
      seen.add(job.url)
    }
    cursor = result.next
    // A page with no job not seen before ends the paging: a board that ignores the offset answers the same page
    // for every one up to max_pages.
    if (result.items.length === 0 || cursor === undefined || added === 0) break
    if (page === pages && spec.paged) deps.logger.debug(`stopped after max_pages (${pages}) pages`)
  }
  return jobs
}

export async function readPage(
  spec: BoardSpec,
  board: BoardRef,
  url: string,
  request: Promise<unknown>,
): Promise<BoardPage> {
  let body: unknown
  try {
    body = await request
  } catch (error) {
    throw spec.notFound ? explainNotFound(error, spec.notFound, board) : error
  }
  const refused = spec.refusal?.(body)
  if (refused !== undefined && spec.notFound) {
    // Counted as a 404 (a dead board after `run.dead_after_runs` runs): it is the board's way of saying "no such board".
    throw new HttpError(`${refused}: ${spec.notFound.what(board)}`, {url, status: 404, hint: spec.notFound.hint})
  }
  const parsed = spec.page.safeParse(body)
  if (!parsed.success) throw new UnexpectedShapeError(spec.expected)
  return parsed.data
}

/**
 * The detail requests of one board's search, bounded in number, size and time. Each item with a detail is mapped
 * to its job as soon as its detail answers, so the answer is dropped at once: a board of many large details holds
 * its jobs, never its answers. At most MAX_DETAILS_PER_BOARD are asked, at most DETAIL_CONCURRENCY at a time, each
 * of at most MAX_DETAIL_BYTES; details are asked until one request timeout (at most half the deadline) before the
 * board's deadline, so a board whose details stall still ends in time with its jobs as listed. A detail that fails
 * keeps its item as the list gave it; the board's log says so once per page, and once for the jobs past the cap. A
 * run that is stopped stops the board.
 */
class BoardDetails {
  private left = MAX_DETAILS_PER_BOARD
  private withDetail = 0
  private readonly limit = pLimit(DETAIL_CONCURRENCY)
  private readonly closing = new AbortController()
  private readonly timer: NodeJS.Timeout
  private readonly detailSignal: AbortSignal

  constructor(
    private readonly spec: BoardSpec,
    private readonly detail: NonNullable<BoardSpec['detail']>,
    private readonly config: SourceConfig,
    private readonly board: BoardRef,
    private readonly settings: AdapterSettings,
    private readonly deps: AdapterDeps,
    private readonly signal: AbortSignal,
  ) {
    const window = settings.deadlineMs - Math.min(settings.timeoutMs, settings.deadlineMs / 2)
    const closed = new Error(`no time left for details before the board's deadline`)
    this.timer = setTimeout(() => this.closing.abort(closed), window)
    this.detailSignal = AbortSignal.any([signal, this.closing.signal])
  }

  /** The jobs of one page's items, in their order, each with its detail merged in where it could be read. */
  async jobsOf(items: readonly unknown[]): Promise<JobResponse[]> {
    const failures: unknown[] = []
    const jobs = await Promise.all(
      items.map((item) => {
        if (!isObject(item)) return null
        const path = this.detail.path(item, this.board)
        if (path === undefined) return this.job(item)
        // A path built from the board's own values (an id, a job's path) that the URL parser would lead elsewhere.
        if (!keepsItsPath(path)) {
          failures.push(new Error('its detail path names another path once read as a URL'))
          return this.job(item)
        }
        this.withDetail++
        if (this.left === 0) return this.job(item)
        this.left--
        return this.limit(() => this.withItsDetail(item, path, failures))
      }),
    )
    if (failures.length > 0) {
      const first = failures[0] instanceof Error ? failures[0].message : String(failures[0])
      this.deps.logger.warning(
        `${failures.length} of ${items.length} job details could not be read (${first}); those jobs keep what the list gave`,
      )
    }
    return jobs.filter((job) => job !== null)
  }

  /** Ends the board's detail window and says how many jobs the cap left as listed. */
  finish(): void {
    clearTimeout(this.timer)
    const asked = MAX_DETAILS_PER_BOARD - this.left
    if (this.withDetail > asked) {
      this.deps.logger.warning(
        `details read for ${asked} of ${this.withDetail} jobs (at most ${MAX_DETAILS_PER_BOARD} a board); the others keep what the list gave`,
      )
    }
  }

  private async withItsDetail(item: Json, path: string, failures: unknown[]): Promise<JobResponse | null> {
    this.signal.throwIfAborted()
    if (this.closing.signal.aborted) {
      failures.push(this.closing.signal.reason)
      return this.job(item)
    }
    const url = endpoint(this.settings.baseUrl, path)
    try {
      const answer = await this.deps.http.getJson(url, {
        ...requestOptions(this.settings, this.detailSignal, this.deps.logger),
        maxBodyBytes: MAX_DETAIL_BYTES,
      })
      if (!isObject(answer)) throw new UnexpectedShapeError('an object')
      return this.job(this.detail.merge(item, answer))
    } catch (error) {
      if (this.signal.aborted) throw error
      failures.push(error)
      return this.job(item)
    }
  }

  private job(item: Json): JobResponse | null {
    return mapItem(this.spec, item, this.board, this.config, this.deps.toText)
  }
}

/**
 * A 404 from an ATS (or the HTML page a board redirects an unknown board to) means the slug is wrong: the error
 * saying so, with what to check, as a 404; other errors as they are.
 */
export function explainNotFound(
  error: unknown,
  notFound: NonNullable<BoardSpec['notFound']>,
  board: BoardRef,
): unknown {
  if (!(error instanceof HttpError)) return error
  if (error.status !== 404 && !(notFound.htmlPage === true && error.htmlPage)) return error
  const message = `${error.message}: ${notFound.what(board)}`
  return new HttpError(message, {url: error.url, status: 404, cause: error, hint: notFound.hint})
}

/** Every item through the board's mapping, dropping the ones that are not objects or map to nothing. */
function mapItems(
  spec: BoardSpec,
  items: readonly unknown[],
  board: BoardRef,
  config: SourceConfig,
  toText: HtmlToText,
): JobResponse[] {
  const jobs: JobResponse[] = []
  for (const item of items) {
    const job = isObject(item) ? mapItem(spec, item, board, config, toText) : null
    if (job) jobs.push(job)
  }
  return jobs
}

export function mapItem(spec: BoardSpec, item: Json, board: BoardRef, config: SourceConfig, toText: HtmlToText) {
  const raw = spec.job(item, board, config)
  return raw ? toJob(spec.type, raw, toText) : null
}
