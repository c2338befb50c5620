import {setImmediate} from 'node:timers/promises'
import {createRoute, OpenAPIHono, z} from '@hono/zod-openapi'
import {stream} from 'hono/streaming'
import type {HttpServices} from '../../app/http-services.js'
import {trackedRecord} from '../../core/applications/application.js'
import {interviewRecord, scheduledRecord} from '../../core/applications/interviews.js'
import {validationHook} from '../errors.js'
import {
  errorResponses,
  InterviewAddedSchema,
  InterviewRequestSchema,
  InterviewsSchema,
  UrlParamSchema,
  wordQuery,
} from '../schemas.js'

const json = (schema: z.ZodType, description: string) => ({description, content: {'application/json': {schema}}})

const addInterview = createRoute({
  method: 'post',
  path: '/applications/{url}/interviews',
  tags: ['interviews'],
  summary: 'Add an interview to an application',
  description:
    'The interview is kept at its local time with its zone. An application that was saved or applied moves to ' +
    'interviewing; the interview and the move are kept in its history (`jobagent interview <id> --at ...`).',
  request: {
    params: UrlParamSchema,
    body: {required: true, content: {'application/json': {schema: InterviewRequestSchema}}},
  },
  responses: {
    201: json(InterviewAddedSchema, 'Added; the application as it is now'),
    ...errorResponses(401, 404, 409, 413, 415, 422),
  },
})

const removeInterview = createRoute({
  method: 'delete',
  path: '/applications/{url}/interviews/{interview_id}',
  tags: ['interviews'],
  summary: 'Remove an interview from an application',
  description:
    'One added by mistake or cancelled (`jobagent interview <id> --remove N`). The status stays; the history keeps ' +
    'the interview (`change: "interview"`, details `removed`).',
  request: {
    params: UrlParamSchema.extend({
      interview_id: z.coerce
        .number({error: 'interview_id must be a whole number'})
        .int({error: 'interview_id must be a whole number'})
        .min(1, {error: 'interview_id must be a whole number'})
        .openapi({param: {name: 'interview_id', in: 'path'}, example: 3}),
    }),
  },
  responses: {204: {description: 'Removed'}, ...errorResponses(401, 404, 422)},
})

const listInterviews = createRoute({
  method: 'get',
  path: '/interviews',
  tags: ['interviews'],
  summary: 'Upcoming interviews, soonest first',
  description: '`all=true` adds the past ones after them, latest first (`jobagent interviews --all --json`).',
  request: {
    query: z.object({
      all: wordQuery('all', ['true', 'false'], {description: 'true: past interviews too', example: 'true'}),
    }),
  },
  responses: {
    200: json(InterviewsSchema, 'The interviews'),
    ...errorResponses(401, 422),
  },
})

const interviewCalendar = createRoute({
  method: 'get',
  path: '/interviews.ics',
  tags: ['interviews'],
  summary: 'Every interview as an iCalendar file, for a calendar subscription',
  description:
    'RFC 5545: one event per interview (UID `interview-<id>@jobagent`) at its local time with TZID and the ' +
    "zone's VTIMEZONE, one hour long (`jobagent interviews --ics`).",
  responses: {
    200: {description: 'The calendar', content: {'text/calendar': {schema: z.string()}}},
    ...errorResponses(401),
  },
})

export function interviewsRoutes(services: HttpServices) {
  return new OpenAPIHono({defaultHook: validationHook})
    .openapi(addInterview, async (c) => {
      const added = await services.interviews.schedule(c.req.valid('param').url, c.req.valid('json'))
      const body = {
        interview: interviewRecord(added.interview),
        application: trackedRecord(added.current),
        previous_status: added.previous.status,
      }
      return c.json(body, 201)
    })
    .openapi(removeInterview, async (c) => {
      const {url, interview_id: interviewId} = c.req.valid('param')
      await services.interviews.remove(url, interviewId)
      return c.body(null, 204)
    })
    .openapi(listInterviews, async (c) => {
      const interviews = await services.interviews.list({all: c.req.valid('query').all === 'true'})
      return c.json({interviews: interviews.map(scheduledRecord), count: interviews.length}, 200)
    })
    .openapi(interviewCalendar, async (c) => {
      const parts = (await services.interviews.calendar())[Symbol.iterator]()
      // The head is made before the answer starts, so a calendar that cannot be made is an error answer.
      const head = parts.next()
      c.header('Content-Type', 'text/calendar; charset=utf-8')
      c.header('Content-Disposition', 'inline; filename="interviews.ics"')
      // A calendar of thousands of interviews is written a part at a time, and the server answers the requests
      // that came in meanwhile before it makes the next part.
      return stream(c, async (body) => {
        for (let part = head; !part.done && !body.aborted; part = parts.next()) {
          await body.write(part.value)
          await setImmediate()
        }
      })
    })
}
