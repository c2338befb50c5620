import type {z} from 'zod'
import {definedFields, picked} from '../defined-fields.js'
import {ConflictError, type ErrorDetail, NotFoundError, ValidationError} from '../errors.js'
import {APPLICATIONS_PAGE, checkPage, type Page} from '../paging.js'
import {type Clock, localTimestamp, offsetTimestamp, systemClock} from '../time.js'
import {applicationCanonicalKey, applicationUrlKey} from '../url-identity.js'
import {
  APPLICATION_FIELDS,
  type ApplicationCounts,
  type ApplicationDocument,
  type ApplicationStatus,
  type ApplicationWithHistory,
  EXTRA_FIELDS,
  statusSince,
  type TrackedApplication,
} from './application.js'
import type {
  ApplicationFilter,
  ApplicationStore,
  FieldEdit,
  ImportedApplication,
  ImportOutcome,
  StatusEdit,
  StatusUpdate,
  Taken,
  UrlKeys,
} from './application-store.js'
import {type NextActionChange, nextActionAfter} from './next-action.js'
import {type ApplicationStats, applicationStats, parseSince, sinceTimestamp} from './stats.js'
import type {ApplicationInput} from './validation.js'

type Schemas = typeof import('./validation.js')

let schemas: Promise<Schemas> | undefined

/**
 * The zod schemas load on the first write or lookup, not at start-up: listing applications (`jobagent status`,
 * the dashboard) validates nothing, and zod is a large share of a short command's start time. The promise is
 * kept: import() of a loaded module still goes through the module loader on every call.
 */
export function loadSchemas(): Promise<Schemas> {
  schemas ??= import('./validation.js')
  return schemas
}

/** What a list shows, as the user gave it: a status, search text, a source, `since` as `stats --since` takes it. */
interface ListFilter {
  status?: string
  search?: string
  source?: string
  since?: string
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

export function validate<S extends z.ZodType>(
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

/** Both keys of a URL: the store finds an application by the one as given, else by the one without tracking. */
export function urlKeys(url: string): UrlKeys {
  return {urlKey: applicationUrlKey(url), canonicalKey: applicationCanonicalKey(url)}
}

/** A reference that is no short id, as a URL; one that is not a URL either is named as neither. */
async function parseRef(ref: string): Promise<string> {
  try {
    return await parseUrl(ref)
  } catch (error) {
    if (!(error instanceof ValidationError) || ref.includes('://')) throw error
    throw new ValidationError(`${JSON.stringify(ref.trim())} is neither an application id (12 or #12) nor a URL`, {
      details: [{field: 'ref', message: 'must be an application id or an http(s) URL'}],
      hint: 'list tracked applications with their ids: jobagent status',
    })
  }
}

/** `12` or `#12`: an application's short id; anything else is read as its URL. */
const SHORT_ID = /^#?(\d{1,15})$/

function notTracked(ref: string): NotFoundError {
  const what = SHORT_ID.test(ref.trim()) ? `no application #${SHORT_ID.exec(ref.trim())?.[1]}` : `${ref} is not tracked`
  return new NotFoundError(what, {hint: 'list tracked applications with their ids: jobagent status'})
}

/**
 * The conflict of a URL that is tracked as another application, named by its id and URL. `editing` is the
 * application an edit would have given the URL: the hint then says how to free the URL, where a new record's hint
 * says how to go on with the application that has it.
 */
function alreadyTracked(taken: TrackedApplication, editing?: number): ConflictError {
  const {id} = taken
  const removed = taken.removed_at !== null
  return new ConflictError(
    `already tracked as #${id} ${taken.url} (${removed ? 'removed' : `status: ${taken.status}`})`,
    {
      hint: editing === undefined ? goOnWith(id, removed) : freeUrlOf(id, removed, editing),
      details: [{field: 'url', message: `already tracked as #${id}`}],
    },
  )
}

function goOnWith(id: number, removed: boolean): string {
  return removed ? `bring it back with: jobagent remove ${id} --undo` : `change it with: jobagent status ${id} <status>`
}

function freeUrlOf(id: number, removed: boolean, editing: number): string {
  if (removed) {
    return (
      `#${id} is removed from lists but keeps that URL; bring it back with jobagent remove ${id} --undo and edit it ` +
      `instead, or delete it for good with jobagent remove ${id} --purge`
    )
  }
  return (
    `#${id} has that URL already (see it with: jobagent status ${id}); to give it to #${editing}, change the URL of ` +
    `#${id} first (jobagent edit ${id} --url <URL>) or delete #${id} (jobagent remove ${id} --purge)`
  )
}

function isTaken<T extends object>(value: T | Taken): value is Taken {
  return 'taken' in value
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
    const record = {...valid, applied_date: now}
    const inserted = await this.store.insert(record, urlKeys(valid.url), now)
    if (isTaken(inserted)) throw alreadyTracked(inserted.taken)
    return inserted
  }

  /**
   * The application a reference names: `12` or `#12` by its short id, anything else as its URL, compared by the one
   * canonical-key rule (a link with `?utm_source=...` finds the application tracked without it). Removed
   * applications are found too; `removed_at` says so.
   */
  async find(ref: string): Promise<TrackedApplication> {
    const id = SHORT_ID.exec(ref.trim())?.[1]
    const application =
      id !== undefined ? await this.store.byId(Number(id)) : await this.store.byUrl(urlKeys(await parseRef(ref)))
    if (!application) throw notTracked(ref)
    return application
  }

  async get(ref: string): Promise<ApplicationWithHistory> {
    const application = await this.find(ref)
    return {application, history: await this.store.history(application.id)}
  }

  /** One application without its history: GET /applications/{ref}/status, the API's hottest read. */
  status(ref: string): Promise<TrackedApplication> {
    return this.find(ref)
  }

  async list(filter: ListFilter = {}): Promise<ApplicationList> {
    const valid = await this.filter(filter)
    const [applications, counts] = await Promise.all([this.store.list(valid), this.store.counts()])
    return {applications, counts}
  }

  /** One page of `list`, newest first, with the number of applications the filter matches. */
  async page(filter: ListFilter & {limit?: number; offset?: number} = {}): Promise<ApplicationPage> {
    const valid = await this.filter(filter)
    const page = checkPage(filter, APPLICATIONS_PAGE)
    const [applications, total] = await Promise.all([this.store.list({...valid, page}), this.store.countOf(valid)])
    return {applications, total, ...page}
  }

  /** A list's filter checked: a known status, search text without control characters, `since` as `stats` reads it. */
  private async filter(filter: ListFilter): Promise<ApplicationFilter> {
    const valid: ApplicationFilter = {}
    if (filter.status !== undefined) valid.status = await parseStatus(filter.status)
    const search = filter.search?.trim()
    if (search) valid.search = search
    const source = filter.source?.trim()
    if (source) valid.source = source
    if (filter.since !== undefined) valid.since = sinceTimestamp(filter.since, this.clock.now())
    return valid
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
  async changeStatus(ref: string, status: string, notes = ''): Promise<StatusUpdate> {
    return this.write(ref, {status: await parseStatus(status), notes: await parseNotes(notes)})
  }

  /**
   * Replaces the notes alone (the dashboard's n): the history keeps the old notes in an entry whose status stays
   * as it is, a notes change (changeKind). The status is the one the record holds when the change is written, so
   * editing the notes never undoes a status another process set meanwhile.
   */
  async editNotes(ref: string, notes: string): Promise<StatusUpdate> {
    return this.write(ref, {notes: await parseNotes(notes)})
  }

  /**
   * Adds a line to the notes and keeps the status (MCP add_note); the notes as they were go to the history. The line
   * is added in the write itself, to the notes the record holds then, so lines added at the same time by other
   * calls, processes or front ends are all kept.
   */
  async addNote(ref: string, line: string): Promise<StatusUpdate> {
    const note = await parseNotes(line)
    if (note.trim() === '') {
      throw new ValidationError('the note is empty; nothing was added', {
        details: [{field: 'notes', message: 'notes must not be empty'}],
      })
    }
    return this.write(ref, {addedNote: note})
  }

  /**
   * Changes the fields given (`jobagent edit`, PATCH /applications/{ref}); the history keeps each one's old and new
   * value. A new URL that is tracked as another application is refused, naming that one.
   */
  async edit(ref: string, fields: Record<string, unknown>): Promise<StatusUpdate> {
    const loaded = await loadSchemas()
    const valid = validate(loaded, loaded.applicationEditSchema, fields, 'edit') as FieldEdit
    if (Object.keys(valid).length === 0) {
      throw new ValidationError('nothing to change', {
        hint: 'name a field to change, e.g. jobagent edit 12 --title "Staff Engineer"',
      })
    }
    const application = await this.find(ref)
    const update = await this.store.edit(application.id, valid, offsetTimestamp(this.clock.now()))
    if (update === null) throw notTracked(ref)
    if (isTaken(update)) throw alreadyTracked(update.taken, application.id)
    return update
  }

  /**
   * Sets, moves or clears the next action (nextActionAfter): `status <id> --next ... --due ...`,
   * PUT /applications/{ref}/next. The history keeps the one it replaced.
   */
  async setNext(ref: string, change: NextActionChange): Promise<StatusUpdate> {
    const application = await this.find(ref)
    const next = nextActionAfter(application, change)
    const update = await this.store.setNextAction(application.id, next, offsetTimestamp(this.clock.now()))
    if (!update) throw notTracked(ref)
    return update
  }

  /** Records documents sent with the application, each replacing the one of its kind; the history keeps the old. */
  async recordDocuments(ref: string, documents: readonly ApplicationDocument[]): Promise<StatusUpdate> {
    const application = await this.find(ref)
    const update = await this.store.setDocuments(application.id, documents, offsetTimestamp(this.clock.now()))
    if (!update) throw notTracked(ref)
    return update
  }

  /**
   * Takes an application out of lists and stats (`removed: true`) or brings it back; its history stays, and the
   * change is recorded in it. Removing a removed one, or restoring a listed one, changes nothing.
   */
  async remove(ref: string, removed = true): Promise<StatusUpdate> {
    const application = await this.find(ref)
    const update = await this.store.setRemoved(application.id, removed, offsetTimestamp(this.clock.now()))
    if (!update) throw notTracked(ref)
    return update
  }

  /** Deletes an application for good, with its history, interviews and contacts. */
  async purge(ref: string): Promise<TrackedApplication> {
    const application = await this.find(ref)
    if (!(await this.store.purge(application.id))) throw notTracked(ref)
    return application
  }

  private async write(ref: string, change: StatusEdit): Promise<StatusUpdate> {
    const application = await this.find(ref)
    const update = await this.store.changeStatus(application.id, change, offsetTimestamp(this.clock.now()))
    if (!update) throw notTracked(ref)
    return update
  }

  /**
   * Imports the rows as they are read, all or nothing: each row is checked and, while every row so far is valid,
   * written, in the one transaction of the import; the first invalid row stops the writing, the rest are still
   * checked, and once every row is read the problems are thrown, so the transaction writes nothing. Memory holds
   * the row at hand and the URL key of each row before it (a URL twice in the file is named with both rows), not
   * the file.
   */
  async import(rows: Iterable<ImportRow>, options: {update: boolean}): Promise<ImportOutcome> {
    const {importedRecordSchema, issuesToDetails} = await loadSchemas()
    const moment = this.clock.now()
    const now = localTimestamp(moment)
    const errors: ReturnType<typeof issuesToDetails> = []
    const firstRowOfKey = new Map<string, number>()
    let rowsWithErrors = 0
    const check = ({row, value, problems}: ImportRow): ImportedApplication | undefined => {
      const reported = problems ?? []
      errors.push(...reported)
      if (value === undefined && reported.length > 0) return undefined
      const result = importedRecordSchema.safeParse(value)
      if (!result.success) {
        // A field already reported while reading the row is named once, in the file's words.
        const named = new Set(reported.map((problem) => problem.field))
        errors.push(...issuesToDetails(result.error.issues, row).filter((issue) => !named.has(issue.field)))
        return undefined
      }
      if (reported.length > 0) return undefined
      const {applied_date, contacts, ...fields} = result.data
      const keys = urlKeys(fields.url)
      const earlier = firstRowOfKey.get(keys.canonicalKey)
      if (earlier !== undefined) {
        errors.push({row, field: 'url', message: `duplicate of row ${earlier} (${fields.url})`})
        return undefined
      }
      firstRowOfKey.set(keys.canonicalKey, row)
      const record = picked({...fields, applied_date: applied_date || now}, APPLICATION_FIELDS)
      const extras = definedFields({...picked(fields, EXTRA_FIELDS), contacts})
      return {record, extras, keys, appliedDateGiven: Boolean(applied_date), since: statusSince(record, now)}
    }
    function* checked(): Generator<ImportedApplication> {
      for (const row of rows) {
        const before = errors.length
        const valid = check(row)
        if (errors.length > before) rowsWithErrors++
        if (valid && errors.length === 0) yield valid
      }
      if (errors.length > 0) {
        throw new ValidationError(`${rowsWithErrors} invalid row(s); nothing was imported`, {
          details: errors,
          hint: 'fix the rows listed and import the file again',
        })
      }
    }
    return this.store.importRecords(checked(), {update: options.update, at: offsetTimestamp(moment)})
  }
}
