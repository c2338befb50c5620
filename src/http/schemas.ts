import {z} from '@hono/zod-openapi'
import {
  APPLICATION_FIELDS,
  APPLICATION_STATUSES,
  statusChangeSchema,
  TRACKED_FIELDS,
  trackedApplicationSchema,
} from '../core/applications/application.js'
import {backupSchema} from '../core/applications/backup.js'
import {contactSchema} from '../core/applications/contact.js'
import {interviewInputSchema} from '../core/applications/interview-validation.js'
import {INTERVIEW_APPLICATION_FIELDS, interviewSchema} from '../core/applications/interviews.js'
import {FUNNEL_STAGES} from '../core/applications/stats.js'
import {
  applicationEditSchema,
  applicationInputSchema,
  contactInputSchema,
  notesSchema,
  statusSchema,
} from '../core/applications/validation.js'
import {JOB_RESPONSE_FIELDS} from '../core/jobs/job.js'
import {storedJobSchema} from '../core/jobs/job-store.js'
import {jobTrackingSchema} from '../core/jobs/job-tracking.js'
import {ledgerRunSchema} from '../core/jobs/run-ledger.js'
import {salarySchema} from '../core/jobs/salary.js'
import {runSourceOutcomeSchema, sourceOutcomeSchema} from '../core/jobs/search-result.js'
import {type PageBounds, wholeNumberMessage} from '../core/paging.js'

/**
 * The shapes of the API for the OpenAPI document. Input is validated by the core schemas (the same rules and
 * messages as the CLI); response schemas document what the routes return.
 */

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({example: 'validation'}),
      message: z.string().openapi({example: 'invalid application: title is required'}),
      details: z.array(
        z.object({
          field: z.string().optional(),
          row: z.number().int().optional(),
          message: z.string(),
        }),
      ),
      hint: z.string().optional().openapi({
        description: 'what to do about it, where the error has advice for API clients',
        example: 'list tracked applications with their ids: jobagent status',
      }),
    }),
  })
  .openapi('Error')

// zod 4 binds methods to a schema when it is built, so core schemas built before @hono/zod-openapi extended zod
// have no .openapi(); a clone is built now and has it, with the same rules and messages.
export const StatusSchema = statusSchema.clone().openapi('ApplicationStatus')

/**
 * A core schema as the API documents it: a zod schema of the same type, which can carry OpenAPI metadata; an
 * optional field stays optional in the objects it is a field of.
 */
type Documented<S extends z.core.$ZodType> =
  S extends z.core.$ZodOptional<infer Inner> ? z.ZodOptional<z.ZodType<z.output<Inner>>> : z.ZodType<z.output<S>>

/**
 * The API's schema of a core record's field (core schemas are zod/mini, which the OpenAPI generator cannot read):
 * the same type, built with the API's zod. A field of a type not named here is a bug, reported when the API loads.
 */
function documented<S extends z.core.$ZodType>(schema: S): Documented<S> {
  const def = schema._zod.def as z.core.$ZodTypes['_zod']['def']
  const built = (() => {
    switch (def.type) {
      case 'string':
        return z.string()
      case 'number':
        return 'format' in def && def.format === 'safeint' ? z.number().int() : z.number()
      case 'boolean':
        return z.boolean()
      case 'unknown':
        return z.unknown()
      case 'enum':
        return z.enum(Object.values(def.entries) as [string, ...string[]])
      case 'literal':
        return z.literal(def.values as z.core.util.Literal[])
      case 'nullable':
        return documented(def.innerType).nullable()
      case 'optional':
        return documented(def.innerType).optional()
      case 'array':
        return z.array(documented(def.element))
      case 'record':
        return z.record(z.string(), documented(def.valueType))
      case 'union': {
        const options = def.options.map((option) => documented(option))
        return 'discriminator' in def && typeof def.discriminator === 'string'
          ? z.discriminatedUnion(def.discriminator, options as unknown as [z.ZodObject, ...z.ZodObject[]])
          : z.union(options)
      }
      case 'object':
        return z.object(documentedShape(def.shape))
      default:
        throw new Error(`the API cannot document a core field of type ${def.type}`)
    }
  })()
  return built as unknown as Documented<S>
}

type Shape = Record<string, z.core.$ZodType>
/** What the document says of a field. */
type Words = {description?: string; example?: unknown}
type DocumentedShape<S extends Shape> = {[K in keyof S]: Documented<S[K]>}

/**
 * A core record's fields as the API documents them, in order, each with its words and examples from `words`, or
 * replaced by the schema `words` gives for it (a named component such as ApplicationStatus).
 */
function documentedShape<S extends Shape>(
  shape: S,
  words: {[K in keyof S]?: z.ZodType | Words} = {},
): DocumentedShape<S> {
  return Object.fromEntries(
    Object.entries(shape).map(([field, schema]) => {
      const given = words[field]
      if (given instanceof z.ZodType) return [field, given]
      return [field, given === undefined ? documented(schema) : documented(schema).openapi(given)]
    }),
  ) as DocumentedShape<S>
}

/** The fields of a shape named by `fields`, in that order. */
function fieldsOf<S extends Shape, K extends keyof S>(shape: S, fields: readonly K[]): Pick<S, K> {
  return Object.fromEntries(fields.map((field) => [field, shape[field]])) as Pick<S, K>
}

/** Every field of a tracked application (core trackedApplicationSchema) with the API's words. */
const TRACKED_SHAPE = documentedShape(trackedApplicationSchema.shape, {
  url: {example: 'https://example.org/jobs/42'},
  applied_date: {example: '2026-11-22T05:17:33.123'},
  status: StatusSchema,
  id: {description: 'the short id, stable for the life of the record', example: 12},
  updated_at: {description: 'when it last changed', example: '2026-11-23T10:02:11.480'},
  posting_closed_at: postingClosedField(),
  salary_expected: {description: 'the salary asked for, as written; empty when unset'},
  salary_offered: {description: 'the salary offered, as written; empty when unset'},
  referral: {description: 'who referred the person for the job, as written; empty when nobody did'},
  removed_at: {description: 'when it was removed from lists and stats (DELETE); null for a listed one'},
  next_action: {
    description: 'what the person means to do next for it (PUT /applications/{url}/next); empty when nothing',
    example: 'send portfolio',
  },
  next_action_due: {
    description: 'the day the next action is due (YYYY-MM-DD); null without one',
    example: '2026-12-05',
  },
  documents: {
    description:
      'the documents sent with it (`jobagent apply`/`edit --cv --cover-letter`): kind, absolute path, SHA-256 of ' +
      'the bytes (hex), the copy kept under the data directory or null, when it was recorded',
  },
})

const ApplicationSchema = z.object(fieldsOf(TRACKED_SHAPE, APPLICATION_FIELDS)).openapi('Application')

export const ApplicationRequestSchema = applicationInputSchema.clone().openapi('ApplicationRequest', {
  example: {
    title: 'Backend Engineer',
    company: 'Acme',
    location: 'Berlin',
    url: 'https://example.org/jobs/42',
    source: 'remoteok',
  },
})

/** An application field as tracking a job may give it: optional, and without its default, so the job's value stays. */
const givenField = (schema: z.ZodType) =>
  (schema instanceof z.ZodDefault ? (schema.unwrap() as z.ZodType) : schema).optional()

/**
 * POST /jobs/track: a stored job by its id or by a link to it (any tracking parameters), or any link with the
 * fields of an application; each field given wins over the job's.
 */
export const TrackJobRequestSchema = z
  .object({
    job_id: z.number().int().min(1).optional().openapi({description: 'the id of a stored job (GET /jobs/last)'}),
    ...(Object.fromEntries(
      Object.entries(applicationInputSchema.shape).map(([field, schema]) => [
        field,
        givenField(schema as unknown as z.ZodType),
      ]),
    ) as {[K in keyof typeof applicationInputSchema.shape]: z.ZodOptional<z.ZodType<string>>}),
  })
  .openapi('TrackJobRequest', {
    example: {url: 'https://boards.greenhouse.io/acme/jobs/123?gh_src=abc'},
  })

/** What GET /applications/{url}/status shows of the application, in this order. */
export const STATUS_VIEW_FIELDS = ['url', 'status', 'notes', 'applied_date', 'updated_at'] as const

export const ApplicationStatusSchema = z
  .object(fieldsOf(TRACKED_SHAPE, STATUS_VIEW_FIELDS))
  .openapi('ApplicationStatusView')

/** One change of an application's status, as the tracker keeps it (the notes it replaced included). */
const StatusChangeRecordSchema = z
  .object({
    ...documentedShape(statusChangeSchema.shape, {
      changed_at: {
        description:
          'when the change was made: local time with its UTC offset (changes recorded before offsets were kept have none)',
        example: '2026-11-23T10:02:11.480+01:00',
      },
      old_status: StatusSchema,
      new_status: StatusSchema,
      old_notes: {description: 'the notes before this change (the change replaced them)'},
      change: {
        description:
          'status: the status changed (and the notes were replaced); notes: only the notes were edited; edit: fields ' +
          'were edited (details: each field from and to); removed, restored: taken out of lists and stats or brought ' +
          'back; interview, contact: one was added (details say which)',
      },
      details: {description: 'what an edit, an interview or a contact changed; null for status and notes changes'},
    }),
    summary: z.string().openapi({
      description: 'the entry in words, as `jobagent status <id>` shows it',
      example: 'applied -> interviewing (notes were: sent CV)',
    }),
  })
  .openapi('StatusHistoryEntry')

/** A tracked application as every listing shows it: the record, its id and what else the tracker keeps. */
export const TrackedApplicationSchema = ApplicationSchema.extend(
  fieldsOf(
    TRACKED_SHAPE,
    TRACKED_FIELDS.filter((field) => !(APPLICATION_FIELDS as readonly string[]).includes(field)) as Exclude<
      (typeof TRACKED_FIELDS)[number],
      (typeof APPLICATION_FIELDS)[number]
    >[],
  ),
).openapi('TrackedApplication')

/** PUT /applications/{url}/next: the next action and its due date. */
export const NextActionRequestSchema = z
  .object({
    next_action: z.string().optional().openapi({
      description: 'the action; "" clears it and its due date; left out, the held one stays (to move its date)',
      example: 'send portfolio',
    }),
    due: z.string().optional().openapi({description: 'YYYY-MM-DD; "" or left out: no due date', example: '2026-12-05'}),
  })
  .openapi('NextActionRequest')

/** The answer to recording an application (POST /applications, POST /jobs/track). */
export const RecordedSchema = z.object({status: z.literal('recorded'), application: TrackedApplicationSchema})

/** PATCH /applications/{url}: the fields to change; each change is kept in the history. */
export const ApplicationEditSchema = applicationEditSchema.clone().openapi('ApplicationEdit', {
  example: {title: 'Staff Backend Engineer', salary_offered: '€85k'},
})

/** An interview as kept (core interviewRecord): the kept fields, its start in UTC after its zone. */
const {
  id: interviewId,
  application_id,
  starts_at,
  time_zone,
  interviewer_ids: _interviewerIds,
  ...interviewRest
} = documentedShape(interviewSchema.shape, {
  id: {example: 3},
  application_id: {example: 12},
  starts_at: {description: 'local time in time_zone', example: '2026-12-02T14:00'},
  time_zone: {description: 'IANA time zone', example: 'Europe/Berlin'},
  with: {description: 'who is met that is not a contact of the application, as written', example: 'Bo Chen, CTO'},
  created_at: {example: '2026-11-23T10:02:11.480'},
})

const InterviewSchema = z
  .object({
    id: interviewId,
    application_id,
    starts_at,
    time_zone,
    starts_at_utc: z.string().openapi({example: '2026-12-02T13:00:00Z'}),
    ...interviewRest,
    interviewers: z
      .array(
        z.object({
          id: z.number().int().openapi({example: 4}),
          name: z.string().openapi({example: 'Ann Lee'}),
          role: z.string().openapi({example: 'recruiter'}),
          reach: z.string().openapi({example: 'ann@example.org'}),
        }),
      )
      .openapi({description: 'the contacts of the application met, in the order given (`with` names them)'}),
  })
  .openapi('Interview')

/** POST /applications/{url}/interviews: checked by the core's rules. */
export const InterviewRequestSchema = interviewInputSchema.clone().openapi('InterviewRequest', {
  description:
    'starts_at: local time "YYYY-MM-DD HH:MM" (or with T); time_zone: an IANA zone, the server\'s own when left ' +
    "out; the names of the answer (the CLI's --at and --zone). at: the older name of starts_at, still taken (not both)",
  example: {starts_at: '2026-12-02 14:00', time_zone: 'Europe/Berlin', kind: 'video', with: 'Ann Lee, CTO'},
})

/** The application an interview belongs to, in lists of interviews. */
const InterviewApplicationSchema = z.object(fieldsOf(TRACKED_SHAPE, INTERVIEW_APPLICATION_FIELDS))

/** An interview with its application (GET /interviews). */
const ScheduledInterviewSchema = InterviewSchema.extend({application: InterviewApplicationSchema}).openapi(
  'ScheduledInterview',
)

/** GET /interviews: the interviews with their applications. */
export const InterviewsSchema = z.object({interviews: z.array(ScheduledInterviewSchema), count: z.number().int()})

/** POST /applications/{url}/interviews: the interview added and the application as it is now. */
export const InterviewAddedSchema = z.object({
  interview: InterviewSchema,
  application: TrackedApplicationSchema,
  previous_status: StatusSchema,
})

/** What GET /applications/followups adds about interviews (core remindersDocument). */
const InterviewRemindersFields = {
  upcoming_interviews: z
    .array(
      ScheduledInterviewSchema.extend({
        when: z.string().openapi({description: 'when it starts, in words', example: 'tomorrow 14:00'}),
      }),
    )
    .openapi({description: 'interviews starting in the next 48 hours, soonest first'}),
  waiting_after_interview: z
    .array(
      z.object({
        application: InterviewApplicationSchema,
        last_interview: InterviewSchema,
        days_since: z.number().int(),
      }),
    )
    .openapi({
      description: 'applications in interviewing whose last interview is over and that have not changed since',
    }),
}

/** A contact of an application (POST /applications/{url}/contacts, `contacts` of GET /applications/{url}). */
export const ContactSchema = z
  .object(
    documentedShape(contactSchema.shape, {
      id: {description: 'the contact id, what DELETE takes', example: 3},
      application_id: {example: 12},
      name: {example: 'Ann Lee'},
      role: {description: 'empty when not given', example: 'recruiter'},
      reach: {description: 'an email address or an http(s) link; empty when none', example: 'ann@example.org'},
      created_at: {example: '2026-11-23T10:02:11.480'},
    }),
  )
  .openapi('Contact')

/** An application as GET /applications and `status --json` list it: the record with its contacts' fields. */
const ListedApplicationSchema = TrackedApplicationSchema.extend({
  contacts: z
    .array(ContactSchema.pick({name: true, role: true, reach: true, notes: true}))
    .openapi({description: 'its contacts as the export carries them, oldest first'}),
}).openapi('ListedApplication')

/** POST /applications/{url}/contacts: a name, and optionally a role, an email or a link (or `reach`), notes. */
export const ContactRequestSchema = contactInputSchema.clone().openapi('ContactRequest', {
  example: {name: 'Ann Lee', role: 'recruiter', email: 'ann@example.org'},
})

/** GET /applications/{url}: the record as `jobagent status <url> --json` prints it. */
export const ApplicationWithHistorySchema = TrackedApplicationSchema.extend({
  history: z.array(StatusChangeRecordSchema).openapi({description: 'every change, oldest first'}),
  interviews: z.array(InterviewSchema).openapi({description: 'its interviews, by when they start'}),
  contacts: z.array(ContactSchema).openapi({description: 'the contacts, oldest first'}),
}).openapi('ApplicationWithHistory')

/** When the job an application is for closed (docs/LIFECYCLE.md). */
function postingClosedField() {
  return z.string().nullable().openapi({
    description: 'when the job behind the application was found closed (no board lists it any more); null while open',
    example: null,
  })
}

/**
 * PATCH takes status and notes from a JSON body or the query string; both optional here, checked together with
 * the core's rules (statusChangeInput). A value of the wrong type is refused in the same words.
 */
export const StatusChangeSchema = z
  .object({
    status: z
      .string({
        error: (issue) =>
          `unknown status ${JSON.stringify(issue.input)}; use one of: ${APPLICATION_STATUSES.join(', ')}`,
      })
      .optional()
      .openapi({description: `one of ${APPLICATION_STATUSES.join(', ')}`}),
    notes: z
      .string({error: 'notes must be text'})
      .optional()
      .openapi({description: 'replaces the notes; empty when left out'}),
  })
  .openapi('StatusChange')

/** The merged PATCH input, validated with the core's status rule. */
export const statusChangeInput = z.object({
  status: z
    .unknown()
    .refine((value) => value !== undefined, {message: 'status is required'})
    .pipe(statusSchema),
  notes: notesSchema.default(''),
})

export const UrlParamSchema = z.object({
  url: z.string().openapi({
    param: {name: 'url', in: 'path'},
    description:
      'The short id of the application (12), or its full URL percent-encoded as one path segment ' +
      '(encodeURIComponent); a URL with tracking parameters finds the application tracked without them',
    example: '12',
  }),
})

/** A job's pay (core salarySchema) with the API's words. */
const SalarySchema = z
  .object(
    documentedShape(salarySchema.shape, {
      min: {description: 'as the board states it'},
      currency: {description: 'ISO 4217', example: 'EUR'},
      annual_min: {description: 'min per year (hour x 2080, day x 260, week x 52, month x 12)'},
      text: {description: 'what the board wrote, when it wrote text'},
    }),
  )
  .openapi('Salary')

/** Every field of a stored job (core storedJobSchema, its JobResponse fields included) with the API's words. */
const STORED_JOB_SHAPE = documentedShape(storedJobSchema.shape, {
  id: {description: 'short id, as `jobagent apply <id>` takes it', example: 12},
  posted_date: {example: '2026-04-10T00:28:23Z'},
  description: {
    description: 'plain text: HTML removed, paragraphs and list items on lines of their own; at most 20,000 characters',
  },
  salary: SalarySchema.nullable(),
  employment_type: {example: 'full_time'},
  remote: {description: 'what the board says; null when it does not'},
  regions: {
    description: 'where the board says a candidate may be; empty when not stated or anywhere',
    example: ['Europe'],
  },
  timezones: {example: ['UTC-5', 'UTC+1']},
  seniority: {description: "the board's level, as written", example: 'Senior'},
  tags: {description: "the board's tags or categories"},
  board_id: {description: "the board's own id of the posting"},
  first_seen: {example: '2026-11-20T07:30:02.114'},
  last_seen: {example: '2026-11-22T07:30:01.870'},
  closed_at: {
    description: 'when the job was found closed: every board that listed it stopped (docs/LIFECYCLE.md); null: open',
  },
  reopened: {description: 'how many times it came back after it closed', example: 0},
  reposted: {
    description: 'how many times the role reappeared after closing or under a new URL within 90 days',
    example: 0,
  },
  also_on: {
    description:
      'the other boards and URLs the role was listed under, newest first, each with its location where the board gave one',
  },
})

/**
 * What the tracker holds about a job (core jobTrackingSchema, trackingOfJob): matched by the job's URL or its
 * canonical URL (tracking parameters such as utm_* removed), exactly as `jobagent run` counts new jobs. Its
 * tracked_status is a fresh enum, not ApplicationStatus: a nullable named schema would make the shared component
 * nullable.
 */
const TRACKING_SHAPE = documentedShape(jobTrackingSchema.shape, {
  tracked_status: {
    description: 'the status of the application tracked for this job (by its URL or canonical URL); null when none',
  },
  tracked_url: {
    description: 'the URL that application is tracked under (may differ by tracking parameters); null when none',
  },
  is_new: {
    description: 'not yet applied for (untracked, or tracked as saved) and still listed (a closed job is never new)',
  },
})

/** POST /jobs/tracking: which of these job URLs are tracked, and which are new. */
export const TrackingRequestSchema = z
  .object({
    urls: z
      .array(z.string({error: 'every url must be text'}).max(2048, 'a url is longer than 2048 characters'), {
        error: (issue) => (issue.input === undefined ? 'urls is required' : 'urls must be a list of job URLs'),
      })
      .max(1000, 'at most 1000 urls')
      .openapi({example: ['https://remoteok.com/remote-jobs/1?utm_source=feed']}),
  })
  .openapi('TrackingRequest')

const JobTrackingSchema = z.object({url: z.string(), ...TRACKING_SHAPE}).openapi('JobTracking')

/** A job the last run stored, seen against the tracker (what `jobagent jobs --json` lists). */
export const ListedJobSchema = z.object({...STORED_JOB_SHAPE, ...TRACKING_SHAPE, ...scoreFields()}).openapi('ListedJob')

/** The fields of a listed job, in the order the API gives them whatever else the catalog keeps about it. */
export const LISTED_JOB_FIELDS = Object.keys(ListedJobSchema.shape) as (keyof typeof ListedJobSchema.shape)[]

/** A stored job's id in the path (`/jobs/{id}/verdict`). */
export const JobIdParamSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, {
      error: (issue) => `id must be a job id (a whole number from 1), got ${JSON.stringify(issue.input)}`,
    })
    .transform(Number)
    .openapi({param: {name: 'id', in: 'path'}, description: 'the job id, as `jobagent jobs` shows it', example: '17'}),
})

/** A verdict on a job (POST /jobs/{id}/verdict). */
export const VerdictRequestSchema = z
  .object({
    verdict: z
      .enum(['like', 'dismiss'], {
        error: (issue) => `verdict must be one of: like, dismiss, got ${JSON.stringify(issue.input)}`,
      })
      .openapi({description: 'like: rank jobs like it higher; dismiss: hide it for good'}),
    reason: z
      .string()
      .max(200)
      .nullable()
      .optional()
      .openapi({description: 'why, in a few words', example: 'too senior'}),
  })
  .strict()
  .openapi('VerdictRequest')

/** A verdict as kept. */
const VerdictSchema = z
  .object({
    job_id: z.number().int().openapi({example: 17}),
    verdict: z.enum(['like', 'dismiss']),
    reason: z.string().nullable(),
    given_by: z
      .enum(['user', 'tracked'])
      .openapi({description: 'tracked: the job was tracked, which counts as a like'}),
    given_at: z.string().openapi({example: '2026-11-22T07:31:02.114'}),
    title: z.string(),
    company: z.string(),
    tags: z.array(z.string()),
  })
  .openapi('Verdict')

/** A job a search found (GET /jobs): its JobResponse fields, seen against the tracker as the run sees it. */
export const FoundJobSchema = z
  .object({...fieldsOf(STORED_JOB_SHAPE, JOB_RESPONSE_FIELDS), ...TRACKING_SHAPE, ...scoreFields()})
  .openapi('FoundJob')

/** A job's score against the profile in the config (docs/MATCHING.md); null and empty without a profile. */
function scoreFields() {
  return {
    score: z.number().int().min(0).max(100).nullable().openapi({example: 72}),
    reasons: z.array(z.string()).openapi({example: ['+ typescript (title)', 'location: remote (Europe) fits']}),
  }
}

/** How one board fared in a search (core sourceOutcomeSchema). */
const SourceOutcomeSchema = z
  .object(
    documentedShape(sourceOutcomeSchema.shape, {status: {description: 'the HTTP status a failed board answered with'}}),
  )
  .openapi('SourceOutcome')

/** A board's outcome in a run: the search's, and whether the board looked wrong (core runSourceOutcomeSchema). */
const RunSourceSchema = SourceOutcomeSchema.extend(
  fieldsOf(
    documentedShape(runSourceOutcomeSchema.shape, {
      anomaly: {
        description:
          'set when the board looked wrong: 0 jobs where it usually has some (`zero_yield`), or 404 or no jobs ' +
          'in each of its last `run.dead_after_runs` runs (`dead`)',
      },
    }),
    ['anomaly'],
  ),
).openapi('RunSourceOutcome')

/** Every field of a run as the ledger lists it (core ledgerRunSchema) with the API's words. */
const RUN_SHAPE = documentedShape(ledgerRunSchema.shape, {
  started_at: {example: '2026-11-22T07:30:00.412'},
  finished_at: {example: '2026-11-22T07:30:03.058'},
  sources: z.array(RunSourceSchema),
})

/** A run of the ledger (GET /runs): its record, with its duration after its times. */
const {id: runId, started_at, finished_at, duration_ms, ...runRest} = RUN_SHAPE
export const RunSchema = z.object({id: runId, started_at, finished_at, duration_ms, ...runRest}).openapi('Run')

/** What GET /jobs/last shows of the run that stored the listed jobs, in this order. */
export const LAST_RUN_FIELDS = ['id', 'started_at', 'finished_at', 'status', 'jobs_found', 'new_jobs'] as const

/** The run that stored the listed jobs, null before any; inline, since a nullable named schema alters its component. */
const LastRunSchema = z.object(fieldsOf(RUN_SHAPE, LAST_RUN_FIELDS)).nullable()

export const HealthSchema = z
  .object({
    status: z.enum(['pass', 'warn', 'fail']),
    version: z.string(),
    uptime_seconds: z.number(),
    checks: z.record(
      z.string(),
      z.array(
        z
          .object({
            status: z.enum(['pass', 'warn', 'fail']),
            componentType: z.string().optional(),
            observedValue: z.union([z.number(), z.string(), z.null()]).optional(),
            observedUnit: z.string().optional(),
            output: z.string().optional(),
            time: z.string(),
          })
          .catchall(z.unknown()),
      ),
    ),
  })
  .openapi('Health')

/**
 * Response helpers: every error status shares the error body. Every route may also answer 400 (a path that is not
 * valid percent-encoding, refused before any route) and 503 (jobagent.db locked by another process beyond the wait,
 * or unreadable), so those two are always listed.
 */
export function errorResponses(...statuses: (401 | 404 | 409 | 413 | 414 | 415 | 422)[]) {
  const descriptions: Record<number, string> = {
    400: 'Malformed request: invalid JSON, or a path that is not valid percent-encoding',
    401: 'Missing or wrong bearer token',
    404: 'Not found',
    409: 'Conflict',
    413: 'Body larger than 64 KiB',
    414: 'Query string names more items than the route takes',
    415: 'Body is not JSON',
    422: 'Invalid input; details name the fields',
    503:
      'A store or board is unavailable (a locked database answers with Retry-After), or the configuration the ' +
      'request needs is invalid (code "configuration")',
  }
  const listed = [...new Set<number>([400, ...statuses, 503])].sort((a, b) => a - b)
  return Object.fromEntries(
    listed.map((status) => [
      status,
      {description: descriptions[status] ?? 'Error', content: {'application/json': {schema: ErrorSchema}}},
    ]),
  )
}

/**
 * A whole number in the query string, refused with the parameter's name, its range and what was sent: the words
 * the services use for a number out of range (`limit must be a whole number from 1 to 1000, got 0`).
 */
export function wholeNumberQuery(
  name: string,
  range: {min: number; max?: number},
  openapi: {description: string; example: string},
) {
  const error = (issue: {input?: unknown}) => wholeNumberMessage(name, range, JSON.stringify(issue.input))
  return z
    .string()
    .regex(/^\d+$/, {error})
    .transform(Number)
    .pipe(z.number().max(range.max ?? Number.MAX_SAFE_INTEGER, {error}))
    .optional()
    .openapi(openapi)
}

/** One of a few words in the query string, refused naming the parameter and the words it takes. */
export function wordQuery<const Words extends readonly [string, ...string[]]>(
  name: string,
  words: Words,
  openapi: {description: string; example: string},
) {
  const error = (issue: {input?: unknown}) =>
    `${name} must be one of: ${words.join(', ')}, got ${JSON.stringify(issue.input)}`
  return z.enum(words, {error}).optional().openapi(openapi)
}

/** `limit` and `offset` of a paged list, as every list route takes them; the bounds are checked by the service. */
export function pageQuery(items: string, bounds: PageBounds) {
  return {
    limit: wholeNumberQuery(
      'limit',
      {min: 1, max: bounds.maxLimit},
      {
        description: `${items} per page, 1-${bounds.maxLimit} (default ${bounds.defaultLimit})`,
        example: String(bounds.defaultLimit),
      },
    ),
    offset: wholeNumberQuery('offset', {min: 0}, {description: `${items} to skip (default 0)`, example: '0'}),
  }
}

/** What a paged answer adds beside its list: `total` for paging, and the page it is. */
export const pageFields = {
  count: z.number().int().openapi({description: 'items in this answer'}),
  total: z.number().int().openapi({description: 'items in the whole list'}),
  limit: z.number().int(),
  offset: z.number().int(),
}

// The bodies of the answers, named so that a route and a client (the web page, src/web) read one definition.

/** GET /applications: a page of applications. */
export const ApplicationsPageSchema = z.object({
  applications: z.array(ListedApplicationSchema),
  ...pageFields,
})

/** PATCH /applications/{url}/status: the record as it now is, and the status it had. */
export const StatusChangedSchema = TrackedApplicationSchema.extend({previous_status: StatusSchema})

const FollowUpSchema = TrackedApplicationSchema.extend({
  days_waiting: z.number().int().openapi({description: 'whole days since the status last changed', example: 9}),
  suggest_ghosted: z.boolean().openapi({
    description:
      'in applied for `followups.ghosted_after_days` (default 21) or more with the posting closed: ' +
      'marking it ghosted is suggested (never done by itself)',
  }),
}).openapi('FollowUp')

/** GET /applications/followups. */
export const FollowUpsSchema = z.object({
  applications: z.array(FollowUpSchema),
  count: z.number().int(),
  after_days: z.number().int(),
  ...InterviewRemindersFields,
  next_actions: z.array(TrackedApplicationSchema).openapi({
    description:
      'the applications with a next action, the one due first first, those without a date last (100 at most)',
  }),
})

/** GET /jobs/last: the last run and a page of its jobs. */
export const LastRunPageSchema = z.object({
  run: LastRunSchema,
  jobs: z.array(ListedJobSchema),
  ...pageFields,
})

/** GET /jobs: the jobs a search found and how each board fared. */
export const SearchResultSchema = z.object({
  jobs: z.array(FoundJobSchema),
  count: z.number().int(),
  sources: z.array(SourceOutcomeSchema),
  searched_at: z.string().openapi({example: '2026-11-22T04:17:33Z'}),
})

/** POST /jobs/tracking: one answer per URL, in the order asked. */
export const TrackingAnswerSchema = z.object({jobs: z.array(JobTrackingSchema)})

/** POST /jobs/{id}/verdict: the verdict kept, the one it replaced, and a config change several suggest. */
export const VerdictGivenSchema = z.object({
  verdict: VerdictSchema,
  previous: VerdictSchema.nullable(),
  proposal: z.string().nullable(),
})

/** DELETE /jobs/{id}/verdict. */
export const VerdictUndoneSchema = z.object({undone: VerdictSchema})

const rate = (description: string) => z.number().min(0).max(1).nullable().openapi({description})

const FunnelFiguresSchema = z.object({
  total: z.number().int(),
  by_status: z.object(Object.fromEntries(APPLICATION_STATUSES.map((status) => [status, z.number().int()]))),
  funnel: z.array(
    z.object({
      stage: z.enum(FUNNEL_STAGES),
      count: z.number().int().openapi({description: 'applications that reached this stage or a later one'}),
      conversion: rate('count over the previous stage\u2019s count; null for `saved` and after an empty stage'),
    }),
  ),
  applied: z.number().int().openapi({description: 'applications that reached `applied`'}),
  responded: z.number().int().openapi({description: 'of those, the ones that moved on to any answer'}),
  response_rate: rate('responded / applied; null when nothing was applied for'),
  median_days_to_response: z
    .number()
    .nullable()
    .openapi({description: 'median days from when it was applied for to the first change from `applied` to an answer'}),
})

/** GET /stats. */
export const StatsSchema = FunnelFiguresSchema.extend({
  since: z.string().nullable().openapi({description: 'the earliest applied_date counted', example: null}),
  by_source: z.array(FunnelFiguresSchema.extend({source: z.string()})),
  by_month: z.array(FunnelFiguresSchema.extend({month: z.string().openapi({example: '2026-11'})})),
}).openapi('ApplicationStats')

/** The backup file of `jobagent backup` (docs/BACKUP.md), derived from the core schema it is checked with. */
export const BackupSchema = documented(backupSchema).openapi('Backup', {
  description:
    'every application with its history, interviews and contacts, the verdicts, the profile and the config without secrets',
})
