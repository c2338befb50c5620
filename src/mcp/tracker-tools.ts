import type {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js'
import {z} from 'zod'
import type {AppContext} from '../app/context.js'
import {trackedRecord} from '../core/applications/application.js'
import {applicationInFull, applicationInFullDocument} from '../core/applications/application-in-full.js'
import {followUpsDocument} from '../core/applications/follow-ups.js'
import {INTERVIEW_KINDS} from '../core/applications/interview-fields.js'
import {interviewRecord, scheduledRecord} from '../core/applications/interviews.js'
import {notesSchema, statusSchema} from '../core/applications/validation.js'
import {definedFields} from '../core/defined-fields.js'
import {answer, guarded} from './results.js'
import {applicationOutput, READ, WRITE} from './shapes.js'

const application = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .describe('the short id (12) or the URL of a tracked application, as list_applications gives them')

/** The tracker's tools: applications, their status and notes, follow-ups, interviews and the funnel statistics. */
export function registerTrackerTools(server: McpServer, context: AppContext): void {
  server.registerTool(
    'list_applications',
    {
      title: 'List tracked applications',
      description: 'The tracked applications, newest first, as `jobagent status --json` lists them.',
      inputSchema: {
        status: statusSchema.optional().describe('only applications with this status'),
        search: z.string().max(200).optional().describe('text in the title, company, location or notes'),
        limit: z.int().min(1).max(1000).optional().describe('the most applications to return (default 100)'),
      },
      outputSchema: {applications: z.array(applicationOutput), count: z.int(), total: z.int()},
      annotations: READ,
    },
    guarded(context, async ({status, search, limit}) => {
      const page = await context.forReading().applications.page({status, search, limit: limit ?? 100})
      const applications = page.applications.map(trackedRecord)
      return answer(`${applications.length} of ${page.total} application(s).`, {
        applications,
        count: applications.length,
        total: page.total,
      })
    }),
  )

  server.registerTool(
    'get_application',
    {
      title: 'Show one application in full',
      description: 'One tracked application with its status history, interviews and contacts (`jobagent status <id>`).',
      inputSchema: {application},
      outputSchema: {application: applicationOutput},
      annotations: READ,
    },
    guarded(context, async ({application}) => {
      const full = applicationInFullDocument(await applicationInFull(context.forReading(), application))
      return answer(`#${full.id} ${full.title} at ${full.company} (status: ${full.status}).`, {application: full})
    }),
  )

  server.registerTool(
    'update_status',
    {
      title: 'Change the status of an application',
      description:
        'Sets the status and replaces the notes with the ones given (none by default), as `jobagent status <id> ' +
        '<status> --notes` does; the old status and notes stay in the history. Ask the person first.',
      inputSchema: {application, status: statusSchema, notes: notesSchema.optional()},
      outputSchema: {application: applicationOutput, previous_status: z.string()},
      annotations: {...WRITE, idempotentHint: false},
    },
    guarded(context, async ({application, status, notes}) => {
      const change = await context.applications.changeStatus(application, status, notes ?? '')
      const {current, previous} = change
      return answer(`#${current.id} ${current.title}: ${previous.status} -> ${current.status}.`, {
        application: trackedRecord(current),
        previous_status: previous.status,
      })
    }),
  )

  server.registerTool(
    'set_next_action',
    {
      title: 'Set the next action of an application',
      description:
        'Sets what to do next for an application and the day it is due, as `jobagent status <id> --next ... --due ' +
        '...` does; an empty next_action clears it, a due alone moves the held one. Ask the person first.',
      inputSchema: {
        application,
        next_action: z.string().max(200).optional().describe('the action; "" clears it'),
        due: z.string().optional().describe('YYYY-MM-DD'),
      },
      outputSchema: {application: applicationOutput},
      annotations: {...WRITE, idempotentHint: true},
    },
    guarded(context, async ({application, next_action: action, due}) => {
      const {current} = await context.applications.setNext(application, definedFields({action, due}))
      const said = current.next_action ? `next: ${current.next_action}` : 'no next action'
      return answer(`#${current.id} ${current.title}: ${said}.`, {application: trackedRecord(current)})
    }),
  )

  server.registerTool(
    'add_note',
    {
      title: 'Add a note to an application',
      description:
        'Adds a line to the notes of an application and keeps its status; the notes as they were stay in the history.',
      inputSchema: {application, notes: notesSchema.min(1, 'notes must not be empty').describe('the note to add')},
      outputSchema: {application: applicationOutput},
      annotations: {...WRITE, idempotentHint: false},
    },
    guarded(context, async ({application, notes}) => {
      const {current} = await context.applications.addNote(application, notes)
      return answer(`Added a note to #${current.id} ${current.title}.`, {application: trackedRecord(current)})
    }),
  )

  server.registerTool(
    'list_followups',
    {
      title: 'List the applications due for a follow-up',
      description:
        'Applications in applied or interviewing with no change for followups.after_days days, longest waiting ' +
        'first, the interviews of the next 48 hours and the next actions, due first first (`jobagent followups`).',
      inputSchema: {},
      outputSchema: {
        applications: z.array(applicationOutput),
        count: z.int(),
        after_days: z.int(),
        upcoming_interviews: z.array(z.looseObject({})),
        waiting_after_interview: z.array(z.looseObject({})),
        next_actions: z.array(applicationOutput),
      },
      annotations: READ,
    },
    guarded(context, async () => {
      const followUps = context.forReading().followUps
      const [due, interviews, nextActions] = await Promise.all([
        followUps.due(),
        followUps.interviews(),
        followUps.nextActions(),
      ])
      const document = followUpsDocument(due, followUps.afterDays, interviews, nextActions)
      return answer(`${document.count} application(s) due for a follow-up.`, document)
    }),
  )

  server.registerTool(
    'list_interviews',
    {
      title: 'List interviews',
      description: 'Upcoming interviews, soonest first; with all, the past ones after them (`jobagent interviews`).',
      inputSchema: {all: z.boolean().optional().describe('also the past interviews')},
      outputSchema: {interviews: z.array(z.looseObject({id: z.int(), starts_at: z.string()})), count: z.int()},
      annotations: READ,
    },
    guarded(context, async ({all}) => {
      const interviews = (await context.forReading().interviews.list({all: all ?? false})).map(scheduledRecord)
      return answer(`${interviews.length} interview(s).`, {interviews, count: interviews.length})
    }),
  )

  server.registerTool(
    'add_interview',
    {
      title: 'Add an interview to an application',
      description:
        'Adds an interview at a local time in a zone, as `jobagent interview <id> --at ...` does; an application that ' +
        'was saved or applied moves to interviewing. A time the clocks skip or pass twice that day (daylight saving) ' +
        'is refused with both readings: ask the person which one and send it with its offset ("2026-03-29 03:30+02:00"). ' +
        'A past time needs past: true. Ask the person first.',
      inputSchema: {
        application,
        starts_at: z.string().max(40).describe('when it starts, local time: "YYYY-MM-DD HH:MM", optionally "+02:00"'),
        time_zone: z.string().max(100).optional().describe("the IANA zone of starts_at (default: the person's)"),
        ends_at: z.string().max(40).optional().describe('when it ends, local time, instead of duration'),
        duration: z.string().max(20).optional().describe('how long instead of ends_at: 45m, 1h, 1h30m (default 1h)'),
        kind: z.enum(INTERVIEW_KINDS).optional(),
        with: z
          .array(z.string().max(2000))
          .max(20)
          .optional()
          .describe("who is met, one person each: a contact's id or exact name (see get_application), or any text"),
        place: z.string().max(2000).optional(),
        link: z.string().max(2000).optional().describe('the video link, http(s)'),
        notes: notesSchema.optional(),
        past: z.boolean().optional().describe('true to record an interview that took place'),
      },
      outputSchema: {
        interview: z.looseObject({id: z.int(), starts_at: z.string()}),
        application: applicationOutput,
        previous_status: z.string(),
      },
      annotations: {...WRITE, idempotentHint: false},
    },
    guarded(context, async (input) => {
      const {application: ref, ...fields} = input
      const added = await context.interviews.schedule(ref, definedFields(fields))
      const {interview, current} = added
      return answer(
        `Interview #${interview.id} added to #${current.id} ${current.title}: ${interview.starts_at.replace('T', ' ')} ${interview.time_zone}.`,
        {
          interview: interviewRecord(interview),
          application: trackedRecord(current),
          previous_status: added.previous.status,
        },
      )
    }),
  )

  server.registerTool(
    'stats',
    {
      title: 'Funnel statistics',
      description:
        'Applications per status, the funnel saved -> applied -> interviewing -> offer -> accepted, the response ' +
        'rate and time, per source and per month (`jobagent stats`).',
      inputSchema: {
        since: z
          .string()
          .max(20)
          .optional()
          .describe('only applications applied for within this period: 90d, 12w, 6m, 1y'),
      },
      outputSchema: z.looseObject({}),
      annotations: READ,
    },
    guarded(context, async ({since}) => {
      const stats = await context.forReading().applications.stats(since === undefined ? {} : {since})
      return answer('Funnel statistics of the tracked applications.', {...stats})
    }),
  )
}
