import {picked} from '../defined-fields.js'
import {ValidationError} from '../errors.js'
import * as z from '../zod-mini.js'

export const APPLICATION_STATUSES = [
  'saved',
  'applied',
  'interviewing',
  'offer',
  'accepted',
  'rejected',
  'withdrawn',
  'ghosted',
] as const

export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number]

/** The documents an application records as sent with it, one of each kind. */
const DOCUMENT_KINDS = ['cv', 'cover_letter'] as const

export type DocumentKind = (typeof DOCUMENT_KINDS)[number]

// Every call that builds a schema here is marked pure: the web page bundles this module for its statuses and
// editable fields, and so leaves the schemas out (esbuild does not see zod's own marks through its re-exports).

/**
 * A document sent with an application, as it was when recorded: the file's absolute path, the SHA-256 of its bytes
 * (hex), and the path of the copy kept under the data directory (`--keep-copy`, named by the hash), null without one.
 */
const applicationDocumentSchema = /* @__PURE__ */ z.object({
  kind: /* @__PURE__ */ z.enum(DOCUMENT_KINDS),
  path: /* @__PURE__ */ z.string(),
  sha256: /* @__PURE__ */ z.string(),
  copy: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
  recorded_at: /* @__PURE__ */ z.string(),
})

export type ApplicationDocument = z.output<typeof applicationDocumentSchema>

/**
 * A tracked application as stored, one column of the applications table (of the same name) each, and in the order
 * every listing prints it (`status --json`, `followups --json`, the API's lists and its one application): the
 * interchange record's eight fields first, then its id and what else the tracker keeps. The API's
 * response shapes (src/http/schemas.ts), the page's types, the SQL column lists, the CSV columns and the editable
 * fields are derived from it and from APPLICATION_FIELD_FACTS and EDITABLE below.
 */
export const trackedApplicationSchema = /* @__PURE__ */ z.object({
  title: /* @__PURE__ */ z.string(),
  company: /* @__PURE__ */ z.string(),
  location: /* @__PURE__ */ z.string(),
  url: /* @__PURE__ */ z.string(),
  source: /* @__PURE__ */ z.string(),
  applied_date: /* @__PURE__ */ z.string(),
  status: /* @__PURE__ */ z.enum(APPLICATION_STATUSES),
  notes: /* @__PURE__ */ z.string(),
  // The short id: stable for the life of the record, never given to another.
  id: /* @__PURE__ */ z.int(),
  updated_at: /* @__PURE__ */ z.string(),
  // When the job the application is for was found closed (docs/LIFECYCLE.md); null while it is open or unknown.
  posting_closed_at: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
  // What the person asks for and what was offered, as they write it (`€70k`, `65-70k + bonus`); empty when unset.
  salary_expected: /* @__PURE__ */ z.string(),
  salary_offered: /* @__PURE__ */ z.string(),
  // Who referred the person for the job, as they write it; empty when nobody did.
  referral: /* @__PURE__ */ z.string(),
  // When `jobagent remove` took it out of lists and stats; null for a listed one.
  removed_at: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
  // What the person means to do next for it (`status <id> --next`), empty when nothing; its due date (YYYY-MM-DD)
  // or null when it has none.
  next_action: /* @__PURE__ */ z.string(),
  next_action_due: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
  // The documents sent with it (`apply`/`edit --cv --cover-letter`), one of each kind at most, in DOCUMENT_KINDS order.
  documents: /* @__PURE__ */ z.array(applicationDocumentSchema),
})

export type TrackedApplication = z.output<typeof trackedApplicationSchema>

type Field = keyof TrackedApplication

/** What the tracker does with a field besides storing and listing it. */
interface FieldFacts {
  /** One of the interchange record's eight fields: the first columns of an export, and what an import compares. */
  record?: true
  /**
   * Free text kept beside the record, empty unless set: a column of the CSV export after the eight (JSON exports
   * carry every field), taken from an import's file when it has the column, and kept as it is when it has not.
   */
  extra?: true
  /** Also given when an application is recorded (`jobagent apply`, POST /applications, the dashboard); empty if not. */
  given?: true
}

/** The facts of every field of trackedApplicationSchema, in its order (a test holds them to it). */
const APPLICATION_FIELD_FACTS = {
  title: {record: true},
  company: {record: true},
  location: {record: true},
  url: {record: true},
  source: {record: true},
  applied_date: {record: true},
  status: {record: true},
  notes: {record: true},
  id: {},
  updated_at: {},
  posting_closed_at: {},
  salary_expected: {extra: true},
  salary_offered: {extra: true},
  referral: {extra: true, given: true},
  removed_at: {},
  next_action: {},
  next_action_due: {},
  documents: {},
} as const satisfies Record<Field, FieldFacts>

type Facts = typeof APPLICATION_FIELD_FACTS

/** The fields that have a fact, by name. */
type FieldsWith<Fact extends keyof FieldFacts> = {
  [K in Field]: Facts[K] extends Record<Fact, true> ? K : never
}[Field]

/** Every field, in the schema's order, read from the facts so the web page's bundle leaves the schema out. */
export const TRACKED_FIELDS = /* @__PURE__ */ Object.keys(APPLICATION_FIELD_FACTS) as Field[]

function fieldsWith<Fact extends keyof FieldFacts>(fact: Fact): FieldsWith<Fact>[] {
  return TRACKED_FIELDS.filter((field): field is FieldsWith<Fact> => fact in APPLICATION_FIELD_FACTS[field])
}

/** The interchange record's eight fields, in order: also the JSON export/import format and the first CSV columns. */
export const APPLICATION_FIELDS = /* @__PURE__ */ fieldsWith('record')

/** The interchange record: also the JSON export/import format and the CSV columns, in this order. */
export type ApplicationRecord = Pick<TrackedApplication, FieldsWith<'record'>>

/** The free-text fields kept beside the record (FieldFacts.extra), in order. */
export const EXTRA_FIELDS = /* @__PURE__ */ fieldsWith('extra')

export type ExtraField = FieldsWith<'extra'>

/** The extra fields an application may be given when it is recorded (FieldFacts.given). */
export const GIVEN_FIELDS = /* @__PURE__ */ fieldsWith('given')

/** How an edit checks a field: text that must not be empty, text that may be emptied, an http(s) URL. */
export type EditRule = 'required' | 'text' | 'url'

/**
 * The fields `jobagent edit`, PATCH /applications/{id} and the edit dialogs (dashboard, web page) change, in the
 * order the dialogs ask for them, each with how it is checked and how the dialogs name it. Each change is kept in
 * the history.
 */
export const EDITABLE = {
  title: {rule: 'required', label: 'Title'},
  company: {rule: 'required', label: 'Company'},
  location: {rule: 'text', label: 'Location'},
  source: {rule: 'required', label: 'Source'},
  url: {rule: 'url', label: 'URL'},
  salary_expected: {rule: 'text', label: 'Salary expected'},
  salary_offered: {rule: 'text', label: 'Salary offered'},
  referral: {rule: 'text', label: 'Referral'},
} as const satisfies {[K in Field]?: {rule: EditRule; label: string}}

export type EditableField = keyof typeof EDITABLE

export const EDITABLE_FIELDS = Object.keys(EDITABLE) as EditableField[]

/** The longest notes an application keeps, in characters. */
export const NOTES_MAX_LENGTH = 10_000

/**
 * The notes with a line added at their end (the line alone when there were none), as add_note adds one. Written
 * inside the transaction that stores them, from the notes the record holds then, so no line another writer added
 * meanwhile is lost. Notes that would grow past NOTES_MAX_LENGTH are refused, naming the field.
 */
export function withNoteAdded(notes: string, line: string): string {
  const added = notes.trim() === '' ? line : `${notes}\n${line}`
  if (added.length > NOTES_MAX_LENGTH) {
    throw new ValidationError(
      `notes would be longer than ${NOTES_MAX_LENGTH} characters with this line; nothing was added`,
      {
        details: [{field: 'notes', message: `notes are longer than ${NOTES_MAX_LENGTH} characters`}],
        hint: 'shorten the notes first: jobagent status <id> <status> --notes "..." replaces them',
      },
    )
  }
  return added
}

/**
 * Since when a record brought in from elsewhere (an import) has been in its status, as far as it tells: one in
 * `applied` since its applied date when that is earlier, so its follow-up is due `after_days` after the
 * application went out, not after the import; any other status since `now`, the record giving no date for it.
 */
export function statusSince(record: Pick<ApplicationRecord, 'status' | 'applied_date'>, now: string): string {
  return record.status === 'applied' && record.applied_date < now ? record.applied_date : now
}

/** What a history entry records. `status` and `notes` come from status changes; the others from the tracker's edits. */
const CHANGE_KINDS = ['status', 'notes', 'edit', 'removed', 'restored', 'interview', 'contact'] as const

/** An edited field's value before and after. */
const fieldChangeSchema = /* @__PURE__ */ z.object({from: /* @__PURE__ */ z.string(), to: /* @__PURE__ */ z.string()})

type FieldChange = z.output<typeof fieldChangeSchema>

/**
 * One entry of an application's history. Every entry keeps the status and notes before it (`old_status`,
 * `old_notes`) and the status after it (`new_status`); an edit adds the fields it changed (`details`), an interview
 * or a contact what was added.
 */
export const statusChangeSchema = /* @__PURE__ */ z.object({
  changed_at: /* @__PURE__ */ z.string(),
  old_status: /* @__PURE__ */ z.enum(APPLICATION_STATUSES),
  new_status: /* @__PURE__ */ z.enum(APPLICATION_STATUSES),
  old_notes: /* @__PURE__ */ z.string(),
  change: /* @__PURE__ */ z.enum(CHANGE_KINDS),
  details: /* @__PURE__ */ z.nullable(
    /* @__PURE__ */ z.record(
      /* @__PURE__ */ z.string(),
      /* @__PURE__ */ z.union([/* @__PURE__ */ z.string(), fieldChangeSchema]),
    ),
  ),
})

export type StatusChange = z.output<typeof statusChangeSchema>

/**
 * A history entry in words, as `status <id>` and the dashboard show it: the status change with the notes it
 * replaced, a notes change, or the tracker's edit. `notes` makes the old notes fit the screen.
 */
export function describeChange(change: StatusChange, style: {arrow: string; notes: (notes: string) => string}): string {
  const were = change.old_notes ? `notes were: ${style.notes(change.old_notes)}` : ''
  const details = Object.entries(change.details ?? {})
  const said = (value: FieldChange | string) => (typeof value === 'string' ? value : value.to)
  switch (change.change) {
    case 'notes':
      return `notes changed (${were || 'there were none'})`
    case 'edit':
      return `edited ${details
        .map(([field, value]) =>
          typeof value === 'string'
            ? `${field}: ${value}`
            : `${field} ${JSON.stringify(value.from)} ${style.arrow} ${JSON.stringify(value.to)}`,
        )
        .join(', ')}`
    case 'removed':
      return 'removed from lists and stats'
    case 'restored':
      return 'restored to lists and stats'
    case 'contact':
      return details.map(([what, value]) => `contact ${what}: ${said(value)}`).join(', ')
    case 'interview':
      if (details[0]?.[0] === 'removed') return `interview removed: ${said(details[0][1])}`
      return `${change.change} added: ${details
        .map(([, value]) => said(value))
        .filter(Boolean)
        .join(', ')}`
    default:
      return `${change.old_status} ${style.arrow} ${change.new_status}${were ? ` (${were})` : ''}`
  }
}

/** How a history entry names a document: its file and the start of its hash. */
function documentWords(document: ApplicationDocument): string {
  return `${document.path} (sha256 ${document.sha256.slice(0, 12)})`
}

/**
 * The documents with the new ones in, each replacing the one of its kind, in DOCUMENT_KINDS order, and the history
 * entry's details of what changed (null when each new one is the one held already, same path and hash).
 */
export function withDocuments(
  held: readonly ApplicationDocument[],
  added: readonly ApplicationDocument[],
): {documents: ApplicationDocument[]; details: Record<string, FieldChange> | null} {
  const byKind = new Map(held.map((document) => [document.kind, document]))
  const details: Record<string, FieldChange> = {}
  for (const document of added) {
    const before = byKind.get(document.kind)
    if (before && before.path === document.path && before.sha256 === document.sha256 && before.copy === document.copy) {
      continue
    }
    details[document.kind] = {from: before ? documentWords(before) : '', to: documentWords(document)}
    byKind.set(document.kind, document)
  }
  const documents = DOCUMENT_KINDS.flatMap((kind) => byKind.get(kind) ?? [])
  return {documents, details: Object.keys(details).length > 0 ? details : null}
}

/** The history entry's details of a next action's change; null when it is the one held already. */
export function nextActionDetails(
  held: Pick<TrackedApplication, 'next_action' | 'next_action_due'>,
  next: {action: string; due: string | null},
): Record<string, FieldChange> | null {
  const details: Record<string, FieldChange> = {}
  if (held.next_action !== next.action) details.next_action = {from: held.next_action, to: next.action}
  if (held.next_action_due !== next.due) {
    details.next_action_due = {from: held.next_action_due ?? '', to: next.due ?? ''}
  }
  return Object.keys(details).length > 0 ? details : null
}

/** A tracked application with its status changes, oldest first. */
export interface ApplicationWithHistory {
  application: TrackedApplication
  history: StatusChange[]
}

/**
 * Whether a record (an import row) says nothing the tracked one does not hold already; its applied date counts only
 * when the row gave one (a missing date is filled in with the import time).
 */
export function sameRecord(
  tracked: ApplicationRecord,
  record: ApplicationRecord,
  options: {dateGiven: boolean},
): boolean {
  return APPLICATION_FIELDS.every(
    (field) => tracked[field] === record[field] || (field === 'applied_date' && !options.dateGiven),
  )
}

/** A tracked application as every listing prints it, one or many: its fields in the schema's order. */
export function trackedRecord(application: TrackedApplication): TrackedApplication {
  return picked(application, TRACKED_FIELDS)
}

/** One application in full: the tracked record and its history, each entry saying what it changed. */
export function applicationDetail({application, history}: ApplicationWithHistory) {
  return {
    ...trackedRecord(application),
    history: history.map((change) => ({...change, summary: describeChange(change, PLAIN_WORDS)})),
  }
}

/** History entries in words for JSON readers (the web page): `->` between statuses, old notes as written. */
const PLAIN_WORDS = {arrow: '->', notes: (notes: string) => notes}

export interface ApplicationCounts {
  total: number
  applied: number
  pending: number
}

/** `pending` means tracked but not yet applied for; every other status counts as applied. */
export function isAppliedStatus(status: ApplicationStatus): boolean {
  return status !== 'saved'
}
