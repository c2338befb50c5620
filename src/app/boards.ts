import {nearestWord} from '../core/edit-distance.js'
import {ConfigurationError, ValidationError} from '../core/errors.js'
import type {BoardDirectory} from '../core/jobs/board-directory.js'
import {addBoards, type BoardToAdd} from '../core/jobs/board-entries.js'
import {boardHealth, type ConfiguredBoard} from '../core/jobs/board-health.js'
import {
  type AtsType,
  atsLabel,
  atsTypes,
  isAtsType,
  parseCareersUrl,
  parseSourceName,
  recogniseBoardUrl,
} from '../core/jobs/board-urls.js'
import {nameOfHost, slugCandidates} from '../core/jobs/company-slugs.js'
import type {SearchCriteria} from '../core/jobs/job.js'
import type {RunLedger} from '../core/jobs/run-ledger.js'
import type {SourceConfig} from '../core/jobs/source-config.js'
import type {Logger} from '../core/logger.js'
import {RUNS_PAGE} from '../core/paging.js'
import type {SecretMask} from '../core/secrets.js'
import {isHttpUrl} from '../core/url-identity.js'
import type {HttpClient} from '../http-client/index.js'
import type {BoardProbes} from './board-probes.js'
import type {ConfigEditor} from './config-editor.js'
import {
  type DirectoryListing,
  type FindResult,
  found,
  fromDirectory,
  noBoardError,
  probedResult,
  result,
  shownBoard,
} from './found-boards.js'

/**
 * Boards `--add` writes at once: a handful. A page that links to more is a directory of employers, not one
 * company's careers page, and every later run would ask each of its boards.
 */
const MAX_BOARDS_ADDED = 5

interface BoardsOptions {
  sources: readonly SourceConfig[]
  search: SearchCriteria
  /** The run ledger, opened on first use: only `boards list` reads the database. */
  runLedger: () => RunLedger
  editor: ConfigEditor
  logger: Logger
  viaProxy: boolean
  secrets: SecretMask
  /** The directory of boards, loaded and read on first use: `boards list` never loads it. */
  directory: () => Promise<BoardDirectory>
  /**
   * Where probes go instead of each ATS's own host: `<url>/<type>/<slug>` (a mirror of the boards, or a stand-in
   * in tests). Recognising a URL makes no request either way.
   */
  probeBaseUrl?: string | undefined
}

/**
 * `jobagent boards find`, `boards directory` and `boards list`: where a company posts, what the directory of boards
 * holds, and how the configured boards fare.
 */
export class Boards {
  constructor(private readonly options: BoardsOptions) {}

  /**
   * The boards of `query`. A careers URL on a known ATS is read as it is; a name is looked up in the directory
   * (unless `probe`); either answers without a request. Failing that, another URL is read for the boards its page
   * links to, and a name (or the host of a page that names none) has its likely slugs tried on every ATS at once.
   * With `add`, the boards found are written into `sources` through the config editor. None found is a
   * NotFoundError; no ATS host reached at all, an UnavailableError.
   */
  async find(query: string, options: {add?: boolean; probe?: boolean} = {}): Promise<FindResult> {
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
        {hint: 'unset it to ask each ATS on its own host'},
      )
    }
    const url = parseCareersUrl(text)
    const probe = options.probe === true
    const result = url ? await this.findUrl(text, url, probe) : await this.findName(text, probe)
    if (result.boards.length === 0) throw noBoardError(result)
    if (!options.add) return result
    // A board found by a name asked for is written with that name as its company, unless the directory has one.
    return {...result, ...this.add(result, !url && result.read_as === 'name' ? text : undefined)}
  }

  /**
   * The directory's counts per ATS and the boards on `ats` whose company or slug holds `search` (every board
   * without a filter), the first `limit` of them.
   */
  async directory(filter: {
    ats?: string | undefined
    search?: string | undefined
    limit: number
  }): Promise<DirectoryListing> {
    const ats = filter.ats === undefined ? undefined : atsOf(filter.ats)
    const search = filter.search?.trim() === '' ? undefined : filter.search?.trim()
    const directory = await this.options.directory()
    const found = directory.search({ats, text: search}, filter.limit)
    return {
      total: directory.size,
      counts: directory.counts().map((count) => ({type: count.type, ats: atsLabel(count.type), boards: count.boards})),
      filter: {ats: ats ?? null, search: search ?? null},
      matched: found.matched,
      boards: found.boards.map(shownBoard),
      more: found.matched - found.boards.length,
    }
  }

  /** Every configured source, enabled or not, with its outcome in the last run that included it. */
  async list(): Promise<ConfiguredBoard[]> {
    const page = await this.options.runLedger().list({limit: RUNS_PAGE.maxLimit})
    return boardHealth(this.options.sources, page.runs)
  }

  /**
   * A source's name (`greenhouse:acme`): that board, as the directory holds it if it does. A name: the directory's
   * boards of that name, else (or with `probe`) its likely slugs tried on every ATS.
   */
  private async findName(text: string, probe: boolean): Promise<FindResult> {
    const named = parseSourceName(text)
    if (named) {
      const directory = await this.options.directory()
      const held =
        directory.board(named) ?? (named.type === 'lever' ? directory.board({...named, region: 'eu'}) : undefined)
      return result(text, 'source', [held ? fromDirectory(held) : found(named, 'source')])
    }
    const held = probe ? [] : (await this.options.directory()).named(text)
    if (held.length > 0) return result(text, 'name', held.map(fromDirectory))
    const candidates = slugCandidates(text)
    const answers = await this.probing((probes, http) => probes.probeName(candidates, http))
    return probedResult(text, candidates, answers, null)
  }

  /**
   * A URL: a known ATS's board, as the directory holds it if it does; a Teamtailor site on its own host the
   * directory knows; else the page read for the boards it links to, then the name of its host as a name is.
   */
  private async findUrl(text: string, url: URL, probe: boolean): Promise<FindResult> {
    const recognised = recogniseBoardUrl(url)
    const directory = await this.options.directory()
    if (recognised) {
      const held = directory.board(recognised)
      return result(text, 'url', [held ? fromDirectory(held) : found(recognised, 'url')])
    }
    const host = url.hostname.toLowerCase().replace(/^www\./, '')
    const site = directory.board({type: 'teamtailor', slug: host})
    if (site) return result(text, 'url', [fromDirectory(site)])
    return this.probing(async (probes, http) => {
      const page = await probes.readPage(url, http)
      const shown = {url: page.url, error: page.error}
      if (page.error === null && page.boards.length > 0) {
        return {
          ...result(
            text,
            'page',
            page.boards.map((board) => found(board, 'page')),
          ),
          probes: 1,
          page: shown,
        }
      }
      const name = nameOfHost(url)
      const held = probe || name === '' ? [] : directory.named(name)
      if (held.length > 0) return {...result(text, 'name', held.map(fromDirectory)), probes: 1, page: shown}
      const candidates = slugCandidates(name)
      return probedResult(text, candidates, await probes.probeName(candidates, http), page)
    })
  }

  /** The probes' module and a client, loaded for one search: a name the directory knows never loads them. */
  private async probing<T>(use: (probes: BoardProbes, http: HttpClient) => Promise<T>): Promise<T> {
    const {BoardProbes} = await import('./board-probes.js')
    const probes = new BoardProbes(this.options)
    return probes.withClient((http) => use(probes, http))
  }

  /**
   * The boards found, written into `sources`; each board's company is the directory's name for it, else the name
   * asked for, if any. More than MAX_BOARDS_ADDED are refused whole, the file untouched.
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
    const boards: BoardToAdd[] = result.boards.map((board) => {
      const name = board.company ?? company
      return {
        type: board.type,
        slug: board.slug,
        ...(board.entry.region === 'eu' ? {region: 'eu' as const} : {}),
        ...(name ? {company: name} : {}),
      }
    })
    const current = this.options.editor.get('sources', {showSecrets: true}).value as SourceConfig[]
    const merged = addBoards(current, boards)
    if (merged.added.length > 0) this.options.editor.set('sources', JSON.stringify(merged.sources))
    return {added: merged.added, present: merged.present}
  }
}

/** The ATS `--ats` names, in any case; an unknown one is refused with the nearest name and the list. */
function atsOf(text: string): AtsType {
  const type = text.trim().toLowerCase()
  if (isAtsType(type)) return type
  const nearest = nearestWord(type, atsTypes())
  throw new ValidationError(
    `--ats ${JSON.stringify(text)} is not an ATS the directory holds${nearest ? ` (did you mean ${nearest}?)` : ''}`,
    {hint: `give one of ${atsTypes().join(', ')}`},
  )
}
