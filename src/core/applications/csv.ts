import Papa from 'papaparse'
import {ValidationError} from '../errors.js'
import {APPLICATION_FIELDS, type ApplicationRecord} from './application.js'
import type {ImportRow} from './application-service.js'

/**
 * Cells a spreadsheet would evaluate as a formula. Cells that already begin with quotes before such a character
 * get one more, so the import can strip exactly one and a round trip stays lossless.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/

function neutraliseFormula(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell
}

/** RFC 4180 CSV (CRLF, quoted where needed) with a header row of the eight record columns. */
export function applicationsToCsv(records: readonly ApplicationRecord[], options: {raw?: boolean} = {}): string {
  const rows = records.map((record) =>
    APPLICATION_FIELDS.map((field) => (options.raw ? record[field] : neutraliseFormula(record[field]))),
  )
  const csv = Papa.unparse({fields: [...APPLICATION_FIELDS], data: rows}, {newline: '\r\n', quotes: false})
  // Papa ends a header-only file with a line break but not one with rows; every line ends with CRLF here.
  return csv.endsWith('\r\n') ? csv : `${csv}\r\n`
}

/**
 * Parses a CSV with the export's columns into rows numbered by the line they start on (the header is line 1;
 * quoted multi-line cells count their lines). Unknown columns are refused so a misnamed header is not silently
 * dropped. A row that cannot be read as cells of the header's columns (wrong count, broken quoting) comes back
 * with its problems, so the import lists them together with the other rows' field errors.
 */
export function parseApplicationsCsv(text: string, fileName: string): ImportRow[] {
  const {header, rows} = readCsvTable(text)
  const fields = (header?.cells ?? []).map((field) => field.trim())
  const headerErrors = [
    ...(header?.problems ?? []).map((message) => ({row: header?.line ?? 1, message})),
    ...checkHeader(fields),
  ]
  if (headerErrors.length > 0) {
    throw new ValidationError(`${fileName} is not a valid applications CSV`, {
      details: headerErrors,
      hint: `the header must be: ${APPLICATION_FIELDS.join(',')}`,
    })
  }
  return rows.map((row) =>
    readRow(row, fields.length, (cells) => ({row: row.line, value: unformula(cellsByField(fields, cells))})),
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
 * the end of the file; here such a row is reported and reading goes on at the next line, so the rows after it
 * are still checked and listed.
 */
function readCsvRows(csv: string): CsvRow[] {
  const rows: CsvRow[] = []
  let delimiter: string | undefined
  let linesBefore = 0
  let lineCounted = 0
  let offset = 0
  while (offset < csv.length) {
    const chunk = csv.slice(offset)
    let rowStart = 0
    let resumeAt: number | undefined
    Papa.parse<string[]>(chunk, {
      skipEmptyLines: 'greedy',
      ...(delimiter === undefined ? {} : {delimiter}),
      step: (result, parser) => {
        delimiter ??= result.meta.delimiter
        // The cursor ends after a row; blank lines skipped before the next one are not part of it.
        const start = rowStart + (/^[\r\n]*/.exec(chunk.slice(rowStart, result.meta.cursor))?.[0].length ?? 0)
        linesBefore += countNewlines(csv, lineCounted, offset + start)
        lineCounted = offset + start
        rowStart = result.meta.cursor
        // A delimiter Papa cannot detect leaves one column, which the header check names better.
        const errors = result.errors.filter((error) => error.type !== 'Delimiter')
        // Text after a closing quote leaves the cell open too; the first problem is the one to fix.
        const quoting =
          errors.find((error) => error.code === 'InvalidQuotes') ?? errors.find((e) => e.type === 'Quotes')
        const others = errors.filter((error) => error.type !== 'Quotes')
        const problems = [...(quoting ? [quoting] : []), ...others].map(describeParseError)
        rows.push({line: linesBefore + 1, cells: result.data, problems})
        if (quoting) {
          const lineEnd = chunk.indexOf('\n', start)
          resumeAt = lineEnd === -1 ? csv.length : offset + lineEnd + 1
          parser.abort()
        }
      },
    })
    if (resumeAt === undefined) break
    offset = resumeAt
  }
  return rows
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0
  for (let index = text.indexOf('\n', from); index !== -1 && index < to; index = text.indexOf('\n', index + 1)) count++
  return count
}

/** Papa's quoting errors in the user's words. */
function describeParseError(error: Papa.ParseError): string {
  if (error.code === 'InvalidQuotes') return 'a quoted cell has text after its closing quote'
  if (error.code === 'MissingQuotes') return 'a quoted cell is never closed'
  return error.message
}

function checkHeader(fields: readonly string[]) {
  const known = new Set<string>(APPLICATION_FIELDS)
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
