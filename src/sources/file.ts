import {readFile} from 'node:fs/promises'
import {extname, resolve} from 'node:path'
import Papa from 'papaparse'
import {ConfigurationError, type ErrorDetail, ValidationError} from '../core/errors.js'
import type {JobResponse} from '../core/jobs/job.js'
import type {JobSource} from '../core/jobs/job-source.js'
import {cleanText, cleanUrl, normalisePostedDate} from '../core/jobs/normalise.js'
import {parseSalaryText, salaryFromAmounts} from '../core/jobs/salary.js'
import {type SourceConfig, sourceName} from '../core/jobs/source-config.js'
import {jsonSyntaxMessage} from '../core/json-syntax.js'
import {isHttpUrl} from '../core/url-identity.js'
import {type FeedOptions, feedAdapter} from './board-adapter.js'
import {isObject, type Json, toJob} from './shared.js'

const TEXT_FIELDS = ['company', 'location', 'source', 'description', 'employment_type', 'company_url'] as const
const FILE_HINT =
  'each job needs title and url (an absolute http(s) URL); company, location, source, posted_date and the details ' +
  '(description, salary, employment_type, remote, regions, tags, board_id, company_url) are optional'

/**
 * Jobs from a local file: a JSON array of JobResponse objects or a CSV file with the JobResponse columns
 * (header row). `path` is relative to the working directory. A bad row fails the source and is named.
 */
function fileSource(config: SourceConfig & {path: string}, options: FeedOptions = {}): JobSource {
  const path = resolve(options.cwd ?? process.cwd(), config.path)
  const label = config.path
  return {
    name: sourceName(config),
    serverSideFilters: [],
    async fetchJobs(_criteria, signal) {
      let text: string
      try {
        text = (await readFile(path, {encoding: 'utf8', signal})).replace(/^\ufeff/, '')
      } catch (error) {
        throw new ConfigurationError(`cannot read ${label}: ${(error as Error).message}`, {
          cause: error,
          hint: 'check the path of the file source (relative to the directory jobagent runs in)',
        })
      }
      const isJson = extname(path).toLowerCase() === '.json' || /^\s*\[/.test(text)
      const rows = isJson ? jsonRows(text, label) : csvRows(text, label)
      return rows.map((row) => validateRow(row, label, config.name ?? 'file'))
    },
  }
}

interface Row {
  row: unknown
  /** "item 3" (JSON, 1-based) or "line 4" (CSV, the header is line 1). */
  where: string
  /** The number in `where`, for ErrorDetail.row. */
  number: number
}

function jsonRows(text: string, label: string): Row[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new ValidationError(`${label} is not valid JSON: ${jsonSyntaxMessage(error, text)}`, {hint: FILE_HINT})
  }
  if (!Array.isArray(parsed)) throw new ValidationError(`${label} must hold a JSON array of jobs`, {hint: FILE_HINT})
  return parsed.map((row, index) => ({row, where: `item ${index + 1}`, number: index + 1}))
}

function csvRows(text: string, label: string): Row[] {
  const result = Papa.parse<Json>(text, {header: true, skipEmptyLines: 'greedy', transformHeader: (h) => h.trim()})
  const columns = result.meta.fields ?? []
  const missing = ['title', 'url'].filter((column) => !columns.includes(column))
  if (missing.length > 0) {
    throw new ValidationError(`${label} has no ${missing.join(' or ')} column (header: ${columns.join(', ')})`, {
      hint: FILE_HINT,
    })
  }
  const broken = result.errors.find((error) => error.type === 'Quotes')
  if (broken) {
    throw new ValidationError(`${label} line ${(broken.row ?? 0) + 2}: ${broken.message}`, {hint: FILE_HINT})
  }
  // Papaparse's row index counts data rows from 0; the header is line 1 (rows with embedded newlines aside).
  return result.data.map((row, index) => ({row, where: `line ${index + 2}`, number: index + 2}))
}

function validateRow({row, where, number}: Row, label: string, defaultSource: string): JobResponse {
  const problems: ErrorDetail[] = []
  const fail = (field: string, message: string) => problems.push({field, row: number, message: `${field} ${message}`})
  if (!isObject(row)) {
    throw new ValidationError(`${label} ${where}: must be an object with title and url`, {hint: FILE_HINT})
  }
  const title = typeof row.title === 'string' ? cleanText(row.title) : ''
  if (title === '') fail('title', 'is required')
  const url = typeof row.url === 'string' ? cleanUrl(row.url) : ''
  if (url === '') fail('url', 'is required')
  else if (!isHttpUrl(url)) fail('url', `must be an absolute http(s) URL, got ${JSON.stringify(url)}`)
  for (const field of TEXT_FIELDS) {
    if (row[field] !== undefined && row[field] !== null && typeof row[field] !== 'string') fail(field, 'must be text')
  }
  const rawDate = row.posted_date
  const posted_date = normalisePostedDate(rawDate)
  if (posted_date === null && rawDate !== undefined && rawDate !== null && rawDate !== '') {
    fail('posted_date', `is not a date: ${JSON.stringify(rawDate)}`)
  }
  if (problems.length > 0) {
    throw new ValidationError(`${label} ${where}: ${problems.map((p) => p.message).join('; ')}`, {
      details: problems,
      hint: FILE_HINT,
    })
  }
  const job = toJob(cleanText(row.source) || defaultSource, {
    title,
    company: row.company,
    location: row.location,
    url,
    posted_date,
    description_text: row.description,
    salary: fileSalary(row.salary),
    employment_type: row.employment_type,
    remote:
      row.remote === true || row.remote === 'true'
        ? true
        : row.remote === false || row.remote === 'false'
          ? false
          : null,
    regions: listOf(row.regions),
    tags: listOf(row.tags),
    board_id: row.board_id,
    company_url: row.company_url,
  })
  // The title and URL were checked above, so toJob has a job to return.
  if (!job) throw new ValidationError(`${label} ${where}: title and url are required`, {hint: FILE_HINT})
  return job
}

/** A list as JSON gives it, or one CSV cell of comma-separated entries. */
function listOf(value: unknown): unknown[] {
  return typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : []
}

/** A salary as text (`$80k - $100k`) or as an object of `min`, `max`, `currency` and `period`. */
function fileSalary(value: unknown) {
  if (isObject(value)) {
    return salaryFromAmounts({min: value.min, max: value.max, currency: value.currency, period: value.period})
  }
  return parseSalaryText(value)
}

/** The file is the entry's `path`, which the config check requires; it is read, never asked for. */
export const fileBoard = feedAdapter('file', {
  source: (config, _deps, options) => fileSource({...config, path: config.path ?? ''}, options),
})
