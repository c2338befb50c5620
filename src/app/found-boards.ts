/**
 * What `boards find` and `boards directory` answer: the shapes their front ends render and print as JSON, and how
 * each answer is made of the boards found, including the error for none.
 */
import {NotFoundError, UnavailableError} from '../core/errors.js'
import type {DirectoryBoard} from '../core/jobs/board-directory.js'
import {boardEntry} from '../core/jobs/board-entries.js'
import {type AtsType, atsLabel, boardPage, type RecognisedBoard} from '../core/jobs/board-urls.js'
import {type SourceConfig, sourceName} from '../core/jobs/source-config.js'
import type {PageReading, ProbeAnswers} from './board-probes.js'

/**
 * Where `boards find` found a board: `directory`, jobagent's directory of boards (no request); `url`, a careers URL
 * it recognised, and `source`, a source's name given (no request either); `page`, a link on the company's careers
 * page; `probe`, an ATS that answered with jobs.
 */
type BoardOrigin = 'directory' | 'url' | 'source' | 'page' | 'probe'

/** A board as `boards find` and `boards directory` show it. */
export interface ShownBoard {
  type: AtsType
  /** `Greenhouse`. */
  ats: string
  slug: string
  /** The source's name once configured: `greenhouse:acme`. */
  name: string
  /** The company the directory gives; null when it names the board by its slug alone, or did not give the board. */
  company: string | null
  /** The board's public page, where its jobs are listed. */
  url: string
  /** The `sources` entry that searches it. */
  entry: SourceConfig
}

/** A board that `boards find` found. */
export interface FoundBoard extends ShownBoard {
  from: BoardOrigin
  /** Jobs the probe read; null when no request was made for the board. */
  count: number | null
  /** The board lists its jobs in pages and only the first was read: `count` is a lower bound. */
  count_is_minimum: boolean
  sample_title: string | null
}

export interface FindResult {
  query: string
  /**
   * `url`: a careers URL, recognised without a request or known to the directory; `source`: a source's name
   * (`greenhouse:acme`), read as the board it names; `page`: a company's own careers page, read for the boards it links
   * to; `name`: a name (or the host of a page that names no board), looked up in the directory, else tried on each
   * ATS.
   */
  read_as: 'url' | 'source' | 'page' | 'name'
  /** The slugs tried on each ATS (empty when nothing was probed). */
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

/** What `boards directory` lists: the counts per ATS, and the boards the filter matched, up to its limit. */
export interface DirectoryListing {
  /** Boards in the directory. */
  total: number
  counts: {type: AtsType; ats: string; boards: number}[]
  filter: {ats: AtsType | null; search: string | null}
  matched: number
  boards: ShownBoard[]
  /** Boards matched beyond the limit. */
  more: number
}

export function shownBoard(board: RecognisedBoard & {company?: string | null}): ShownBoard {
  const entry = boardEntry({type: board.type, slug: board.slug, ...(board.region ? {region: board.region} : {})})
  return {
    type: board.type,
    ats: atsLabel(board.type),
    slug: board.slug,
    name: sourceName(entry, board.slug),
    company: board.company ?? null,
    url: boardPage(board),
    entry,
  }
}

export function found(board: RecognisedBoard | DirectoryBoard, from: BoardOrigin): FoundBoard {
  return {...shownBoard(board), from, count: null, count_is_minimum: false, sample_title: null}
}

export const fromDirectory = (board: DirectoryBoard) => found(board, 'directory')

export function result(query: string, readAs: FindResult['read_as'], boards: FoundBoard[]): FindResult {
  return {
    query,
    read_as: readAs,
    candidates: [],
    probes: 0,
    page: null,
    boards,
    unanswered: [],
    added: null,
    present: null,
  }
}

export function probedResult(
  query: string,
  candidates: string[],
  answers: ProbeAnswers,
  page: PageReading | null,
): FindResult {
  return {
    ...result(
      query,
      'name',
      answers.boards.map((probed) => ({
        ...found(probed.board, 'probe'),
        count: probed.count,
        count_is_minimum: probed.countIsMinimum,
        sample_title: probed.sampleTitle,
      })),
    ),
    candidates,
    probes: (page ? 1 : 0) + answers.probes,
    page: page ? {url: page.url, error: page.error} : null,
    unanswered: answers.unanswered,
  }
}

/**
 * Nothing found. When every probe went unanswered the network is the likely cause, and that is one line, not one
 * per probe; otherwise the boards tried are named, and the probes that got no answer listed.
 */
export function noBoardError(result: FindResult): NotFoundError | UnavailableError {
  const silent = result.unanswered.length
  const asked = result.probes - (result.page ? 1 : 0)
  if (asked > 0 && silent === asked) {
    const page = result.page?.error ? ' nor the careers page' : ''
    return new UnavailableError(
      `could not reach any ATS host${page}: ${result.unanswered[0]?.error}; check the network (${asked} probes failed)`,
      {
        hint:
          `the directory of boards answers offline: jobagent boards directory --search ${JSON.stringify(result.query)}; ` +
          'a careers URL on a known ATS is recognised without a request',
      },
    )
  }
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
