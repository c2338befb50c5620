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
 * Parses a CSV with the export's columns into rows numbered by their line in the file (the header is line 1).
 * Unknown columns are refused so a misnamed header is not silently dropped.
 */
export function parseApplicationsCsv(text: string, fileName: string): ImportRow[] {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (header) => header.trim(),
  })
  const headerErrors = checkHeader(parsed.meta.fields ?? [])
  const rowErrors = parsed.errors.map((error) => ({
    row: (error.row ?? 0) + 2,
    message: error.message,
  }))
  const problems = [...headerErrors, ...rowErrors]
  if (problems.length > 0) {
    throw new ValidationError(`${fileName} is not a valid applications CSV`, {
      details: problems,
      hint: `the header must be: ${APPLICATION_FIELDS.join(',')}`,
    })
  }
  // Rows are renumbered from the cursor so quoted multi-line cells still report the line they start on.
  const lines = lineNumbersOfRows(text)
  return parsed.data.map((value, index) => ({row: lines[index] ?? index + 2, value: unformula(value)}))
}

function checkHeader(fields: readonly string[]) {
  const known = new Set<string>(APPLICATION_FIELDS)
  const unknown = fields.filter((field) => !known.has(field))
  const required = ['title', 'company', 'url', 'source'].filter((field) => !fields.includes(field))
  return [
    ...unknown.map((field) => ({row: 1, field, message: `unknown column "${field}"`})),
    ...required.map((field) => ({row: 1, field, message: `missing column "${field}"`})),
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

function lineNumbersOfRows(text: string): number[] {
  const lines: number[] = []
  let line = 1
  let inQuotes = false
  let rowStart = true
  let rowHasContent = false
  let header = true
  let startLine = 1
  for (let index = 0; index < text.length; index++) {
    const char = text[index]
    if (rowStart) {
      startLine = line
      rowStart = false
      rowHasContent = false
    }
    if (char === '"') inQuotes = !inQuotes
    if (char === '\n') {
      line++
      if (!inQuotes) {
        if (!header && rowHasContent) lines.push(startLine)
        header = false
        rowStart = true
        continue
      }
    }
    if (char !== '\r' && char !== '\n' && char !== ',' && char !== ' ') rowHasContent = true
  }
  if (!rowStart && !header && rowHasContent) lines.push(startLine)
  return lines
}
