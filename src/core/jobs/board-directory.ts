/**
 * The directory of employers' boards jobagent ships (data/directory.tsv.gz, made by scripts/build-directory.js):
 * which company posts on which board of the ATSs jobagent reads. It is read once per process, by the commands that
 * need it, and kept as its text with where each ATS's lines lie: a board becomes an object only when it is asked
 * for, so a reader that walks one ATS's boards after another holds the directory once, as text. A lookup reads every
 * line once and keeps nothing but what it found: a command looks up one name, and a kept index of 45,000 boards'
 * names would cost it more to build than the lookup does (docs/SOURCES.md has the figures).
 *
 * The text format, one line each: `jobagent-directory 1`, then for each ATS a line `#<type> <count>` followed by
 * its boards, one a line: `<slug>`, `<slug>\t<company>`, or `<slug>\t<company>\teu` for a Lever site of the EU
 * region (the company may be empty there). The slug is written as a `sources` entry takes it (Workday
 * `<tenant>.<wdN>/<site>`; Teamtailor the company's name on teamtailor.com, else the site's host) and the company
 * is left out when the lists name the board by its slug alone.
 */

import {type AtsType, atsTypes, isAtsType, type RecognisedBoard} from './board-urls.js'
import {companyKey, companyKeys, keyStart} from './company-names.js'
import {nameOfHostname} from './company-slugs.js'

const DIRECTORY_HEADER = 'jobagent-directory 1'

/** A board of the directory: its ATS and slug as a `sources` entry names it, and the company the lists give. */
export interface DirectoryBoard extends RecognisedBoard {
  /** The company's name as the lists give it; null when they name the board by its slug alone. */
  company: string | null
}

/** How many boards the directory holds on one ATS. */
interface AtsCount {
  type: AtsType
  boards: number
}

/** Boards of the directory a filter matched, in the directory's order (exact name matches first). */
interface DirectorySearch {
  /** Boards matched in all. */
  matched: number
  /** The first `limit` of them. */
  boards: DirectoryBoard[]
}

/** The key a slug gives as a name: a Workday site's tenant, a Teamtailor host's company label, else the slug's. */
function slugKey(type: AtsType, slug: string): string {
  if (type === 'workday') return companyKey(slug.slice(0, Math.max(slug.indexOf('.'), 0)))
  if (type === 'teamtailor' && slug.includes('.')) {
    const host = slug.toLowerCase()
    const name = host.endsWith('.teamtailor.com') ? host.slice(0, host.indexOf('.')) : nameOfHostname(host)
    return companyKey(name)
  }
  return companyKey(slug)
}

/** Where one ATS's boards lie in the text: the offsets of its first line and of its last line's end, and how many. */
interface Section {
  type: AtsType
  start: number
  end: number
  count: number
}

/** A visitor of a section's lines: each line's start, end and tabs (-1 when absent); `false` stops the walk. */
type LineVisitor = (start: number, end: number, tab: number, tab2: number) => boolean | undefined

const HASH = 35

/**
 * Walks the lines from `from` up to `end` (the end of the last line), handing each line's offsets to `visit`. The
 * next newline and the next tab are found by indexOf, each search starting where the last one ended, so the text is
 * read once however its lines are made.
 */
function walkLines(text: string, from: number, end: number, visit: LineVisitor): void {
  let start = from
  let nextTab = -1
  const tabFrom = (at: number) => {
    if (nextTab < at) {
      nextTab = text.indexOf('\t', at)
      if (nextTab === -1) nextTab = Number.POSITIVE_INFINITY
    }
    return nextTab
  }
  while (start <= end) {
    const newline = text.indexOf('\n', start)
    const stop = newline === -1 || newline > end ? end : newline
    const tab = tabFrom(start) < stop ? nextTab : -1
    const tab2 = tab !== -1 && tabFrom(tab + 1) < stop ? nextTab : -1
    if (visit(start, stop, tab, tab2) === false) return
    start = stop + 1
  }
}

export class BoardDirectory {
  constructor(
    private readonly text: string,
    private readonly sections: readonly Section[],
  ) {}

  /** Boards in the directory. */
  get size(): number {
    return this.sections.reduce((sum, section) => sum + section.count, 0)
  }

  /** Boards per ATS, every ATS jobagent reads, in the order of BOARD_KINDS. */
  counts(): AtsCount[] {
    return atsTypes().map((type) => ({type, boards: this.section(type)?.count ?? 0}))
  }

  /** The boards on one ATS, in slug order, each made as it is reached. */
  *boardsOf(type: AtsType): Generator<DirectoryBoard> {
    const section = this.section(type)
    if (!section) return
    // A page of boards at a time: the walk is a callback, the reader of a generator pulls.
    let from = section.start
    while (from < section.end) {
      const page: DirectoryBoard[] = []
      this.walk(from, section.end, (start, end, tab, tab2) => {
        page.push(this.boardAt(type, start, end, tab, tab2))
        from = end + 1
        return page.length < PAGE
      })
      yield* page
    }
  }

  /** The board of `type` with `slug` (in any case) in `region`; undefined when the directory does not hold it. */
  board(board: RecognisedBoard): DirectoryBoard | undefined {
    const section = this.section(board.type)
    if (!section) return undefined
    const wanted = board.slug.toLowerCase()
    const eu = board.region === 'eu'
    let found: DirectoryBoard | undefined
    this.walk(section.start, section.end, (start, end, tab, tab2) => {
      const slugEnd = tab === -1 ? end : tab
      if (slugEnd - start !== wanted.length || (tab2 !== -1) !== eu) return true
      if (this.text.slice(start, slugEnd).toLowerCase() !== wanted) return true
      found = this.boardAt(board.type, start, end, tab, tab2)
      return false
    })
    return found
  }

  /**
   * The boards whose company or slug is `name` once both are read as name keys (company-names.ts): `Acme Corp,
   * Inc.`, `ACME` and `acme-corp` name the same boards. The name is looked up with and without its legal suffix, so
   * the slug `acmecorp` is found too.
   */
  named(name: string): DirectoryBoard[] {
    const keys = new Set(companyKeys(name).filter((key) => key !== ''))
    const found: DirectoryBoard[] = []
    if (keys.size === 0) return found
    // Most names cannot have a key that starts as one of these: they are skipped without being read.
    const starts = new Set([...keys].map((key) => key.charCodeAt(0)))
    const may = (from: number, to: number) => {
      const start = keyStart(this.text, from, to)
      return start === -1 || starts.has(start)
    }
    for (const {type, start: from, end: last} of this.sections) {
      // A Teamtailor host's key is the company's label in it, which need not come first (`careers.acme.com`).
      const slugsMay = type === 'teamtailor' ? () => true : may
      this.walk(from, last, (start, end, tab, tab2) => {
        const slugEnd = tab === -1 ? end : tab
        const slug = slugsMay(start, slugEnd) && keys.has(this.slugKeyAt(type, start, end, tab))
        const companyEnd = tab2 === -1 ? end : tab2
        if (slug || (tab !== -1 && may(tab + 1, companyEnd) && keys.has(this.companyKeyAt(end, tab, tab2)))) {
          found.push(this.boardAt(type, start, end, tab, tab2))
        }
        return true
      })
    }
    return found
  }

  /**
   * The boards on `ats` (every ATS when undefined) whose company or slug holds `text` once both are read as name
   * keys, boards named exactly so first; every board of `ats` without a text. At most `limit` are returned.
   */
  search(filter: {ats?: AtsType | undefined; text?: string | undefined}, limit: number): DirectorySearch {
    const sections = this.sections.filter((section) => filter.ats === undefined || section.type === filter.ats)
    const exact: DirectoryBoard[] = []
    const partial: DirectoryBoard[] = []
    let matched = 0
    // A text of no letters or digits (`!!!`) names nothing.
    const key = filter.text === undefined ? undefined : companyKey(filter.text)
    if (key === '') return {matched, boards: exact}
    for (const {type, start: from, end: last} of sections) {
      this.walk(from, last, (start, end, tab, tab2) => {
        let isExact = true
        if (key !== undefined) {
          const slug = this.slugKeyAt(type, start, end, tab)
          const company = this.companyKeyAt(end, tab, tab2)
          isExact = slug === key || company === key
          if (!isExact && !slug.includes(key) && !company.includes(key)) return true
        }
        matched += 1
        // Only the first `limit` of each kind can be among the first `limit` shown.
        const list = isExact ? exact : partial
        if (list.length < limit) list.push(this.boardAt(type, start, end, tab, tab2))
        return true
      })
    }
    return {matched, boards: [...exact, ...partial].slice(0, limit)}
  }

  /** Walks the lines from `from` to `end`; none for a section without boards, whose start is its end. */
  private walk(from: number, end: number, visit: LineVisitor): void {
    if (from < end) walkLines(this.text, from, end, visit)
  }

  private section(type: AtsType): Section | undefined {
    return this.sections.find((section) => section.type === type)
  }

  private slugKeyAt(type: AtsType, start: number, end: number, tab: number): string {
    return slugKey(type, this.text.slice(start, tab === -1 ? end : tab))
  }

  /** The name key of a line's company; '' when the line names none. */
  private companyKeyAt(end: number, tab: number, tab2: number): string {
    if (tab === -1) return ''
    return companyKey(this.text.slice(tab + 1, tab2 === -1 ? end : tab2))
  }

  private boardAt(type: AtsType, start: number, end: number, tab: number, tab2: number): DirectoryBoard {
    const {text} = this
    if (tab === -1) return {type, slug: text.slice(start, end), company: null}
    const slug = text.slice(start, tab)
    const company = text.slice(tab + 1, tab2 === -1 ? end : tab2) || null
    return tab2 === -1 ? {type, slug, company} : {type, slug, company, region: 'eu'}
  }
}

/** Boards a reader of one ATS's boards gets made at a time. */
const PAGE = 500

/** A line of the directory's text that is not in its format: the line's number says where. */
export class DirectoryFormatError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`)
  }
}

/**
 * The directory in the text format above, every line checked in one pass that keeps only where each ATS's lines
 * lie; a line out of format is a DirectoryFormatError naming it.
 */
export function parseBoardDirectory(text: string): BoardDirectory {
  if (!text.startsWith(`${DIRECTORY_HEADER}\n`)) throw new DirectoryFormatError(1, `expected "${DIRECTORY_HEADER}"`)
  const sections: Section[] = []
  let section: Section | undefined
  let boards = 0
  let line = 1
  const close = () => {
    if (section && boards !== section.count) {
      throw new DirectoryFormatError(line, `#${section.type} announces ${section.count} boards, ${boards} follow it`)
    }
  }
  // A text that ends in a newline has no line after it.
  const last = text.endsWith('\n') ? text.length - 1 : text.length
  walkLines(text, DIRECTORY_HEADER.length + 1, last, (start, end, tab, tab2) => {
    line += 1
    if (text.charCodeAt(start) === HASH) {
      close()
      section = sectionOf(text.slice(start + 1, end), line, sections)
      section.start = end + 1
      section.end = end + 1
      sections.push(section)
      boards = 0
      return true
    }
    if (!section) throw new DirectoryFormatError(line, 'a board before the first "#<ats> <count>" line')
    checkBoard(text, start, end, tab, tab2, section.type, line)
    boards += 1
    section.end = end
    return true
  })
  line += 1
  close()
  return new BoardDirectory(text, sections)
}

function sectionOf(header: string, line: number, seen: readonly Section[]): Section {
  const [type, count] = header.split(' ')
  if (
    type === undefined ||
    !isAtsType(type) ||
    seen.some((section) => section.type === type) ||
    !/^\d+$/.test(count ?? '')
  ) {
    throw new DirectoryFormatError(line, `expected "#<ats> <count>" of an ATS not seen before, got "#${header}"`)
  }
  return {type, start: 0, end: 0, count: Number(count)}
}

/** A board's line: a slug, then at most a company, then only for Lever the region `eu`, and nothing after it. */
function checkBoard(text: string, start: number, end: number, tab: number, tab2: number, type: AtsType, line: number) {
  if (end === start) throw new DirectoryFormatError(line, 'an empty line')
  const region = tab2 !== -1
  if (tab === start || (region && (type !== 'lever' || end !== tab2 + 3 || !text.startsWith('eu', tab2 + 1)))) {
    throw new DirectoryFormatError(line, 'expected "<slug>", "<slug>\\t<company>" or a Lever "<slug>\\t<company>\\teu"')
  }
}
