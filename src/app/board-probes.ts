import pLimit from 'p-limit'
import {boardEntry} from '../core/jobs/board-entries.js'
import {type AtsType, boardsInPage, probeableAts, type RecognisedBoard} from '../core/jobs/board-urls.js'
import type {SearchCriteria} from '../core/jobs/job.js'
import {type SourceConfig, sourceName} from '../core/jobs/source-config.js'
import type {Logger} from '../core/logger.js'
import type {SecretMask} from '../core/secrets.js'
import {withoutTrailingSlashes} from '../core/text-runs.js'
import {createHttpClient, type HttpClient, HttpError} from '../http-client/index.js'
import {createSources} from '../sources/index.js'
import {USER_AGENT} from './version.js'

/** Seconds one probe may take; a probe is never retried. */
const PROBE_TIMEOUT_SECONDS = 5
/** Probes in flight at once, over every ATS. */
const PROBE_CONCURRENCY = 16
/** The whole search stops after this long; probes still waiting count as unanswered. */
const FIND_DEADLINE_MS = 10_000

interface ProbeOptions {
  search: SearchCriteria
  logger: Logger
  viaProxy: boolean
  secrets: SecretMask
  /** Where probes go instead of each ATS's own host: `<url>/<type>/<slug>`. */
  probeBaseUrl?: string | undefined
}

/** A board a probe found with jobs: how many, and one of their titles. */
interface ProbedBoard {
  board: RecognisedBoard
  count: number
  /** The board lists its jobs in pages and only the first was read: `count` is a lower bound. */
  countIsMinimum: boolean
  sampleTitle: string | null
}

/** A probe that got no answer either way (a timeout, a 5xx, a refused connection): its ATS was not judged. */
interface Unanswered {
  name: string
  error: string
}

export interface ProbeAnswers {
  /** Requests made. */
  probes: number
  boards: ProbedBoard[]
  unanswered: Unanswered[]
}

/** A company's careers page as read: the boards it links to, or why it could not be read. */
export type PageReading = {url: string; boards: RecognisedBoard[]; error: null} | {url: string; error: string}

/**
 * The network side of `jobagent boards find`: a company's careers page read for the boards it links to, and a
 * name's likely slugs asked on every ATS. Loaded only when the directory has no answer, so a company it knows costs
 * neither an HTTP client nor the adapters.
 */
export class BoardProbes {
  constructor(private readonly options: ProbeOptions) {}

  /** A client for one search: no retries, closed when the search ends. */
  async withClient<T>(use: (http: HttpClient) => Promise<T>): Promise<T> {
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

  /** A company's own careers page, one request, read for the boards it links to or embeds. */
  async readPage(url: URL, http: HttpClient): Promise<PageReading> {
    try {
      const html = await http.getText(url.toString(), {
        timeoutMs: PROBE_TIMEOUT_SECONDS * 1000,
        headers: {accept: 'text/html'},
      })
      return {url: url.toString(), boards: boardsInPage(html), error: null}
    } catch (error) {
      return {url: url.toString(), error: error instanceof Error ? error.message : String(error)}
    }
  }

  /** Each candidate slug on each ATS a slug names, at most PROBE_CONCURRENCY at a time, within FIND_DEADLINE_MS. */
  async probeName(candidates: readonly string[], http: HttpClient): Promise<ProbeAnswers> {
    const targets = probeableAts().flatMap((ats) => candidates.map((slug) => ({ats, slug})))
    const deadline = AbortSignal.timeout(FIND_DEADLINE_MS)
    const limit = pLimit(PROBE_CONCURRENCY)
    const answers = await Promise.all(targets.map(({ats, slug}) => limit(() => this.probe(ats, slug, http, deadline))))
    return {
      probes: targets.length,
      boards: answers.flatMap((answer) => (answer.kind === 'hit' ? [answer.board] : [])),
      unanswered: answers.flatMap((answer) => (answer.kind === 'unanswered' ? [answer.unanswered] : [])),
    }
  }

  /** One board asked through the same source a run builds, its list alone, one page, no retry. */
  private async probe(
    ats: {type: AtsType; paged: boolean},
    slug: string,
    http: HttpClient,
    signal: AbortSignal,
  ): Promise<{kind: 'hit'; board: ProbedBoard} | {kind: 'miss'} | {kind: 'unanswered'; unanswered: Unanswered}> {
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
          board: {type: ats.type, slug},
          count: jobs.length,
          countIsMinimum: ats.paged,
          sampleTitle: jobs[0]?.title ?? null,
        },
      }
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) return {kind: 'miss'}
      const message = signal.aborted ? 'no answer in time' : error instanceof Error ? error.message : String(error)
      return {kind: 'unanswered', unanswered: {name, error: message}}
    }
  }
}
