import pLimit from 'p-limit'
import {ConfigurationError, NotFoundError, ValidationError} from '../core/errors.js'
import {addBoards, type BoardToAdd, boardEntry} from '../core/jobs/board-entries.js'
import {boardHealth, type ConfiguredBoard} from '../core/jobs/board-health.js'
import {
  type AtsType,
  atsLabel,
  boardsInPage,
  parseCareersUrl,
  probeableAts,
  type RecognisedBoard,
  recogniseBoardUrl,
} from '../core/jobs/board-urls.js'
import {nameOfHost, slugCandidates} from '../core/jobs/company-slugs.js'
import type {SearchCriteria} from '../core/jobs/job.js'
import type {RunLedger} from '../core/jobs/run-ledger.js'
import {type SourceConfig, sourceName} from '../core/jobs/source-config.js'
import type {Logger} from '../core/logger.js'
import {RUNS_PAGE} from '../core/paging.js'
import type {SecretMask} from '../core/secrets.js'
import {withoutTrailingSlashes} from '../core/text-runs.js'
import {isHttpUrl} from '../core/url-identity.js'
import {createHttpClient, type HttpClient, HttpError} from '../http-client/index.js'
import {createSources} from '../sources/index.js'
import type {ConfigEditor} from './config-editor.js'
import {USER_AGENT} from './version.js'

/** Seconds one probe may take; a probe is never retried. */
const PROBE_TIMEOUT_SECONDS = 5
/** Probes in flight at once, over every ATS. */
const PROBE_CONCURRENCY = 16
/** The whole search stops after this long; probes still waiting count as unanswered. */
const FIND_DEADLINE_MS = 10_000
/**
 * Boards `--add` writes at once: a handful. A page that links to more is a directory of employers, not one
 * company's careers page, and every later run would ask each of its boards.
 */
const MAX_BOARDS_ADDED = 5

/** A board that `boards find` found: recognised from its URL, or a probe that answered with jobs. */
export interface FoundBoard {
  type: AtsType
  /** `Greenhouse`. */
  ats: string
  slug: string
  /** The source's name once configured: `greenhouse:acme`. */
  name: string
  /** Jobs the probe read; null when no request was made (a URL is recognised without one). */
  count: number | null
  /** The board lists its jobs in pages and only the first was read: `count` is a lower bound. */
  count_is_minimum: boolean
  sample_title: string | null
  /** The `sources` entry that searches it. */
  entry: SourceConfig
}

export interface FindResult {
  query: string
  /**
   * `url`: a careers URL on a known ATS, recognised without a request; `page`: a company's own careers page, read
   * for the boards it links to; `name`: a name (or the host of a page that names no board) tried on each ATS.
   */
  read_as: 'url' | 'page' | 'name'
  /** The slugs tried on each ATS (empty for a recognised URL). */
  candidates: string[]
  /** Requests made. */
  probes: number
  /** The company's own careers page that was read, and why it could not be, if so; null when none was. */
  page: {url: string; error: string | null} | null
  boards: FoundBoard[]
  /** Probes that got no answer either way (a timeout, a 5xx, a refused connection): their ATS was not judged. */
  unanswered: {name: string; error: string}[]
  /** With --add: the sources written and those the config held already. */
  added: string[] | null
  present: string[] | null
}

interface BoardsOptions {
  sources: readonly SourceConfig[]
  search: SearchCriteria
  runLedger: RunLedger
  editor: ConfigEditor
  logger: Logger
  viaProxy: boolean
  secrets: SecretMask
  /**
   * Where probes go instead of each ATS's own host: `<url>/<type>/<slug>` (a mirror of the boards, or a stand-in
   * in tests). Recognising a URL makes no request either way.
   */
  probeBaseUrl?: string | undefined
}

/** `jobagent boards find` and `jobagent boards list`: where a company posts, and how the configured boards fare. */
export class Boards {
  constructor(private readonly options: BoardsOptions) {}

  /**
   * The boards of `query`: a careers URL on a known ATS is read as it is; another URL is read for the boards its
   * page links to; any other text (or the host of a page that names none) is taken as a company's name and its
   * likely slugs are tried on every ATS at once. With `add`, the boards found are written into `sources` through
   * the config editor. None found is a NotFoundError.
   */
  async find(query: string, options: {add?: boolean} = {}): Promise<FindResult> {
    const text = query.trim()
    if (text === '') {
      throw new ValidationError('give a company name or a careers page URL', {
        hint: 'for example: jobagent boards find "Acme Corp" or jobagent boards find https://jobs.lever.co/acme',
      })
    }
    const base = this.options.probeBaseUrl
    if (base !== undefined && !isHttpUrl(base)) {
      throw new ConfigurationError(
        `JOBAGENT_BOARDS_PROBE_URL must be an absolute http(s) URL, got ${JSON.stringify(base)}`,
        {
          hint: 'unset it to ask each ATS on its own host',
        },
      )
    }
    const url = parseCareersUrl(text)
    const recognised = url ? recogniseBoardUrl(url) : undefined
    const result = recognised
      ? urlResult(text, 'url', [recognised])
      : await this.withClient((http) => this.search(text, url, http))
    if (result.boards.length === 0) throw noBoardError(result)
    if (!options.add) return result
    return {...result, ...this.add(result, url ? undefined : text)}
  }

  /** Every configured source, enabled or not, with its outcome in the last run that included it. */
  async list(): Promise<ConfiguredBoard[]> {
    const page = await this.options.runLedger.list({limit: RUNS_PAGE.maxLimit})
    return boardHealth(this.options.sources, page.runs)
  }

  /** A client for one search: no retries, closed when the search ends. */
  private async withClient<T>(use: (http: HttpClient) => Promise<T>): Promise<T> {
    const http = createHttpClient({
      logger: this.options.logger.child('http'),
      proxy: this.options.viaProxy,
      userAgent: USER_AGENT,
      retries: 0,
      secrets: this.options.secrets,
    })
    try {
      return await use(http)
    } finally {
      await http.close()
    }
  }

  /**
   * A company's own careers page is read for the boards it links to or embeds; when it names none (or cannot be
   * read), the name of its host is tried as a company's name, as a name given is.
   */
  private async search(text: string, url: URL | undefined, http: HttpClient): Promise<FindResult> {
    if (!url) return this.probeName(text, slugCandidates(text), http, null)
    let html: string
    try {
      html = await http.getText(url.toString(), {
        timeoutMs: PROBE_TIMEOUT_SECONDS * 1000,
        headers: {accept: 'text/html'},
      })
    } catch (error) {
      const page = {url: url.toString(), error: error instanceof Error ? error.message : String(error)}
      return this.probeName(text, slugCandidates(nameOfHost(url)), http, page)
    }
    const boards = boardsInPage(html)
    const page = {url: url.toString(), error: null}
    if (boards.length > 0) return {...urlResult(text, 'page', boards), probes: 1, page}
    return this.probeName(text, slugCandidates(nameOfHost(url)), http, page)
  }

  /** Each candidate slug on each ATS a slug names, at most PROBE_CONCURRENCY at a time, within FIND_DEADLINE_MS. */
  private async probeName(
    text: string,
    candidates: string[],
    http: HttpClient,
    page: FindResult['page'],
  ): Promise<FindResult> {
    const targets = probeableAts().flatMap((ats) => candidates.map((slug) => ({ats, slug})))
    const deadline = AbortSignal.timeout(FIND_DEADLINE_MS)
    const limit = pLimit(PROBE_CONCURRENCY)
    const answers = await Promise.all(targets.map(({ats, slug}) => limit(() => this.probe(ats, slug, http, deadline))))
    return {
      query: text,
      read_as: 'name',
      candidates,
      probes: (page ? 1 : 0) + targets.length,
      page,
      boards: answers.flatMap((answer) => (answer.kind === 'hit' ? [answer.board] : [])),
      unanswered: answers.flatMap((answer) => (answer.kind === 'unanswered' ? [answer.unanswered] : [])),
      added: null,
      present: null,
    }
  }

  /** One board asked through the same source a run builds, its list alone, one page, no retry. */
  private async probe(
    ats: {type: AtsType; paged: boolean},
    slug: string,
    http: HttpClient,
    signal: AbortSignal,
  ): Promise<
    {kind: 'hit'; board: FoundBoard} | {kind: 'miss'} | {kind: 'unanswered'; unanswered: FindResult['unanswered'][0]}
  > {
    const entry = boardEntry({type: ats.type, slug})
    const base = this.options.probeBaseUrl === undefined ? undefined : withoutTrailingSlashes(this.options.probeBaseUrl)
    const config: SourceConfig = {
      ...entry,
      timeout_seconds: PROBE_TIMEOUT_SECONDS,
      max_pages: 1,
      ...(base ? {url: `${base}/${ats.type}/${encodeURIComponent(slug)}`} : {}),
    }
    const name = sourceName(entry, slug)
    try {
      signal.throwIfAborted()
      const [source] = createSources([config], {http, logger: this.options.logger, details: false})
      const jobs = (await source?.fetchJobs(this.options.search, signal)) ?? []
      if (jobs.length === 0) return {kind: 'miss'}
      return {
        kind: 'hit',
        board: {
          ...foundBoard({type: ats.type, slug}),
          count: jobs.length,
          count_is_minimum: ats.paged,
          sample_title: jobs[0]?.title ?? null,
        },
      }
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) return {kind: 'miss'}
      const message = signal.aborted ? 'no answer in time' : error instanceof Error ? error.message : String(error)
      return {kind: 'unanswered', unanswered: {name, error: message}}
    }
  }

  /**
   * The boards found, written into `sources`; the slug's company is the name asked for, if any. More than
   * MAX_BOARDS_ADDED are refused whole, the file untouched.
   */
  private add(result: FindResult, company: string | undefined): Pick<FindResult, 'added' | 'present'> {
    if (result.boards.length > MAX_BOARDS_ADDED) {
      const found = result.read_as === 'page' ? 'the page links to' : `"${result.query}" names`
      throw new ValidationError(
        `${found} ${result.boards.length} boards; --add writes at most ${MAX_BOARDS_ADDED} at once, so none was added`,
        {
          hint:
            "add the ones you want one at a time by their board's URL (jobagent boards find " +
            'https://jobs.lever.co/<company> --add); without --add the boards found are listed',
        },
      )
    }
    const boards: BoardToAdd[] = result.boards.map((board) => ({
      type: board.type,
      slug: board.slug,
      ...(board.entry.region === 'eu' ? {region: 'eu' as const} : {}),
      ...(company ? {company} : {}),
    }))
    const current = this.options.editor.get('sources', {showSecrets: true}).value as SourceConfig[]
    const merged = addBoards(current, boards)
    if (merged.added.length > 0) this.options.editor.set('sources', JSON.stringify(merged.sources))
    return {added: merged.added, present: merged.present}
  }
}

function foundBoard(board: RecognisedBoard): FoundBoard {
  const entry = boardEntry(board)
  return {
    type: board.type,
    ats: atsLabel(board.type),
    slug: board.slug,
    name: sourceName(entry, board.slug),
    count: null,
    count_is_minimum: false,
    sample_title: null,
    entry,
  }
}

function urlResult(query: string, readAs: 'url' | 'page', boards: readonly RecognisedBoard[]): FindResult {
  return {
    query,
    read_as: readAs,
    candidates: [],
    probes: 0,
    page: null,
    boards: boards.map(foundBoard),
    unanswered: [],
    added: null,
    present: null,
  }
}

function noBoardError(result: FindResult): NotFoundError {
  const silent = result.unanswered.length
  const page =
    result.page === null
      ? ''
      : result.page.error === null
        ? 'the page links to no known board; '
        : `the page could not be read (${result.page.error}); `
  const tried = result.candidates.length === 0 ? 'no slug could be made of it' : `tried ${result.candidates.join(', ')}`
  const unanswered = silent === 0 ? '' : `; ${silent} of ${result.probes} probes got no answer`
  return new NotFoundError(`no board with open jobs found for "${result.query}" (${page}${tried}${unanswered})`, {
    details: result.unanswered.map((probe) => ({field: probe.name, message: probe.error})),
    hint: "paste the URL of the company's board instead: jobagent boards find https://jobs.lever.co/<company>",
  })
}
