import {ValidationError} from '../errors.js'
import type {BoardRef, SourceConfig, SourceType} from '../jobs/source-config.js'

/**
 * One board of a directory of employers' boards, as a sweep reads it: the ATS, the board's slug in the form a
 * `sources` entry takes it (Workday `<tenant>.<wdN>/<site>`, Teamtailor the company's name on teamtailor.com else
 * the site's host, `%20` decoded), the company's name and, for Lever, the region of the instance that serves it. The
 * shipped directory holds its boards in this form already; a line of the shared JSONL shape becomes one through
 * `directoryEntry`, so both kinds of directory give a board the same key.
 */
interface DirectoryEntry {
  ats: string
  slug: string
  company: string
  region?: 'eu'
}

/** The directory as a sweep reads it: one entry after the other, never the whole file at once. */
export type Directory = AsyncIterable<DirectoryEntry>

/** A line longer than this is no directory entry (the longest Workday slug is about 150 characters). */
const MAX_LINE = 4096

/** One line of a directory file, named by `where` (`file:line`) when it is not an entry; null for a blank line. */
export function directoryEntry(line: string, where: string): DirectoryEntry | null {
  if (line.trim() === '') return null
  if (line.length > MAX_LINE) throw new ValidationError(`${where}: a line of more than ${MAX_LINE} characters`)
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    throw new ValidationError(`${where}: not a JSON object`, {
      hint: 'each line is {"ats": "greenhouse", "slug": "acme", "company": "Acme"}',
    })
  }
  const entry = value as Partial<Record<string, unknown>>
  if (typeof entry !== 'object' || entry === null || typeof entry.ats !== 'string' || typeof entry.slug !== 'string') {
    throw new ValidationError(`${where}: an entry needs "ats" and "slug" as text`, {
      hint: 'each line is {"ats": "greenhouse", "slug": "acme", "company": "Acme"}',
    })
  }
  const company = typeof entry.company === 'string' && entry.company.trim() !== '' ? entry.company : entry.slug
  const slug = entrySlug(entry.ats, entry.slug)
  return {ats: entry.ats, slug, company, ...(entry.region === 'eu' ? {region: 'eu' as const} : {})}
}

/**
 * A slug of the shared JSONL shape in the form a `sources` entry takes it: slugs kept ready for a URL path (`%20`)
 * decoded (the adapters encode them), a Workday career site's host form (`acme.wd5.myworkdayjobs.com/Careers`) as
 * `acme.wd5/Careers`, a Teamtailor host on teamtailor.com as its company's label. A slug already in that form stays.
 */
function entrySlug(ats: string, raw: string): string {
  let slug = decodedSlug(raw)
  if (ats === 'workday') slug = slug.replace(/^([^./]+)\.(wd\d+)\.myworkdayjobs\.com\//i, '$1.$2/')
  if (ats === 'teamtailor') {
    const own = /^([a-z0-9-]+)\.teamtailor\.com$/i.exec(slug)
    if (own?.[1]) slug = own[1]
  }
  return slug
}

/** Which boards of the directory a sweep asks: `--ats`, `--companies`, `--limit`. */
export interface DirectorySelection {
  /** Only these ATSs; all when empty. */
  ats?: readonly string[]
  /** Only the companies named (by name or slug, any case); all when absent. */
  companies?: readonly string[]
  /** At most this many boards, in the directory's order. */
  limit?: number
}

/** The entries a selection keeps, in the directory's order, read one at a time. */
export async function* selectEntries(directory: Directory, selection: DirectorySelection): Directory {
  const ats = new Set((selection.ats ?? []).map((name) => name.toLowerCase()))
  const companies = selection.companies ? new Set(selection.companies.map(companyWord)) : undefined
  let kept = 0
  for await (const entry of directory) {
    if (selection.limit !== undefined && kept >= selection.limit) return
    if (ats.size > 0 && !ats.has(entry.ats.toLowerCase())) continue
    if (companies && !companies.has(companyWord(entry.company)) && !companies.has(companyWord(entry.slug))) continue
    kept++
    yield entry
  }
}

/** A company's name or slug as a `--companies` line is compared with it. */
function companyWord(text: string): string {
  return text.trim().toLowerCase()
}

/** A board of the directory as jobagent's adapters take it: the source entry's type and settings, and the board. */
export interface SweptBoard {
  type: SourceType
  board: BoardRef
  /** The source entry the board is read with: its type, and the region or host a board of the directory needs. */
  config: SourceConfig
  /** `ats:slug` with the slug as a `sources` entry takes it, the key of what a sweep keeps per board. */
  key: string
}

/**
 * The board of an entry as the adapters read it: a Teamtailor career site on its own host asked there, a Lever
 * board of the EU region on that instance. Undefined for an ATS jobagent lacks.
 */
export function sweptBoard(entry: DirectoryEntry, known: (type: string) => boolean): SweptBoard | undefined {
  if (!known(entry.ats)) return undefined
  const type = entry.ats as SourceType
  const {slug} = entry
  const config: SourceConfig = {type}
  if (type === 'teamtailor' && slug.includes('.')) config.url = `https://${slug}`
  if (type === 'lever' && entry.region === 'eu') config.region = 'eu'
  return {type, board: {slug, company: entry.company}, config, key: `${entry.ats}:${slug}`}
}

function decodedSlug(slug: string): string {
  try {
    return decodeURIComponent(slug)
  } catch {
    return slug
  }
}
