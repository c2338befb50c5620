import {z} from '@hono/zod-openapi'
import {APPLICATION_STATUSES, CHANGE_KINDS} from '../core/applications/application.js'
import {INTERVIEW_KINDS} from '../core/applications/interview-fields.js'
import {interviewInputSchema} from '../core/applications/interview-validation.js'
import {FUNNEL_STAGES} from '../core/applications/stats.js'
import {
  applicationEditSchema,
  applicationInputSchema,
  contactInputSchema,
  notesSchema,
  statusSchema,
} from '../core/applications/validation.js'
import {EMPLOYMENT_TYPES} from '../core/jobs/employment-type.js'
import {SALARY_PERIODS} from '../core/jobs/salary.js'
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
        example: 'import shipments first: jobagent shipment import --metadata FILE --telemetry FILE',
      }),
    }),
  })
  .openapi('Error')

// zod 4 binds methods to a schema when it is built, so core schemas built before @hono/zod-openapi extended zod
// have no .openapi(); a clone is built now and has it, with the same rules and messages.
export const StatusSchema = statusSchema.clone().openapi('ApplicationStatus')

const ApplicationSchema = z
  .object({
    title: z.string(),
    company: z.string(),
    location: z.string(),
    url: z.string().openapi({example: 'https://example.org/jobs/42'}),
    source: z.string(),
    applied_date: z.string().openapi({example: '2026-11-22T05:17:33.123'}),
    status: StatusSchema,
    notes: z.string(),
  })
  .openapi('Application')

export const ApplicationRequestSchema = applicationInputSchema.clone().openapi('ApplicationRequest', {
  example: {
    title: 'Backend Engineer',
    company: 'Acme',
    location: 'Berlin',
    url: 'https://example.org/jobs/42',
    source: 'remoteok',
  },
})

export const ApplicationStatusSchema = z
  .object({
    url: z.string(),
    status: StatusSchema,
    notes: z.string(),
    applied_date: z.string(),
    updated_at: z.string().openapi({example: '2026-11-23T10:02:11.480'}),
  })
  .openapi('ApplicationStatusView')

/** One change of an application's status, as the tracker keeps it (the notes it replaced included). */
const StatusChangeRecordSchema = z
  .object({
    changed_at: z.string().openapi({
      description:
        'when the change was made: local time with its UTC offset (changes recorded before offsets were kept have none)',
      example: '2026-11-23T10:02:11.480+01:00',
    }),
    old_status: StatusSchema,
    new_status: StatusSchema,
    old_notes: z.string().openapi({description: 'the notes before this change (the change replaced them)'}),
    change: z.enum(CHANGE_KINDS).openapi({
      description:
        'status: the status changed (and the notes were replaced); notes: only the notes were edited; edit: fields ' +
        'were edited (details: each field from and to); removed, restored: taken out of lists and stats or brought ' +
        'back; interview, contact: one was added (details say which)',
    }),
    details: z
      .record(z.string(), z.union([z.string(), z.object({from: z.string(), to: z.string()})]))
      .nullable()
      .openapi({description: 'what an edit, an interview or a contact changed; null for status and notes changes'}),
    summary: z.string().openapi({
      description: 'the entry in words, as `jobagent status <id>` shows it',
      example: 'applied -> interviewing (notes were: sent CV)',
    }),
  })
  .openapi('StatusHistoryEntry')

/** A tracked application as every listing shows it: the record, its id and what else the tracker keeps. */
export const TrackedApplicationSchema = ApplicationSchema.extend({
  id: z.number().int().openapi({description: 'the short id, stable for the life of the record', example: 12}),
  updated_at: z.string().openapi({description: 'when it last changed', example: '2026-11-23T10:02:11.480'}),
  posting_closed_at: postingClosedField(),
  salary_expected: z.string().openapi({description: 'the salary asked for, as written; empty when unset'}),
  salary_offered: z.string().openapi({description: 'the salary offered, as written; empty when unset'}),
  removed_at: z
    .string()
    .nullable()
    .openapi({description: 'when it was removed from lists and stats (DELETE); null for a listed one'}),
}).openapi('TrackedApplication')

/** The answer to recording an application (POST /applications, POST /jobs/track). */
export const RecordedSchema = z.object({status: z.literal('recorded'), application: TrackedApplicationSchema})

/** PATCH /applications/{url}: the fields to change; each change is kept in the history. */
export const ApplicationEditSchema = applicationEditSchema.clone().openapi('ApplicationEdit', {
  example: {title: 'Staff Backend Engineer', salary_offered: '€85k'},
})

/** An interview as kept (core interviewRecord). */
export const InterviewSchema = z
  .object({
    id: z.number().int().openapi({example: 3}),
    application_id: z.number().int().openapi({example: 12}),
    starts_at: z.string().openapi({description: 'local time in time_zone', example: '2026-12-02T14:00'}),
    time_zone: z.string().openapi({description: 'IANA time zone', example: 'Europe/Berlin'}),
    starts_at_utc: z.string().openapi({example: '2026-12-02T13:00:00Z'}),
    kind: z.enum(INTERVIEW_KINDS).nullable(),
    with: z.string().openapi({example: 'Ann Lee, CTO'}),
    notes: z.string(),
    created_at: z.string().openapi({example: '2026-11-23T10:02:11.480'}),
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
const InterviewApplicationSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  company: z.string(),
  url: z.string(),
  status: StatusSchema,
})

/** An interview with its application (GET /interviews). */
export const ScheduledInterviewSchema = InterviewSchema.extend({application: InterviewApplicationSchema}).openapi(
  'ScheduledInterview',
)

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
  .object({
    id: z.number().int().openapi({description: 'the contact id, what DELETE takes', example: 3}),
    application_id: z.number().int().openapi({example: 12}),
    name: z.string().openapi({example: 'Ann Lee'}),
    role: z.string().openapi({description: 'empty when not given', example: 'recruiter'}),
    reach: z
      .string()
      .openapi({description: 'an email address or an http(s) link; empty when none', example: 'ann@example.org'}),
    notes: z.string(),
    created_at: z.string().openapi({example: '2026-11-23T10:02:11.480'}),
  })
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
  interviews: z.array(InterviewSchema).openapi({description: 'its interviews, in the order they were added'}),
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

const SalarySchema = z
  .object({
    min: z.number().nullable().openapi({description: 'as the board states it'}),
    max: z.number().nullable(),
    currency: z.string().nullable().openapi({description: 'ISO 4217', example: 'EUR'}),
    period: z.enum(SALARY_PERIODS).nullable(),
    annual_min: z
      .number()
      .nullable()
      .openapi({description: 'min per year (hour x 2080, day x 260, week x 52, month x 12)'}),
    annual_max: z.number().nullable(),
    text: z.string().nullable().openapi({description: 'what the board wrote, when it wrote text'}),
  })
  .openapi('Salary')

const JobSchema = z
  .object({
    title: z.string(),
    company: z.string(),
    location: z.string(),
    url: z.string(),
    source: z.string(),
    posted_date: z.string().nullable().openapi({example: '2026-04-10T00:28:23Z'}),
    description: z.string().nullable().openapi({
      description:
        'plain text: HTML removed, paragraphs and list items on lines of their own; at most 20,000 characters',
    }),
    salary: SalarySchema.nullable(),
    employment_type: z.enum(EMPLOYMENT_TYPES).nullable().openapi({example: 'full_time'}),
    remote: z.boolean().nullable().openapi({description: 'what the board says; null when it does not'}),
    regions: z.array(z.string()).openapi({
      description: 'where the board says a candidate may be; empty when not stated or anywhere',
      example: ['Europe'],
    }),
    timezones: z.array(z.string()).openapi({example: ['UTC-5', 'UTC+1']}),
    seniority: z.string().nullable().openapi({description: "the board's level, as written", example: 'Senior'}),
    tags: z.array(z.string()).openapi({description: "the board's tags or categories"}),
    board_id: z.string().nullable().openapi({description: "the board's own id of the posting"}),
    company_url: z.string().nullable(),
  })
  .openapi('JobResponse')

/**
 * What the tracker holds about a job (core trackingOfJob): matched by the job's URL or its canonical URL (tracking
 * parameters such as utm_* removed), exactly as `jobagent run` counts new jobs.
 */
function trackingFields() {
  return {
    // A fresh enum: making a named schema (ApplicationStatus) nullable would make its shared component nullable.
    tracked_status: z.enum(APPLICATION_STATUSES).nullable().openapi({
      description: 'the status of the application tracked for this job (by its URL or canonical URL); null when none',
    }),
    tracked_url: z.string().nullable().openapi({
      description: 'the URL that application is tracked under (may differ by tracking parameters); null when none',
    }),
    is_new: z.boolean().openapi({
      description: 'not yet applied for (untracked, or tracked as saved) and still listed (a closed job is never new)',
    }),
  }
}

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

const JobTrackingSchema = z.object({url: z.string(), ...trackingFields()}).openapi('JobTracking')

/** A job the last run stored, seen against the tracker (what `jobagent jobs --json` lists). */
export const ListedJobSchema = z
  .object({
    id: z.number().int().openapi({description: 'short id, as `jobagent apply <id>` takes it', example: 12}),
    ...JobSchema.shape,
    first_seen: z.string().openapi({example: '2026-11-20T07:30:02.114'}),
    last_seen: z.string().openapi({example: '2026-11-22T07:30:01.870'}),
    notified_at: z.string().nullable(),
    closed_at: z.string().nullable().openapi({
      description: 'when the job was found closed: every board that listed it stopped (docs/LIFECYCLE.md); null: open',
    }),
    reopened: z.number().int().openapi({description: 'how many times it came back after it closed', example: 0}),
    reposted: z.number().int().openapi({
      description: 'how many times the role reappeared after closing or under a new URL within 90 days',
      example: 0,
    }),
    also_on: z
      .array(z.object({source: z.string(), url: z.string()}))
      .openapi({description: 'the other boards and URLs the role was listed under, newest first'}),
    ...trackingFields(),
    ...scoreFields(),
  })
  .openapi('ListedJob')

/** A stored job's id in the path (`/jobs/{id}/feedback`). */
export const JobIdParamSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, {
      error: (issue) => `id must be a job id (a whole number from 1), got ${JSON.stringify(issue.input)}`,
    })
    .transform(Number)
    .openapi({param: {name: 'id', in: 'path'}, description: 'the job id, as `jobagent jobs` shows it', example: '17'}),
})

/** A verdict on a job (POST /jobs/{id}/feedback). */
export const FeedbackRequestSchema = z
  .object({
    verdict: z
      .enum(['like', 'dismiss'])
      .openapi({description: 'like: rank jobs like it higher; dismiss: hide it for good'}),
    reason: z
      .string()
      .max(200)
      .nullable()
      .optional()
      .openapi({description: 'why, in a few words', example: 'too senior'}),
  })
  .strict()
  .openapi('FeedbackRequest')

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

/** A job a search found (GET /jobs), seen against the tracker as the run sees it. */
export const FoundJobSchema = z.object({...JobSchema.shape, ...trackingFields(), ...scoreFields()}).openapi('FoundJob')

/** A job's score against the profile in the config (docs/MATCHING.md); null and empty without a profile. */
function scoreFields() {
  return {
    score: z.number().int().min(0).max(100).nullable().openapi({example: 72}),
    reasons: z.array(z.string()).openapi({example: ['+ typescript (title)', 'location: remote (Europe) fits']}),
  }
}

/** The run that stored the listed jobs, null before any; inline, since a nullable named schema alters its component. */
const LastRunSchema = z
  .object({
    id: z.number().int(),
    started_at: z.string().openapi({example: '2026-11-22T07:30:00.412'}),
    finished_at: z.string().openapi({example: '2026-11-22T07:30:03.058'}),
    status: z.enum(['ok', 'failed', 'interrupted']),
    jobs_found: z.number().int(),
    new_jobs: z.number().int(),
  })
  .nullable()

export const SourceOutcomeSchema = z
  .object({
    name: z.string(),
    ok: z.boolean(),
    count: z.number().int(),
    error: z.string().nullable(),
    status: z.number().int().optional().openapi({description: 'the HTTP status a failed board answered with'}),
    duration_ms: z.number(),
  })
  .openapi('SourceOutcome')

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

/** POST /jobs/{id}/feedback: the verdict kept, the one it replaced, and a config change several suggest. */
export const FeedbackGivenSchema = z.object({
  verdict: VerdictSchema,
  previous: VerdictSchema.nullable(),
  proposal: z.string().nullable(),
})

/** DELETE /jobs/{id}/feedback. */
export const FeedbackUndoneSchema = z.object({undone: VerdictSchema})

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
