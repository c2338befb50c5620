import {nearestWord} from '../edit-distance.js'
import {type ErrorDetail, ValidationError} from '../errors.js'
import {jobVerdictSchema} from '../jobs/job-verdicts.js'
import {jsonSyntaxMessage} from '../json-syntax.js'
import {toLocalTimestamp} from '../time.js'
import {applicationUrlKey, isHttpUrl} from '../url-identity.js'
import {valueAtPath} from '../value-at.js'
import * as z from '../zod-mini.js'
import {statusChangeSchema, trackedApplicationSchema} from './application.js'
import {contactSchema} from './contact.js'
import {interviewSchema} from './interviews.js'

/** What the `format` key of every backup says, so a file that is something else is named for what it is not. */
export const BACKUP_FORMAT = 'jobagent-backup'

/**
 * The version of the backup format this jobagent writes and the newest it reads (docs/BACKUP.md). Version 2 added
 * the follow-up state of each application and the contacts met at each interview; a version 1 file is read with
 * none of either (upgradeVersion1). It names a file format, not cached work; test/core/cache-versions.test.ts fails
 * when the shape restore reads changes and this, or its recorded digest, does not.
 */
export const BACKUP_VERSION = 2

/** The largest backup file restore reads, in bytes. */
export const BACKUP_MAX_BYTES = 256 * 1024 * 1024

/** The most records of each list a backup may hold. */
const BACKUP_LIMITS = {
  applications: 100_000,
  history: 10_000,
  interviews: 1_000,
  contacts: 1_000,
  verdicts: 100_000,
  settings: 1_000,
  copies: 10_000,
} as const

/**
 * A document's copy kept under the data directory, as a backup names it: `documents/<sha256><extension>`, relative
 * to the data directory so the same file restores into any home. No slash can follow the hash, so a name never
 * leaves that directory.
 */
export const COPY_NAME = /^documents\/([0-9a-f]{64})(\.[^/\\]{1,9})?$/

/** A kept copy's bytes in the backup, under the name its documents give as `copy`. */
const documentCopySchema = z.object({
  copy: z.string().check(z.regex(COPY_NAME)),
  base64: z.string(),
})

const capped = <T extends Parameters<typeof z.array>[0]>(schema: T, max: number) =>
  z.array(schema).check(z.maxLength(max))

/**
 * Where an application's follow-up stands: snoozed until then (`status <id> --snooze`), and when a digest last named
 * it as due; null for none. Local times, as the tracker keeps them.
 */
export const followUpStateSchema = z.object({
  snoozed_until: z.nullable(z.string()),
  reminded_at: z.nullable(z.string()),
})

/**
 * An application as a backup holds it: the tracked record (every field of trackedApplicationSchema, the id kept)
 * with its whole history, its interviews and its contacts, each in the core record's own shape, so a field added to
 * one of them is in the next backup with no line here.
 */
const backedUpApplicationSchema = z.extend(trackedApplicationSchema, {
  ...followUpStateSchema.shape,
  history: capped(statusChangeSchema, BACKUP_LIMITS.history),
  interviews: capped(interviewSchema, BACKUP_LIMITS.interviews),
  contacts: capped(contactSchema, BACKUP_LIMITS.contacts),
})

export type BackedUpApplication = z.output<typeof backedUpApplicationSchema>

/**
 * A verdict with the job it is about as far as a home without that job needs it: the job's URL (how a restore finds
 * the job again), its location and its source. The verdict's own fields hold the title, company and tags it teaches.
 */
const backedUpVerdictSchema = z.extend(jobVerdictSchema, {
  job_url: z.string(),
  job_location: z.string(),
  job_source: z.string(),
})

export type BackedUpVerdict = z.output<typeof backedUpVerdictSchema>

const settingsSchema = z.record(z.string(), z.unknown())

/** The backup file: docs/BACKUP.md describes each key. */
export const backupSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.int(),
  created_at: z.string(),
  applications: capped(backedUpApplicationSchema, BACKUP_LIMITS.applications),
  verdicts: capped(backedUpVerdictSchema, BACKUP_LIMITS.verdicts),
  /** The kept copies of documents (`apply --cv FILE --keep-copy`), each once. */
  document_copies: capped(documentCopySchema, BACKUP_LIMITS.copies),
  profile: z.nullable(settingsSchema),
  config: settingsSchema,
  config_left_out: capped(z.string(), BACKUP_LIMITS.settings),
})

export type Backup = z.output<typeof backupSchema>

/** What the tracker's store holds that a backup keeps. */
export interface TrackerContents {
  applications: BackedUpApplication[]
  verdicts: BackedUpVerdict[]
}

/**
 * How a restore treats a home whose tracker holds something: `replace` empties the tracker (applications with
 * everything of theirs, verdicts) first; `merge` keeps all it holds and adds what the file has that it does not.
 */
export type RestoreMode = 'replace' | 'merge'

/** An application of the file that a merge left out: its URL is tracked already, as `tracked_as`. */
interface SkippedApplication {
  id: number
  url: string
  tracked_as: number
}

export interface RestoreOutcome {
  applications: number
  /** Applications a merge added under another id, their file's id being another application's. */
  renumbered: {from: number; to: number}[]
  skipped: SkippedApplication[]
  verdicts: number
  /** Verdicts a merge left out: the home holds a verdict on the same job. */
  verdicts_skipped: number
}

/** The storage port of backups: reads the whole tracker, and restores one in one transaction. */
export interface BackupStore {
  contents(): Promise<TrackerContents>
  /** How many applications (removed ones too) and verdicts the tracker holds. */
  holds(): Promise<{applications: number; verdicts: number}>
  /** All or nothing: the file's records written with `mode`'s rule (mergeDecision) in one transaction. */
  restore(contents: TrackerContents, mode: RestoreMode): Promise<RestoreOutcome>
}

/** What a merge does with one application of the file: skip it (tracked), or add it under its id or a new one. */
type MergeDecision = {skip: number} | {add: 'same id' | 'new id'}

/**
 * The merge rule: an application whose URL the home tracks (as the store finds a URL, docs/DESIGN) is left out;
 * another is added, under its own id when no application has it, else under a new one.
 */
export function mergeDecision(trackedAs: number | null, idTaken: boolean): MergeDecision {
  if (trackedAs !== null) return {skip: trackedAs}
  return {add: idTaken ? 'new id' : 'same id'}
}

/** `applications[3].status`: where a field is in the file, as jq and JavaScript write it. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? String(part) : `.${String(part)}`))
    .join('')
}

const RESTORE_HINT = 'restore a file written by jobagent backup'

/**
 * A backup file's text as a Backup, every record checked with the core schemas; a problem names its field by its
 * place in the file (`applications[3].status`). A file of a newer format version is refused before anything else
 * is read of it, with what to do.
 */
export function parseBackup(text: string, name: string): Backup {
  let data: unknown
  const json = text.replace(/^\uFEFF/, '')
  try {
    data = JSON.parse(json)
  } catch (error) {
    throw new ValidationError(`${name} is not valid JSON: ${jsonSyntaxMessage(error, json)}`, {hint: RESTORE_HINT})
  }
  const head =
    typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {}
  if (head.format !== BACKUP_FORMAT) {
    throw new ValidationError(`${name} is not a jobagent backup (its "format" is not "${BACKUP_FORMAT}")`, {
      hint: `${RESTORE_HINT}; import an export of applications with: jobagent import ${name}`,
    })
  }
  const version = head.version
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new ValidationError(`${name} has no valid format version ("version" must be a whole number from 1)`, {
      details: [{field: 'version', message: 'must be a whole number from 1'}],
      hint: RESTORE_HINT,
    })
  }
  if (version > BACKUP_VERSION) {
    throw new ValidationError(
      `${name} is a backup of format version ${version}; this jobagent reads versions up to ${BACKUP_VERSION}`,
      {hint: 'upgrade jobagent to the version that wrote the file, then restore it again'},
    )
  }
  const upgraded = version === 1 ? upgradeVersion1(data as Record<string, unknown>) : data
  const result = backupSchema.safeParse(upgraded)
  const problems: ErrorDetail[] = result.success
    ? consistencyProblems(result.data)
    : result.error.issues.map((issue) => ({field: fieldPath(issue.path), message: issueMessage(issue, upgraded)}))
  const [first] = problems
  if (!result.success || first) {
    // The first problem on the error's line, and every one in the details (the terminal lists the others below it).
    const more = problems.length > 1 ? `; and ${problems.length - 1} more` : ''
    const said = first ? `${first.field}: ${first.message}` : 'records do not match the format'
    throw new ValidationError(`${name} holds invalid records; nothing was restored: ${said}${more}`, {
      details: problems,
      hint: `fix the fields named, or ${RESTORE_HINT}`,
    })
  }
  return result.data
}

/** A schema's problem as a person fixes it: what the field must be, and the value it held where that helps. */
function issueMessage(issue: z.core.$ZodIssue, data: unknown): string {
  const value = valueAtPath(data, issue.path)
  if (issue.code === 'invalid_value') {
    const known = issue.values.map(String)
    const nearest = typeof value === 'string' ? nearestWord(value, known) : undefined
    const guess = nearest ? ` (did you mean "${nearest}"?)` : ''
    return `${shownValue(value)} is not one of: ${known.join(', ')}${guess}`
  }
  if (issue.code === 'invalid_type') {
    return value === undefined ? `is missing (${issue.expected} expected)` : `must be ${issue.expected}`
  }
  return issue.message
}

/** A value of the file as a message quotes it: a short scalar as JSON, else what kind of value it is. */
function shownValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null || typeof value === 'object')
    return value === null ? 'null' : Array.isArray(value) ? 'a list' : 'an object'
  const text = JSON.stringify(value)
  return text.length > 60 ? `${text.slice(0, 57)}..."` : text
}

/**
 * A version 1 file as version 2 holds it: each application without a snooze or a digest's reminder, each interview
 * without contacts met (its `with` text names whoever it was with). Anything else is checked as version 2 checks it.
 */
function upgradeVersion1(data: Record<string, unknown>): Record<string, unknown> {
  const records = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])
  const applications = Array.isArray(data.applications)
    ? data.applications.map((application) =>
        typeof application === 'object' && application !== null
          ? {
              snoozed_until: null,
              reminded_at: null,
              ...application,
              interviews: Array.isArray((application as {interviews?: unknown}).interviews)
                ? records((application as {interviews: unknown}).interviews).map((interview) =>
                    typeof interview === 'object' && interview !== null
                      ? {interviewer_ids: [], ...interview}
                      : interview,
                  )
                : (application as {interviews?: unknown}).interviews,
            }
          : application,
      )
    : data.applications
  return {...data, applications}
}

/** What the schemas cannot see: ids and URLs given twice, a record of one application filed under another. */
function consistencyProblems(backup: Backup): ErrorDetail[] {
  const problems: ErrorDetail[] = []
  const problem = (path: PropertyKey[], message: string) => {
    problems.push({field: fieldPath(path), message})
  }
  const ids = new Map<number, number>()
  const urls = new Map<string, number>()
  const owned = {interviews: new Set<number>(), contacts: new Set<number>()}
  for (const [index, application] of backup.applications.entries()) {
    const id = ids.get(application.id)
    if (id !== undefined) problem(['applications', index, 'id'], `id ${application.id} is applications[${id}]'s too`)
    ids.set(application.id, index)
    // As import and every other way in check them: a restored record is one jobagent could have stored.
    if (!isHttpUrl(application.url)) problem(['applications', index, 'url'], 'must be an http:// or https:// address')
    if (application.applied_date !== '' && toLocalTimestamp(application.applied_date) === undefined) {
      problem(['applications', index, 'applied_date'], `${shownValue(application.applied_date)} is not a real date`)
    }
    // The store's key of a URL: two spellings of one URL cannot both be tracked.
    const key = applicationUrlKey(application.url)
    const url = urls.get(key)
    if (url !== undefined) problem(['applications', index, 'url'], `the URL is applications[${url}]'s too`)
    urls.set(key, index)
    for (const list of ['interviews', 'contacts'] as const) {
      for (const [position, record] of application[list].entries()) {
        if (record.application_id !== application.id) {
          problem(['applications', index, list, position, 'application_id'], `must be ${application.id}`)
        }
        if (owned[list].has(record.id)) problem(['applications', index, list, position, 'id'], 'is given twice')
        owned[list].add(record.id)
      }
    }
    const contactIds = new Set(application.contacts.map((contact) => contact.id))
    for (const [position, interview] of application.interviews.entries()) {
      for (const [at, contactId] of interview.interviewer_ids.entries()) {
        if (!contactIds.has(contactId)) {
          problem(
            ['applications', index, 'interviews', position, 'interviewer_ids', at],
            `is no contact of application ${application.id}`,
          )
        }
      }
    }
  }
  const jobs = new Set<number>()
  for (const [index, verdict] of backup.verdicts.entries()) {
    if (jobs.has(verdict.job_id)) problem(['verdicts', index, 'job_id'], 'has two verdicts')
    jobs.add(verdict.job_id)
  }
  return problems
}

/** The file's text: two-space JSON with a final line break, so the same backup is always the same bytes. */
export function backupText(backup: Backup): string {
  return `${JSON.stringify(backup, undefined, 2)}\n`
}
