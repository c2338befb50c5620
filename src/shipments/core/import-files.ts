import Papa from 'papaparse'
import {type ErrorDetail, ValidationError} from '../../core/errors.js'
import {jsonSyntaxMessage} from '../../core/json-syntax.js'
import {nestsDeeperThan} from '../../core/nesting.js'
import {isStoreName} from './names.js'
import {shipmentIdProblem} from './shipment-id.js'
import type {MetadataColumnLimits, MetadataRow, TelemetryRecord} from './stores.js'
import type {TelemetryFields} from './telemetry-document.js'
import {MAX_DOCUMENT_DEPTH} from './telemetry-document.js'
import {normaliseTimestamp} from './timestamps.js'

const MAX_DETAILS = 100

interface ParsedMetadata {
  rows: MetadataRow[]
  /** Ids that appeared more than once; the last row of each wins. */
  repeated: number
}

interface NumberedValue {
  line: number
  value: unknown
}

/**
 * Metadata rows from a CSV (header row; empty cells are NULL) or a JSON array of objects, numbered by their line
 * (CSV) or position (JSON). Any bad row refuses the whole file: the error lists every problem found.
 */
export function parseMetadataFile(text: string, fileName: string, idColumn: string): ParsedMetadata {
  const source = text.replace(/^\uFEFF/, '')
  const trimmed = source.trimStart()
  const isJson = /\.json$/i.test(fileName) || trimmed.startsWith('[')
  const problems: ErrorDetail[] = []
  const items = isJson ? jsonItems(trimmed, fileName) : csvItems(source, problems)
  const byId = new Map<string, MetadataRow>()
  for (const {line, value} of items) {
    const row = metadataRow(value, line, idColumn, problems)
    if (row) byId.set(row[idColumn] as string, row)
  }
  const what = isJson ? 'a metadata JSON array' : 'a metadata CSV'
  refuseProblems(problems, fileName, what, `every row needs "${idColumn}"`, isJson ? 'item' : 'line')
  return {rows: [...byId.values()], repeated: items.length - byId.size}
}

interface ParsedTelemetry {
  /** One record per id and time, the first of the file (as the stores keep the first one stored). */
  records: TelemetryRecord[]
  /** Documents whose id and time an earlier line of the same file already had. */
  repeated: number
}

/**
 * Refuses a metadata file whose columns the store cannot hold (more than its columns per table) or read back
 * (names its driver refuses), naming the file and the limit, before anything is written.
 */
export function checkMetadataColumns(
  rows: readonly MetadataRow[],
  fileName: string,
  store: string,
  limits: MetadataColumnLimits,
): void {
  const columns = new Set(rows.flatMap((row) => Object.keys(row)))
  if (columns.size > limits.maxColumns) {
    throw new ValidationError(
      `${fileName} has ${columns.size} columns; a ${store} table holds at most ${limits.maxColumns}, so nothing of it was imported`,
      {hint: `split the file into files of at most ${limits.maxColumns} columns, each with the id column`},
    )
  }
  const unreadable = limits.unreadable?.names.filter((name) => columns.has(name)) ?? []
  if (unreadable.length > 0 && limits.unreadable) {
    throw new ValidationError(
      `${fileName} has a column named ${unreadable.map((name) => JSON.stringify(name)).join(', ')}, which ${limits.unreadable.reason}; nothing of it was imported`,
      {
        details: unreadable.map((name) => ({field: name, message: `column "${name}" cannot be stored in ${store}`})),
        hint: 'rename the column in the file',
      },
    )
  }
}

/** Telemetry documents from NDJSON (one JSON object per line; blank lines are skipped). */
export function parseTelemetryNdjson(text: string, fileName: string, fields: TelemetryFields): ParsedTelemetry {
  const problems: ErrorDetail[] = []
  const records: TelemetryRecord[] = []
  const seen = new Set<string>()
  let repeated = 0
  const lines = text.replace(/^\uFEFF/, '').split('\n')
  lines.forEach((raw, index) => {
    const line = index + 1
    if (raw.trim() === '') return
    let document: unknown
    try {
      document = JSON.parse(raw)
    } catch (error) {
      problems.push({row: line, message: `not valid JSON: ${(error as Error).message}`})
      return
    }
    const record = telemetryRecord(document, line, fields, problems)
    if (!record) return
    const key = `${record.id}\u0000${record.recorded_at}`
    if (seen.has(key)) repeated++
    else {
      seen.add(key)
      records.push(record)
    }
  })
  refuseProblems(
    problems,
    fileName,
    'telemetry NDJSON',
    `every line is a JSON object with "${fields.idField}" and "${fields.timeField}"`,
  )
  return {records, repeated}
}

function telemetryRecord(
  document: unknown,
  line: number,
  {idField, timeField}: TelemetryFields,
  problems: ErrorDetail[],
): TelemetryRecord | undefined {
  const object = storableObject(document, line, problems)
  if (!object) return undefined
  const {[idField]: rawId, [timeField]: rawTime, _id: _storeId, ...payload} = object
  const id = idText(rawId, idField, line, problems)
  const recordedAt = normaliseTimestamp(rawTime)
  if (rawTime === undefined || rawTime === null) {
    problems.push({row: line, field: timeField, message: `missing "${timeField}"`})
  } else if (!recordedAt) {
    problems.push({row: line, field: timeField, message: `"${timeField}" is not a time: ${JSON.stringify(rawTime)}`})
  }
  return id !== undefined && recordedAt ? {id, recorded_at: recordedAt, payload} : undefined
}

function metadataRow(value: unknown, line: number, idColumn: string, problems: ErrorDetail[]): MetadataRow | undefined {
  const row = storableObject(value, line, problems)
  if (!row) return undefined
  let ok = true
  for (const column of Object.keys(row)) {
    if (!isStoreName(column)) {
      problems.push({row: line, field: column, message: `"${column}" is not a usable column name (letters, digits, _)`})
      ok = false
    }
  }
  const id = idText(row[idColumn], idColumn, line, problems)
  return ok && id !== undefined ? {...row, [idColumn]: id} : undefined
}

/** The value as an object a store can hold (a JSON object nesting no deeper than the limit), or a noted problem. */
function storableObject(value: unknown, line: number, problems: ErrorDetail[]): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push({row: line, message: 'not a JSON object'})
    return undefined
  }
  if (nestsDeeperThan(value, MAX_DOCUMENT_DEPTH)) {
    problems.push({row: line, message: `nests objects and arrays deeper than ${MAX_DOCUMENT_DEPTH} levels`})
    return undefined
  }
  return value as Record<string, unknown>
}

function idText(value: unknown, field: string, line: number, problems: ErrorDetail[]): string | undefined {
  if (value === undefined || value === null || value === '') {
    problems.push({row: line, field, message: `missing "${field}"`})
    return undefined
  }
  if (typeof value !== 'string' && typeof value !== 'number') {
    problems.push({row: line, field, message: `"${field}" must be text or a number`})
    return undefined
  }
  const id = String(value)
  const problem = shipmentIdProblem(id)
  if (problem) {
    problems.push({row: line, field, message: problem})
    return undefined
  }
  return id
}

function jsonItems(text: string, fileName: string): NumberedValue[] {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new ValidationError(`${fileName} is not valid JSON: ${jsonSyntaxMessage(error, text)}`, {
      hint: 'metadata must be a JSON array of objects or a CSV with a header row',
    })
  }
  if (!Array.isArray(data)) {
    throw new ValidationError(`${fileName} must hold a JSON array of objects`, {
      hint: 'metadata must be a JSON array of objects or a CSV with a header row',
    })
  }
  return data.map((value, index) => ({line: index + 1, value}))
}

/** CSV rows as objects keyed by the header, each with the line it starts on (quoted cells may span lines). */
function csvItems(text: string, problems: ErrorDetail[]): NumberedValue[] {
  const items: NumberedValue[] = []
  let header: string[] | undefined
  let position = 0
  let line = 1
  Papa.parse<string[]>(text, {
    skipEmptyLines: 'greedy',
    step: (result) => {
      const start = position + (/^\s*/.exec(text.slice(position, result.meta.cursor))?.[0].length ?? 0)
      line += countNewlines(text, position, start)
      const rowLine = line
      line += countNewlines(text, start, result.meta.cursor)
      position = result.meta.cursor
      for (const error of result.errors) problems.push({row: rowLine, message: error.message})
      if (!header) {
        header = result.data.map((cell) => cell.trim())
        for (const column of repeatedColumns(header)) {
          problems.push({
            row: rowLine,
            field: column,
            message: `column "${column}" appears more than once in the header`,
          })
        }
        return
      }
      if (result.data.length !== header.length) {
        problems.push({row: rowLine, message: `has ${result.data.length} cells, the header has ${header.length}`})
        return
      }
      const cells = result.data
      // fromEntries defines each key as data, so a column named __proto__ is one like any other.
      const row = Object.fromEntries(
        header.map((column, index) => {
          const cell = cells[index] ?? ''
          return [column, cell === '' ? null : cell]
        }),
      )
      items.push({line: rowLine, value: row})
    },
  })
  return items
}

function repeatedColumns(header: readonly string[]): string[] {
  return [...new Set(header.filter((column, index) => header.indexOf(column) !== index))]
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0
  for (let index = text.indexOf('\n', from); index !== -1 && index < to; index = text.indexOf('\n', index + 1)) count++
  return count
}

function refuseProblems(problems: ErrorDetail[], fileName: string, what: string, hint: string, unit = 'line'): void {
  if (problems.length === 0) return
  problems.sort((a, b) => (a.row ?? 0) - (b.row ?? 0))
  const places = [...new Set(problems.map((problem) => problem.row))]
  const where = `${unit}${places.length === 1 ? '' : 's'} ${places.slice(0, 10).join(', ')}${places.length > 10 ? ', …' : ''}`
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`
  const shown = problems.slice(0, MAX_DETAILS)
  const more = problems.length - shown.length
  throw new ValidationError(`${fileName} is not ${what}: ${count} on ${where}; nothing of it was imported`, {
    details: more > 0 ? [...shown, {message: `… and ${more} more`}] : shown,
    hint,
  })
}
