import {ValidationError} from '../errors.js'
import type {BoardRef, SourceConfig, SourceType} from '../jobs/source-config.js'

/**
 * One board of a directory of employers' boards: the ATS, the board's own id there, the company's name and, for
 * Lever, the region of the instance that serves it. The shared directory (and any file of its shape) has one
 * such object a line; its other fields (`sources`) are not read.
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
  return {ats: entry.ats, slug: entry.slug, company, ...(entry.region === 'eu' ? {region: 'eu' as const} : {})}
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
  /** `ats:slug` as the directory writes it, the key of what a sweep keeps per board. */
  key: string
}

/**
 * The board of an entry in the form the adapters read: slugs the directory keeps ready for a URL path (`%20`)
 * decoded (the adapters encode them), a Workday career site's host form (`acme.wd5.myworkdayjobs.com/Careers`) as
 * `acme.wd5/Careers`, a Teamtailor career site on its own host asked there. Undefined for an ATS jobagent lacks.
 */
export function sweptBoard(entry: DirectoryEntry, known: (type: string) => boolean): SweptBoard | undefined {
  if (!known(entry.ats)) return undefined
  const type = entry.ats as SourceType
  const key = `${entry.ats}:${entry.slug}`
  let slug = decodedSlug(entry.slug)
  const config: SourceConfig = {type}
  if (type === 'workday') slug = slug.replace(/^([^./]+)\.(wd\d+)\.myworkdayjobs\.com\//i, '$1.$2/')
  if (type === 'teamtailor') {
    const own = /^([a-z0-9-]+)\.teamtailor\.com$/i.exec(slug)
    if (own?.[1]) slug = own[1]
    else if (slug.includes('.')) config.url = `https://${slug}`
  }
  if (type === 'lever' && entry.region === 'eu') config.region = 'eu'
  return {type, board: {slug, company: entry.company}, config, key}
}

function decodedSlug(slug: string): string {
  try {
    return decodeURIComponent(slug)
  } catch {
    return slug
  }
}
