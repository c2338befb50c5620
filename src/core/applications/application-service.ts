import type {z} from 'zod'
import {ConflictError, type ErrorDetail, NotFoundError, ValidationError} from '../errors.js'
import {APPLICATIONS_PAGE, checkPage, type Page} from '../paging.js'
import {type Clock, localTimestamp, systemClock} from '../time.js'
import {applicationUrlKey} from '../url-identity.js'
import {
  type ApplicationCounts,
  type ApplicationRecord,
  type ApplicationStatus,
  type ApplicationWithHistory,
  statusSince,
  type TrackedApplication,
} from './application.js'
import type {ApplicationStore, ImportOutcome, StatusEdit, StatusUpdate} from './application-store.js'
import {type ApplicationStats, applicationStats, parseSince} from './stats.js'
import type {ApplicationInput} from './validation.js'

type Schemas = typeof import('./validation.js')

let schemas: Promise<Schemas> | undefined

/**
 * The zod schemas load on the first write or lookup, not at start-up: listing applications (`jobagent status`,
 * the dashboard) validates nothing, and zod is a large share of a short command's start time. The promise is
 * kept: import() of a loaded module still goes through the module loader on every call.
 */
function loadSchemas(): Promise<Schemas> {
  schemas ??= import('./validation.js')
  return schemas
}

interface ApplicationList {
  applications: TrackedApplication[]
  counts: ApplicationCounts
}

/** A page of tracked applications (GET /applications). */
interface ApplicationPage extends Page {
  applications: TrackedApplication[]
  /** Every application the filter matches, for paging. */
  total: number
}

/** An imported row with its 1-based position in the file (line for CSV, element for JSON). */
export interface ImportRow {
  row: number
  value: unknown
  /**
   * What made the row invalid in its file: without a value, the row could not be read (e.g. a CSV row with too few
   * cells); with one, a cell could not be mapped to its field, and the value's other fields are still checked so
   * every problem of the row is listed at once.
   */
  problems?: ErrorDetail[]
}

function validate<S extends z.ZodType>(
  {issuesToDetails}: Schemas,
  schema: S,
  value: unknown,
  what: string,
): z.output<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const details = issuesToDetails(result.error.issues)
  throw new ValidationError(`invalid ${what}: ${details.map((detail) => detail.message).join('; ')}`, {details})
}

async function parseStatus(value: string): Promise<ApplicationStatus> {
  const loaded = await loadSchemas()
  return validate(loaded, loaded.statusSchema, value, 'status')
}

async function parseUrl(value: string): Promise<string> {
  const loaded = await loadSchemas()
  return validate(loaded, loaded.applicationUrlSchema, value, 'url')
}

async function parseNotes(value: string): Promise<string> {
  const loaded = await loadSchemas()
  return validate(loaded, loaded.notesSchema, value, 'notes')
}

function notTracked(url: string): NotFoundError {
  return new NotFoundError(`${url} is not tracked`, {hint: 'list tracked applications with: jobagent status'})
}

/** The application tracker: the one place that records applications and moves them through their statuses. */
export class ApplicationService {
  constructor(
    private readonly store: ApplicationStore,
    private readonly clock: Clock = systemClock,
  ) {}

  /** `input` is validated here, so front ends may pass what the user typed as it is. */
  async record(input: ApplicationInput | Record<string, unknown>): Promise<TrackedApplication> {
    const loaded = await loadSchemas()
    const valid = validate(loaded, loaded.applicationInputSchema, input, 'application')
    const now = localTimestamp(this.clock.now())
    const record: ApplicationRecord = {
      title: valid.title,
      company: valid.company,
      location: valid.location,
      url: valid.url,
      source: valid.source,
      applied_date: now,
      status: valid.status,
      notes: valid.notes,
    }
    const urlKey = applicationUrlKey(valid.url)
    const inserted = await this.store.insert(record, urlKey, now)
    if (inserted) return inserted
    const existing = await this.store.get(urlKey)
    throw new ConflictError(`${valid.url} is already tracked (status: ${existing?.status ?? 'unknown'})`, {
      hint: `change it with: jobagent status ${existing?.url ?? valid.url} <status>`,
      details: [{field: 'url', message: 'already tracked'}],
    })
  }

  async get(url: string): Promise<ApplicationWithHistory> {
    const urlKey = applicationUrlKey(await parseUrl(url))
    const application = await this.store.get(urlKey)
    if (!application) throw notTracked(url)
    return {application, history: await this.store.history(urlKey)}
  }

  /** One application without its history: GET /applications/{url}/status, the API's hottest read. */
  async status(url: string): Promise<TrackedApplication> {
    const application = await this.store.get(applicationUrlKey(await parseUrl(url)))
    if (!application) throw notTracked(url)
    return application
  }

  async list(filter: {status?: string} = {}): Promise<ApplicationList> {
    const status = filter.status === undefined ? undefined : await parseStatus(filter.status)
    const [applications, counts] = await Promise.all([
      this.store.list(status === undefined ? {} : {status}),
      this.store.counts(),
    ])
    return {applications, counts}
  }

  /** One page of `list`, newest first, with the number of applications the filter matches. */
  async page(filter: {status?: string; limit?: number; offset?: number} = {}): Promise<ApplicationPage> {
    const status = filter.status === undefined ? undefined : await parseStatus(filter.status)
    const page = checkPage(filter, APPLICATIONS_PAGE)
    const byStatus = status === undefined ? {} : {status}
    const [applications, total] = await Promise.all([
      this.store.list({...byStatus, page}),
      this.store.countOf(byStatus),
    ])
    return {applications, total, ...page}
  }

  counts(): Promise<ApplicationCounts> {
    return this.store.counts()
  }

  /** Funnel statistics (see applicationStats); `since` limits them to recent applied dates (`90d`, `12w`, `6m`). */
  async stats(options: {since?: string} = {}): Promise<ApplicationStats> {
    const sinceDays = options.since === undefined ? undefined : parseSince(options.since)
    const applications = await this.store.allWithHistory()
    return applicationStats(applications, {
      now: this.clock.now(),
      ...(sinceDays === undefined ? {} : {sinceDays}),
    })
  }

  /**
   * Sets the status and replaces the notes with the ones given with it, empty when none; the old status and notes
   * go to the history. Every front end changes a status through here: `jobagent status <url> <status>`,
   * PATCH /applications/{url}/status and the dashboard's s.
   */
  async changeStatus(url: string, status: string, notes = ''): Promise<StatusUpdate> {
    const validUrl = await parseUrl(url)
    return this.write(validUrl, {status: await parseStatus(status), notes: await parseNotes(notes)})
  }

  /**
   * Replaces the notes alone (the dashboard's n): the history keeps the old notes in an entry whose status stays
   * as it is, a notes change (changeKind). The status is the one the record holds when the change is written, so
   * editing the notes never undoes a status another process set meanwhile.
   */
  async editNotes(url: string, notes: string): Promise<StatusUpdate> {
    const validUrl = await parseUrl(url)
    return this.write(validUrl, {notes: await parseNotes(notes)})
  }

  private async write(url: string, change: StatusEdit): Promise<StatusUpdate> {
    const update = await this.store.changeStatus(applicationUrlKey(url), change, localTimestamp(this.clock.now()))
    if (!update) throw notTracked(url)
    return update
  }

  /** Validates every row first; nothing is written unless all rows are valid. */
  async import(rows: readonly ImportRow[], options: {update: boolean}): Promise<ImportOutcome> {
    const {importedRecordSchema, issuesToDetails} = await loadSchemas()
    const now = localTimestamp(this.clock.now())
    const valid: {record: ApplicationRecord; urlKey: string; appliedDateGiven: boolean; since: string}[] = []
    const errors: ReturnType<typeof issuesToDetails> = []
    const firstRowOfKey = new Map<string, number>()
    for (const {row, value, problems} of rows) {
      const reported = problems ?? []
      errors.push(...reported)
      if (value === undefined && reported.length > 0) continue
      const result = importedRecordSchema.safeParse(value)
      if (!result.success) {
        // A field already reported while reading the row is named once, in the file's words.
        const named = new Set(reported.map((problem) => problem.field))
        errors.push(...issuesToDetails(result.error.issues, row).filter((issue) => !named.has(issue.field)))
        continue
      }
      if (reported.length > 0) continue
      const {applied_date, ...fields} = result.data
      const urlKey = applicationUrlKey(fields.url)
      const earlier = firstRowOfKey.get(urlKey)
      if (earlier !== undefined) {
        errors.push({row, field: 'url', message: `duplicate of row ${earlier} (${fields.url})`})
        continue
      }
      firstRowOfKey.set(urlKey, row)
      const record = {...fields, applied_date: applied_date || now}
      valid.push({record, urlKey, appliedDateGiven: Boolean(applied_date), since: statusSince(record, now)})
    }
    if (errors.length > 0) {
      const rowsWithErrors = new Set(errors.map((error) => error.row)).size
      throw new ValidationError(`${rowsWithErrors} invalid row(s); nothing was imported`, {
        details: errors,
        hint: 'fix the rows listed and import the file again',
      })
    }
    return this.store.importRecords(valid, {update: options.update, at: now})
  }
}
