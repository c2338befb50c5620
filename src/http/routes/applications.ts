import {createRoute, OpenAPIHono, z} from '@hono/zod-openapi'
import type {Context} from 'hono'
import type {HttpServices} from '../../app/http-services.js'
import {trackedRecord} from '../../core/applications/application.js'
import {applicationInFull, applicationInFullDocument} from '../../core/applications/application-in-full.js'
import {applicationsToCsv} from '../../core/applications/csv.js'
import {followUpsDocument} from '../../core/applications/follow-ups.js'
import {definedFields, picked} from '../../core/defined-fields.js'
import {APPLICATIONS_PAGE, wholeNumberMessage} from '../../core/paging.js'
import {validated, validationHook} from '../errors.js'
import type {HttpMetrics} from '../metrics.js'
import {
  ApplicationEditSchema,
  ApplicationRequestSchema,
  ApplicationStatusSchema,
  ApplicationsPageSchema,
  ApplicationWithHistorySchema,
  errorResponses,
  FollowUpsSchema,
  NextActionRequestSchema,
  pageQuery,
  RecordedSchema,
  STATUS_VIEW_FIELDS,
  StatusChangedSchema,
  StatusChangeSchema,
  StatusSchema,
  statusChangeInput,
  TrackedApplicationSchema,
  UrlParamSchema,
  wordQuery,
} from '../schemas.js'

const json = (schema: z.ZodType, description: string) => ({description, content: {'application/json': {schema}}})

const listApplications = createRoute({
  method: 'get',
  path: '/applications',
  tags: ['applications'],
  summary: 'List tracked applications, newest first',
  description: 'A page at a time; `total` counts every application the filter matches.',
  request: {
    query: z.object({
      status: StatusSchema.optional(),
      search: z.string().optional().openapi({description: 'text in the title, company or notes (any case)'}),
      source: z.string().optional().openapi({description: 'only applications from this source'}),
      since: z
        .string()
        .optional()
        .openapi({description: 'applied in the last N days, weeks or months', example: '30d'}),
      ...pageQuery('applications', APPLICATIONS_PAGE),
    }),
  },
  responses: {
    200: json(ApplicationsPageSchema, 'A page of applications'),
    ...errorResponses(401, 422),
  },
})

const exportCsv = createRoute({
  method: 'get',
  path: '/applications/export.csv',
  tags: ['applications'],
  summary: 'Download the tracker as CSV (the columns of jobagent export-csv)',
  request: {
    query: z.object({
      status: StatusSchema.optional(),
      raw: wordQuery('raw', ['true', 'false'], {description: 'true: no spreadsheet formula guard', example: 'true'}),
    }),
  },
  responses: {
    200: {description: 'RFC 4180 CSV with a header row', content: {'text/csv': {schema: z.string()}}},
    ...errorResponses(401, 422),
  },
})

const recordApplication = createRoute({
  method: 'post',
  path: '/applications',
  tags: ['applications'],
  summary: 'Track an application',
  request: {body: {required: true, content: {'application/json': {schema: ApplicationRequestSchema}}}},
  responses: {
    201: json(RecordedSchema, 'Recorded'),
    ...errorResponses(401, 409, 413, 415, 422),
  },
})

const getStatus = createRoute({
  method: 'get',
  path: '/applications/{url}/status',
  tags: ['applications'],
  summary: 'Status of one application',
  request: {params: UrlParamSchema},
  responses: {200: json(ApplicationStatusSchema, 'The status'), ...errorResponses(401, 404, 422)},
})

const changeStatus = createRoute({
  method: 'patch',
  path: '/applications/{url}/status',
  tags: ['applications'],
  summary: 'Change the status (and notes) of one application',
  description: 'status and notes come from a JSON body or from the query string; the old ones go to the history.',
  request: {
    params: UrlParamSchema,
    query: StatusChangeSchema,
    body: {required: false, content: {'application/json': {schema: StatusChangeSchema}}},
  },
  responses: {
    200: json(StatusChangedSchema, 'The updated record'),
    ...errorResponses(401, 404, 413, 415, 422),
  },
})

const listFollowUps = createRoute({
  method: 'get',
  path: '/applications/followups',
  tags: ['applications'],
  summary: 'Applications due for a follow-up',
  description:
    'Applications in applied or interviewing whose status has not changed for `followups.after_days` days (default ' +
    '7) and that are not snoozed, longest waiting first (what `jobagent followups` lists); with them the ' +
    'interviews of the next 48 hours and the applications waiting after their last interview.',
  responses: {
    200: json(FollowUpsSchema, 'The applications due'),
    ...errorResponses(401),
  },
})

const snoozeDaysError = (issue: {input?: unknown}) =>
  wholeNumberMessage('days', {min: 1, max: 365}, JSON.stringify(issue.input) ?? 'nothing')
const snoozeDays = z
  .number({error: snoozeDaysError})
  .int({error: snoozeDaysError})
  .min(1, {error: snoozeDaysError})
  .max(365, {error: snoozeDaysError})
  .openapi({example: 7})

const snoozeFollowUp = createRoute({
  method: 'post',
  path: '/applications/{url}/snooze',
  tags: ['applications'],
  summary: "Postpone an application's follow-up",
  description: 'Not due again before `days` days from now (`jobagent status <url> --snooze <days>`).',
  request: {
    params: UrlParamSchema,
    body: {
      required: true,
      content: {'application/json': {schema: z.object({days: snoozeDays})}},
    },
  },
  responses: {
    200: json(z.object({id: z.number().int(), url: z.string(), snoozed_until: z.string()}), 'Snoozed'),
    ...errorResponses(401, 404, 413, 415, 422),
  },
})

/**
 * Added to the router after every static /applications/<name> route (export.csv, followups): the router tries routes in
 * the order they were added, and {url} would take such a name for an application URL.
 */
const getApplication = createRoute({
  method: 'get',
  path: '/applications/{url}',
  tags: ['applications'],
  summary: 'One application with its status history',
  description:
    'The record, when it last changed, every status change, its interviews and contacts, oldest first (as ' +
    '`jobagent status <url> --json` prints it). 400 when {url} is not valid percent-encoding.',
  request: {params: UrlParamSchema},
  responses: {200: json(ApplicationWithHistorySchema, 'The application'), ...errorResponses(401, 404, 422)},
})

const editApplication = createRoute({
  method: 'patch',
  path: '/applications/{url}',
  tags: ['applications'],
  summary: 'Edit an application: title, company, location, source, URL, salary lines',
  description:
    'Only the fields given change; each change is kept in the history (`change: "edit"`, from and to). A new URL ' +
    'that is tracked as another application is refused with 409 naming it. Status and notes change through ' +
    'PATCH /applications/{url}/status.',
  request: {
    params: UrlParamSchema,
    body: {required: true, content: {'application/json': {schema: ApplicationEditSchema}}},
  },
  responses: {
    200: json(TrackedApplicationSchema, 'The edited record'),
    ...errorResponses(401, 404, 409, 413, 415, 422),
  },
})

const setNextAction = createRoute({
  method: 'put',
  path: '/applications/{url}/next',
  tags: ['applications'],
  summary: 'Set, move or clear the next action of an application',
  description:
    'As `jobagent status <url> --next ... --due ...`: `next_action` with `due` sets both (no date unless given), ' +
    '`due` alone moves the held action\'s date, `next_action: ""` clears it. The change is kept in the history; the ' +
    'follow-up wait does not start again.',
  request: {
    params: UrlParamSchema,
    body: {required: true, content: {'application/json': {schema: NextActionRequestSchema}}},
  },
  responses: {
    200: json(TrackedApplicationSchema, 'The updated record'),
    ...errorResponses(401, 404, 413, 415, 422),
  },
})

const removeApplication = createRoute({
  method: 'delete',
  path: '/applications/{url}',
  tags: ['applications'],
  summary: 'Remove an application from lists and stats, or delete it for good',
  description:
    'Without `purge` the application leaves lists, counts and stats but keeps its history and can be brought back ' +
    '(POST /applications/{url}/restore); removing a removed one changes nothing. `purge=true` deletes it with its ' +
    'history, interviews and contacts.',
  request: {
    params: UrlParamSchema,
    query: z.object({
      purge: wordQuery('purge', ['true', 'false'], {description: 'true: delete for good', example: 'true'}),
    }),
  },
  responses: {
    200: json(TrackedApplicationSchema.extend({purged: z.boolean()}), 'The application as it was removed'),
    ...errorResponses(401, 404, 422),
  },
})

const restoreApplication = createRoute({
  method: 'post',
  path: '/applications/{url}/restore',
  tags: ['applications'],
  summary: 'Bring a removed application back to lists and stats',
  request: {params: UrlParamSchema},
  responses: {200: json(TrackedApplicationSchema, 'The application'), ...errorResponses(401, 404)},
})

export function applicationsRoutes(services: HttpServices, metrics: HttpMetrics) {
  const tracker = () => services.applications
  return new OpenAPIHono({defaultHook: validationHook})
    .openapi(getStatus, async (c) => {
      return c.json(picked(await tracker().status(c.req.valid('param').url), STATUS_VIEW_FIELDS), 200)
    })
    .openapi(listApplications, async (c) => {
      const page = await tracker().page(definedFields(c.req.valid('query')))
      const {applications, total} = page
      const listed = await services.contacts.withContacts(applications)
      return c.json({applications: listed, count: listed.length, total, limit: page.limit, offset: page.offset}, 200)
    })
    .openapi(exportCsv, async (c) => {
      const {status, raw} = c.req.valid('query')
      const {applications} = await tracker().list({status})
      const exported = await services.contacts.withContacts(applications)
      return csvDownload(c, applicationsToCsv(exported, {raw: raw === 'true'}))
    })
    .openapi(listFollowUps, async (c) => {
      const {followUps} = services
      const [due, interviews, nextActions] = await Promise.all([
        followUps.due(),
        followUps.interviews(),
        followUps.nextActions(),
      ])
      return c.json(followUpsDocument(due, followUps.afterDays, interviews, nextActions), 200)
    })
    .openapi(snoozeFollowUp, async (c) => {
      const application = await tracker().find(c.req.valid('param').url)
      const snoozedUntil = await services.followUps.snooze(application, c.req.valid('json').days)
      return c.json({id: application.id, url: application.url, snoozed_until: snoozedUntil}, 200)
    })
    .openapi(getApplication, async (c) => {
      const _found = await tracker().get(c.req.valid('param').url)
      return c.json(applicationInFullDocument(await applicationInFull(services, c.req.valid('param').url)), 200)
    })
    .openapi(recordApplication, async (c) => {
      const application = await tracker().record(c.req.valid('json'))
      metrics.countApplicationRecorded()
      return c.json({status: 'recorded' as const, application: trackedRecord(application)}, 201)
    })
    .openapi(changeStatus, async (c) => {
      // A JSON body wins field by field over the query string.
      const {status, notes} = validated(statusChangeInput, {...c.req.valid('query'), ...c.req.valid('json')})
      const update = await tracker().changeStatus(c.req.valid('param').url, status, notes)
      return c.json({...trackedRecord(update.current), previous_status: update.previous.status}, 200)
    })
    .openapi(editApplication, async (c) => {
      const update = await tracker().edit(c.req.valid('param').url, c.req.valid('json'))
      return c.json(trackedRecord(update.current), 200)
    })
    .openapi(setNextAction, async (c) => {
      const {next_action: action, due} = c.req.valid('json')
      const update = await tracker().setNext(c.req.valid('param').url, definedFields({action, due}))
      return c.json(trackedRecord(update.current), 200)
    })
    .openapi(removeApplication, async (c) => {
      const ref = c.req.valid('param').url
      if (c.req.valid('query').purge === 'true') {
        return c.json({...trackedRecord(await tracker().purge(ref)), purged: true}, 200)
      }
      return c.json({...trackedRecord((await tracker().remove(ref)).current), purged: false}, 200)
    })
    .openapi(restoreApplication, async (c) => {
      return c.json(trackedRecord((await tracker().remove(c.req.valid('param').url, false)).current), 200)
    })
}

function csvDownload(c: Context, csv: string): Response {
  c.header('Content-Type', 'text/csv; charset=utf-8')
  c.header('Content-Disposition', 'attachment; filename="applications.csv"')
  return c.body(csv, 200)
}
