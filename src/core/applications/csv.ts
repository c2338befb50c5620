import Papa from 'papaparse'
import {ValidationError} from '../errors.js'
import {APPLICATION_FIELDS, type ApplicationRecord, type TrackedApplication} from './application.js'
import type {ImportRow} from './application-service.js'
import {type ContactFields, contactFields} from './contact.js'

/**
 * The columns after the eight record fields: the short id (ignored by an import: ids are the tracker's own), the
 * salary lines and the contacts as the JSON text of an array of `{name, role, reach, notes}`.
 */
const EXTRA_COLUMNS = ['id', 'salary_expected', 'salary_offered', 'contacts'] as const

/** Every column of an export, the eight record fields first and unchanged. */
const CSV_COLUMNS = [...APPLICATION_FIELDS, ...EXTRA_COLUMNS] as const

/** A tracked application with its contacts, as an export writes it. */
export type ExportedApplication = ApplicationRecord &
  Pick<TrackedApplication, 'id' | 'salary_expected' | 'salary_offered'> & {contacts: readonly ContactFields[]}

function cellsOf(application: ExportedApplication): string[] {
  return [
    ...APPLICATION_FIELDS.map((field) => application[field]),
    String(application.id),
    application.salary_expected,
    application.salary_offered,
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
 * Parses a CSV with the export's columns into rows numbered by the line they start on (the header is line 1;
 * quoted multi-line cells count their lines). Unknown columns are refused so a misnamed header is not silently
 * dropped. A row that cannot be read as cells of the header's columns (wrong count, broken quoting) comes back
 * with its problems, so the import lists them together with the other rows' field errors. `otherFormatHint` names
 * the format of a header that is another one's (another tracker's export), to say instead of each column's error.
 */
export function parseApplicationsCsv(
  text: string,
  fileName: string,
  options: {otherFormatHint?: (header: readonly string[]) => string | undefined} = {},
): ImportRow[] {
  const {header, rows} = readCsvTable(text)
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
  return rows.map((row) =>
    readRow(row, fields.length, (cells) => {
      const {id: _id, ...value} = unformula(cellsByField(fields, cells))
      return {row: row.line, value}
    }),
  )
}

/**
 * The header row and the data rows of a CSV (a leading byte order mark removed), each with the line it starts on
 * and what made it unreadable. Every CSV the tracker imports is read here, so all of them number and report rows
 * alike.
 */
export function readCsvTable(text: string): {header: CsvRow | undefined; rows: CsvRow[]} {
  const [header, ...rows] = readCsvRows(text.replace(/^\uFEFF/, ''))
  return {header, rows}
}

/**
 * A data row as an import row: the problems that make it unreadable (broken quoting, a cell count other than the
 * header's), else what `build` makes of its cells.
 */
export function readRow(
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

/**
 * The rows of a CSV with the line each starts on. Papa reads everything after a broken quote as one cell up to
 * the end of what it is given; here such a row is reported and reading goes on at the next line, so the rows after
 * it are still checked and listed. Papa is given the text one span at a time (see spanEnd), so a broken row costs
 * a read of its own span, not of the rest of the file, and a file with many broken rows is still read in linear
 * time.
 */
function readCsvRows(csv: string): CsvRow[] {
  // The delimiter and line break are guessed once, from the first rows, and every span is read with them.
  const {meta} = Papa.parse<string[]>(csv, {preview: 10, skipEmptyLines: 'greedy'})
  const newline = LINE_BREAKS.find((candidate) => candidate === meta.linebreak) ?? '\n'
  // Lines are numbered as an editor shows them: a line feed inside a quoted cell of a CRLF file starts a line too.
  const lineBreak = newline === '\r' ? '\r' : '\n'
  const rows: CsvRow[] = []
  let linesBefore = 0
  let lineCounted = 0
  let offset = 0
  while (offset < csv.length) {
    const end = spanEnd(csv, offset, newline)
    const chunk = csv.slice(offset, end)
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
  }
  return rows
}

const LINE_BREAKS = ['\r\n', '\n', '\r'] as const
const QUOTE = 0x22
const CR = 0x0d
const LF = 0x0a

/**
 * Where the span of text that starts at `start` ends: after the first record that holds a quote character, or at
 * the end of the text. A record ends at a line break outside quotes, every quote character opening or closing
 * (RFC 4180; an escaped "" does both), so a well-formed file is cut only between records and reads as one piece
 * would, while a broken quote can take Papa no further than its own record.
 */
function spanEnd(csv: string, start: number, newline: string): number {
  let quoted = false
  let quotes = false
  for (let index = start; index < csv.length; index++) {
    const code = csv.charCodeAt(index)
    if (code === QUOTE) {
      quoted = !quoted
      quotes = true
    } else if (quotes && !quoted && (code === CR || code === LF) && csv.startsWith(newline, index)) {
      return index + newline.length
    }
  }
  return csv.length
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
