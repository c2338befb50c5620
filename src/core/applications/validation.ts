import {z} from 'zod'
import {type ControlOptions, findControl} from '../control-characters.js'
import {nearestWord} from '../edit-distance.js'
import type {ErrorDetail} from '../errors.js'
import {EARLIEST_YEAR, parseDateTime, toLocalTimestamp} from '../time.js'
import {isHttpUrl} from '../url-identity.js'
import {
  APPLICATION_STATUSES,
  EDITABLE,
  type EditableField,
  type EditRule,
  EXTRA_FIELDS,
  type ExtraField,
  GIVEN_FIELDS,
  NOTES_MAX_LENGTH,
} from './application.js'

const statusList = APPLICATION_STATUSES.join(', ')

/**
 * The words people use for a status in other terms, for the "did you mean": an offer taken is `accepted`, a job
 * turned down by its employer `rejected`. A small table: the statuses are jobagent's own, not data.
 */
const STATUS_WORDS: Readonly<Record<string, (typeof APPLICATION_STATUSES)[number]>> = {
  hired: 'accepted',
  declined: 'rejected',
  interview: 'interviewing',
  interviewed: 'interviewing',
  offered: 'offer',
  withdrew: 'withdrawn',
  bookmarked: 'saved',
}

/** `unknown status "intervewing" (did you mean "interviewing"?); use one of: ...` */
export const statusSchema = z.enum(APPLICATION_STATUSES, {
  error: (issue) => {
    const said = typeof issue.input === 'string' ? issue.input.trim().toLowerCase() : undefined
    const nearest = said === undefined ? undefined : (STATUS_WORDS[said] ?? nearestWord(said, APPLICATION_STATUSES))
    const guess = nearest ? ` (did you mean "${nearest}"?)` : ''
    return `unknown status ${JSON.stringify(issue.input)}${guess}; use one of: ${statusList}`
  },
})

/**
 * Refuses control characters (ESC, NUL, C1) and bidi overrides: stored, they would drive the terminal of whoever
 * lists the record, or show it in another order than it is stored. The message names the character, never
 * echoes the text.
 */
const noControls =
  (field: string, options: ControlOptions = {}) =>
  (value: string, context: z.core.$RefinementCtx<string>) => {
    const found = findControl(value, options)
    if (!found) return
    const allowed = options.keepLineBreaks ? ' (line breaks and tabs are allowed)' : ''
    context.addIssue({
      code: 'custom',
      input: value,
      message: `${field} holds a control character (${found.code} at position ${found.position}); remove it${allowed}`,
      // One clear problem per field: a url with a control character is not also called "not an http address".
      continue: false,
    })
  }

const requiredText = (field: string) =>
  z
    .string({error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be text`)})
    .trim()
    .min(1, `${field} must not be empty`)
    .max(2000, `${field} is longer than 2000 characters`)
    .superRefine(noControls(field))

/** Text that may be empty. */
export const anyText = (field: string) =>
  z
    .string({error: `${field} must be text`})
    .trim()
    .max(2000, `${field} is longer than 2000 characters`)
    .superRefine(noControls(field))

const optionalText = (field: string) => anyText(field).default('')

export const applicationUrlSchema = z
  .string({error: (issue) => (issue.input === undefined ? 'url is required' : 'url must be text')})
  .trim()
  // An empty url is that alone, not also "not an http address".
  .min(1, {error: 'url must not be empty', abort: true})
  .max(2048, {error: 'url is longer than 2048 characters', abort: true})
  .superRefine(noControls('url'))
  .refine(isHttpUrl, {message: 'url must be an http:// or https:// address'})

/** Notes may span lines; every other control character is refused as in the other fields. */
export const notesSchema = z
  .string({error: 'notes must be text'})
  .max(NOTES_MAX_LENGTH, `notes are longer than ${NOTES_MAX_LENGTH} characters`)
  .superRefine(noControls('notes', {keepLineBreaks: true}))

/** A schema for each of `fields`, made by `schema` from the field's name (which its messages name). */
function fieldsOf<F extends string, S extends z.ZodType>(fields: readonly F[], schema: (field: F) => S): Record<F, S> {
  return Object.fromEntries(fields.map((field) => [field, schema(field)])) as Record<F, S>
}

/** What a user supplies to track a job (CLI flags, POST /applications, the dashboard). */
export const applicationInputSchema = z.object({
  title: requiredText('title'),
  company: requiredText('company'),
  location: optionalText('location'),
  url: applicationUrlSchema,
  source: requiredText('source'),
  status: statusSchema.default('applied'),
  notes: notesSchema.default(''),
  ...fieldsOf(GIVEN_FIELDS, optionalText),
})

/** How an edit checks a field of each EditRule. */
const EDIT_RULES = {
  required: requiredText,
  text: anyText,
  url: () => applicationUrlSchema,
} satisfies Record<EditRule, (field: string) => z.ZodType<string>>

type EditShape = {[K in EditableField]: z.ZodOptional<ReturnType<(typeof EDIT_RULES)[(typeof EDITABLE)[K]['rule']]>>}

/**
 * What `jobagent edit` and PATCH /applications/{ref} change: any of the EDITABLE fields, none other, each checked
 * by its rule. Title, company, source and URL stay required (not empty); location and the salary lines may be
 * emptied.
 */
export const applicationEditSchema = z.strictObject(
  Object.fromEntries(
    Object.entries(EDITABLE).map(([field, {rule}]) => [field, EDIT_RULES[rule](field).optional()]),
  ) as EditShape,
  {error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : undefined)},
)

/** Something, an @, a domain; no spaces. Neither part holds an `@`, so the pattern reads the address once. */
const EMAIL = /^[^\s@<>]+@([^\s@<>]+)$/

/** An email address as a person writes one: something, an @, a domain with a dot inside it; no spaces. */
function isEmail(value: string): boolean {
  const domain = EMAIL.exec(value)?.[1]
  return domain?.slice(1, -1).includes('.') ?? false
}

const emailSchema = anyText('email').refine(isEmail, {
  message: 'email must be an address such as ann@example.org',
})
const linkSchema = anyText('link').refine(isHttpUrl, {message: 'link must be an http:// or https:// address'})

/**
 * A contact as a front end gives it: `email` or `link` (the CLI's flags) or `reach` (either of them, as stored and
 * exported), at most one; each refused, naming it, when it is neither an address nor a web link. Notes may span
 * lines.
 */
export const contactInputSchema = z
  .strictObject(
    {
      name: requiredText('name'),
      role: optionalText('role'),
      email: emailSchema.optional(),
      link: linkSchema.optional(),
      reach: anyText('reach')
        .refine((value) => value === '' || isEmail(value) || isHttpUrl(value), {
          message: 'reach must be an email address or an http:// or https:// link',
        })
        .optional(),
      notes: notesSchema.default(''),
    },
    {error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : undefined)},
  )
  .superRefine((contact, context) => {
    const given = (['email', 'link', 'reach'] as const).filter((field) => contact[field])
    if (given.length > 1) {
      context.addIssue({code: 'custom', path: [given[1] ?? ''], message: `give only one of ${given.join(', ')}`})
    }
  })
  .transform(({name, role, email, link, reach, notes}) => ({name, role, reach: email || link || reach || '', notes}))

/** A list of contacts without what the tracker numbers them by (an export carries ids; an import gives new ones). */
function withoutNumbering(value: unknown): unknown {
  if (!Array.isArray(value)) return value
  return value.map((contact: unknown) => {
    if (typeof contact !== 'object' || contact === null) return contact
    const {id: _id, application_id: _application, created_at: _created, ...fields} = contact as Record<string, unknown>
    return fields
  })
}

/**
 * The contacts of an imported record: a JSON array of contacts, or its text (a CSV cell); an empty cell is none.
 * A contact's fields are checked as contactInputSchema checks them.
 */
const importedContactsSchema = z.preprocess(
  (value, context) => {
    if (typeof value !== 'string') return withoutNumbering(value)
    if (value.trim() === '') return []
    try {
      return withoutNumbering(JSON.parse(value))
    } catch {
      context.issues.push({
        code: 'custom',
        input: value,
        message:
          'contacts must be a JSON array such as [{"name":"Ann Lee","role":"recruiter","reach":"ann@example.org"}]',
      })
      return z.NEVER
    }
  },
  z.array(contactInputSchema, {error: 'contacts must be a list of contacts'}).max(100, 'more than 100 contacts'),
)

export type ApplicationInput = z.input<typeof applicationInputSchema>
export type ValidApplicationInput = z.output<typeof applicationInputSchema>

/** A record read from an import file: the input fields plus an optional applied_date. */
export const importedRecordSchema = applicationInputSchema.extend({
  // Brought into the form jobagent stores (local time, no zone, milliseconds), so every record sorts and reads alike.
  applied_date: z
    .string({error: 'applied_date must be text'})
    .trim()
    .transform((value, context) => {
      if (value === '') return value
      if ((parseDateTime(value)?.year ?? EARLIEST_YEAR) < EARLIEST_YEAR) {
        context.issues.push({
          code: 'custom',
          input: value,
          message: `applied_date ${JSON.stringify(value)} is before the year ${EARLIEST_YEAR}; write the year in full, e.g. 2026-11-22`,
        })
        return z.NEVER
      }
      const local = toLocalTimestamp(value)
      if (local !== undefined) return local
      context.issues.push({
        code: 'custom',
        input: value,
        message:
          `applied_date ${JSON.stringify(value)} is not a real date or time; use ISO 8601 such as ` +
          '2026-11-22T05:17:33.123, 2026-11-22T04:17:33Z or 2026-11-22',
      })
      return z.NEVER
    })
    .optional(),
  notes: z.preprocess((value) => (value === null ? '' : value), notesSchema.default('')),
  // Left out when the file has no column for one: the tracked value stays.
  ...fieldsOf<ExtraField, z.ZodOptional<ReturnType<typeof anyText>>>(EXTRA_FIELDS, (field) =>
    anyText(field).optional(),
  ),
  contacts: importedContactsSchema.optional(),
  // An empty status cell in a hand-made CSV means the default, as a missing status column does.
  status: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    statusSchema.default('applied'),
  ),
})

export type ImportedRecord = z.output<typeof importedRecordSchema>

export function issuesToDetails(issues: readonly z.core.$ZodIssue[], row?: number): ErrorDetail[] {
  return issues.map((issue) => ({
    ...(issue.path.length > 0 ? {field: issue.path.join('.')} : {}),
    ...(row === undefined ? {} : {row}),
    message: issue.message,
  }))
}
