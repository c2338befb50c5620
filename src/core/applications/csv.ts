import Papa from 'papaparse'
import {ValidationError} from '../errors.js'
import {
  APPLICATION_FIELDS,
  type ApplicationRecord,
  EXTRA_FIELDS,
  type ExtraField,
  type TrackedApplication,
} from './application.js'
import type {ImportRow} from './application-service.js'
import {type ContactFields, contactFields} from './contact.js'

/**
 * The columns after the eight record fields: the short id (ignored by an import: ids are the tracker's own), the
 * extra fields (EXTRA_FIELDS: the salary lines, ...) and the contacts as the JSON text of an array of
 * `{name, role, reach, notes}`.
 */
const EXTRA_COLUMNS = ['id', ...EXTRA_FIELDS, 'contacts'] as const

/** Every column of an export, the eight record fields first and unchanged. */
const CSV_COLUMNS = [...APPLICATION_FIELDS, ...EXTRA_COLUMNS] as const

/** A tracked application with its contacts, as an export writes it. */
export type ExportedApplication = ApplicationRecord &
  Pick<TrackedApplication, 'id' | ExtraField> & {contacts: readonly ContactFields[]}

function cellsOf(application: ExportedApplication): string[] {
  return [
    ...APPLICATION_FIELDS.map((field) => application[field]),
    String(application.id),
    ...EXTRA_FIELDS.map((field) => application[field]),
    application.contacts.length === 0 ? '' : JSON.stringify(application.contacts.map(contactFields)),
  ]
}

/**
 * Cells a spreadsheet would evaluate as a formula. Cells that already begin with quotes before such a character
 * get one more, so the import can strip exactly one and a round trip stays lossless.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/

function neutraliseFormula(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell
}

/** RFC 4180 CSV (CRLF, quoted where needed) with a header row: the eight record columns, then EXTRA_COLUMNS. */
export function applicationsToCsv(applications: readonly ExportedApplication[], options: {raw?: boolean} = {}): string {
  const rows = applications.map((application) =>
    cellsOf(application).map((cell) => (options.raw ? cell : neutraliseFormula(cell))),
  )
  const csv = Papa.unparse({fields: [...CSV_COLUMNS], data: rows}, {newline: '\r\n', quotes: false})
  // Papa ends a header-only file with a line break but not one with rows; every line ends with CRLF here.
  return csv.endsWith('\r\n') ? csv : `${csv}\r\n`
}

/**
 * The text of a CSV: all of it, or its pieces in order as a file is read a part at a time. A row may run across
 * pieces; the reader keeps only the rows it has not handed on yet.
 */
export type CsvText = string | Iterable<string>

/**
 * Reads a CSV with the export's columns as rows numbered by the line they start on (the header is line 1; quoted
 * multi-line cells count their lines), one at a time as they are asked for. The header is read and checked at
 * once: unknown columns are refused so a misnamed header is not silently dropped. A row that cannot be read as
 * cells of the header's columns (wrong count, broken quoting) comes with its problems, so the import lists them
 * together with the other rows' field errors. `otherFormatHint` names the format of a header that is another
 * one's (another tracker's export), to say instead of each column's error.
 */
export function parseApplicationsCsv(
  text: CsvText,
  fileName: string,
  options: {otherFormatHint?: (header: readonly string[]) => string | undefined} = {},
): Iterable<ImportRow> {
  const {header, rows} = parseCsvTable(text)
  const fields = (header?.cells ?? []).map((field) => field.trim())
  const headerErrors = [
    ...(header?.problems ?? []).map((message) => ({row: header?.line ?? 1, message})),
    ...checkHeader(fields),
  ]
  // The header of another tracker's export fails on every column; the one thing to say is how to import it.
  const otherFormat = headerErrors.length > 0 ? options.otherFormatHint?.(fields) : undefined
  if (otherFormat) throw new ValidationError(`${fileName} is not a jobagent applications CSV`, {hint: otherFormat})
  if (headerErrors.length > 0) {
    throw new ValidationError(`${fileName} is not a valid applications CSV`, {
      details: headerErrors,
      hint: `the header must be: ${APPLICATION_FIELDS.join(',')} (then optionally ${EXTRA_COLUMNS.join(',')})`,
    })
  }
  return eachRow(rows, (row) =>
    parseCsvRow(row, fields.length, (cells) => {
      const {id: _id, ...value} = unformula(cellsByField(fields, cells))
      return {row: row.line, value}
    }),
  )
}

/** The rows of a CSV table, each as `build` makes it, as they are read. */
export function* eachRow(rows: Iterable<CsvRow>, build: (row: CsvRow) => ImportRow): Generator<ImportRow> {
  for (const row of rows) yield build(row)
}

/**
 * The header row, read at once, and the data rows of a CSV, read as they are asked for (a leading byte order mark
 * removed), each with the line it starts on and what made it unreadable. Every CSV the tracker imports is read
 * here, so all of them number and report rows alike.
 */
export function parseCsvTable(text: CsvText): {header: CsvRow | undefined; rows: Iterable<CsvRow>} {
  const rows = readCsvRows(typeof text === 'string' ? [text] : text)
  const first = rows.next()
  return {header: first.done ? undefined : first.value, rows}
}

/**
 * A data row as an import row: the problems that make it unreadable (broken quoting, a cell count other than the
 * header's), else what `build` makes of its cells.
 */
export function parseCsvRow(
  {line, cells, problems}: CsvRow,
  columns: number,
  build: (cells: readonly string[]) => ImportRow,
): ImportRow {
  const found = [...problems]
  if (found.length === 0 && cells.length !== columns) {
    found.push(`has ${cells.length} cell(s) where the header has ${columns}`)
  }
  if (found.length > 0) return {row: line, value: undefined, problems: found.map((message) => ({row: line, message}))}
  return build(cells)
}

function cellsByField(fields: readonly string[], cells: readonly string[]): Record<string, string> {
  return Object.fromEntries(fields.map((field, index) => [field, cells[index] ?? '']))
}

interface CsvRow {
  /** The line the row starts on, 1-based. */
  line: number
  cells: string[]
  problems: string[]
}

/** How much text the delimiter and the line break are guessed from (when the file has that much). */
const GUESS_CHARS = 1 << 20

/**
 * The longest span handed to Papa at once. A span ends after the first record holding a quote; an unclosed quote
 * would make it run to the end of the file. Past this length (far beyond any valid record: the longest fields
 * and 100 contacts take under 2 million characters) Papa reads what it has, names the broken row, and reading
 * goes on at its next line, so a broken file costs memory for this much text, not for the file.
 */
const MAX_SPAN_CHARS = 8 << 20

/**
 * The rows of a CSV with the line each starts on, read from its pieces as they are needed. Papa reads everything
 * after a broken quote as one cell up to the end of what it is given; here such a row is reported and reading goes
 * on at the next line, so the rows after it are still checked and listed. Papa is given the text one span at a
 * time (see SpanScanner), so a broken row costs a read of its own span, not of the rest of the file, and a file
 * with many broken rows is still read in linear time. Text is dropped once its rows are handed on.
 */
function* readCsvRows(pieces: Iterable<string>): Generator<CsvRow> {
  const source = pieces[Symbol.iterator]()
  let csv = ''
  let ended = false
  const readMore = (): boolean => {
    const next = ended ? undefined : source.next()
    if (!next || next.done) {
      ended = true
      return false
    }
    csv += next.value
    return true
  }
  while (csv.length < GUESS_CHARS) {
    if (!readMore()) break
  }
  csv = csv.replace(/^\uFEFF/, '')
  // The delimiter and line break are guessed once, from the first rows, and every span is read with them.
  const {meta} = Papa.parse<string[]>(csv.slice(0, GUESS_CHARS), {preview: 10, skipEmptyLines: 'greedy'})
  const newline = LINE_BREAKS.find((candidate) => candidate === meta.linebreak) ?? '\n'
  // Lines are numbered as an editor shows them: a line feed inside a quoted cell of a CRLF file starts a line too.
  const lineBreak = newline === '\r' ? '\r' : '\n'
  const scanner = new SpanScanner(newline)
  let linesBefore = 0
  let lineCounted = 0
  let offset = 0
  while (offset < csv.length || !ended) {
    let end = scanner.end(csv, offset, ended)
    if (end === undefined && csv.length - offset < MAX_SPAN_CHARS) {
      // Text already handed on is dropped before more is read; its line breaks are counted first.
      linesBefore += countLineBreaks(csv, lineBreak, lineCounted, offset)
      csv = csv.slice(offset)
      scanner.moved(offset)
      lineCounted = 0
      offset = 0
      if (!readMore() && csv.length === 0) break
      continue
    }
    end ??= offset + MAX_SPAN_CHARS
    const chunk = csv.slice(offset, end)
    const rows: CsvRow[] = []
    let rowStart = 0
    let resumeAt: number | undefined
    Papa.parse<string[]>(chunk, {
      skipEmptyLines: 'greedy',
      delimiter: meta.delimiter,
      newline,
      step: (result, parser) => {
        // The cursor ends after a row; blank lines skipped before the next one are not part of it.
        const start = rowStart + (/^[\r\n]*/.exec(chunk.slice(rowStart, result.meta.cursor))?.[0].length ?? 0)
        linesBefore += countLineBreaks(csv, lineBreak, lineCounted, offset + start)
        lineCounted = offset + start
        rowStart = result.meta.cursor
        // Text after a closing quote leaves the cell open too; the first problem is the one to fix.
        const quoting =
          result.errors.find((error) => error.code === 'InvalidQuotes') ??
          result.errors.find((error) => error.type === 'Quotes')
        const others = result.errors.filter((error) => error.type !== 'Quotes')
        const problems = [...(quoting ? [quoting] : []), ...others].map(describeParseError)
        rows.push({line: linesBefore + 1, cells: result.data, problems})
        if (quoting) {
          const lineEnd = chunk.indexOf(lineBreak, start)
          resumeAt = lineEnd === -1 ? end : offset + lineEnd + 1
          parser.abort()
        }
      },
    })
    offset = resumeAt ?? end
    yield* rows
  }
}

const LINE_BREAKS = ['\r\n', '\n', '\r'] as const
const QUOTE = 0x22
const CR = 0x0d
const LF = 0x0a

/**
 * Finds where a span of CSV text ends: after the first record that holds a quote character, or, while it holds
 * none, after the last whole record of the text read so far. A record ends at a line break outside quotes, every
 * quote character opening or closing (RFC 4180; an escaped "" does both), so a well-formed file is cut only
 * between records and reads as one piece would, while a broken quote can take Papa no further than its own
 * record. The scan goes on where it stopped when more text comes, so a long span is scanned once.
 */
class SpanScanner {
  private start = -1
  private index = 0
  private quoted = false
  private quotes = false
  /** After the last line break outside quotes seen in a span without quotes, if any. */
  private recordEnd: number | undefined

  constructor(private readonly newline: string) {}

  /** Where the span that starts at `start` ends, or undefined when more text is needed to tell. */
  end(csv: string, start: number, final: boolean): number | undefined {
    if (start !== this.start) {
      this.start = start
      this.index = start
      this.quoted = false
      this.quotes = false
      this.recordEnd = undefined
    }
    for (; this.index < csv.length; this.index++) {
      const code = csv.charCodeAt(this.index)
      if (code === QUOTE) {
        this.quoted = !this.quoted
        this.quotes = true
      } else if (!this.quoted && (code === CR || code === LF) && csv.startsWith(this.newline, this.index)) {
        if (this.quotes) return this.index + this.newline.length
        this.recordEnd = this.index + this.newline.length
      } else if (!this.quoted && code === CR && !final && this.index + 1 === csv.length) {
        // A CRLF split between two pieces is told only once the LF is there.
        break
      }
    }
    if (final) return csv.length
    return this.quotes ? undefined : this.recordEnd
  }

  /** The text before `by` was dropped: positions move back by as much. */
  moved(by: number): void {
    this.start -= by
    this.index -= by
    if (this.recordEnd !== undefined) this.recordEnd -= by
  }
}

function countLineBreaks(text: string, lineBreak: string, from: number, to: number): number {
  let count = 0
  for (
    let index = text.indexOf(lineBreak, from);
    index !== -1 && index < to;
    index = text.indexOf(lineBreak, index + 1)
  ) {
    count++
  }
  return count
}

/** Papa's quoting errors in the user's words. */
function describeParseError(error: Papa.ParseError): string {
  if (error.code === 'InvalidQuotes') return 'a quoted cell has text after its closing quote'
  if (error.code === 'MissingQuotes') return 'a quoted cell is never closed'
  return error.message
}

function checkHeader(fields: readonly string[]) {
  const known = new Set<string>(CSV_COLUMNS)
  const unknown = fields.filter((field) => !known.has(field))
  const repeated = fields.filter((field, index) => known.has(field) && fields.indexOf(field) !== index)
  const required = ['title', 'company', 'url', 'source'].filter((field) => !fields.includes(field))
  return [
    ...unknown.map((field) => ({row: 1, field, message: `unknown column "${field}"`})),
    ...required.map((field) => ({row: 1, field, message: `missing column "${field}"`})),
    ...repeated.map((field) => ({row: 1, field, message: `column "${field}" appears more than once`})),
  ]
}

/** Undoes the export's formula guard so a round trip through export and import is lossless. */
function unformula(value: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [key, cell] of Object.entries(value)) {
    result[key] = /^'+[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell
  }
  return result
}
