/**
 * Where companies post: the applicant tracking systems (ATS) jobagent knows, how a careers URL on each names the
 * company's board, and which of them a bare slug is enough to ask, as the rows of BOARD_KINDS with `ats` say.
 * `jobagent boards find` reads them; an ATS added there is found here. URLs are read with `new URL` and compared
 * by hostname labels and path segments, so a hostile string costs time in proportion to its length.
 */

import {findControl} from '../control-characters.js'
import type {AtsFacts, UrlBoard, UrlParts} from './board-kind.js'
import {BOARD_KINDS} from './board-kinds.js'

/** The source types that are an ATS with a list of boards: the rows of BOARD_KINDS with `ats`. */
export type AtsType = Extract<(typeof BOARD_KINDS)[number], {ats: AtsFacts}>['type']

/** A board named by a careers URL: the source type, the slug, and settings its entry needs. */
export interface RecognisedBoard extends UrlBoard {
  /** The source type (`greenhouse`). */
  type: AtsType
}

/** One ATS: its row of BOARD_KINDS. The list a slug goes into (`boards`, `sites`) is the row's `list`. */
interface AtsRow {
  type: AtsType
  label: string
  ats: AtsFacts
}

/** Every ATS jobagent recognises, in the order of BOARD_KINDS, which is the order probes are reported in. */
const ATS_TABLE: readonly AtsRow[] = BOARD_KINDS.flatMap((kind) => ('ats' in kind ? [kind as AtsRow] : []))

/** Longer input is no careers URL; refusing it keeps every step below bounded. */
const MAX_URL_LENGTH = 2048

/** The URL in `text` when it is one (with or without `https://`), else undefined. */
export function parseCareersUrl(text: string): URL | undefined {
  const trimmed = text.trim()
  if (trimmed.length === 0 || trimmed.length > MAX_URL_LENGTH || /\s/.test(trimmed)) return undefined
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    return undefined
  }
  if (!['http:', 'https:'].includes(url.protocol)) return undefined
  // `Inc.` parses as a host too: without a scheme, a URL's host ends in a top-level domain of letters.
  if (withScheme !== trimmed && !/\.[a-z]{2,63}$/.test(url.hostname)) return undefined
  return url
}

/** The board a careers URL names on a known ATS, without any request; undefined for any other URL. */
export function recogniseBoardUrl(url: URL): RecognisedBoard | undefined {
  const labels = url.hostname.toLowerCase().replace(/\.$/, '').split('.')
  if (labels[0] === 'www') labels.shift()
  const parts: UrlParts = {
    labels,
    segments: url.pathname
      .split('/')
      .filter((segment) => segment !== '')
      .map(safeDecode),
    query: url.searchParams,
  }
  for (const row of ATS_TABLE) {
    const found = row.ats.recognise(parts)
    if (found) return {type: row.type, ...found}
  }
  return undefined
}

/** Links a page holds at most that are read; a careers page has a few hundred. */
const MAX_PAGE_LINKS = 5000

/**
 * The boards a company's own careers page links to or embeds (`<iframe src="https://boards.greenhouse.io/embed/
 * job_board?for=acme">`, `<a href="https://jobs.lever.co/acme/...">`), each once, in the page's order. Every
 * absolute or scheme-relative link is matched by one pattern without alternatives inside its repeat, so the page
 * is read once.
 */
export function boardsInPage(html: string): RecognisedBoard[] {
  const found = new Map<string, RecognisedBoard>()
  let links = 0
  for (const match of html.matchAll(/(?:https?:)?\/\/[^\s"'<>\\]+/gi)) {
    if (++links > MAX_PAGE_LINKS) break
    const link = match[0].replaceAll('&amp;', '&')
    const url = parseCareersUrl(link.startsWith('//') ? `https:${link}` : link)
    const board = url ? recogniseBoardUrl(url) : undefined
    if (board) found.set(`${board.type}:${board.region ?? ''}:${board.slug}`, board)
  }
  return [...found.values()]
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** The ATSs a company's name is tried on: a slug names a board there. */
export function probeableAts(): {type: AtsType; label: string; paged: boolean}[] {
  return ATS_TABLE.filter((row) => row.ats.probe).map((row) => ({
    type: row.type,
    label: row.label,
    paged: row.ats.paged === true,
  }))
}

/** How people call every ATS jobagent recognises (`Greenhouse`, `Lever`, ...), in the order of BOARD_KINDS. */
export function atsLabels(): string[] {
  return ATS_TABLE.map((row) => row.label)
}

/** `Greenhouse` for `greenhouse`; the type itself for a type the table does not hold. */
export function atsLabel(type: string): string {
  return ATS_TABLE.find((row) => row.type === type)?.label ?? type
}

/** The types of every ATS jobagent recognises, in the order of BOARD_KINDS. */
export function atsTypes(): AtsType[] {
  return ATS_TABLE.map((row) => row.type)
}

/** Whether `type` is the type of an ATS jobagent recognises (`greenhouse`; not `remoteok` or `Greenhouse`). */
export function isAtsType(type: string): type is AtsType {
  return ATS_TABLE.some((row) => row.type === type)
}

/** The board's public page, where a person sees its jobs: `https://jobs.lever.co/acme`. */
export function boardPage(board: RecognisedBoard): string {
  return ATS_TABLE.find((row) => row.type === board.type)?.ats.page(board) ?? ''
}

/**
 * The board a source's name names, as runs and `boards list` name boards (`greenhouse:acme`, `workday:acme.wd5/
 * Careers`); undefined for other text, a company's name among it.
 */
export function parseSourceName(text: string): RecognisedBoard | undefined {
  const colon = text.indexOf(':')
  const type = text.slice(0, Math.max(colon, 0)).toLowerCase()
  const slug = text.slice(colon + 1).trim()
  if (!isAtsType(type) || slug === '' || slug.length > MAX_URL_LENGTH || findControl(slug)) return undefined
  return {type, slug}
}
