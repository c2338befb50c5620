import {type ErrorDetail, ValidationError} from '../errors.js'
import {isCalendarDay, toLocalTimestamp} from '../time.js'
import type {ApplicationStatus} from './application.js'
import type {ImportRow} from './application-service.js'
import {type CsvText, eachRow, parseCsvRow, parseCsvTable} from './csv.js'

/** The other trackers whose CSV exports `import --from` reads. */
export const TRACKER_EXPORT_FORMATS = ['huntr', 'teal'] as const
export type TrackerExportFormat = (typeof TRACKER_EXPORT_FORMATS)[number]

type Column = 'company' | 'title' | 'stage' | 'url' | 'location' | 'salary' | 'date' | 'notes'

interface ExportFormat {
  label: string
  /** The export's header for each column it maps; the other columns of the file are ignored. */
  columns: Partial<Record<Column, string>>
  required: readonly Column[]
}

const FORMATS: Record<TrackerExportFormat, ExportFormat> = {
  huntr: {
    label: 'Huntr',
    columns: {
      company: 'Employer',
      title: 'Job Title',
      stage: 'List',
      url: 'URL',
      location: 'Location',
      salary: 'Salary',
      date: 'Date Saved',
      notes: 'Notes',
    },
    required: ['company', 'title', 'stage', 'url'],
  },
  teal: {
    label: 'Teal',
    columns: {
      company: 'Company Name',
      title: 'Job Title',
      stage: 'Status',
      url: 'Job URL',
      location: 'Location',
      salary: 'Salary',
    },
    required: ['company', 'title', 'stage', 'url'],
  },
}

/**
 * The tracker whose CSV export a header row looks like (every column the export always has is there, case
 * ignored), so a file imported with the wrong --from, or without one, is named for what it is.
 */
function trackerExportOf(header: readonly string[]): TrackerExportFormat | undefined {
  const fields = new Set(header.map((field) => field.trim().toLowerCase()))
  return TRACKER_EXPORT_FORMATS.find((format) => {
    const spec = FORMATS[format]
    return spec.required.every((column) => fields.has((spec.columns[column] ?? '').toLowerCase()))
  })
}

/** What to do with a CSV whose header is not jobagent's own but another tracker's export, else undefined. */
export function trackerExportHint(header: readonly string[]): string | undefined {
  const format = trackerExportOf(header)
  return format && `this looks like a ${FORMATS[format].label} export: add --from ${format}`
}

/** The stage names of Huntr lists and Teal statuses, lower case, and the status each becomes. */
const STAGES: Record<ApplicationStatus, readonly string[]> = {
  saved: ['wishlist', 'bookmarked', 'saved'],
  applied: ['applied', 'applying'],
  interviewing: [
    'interview',
    'interviews',
    'interviewing',
    'phone screen',
    'screening',
    'onsite',
    'on-site',
    'technical interview',
    'final interview',
  ],
  offer: ['offer', 'offers', 'offered', 'offer received', 'negotiating'],
  accepted: ['accepted'],
  rejected: ['rejected', 'not selected'],
  withdrawn: ['i withdrew', 'withdrew', 'withdrawn'],
  ghosted: ['no response', 'ghosted'],
}

const STAGE_STATUS = new Map<string, ApplicationStatus>(
  Object.entries(STAGES).flatMap(([status, stages]) => stages.map((stage) => [stage, status as ApplicationStatus])),
)

/**
 * The status of a stage: the table above, then any stage that begins with "offer" or names an interview, since
 * users name their own lists and rounds ("Second Interview", "Offer Call"). Case and surrounding or repeated
 * spaces do not matter.
 */
export function stageStatus(stage: string): ApplicationStatus | undefined {
  const key = stage.trim().replace(/\s+/g, ' ').toLowerCase()
  const known = STAGE_STATUS.get(key)
  if (known) return known
  if (key.startsWith('offer')) return 'offer'
  if (/\binterview/.test(key)) return 'interviewing'
  return undefined
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]
const TIME = String.raw`(?:[ ,T]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?)?`
const US_DATE = new RegExp(String.raw`^(\d{1,2})/(\d{1,2})/(\d{4})${TIME}$`, 'i')
const MONTH_FIRST = new RegExp(String.raw`^(?:[a-z]+,?\s+)??([a-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})${TIME}$`, 'i')
const DAY_FIRST = new RegExp(String.raw`^(\d{1,2})\s+([a-z]{3,9})\.?,?\s+(\d{4})${TIME}$`, 'i')

/** 1-12 for a month's English name or its first three letters ("Sept" too), else undefined. */
function monthNumber(name: string): number | undefined {
  const lower = name.toLowerCase()
  const index = MONTHS.findIndex(
    (month) => month === lower || month.slice(0, 3) === lower || (lower === 'sept' && month === 'september'),
  )
  return index === -1 ? undefined : index + 1
}

/**
 * A saved date as jobagent stores it (local time, no zone): ISO 8601 as `import` takes it, Huntr's US form
 * `3/14/2026` (month first) and written-out months (`Mar 14, 2026`, `March 14 2026`, `14 March 2026`), each
 * optionally with a time (`2:05 PM`, `14:05:09`). A date alone is midnight.
 */
export function savedDate(text: string): string | undefined {
  const value = text.trim()
  const iso = toLocalTimestamp(value)
  if (iso !== undefined) return iso
  let parts: [number | undefined, number, number, string[]] | undefined
  const us = US_DATE.exec(value)
  if (us) parts = [Number(us[1]), Number(us[2]), Number(us[3]), us.slice(4)]
  const monthFirst = us ? null : MONTH_FIRST.exec(value)
  if (monthFirst)
    parts = [monthNumber(monthFirst[1] ?? ''), Number(monthFirst[2]), Number(monthFirst[3]), monthFirst.slice(4)]
  const dayFirst = us || monthFirst ? null : DAY_FIRST.exec(value)
  if (dayFirst) parts = [monthNumber(dayFirst[2] ?? ''), Number(dayFirst[1]), Number(dayFirst[3]), dayFirst.slice(4)]
  if (!parts) return undefined
  const [month, day, year, [hourText, minuteText, secondText, meridiem]] = parts
  if (month === undefined || !isCalendarDay(year, month, day)) return undefined
  let hour = Number(hourText ?? 0)
  const minute = Number(minuteText ?? 0)
  const second = Number(secondText ?? 0)
  if (meridiem) {
    if (hour < 1 || hour > 12) return undefined
    hour = (hour % 12) + (meridiem.toLowerCase().startsWith('p') ? 12 : 0)
  }
  if (hour > 23 || minute > 59 || second > 59) return undefined
  const pad = (number: number, width = 2) => String(number).padStart(width, '0')
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}.000`
}

/**
 * Reads another tracker's CSV export as import rows in jobagent's interchange form, one at a time as they are
 * asked for (the header at once), so they go through the same validation and the same transactional import as
 * jobagent's own files. Headers match case-insensitively; column
 * order is free and columns not mapped are ignored. A stage that maps to no status, an empty URL and a date that
 * cannot be read are problems of their row, listed with the row's other invalid fields.
 */
export function parseTrackerExport(format: TrackerExportFormat, text: CsvText, fileName: string): Iterable<ImportRow> {
  const spec = FORMATS[format]
  const {header, rows} = parseCsvTable(text)
  const fields = (header?.cells ?? []).map((cell) => cell.trim().toLowerCase())
  const index = new Map<Column, number>()
  const headerErrors: ErrorDetail[] = (header?.problems ?? []).map((message) => ({row: header?.line ?? 1, message}))
  for (const [column, name] of Object.entries(spec.columns) as [Column, string][]) {
    const found = fields.flatMap((field, position) => (field === name.toLowerCase() ? [position] : []))
    if (found.length > 1) headerErrors.push({row: 1, field: name, message: `column "${name}" appears more than once`})
    else if (found[0] !== undefined) index.set(column, found[0])
    else if (spec.required.includes(column)) {
      headerErrors.push({row: 1, field: name, message: `missing column "${name}"`})
    }
  }
  if (headerErrors.length > 0) {
    const required = spec.required.map((column) => spec.columns[column]).join(', ')
    const other = trackerExportOf(fields)
    throw new ValidationError(`${fileName} is not a ${spec.label} CSV export`, {
      details: headerErrors,
      hint:
        other && other !== format
          ? `this looks like a ${FORMATS[other].label} export: use --from ${other}`
          : `a ${spec.label} export has the columns ${required} (in any order)`,
    })
  }
  return eachRow(rows, (row) =>
    parseCsvRow(row, fields.length, (cells) => {
      const cell = (column: Column) => {
        const position = index.get(column)
        return position === undefined ? '' : (cells[position] ?? '').trim()
      }
      return toImportRow(format, spec, cell, row.line)
    }),
  )
}

function toImportRow(
  format: TrackerExportFormat,
  spec: ExportFormat,
  cell: (column: Column) => string,
  row: number,
): ImportRow {
  const problems: ErrorDetail[] = []
  const column = (name: Column) => `${spec.label} column "${spec.columns[name]}"`
  const stage = cell('stage')
  const status = stageStatus(stage)
  if (status === undefined) {
    problems.push({
      row,
      field: 'status',
      message:
        stage === ''
          ? `${column('stage')} is empty; give the stage of the application`
          : `unknown stage ${JSON.stringify(stage)} in ${column('stage')}; see "jobagent import --help" for the stages`,
    })
  }
  if (cell('url') === '') {
    problems.push({row, field: 'url', message: `${column('url')} is empty; the job's URL identifies the application`})
  }
  const date = cell('date')
  const appliedDate = date === '' ? '' : savedDate(date)
  if (appliedDate === undefined) {
    problems.push({
      row,
      field: 'applied_date',
      message: `${JSON.stringify(date)} in ${column('date')} is not a date; use e.g. 2026-03-14, 3/14/2026 (month first) or Mar 14, 2026`,
    })
  }
  const salary = cell('salary')
  return {
    row,
    value: {
      title: cell('title'),
      company: cell('company'),
      location: cell('location'),
      url: cell('url'),
      source: format,
      applied_date: appliedDate ?? '',
      status: status ?? '',
      notes: cell('notes'),
      // The salary the tracker holds is the one hoped for: an offer is written down when it comes.
      ...(salary === '' ? {} : {salary_expected: salary}),
    },
    ...(problems.length > 0 ? {problems} : {}),
  }
}
