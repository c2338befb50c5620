import {picked} from '../defined-fields.js'
import {ConflictError, type ErrorDetail, NotFoundError, ValidationError} from '../errors.js'
import {type Clock, offsetTimestamp, systemClock} from '../time.js'
import {
  calendarDaysBetween,
  formatWallClock,
  instantOf,
  parseWallClock,
  type WallClock,
  wallClockAt,
} from '../time-zones.js'
import * as z from '../zod-mini.js'
import type {ApplicationStatus, TrackedApplication} from './application.js'
import {INTERVIEW_KINDS, parseInterviewAt} from './interview-fields.js'

/**
 * The statuses an interview moves to `interviewing`: those before it. An application further on (an offer, a
 * rejection, ghosted, withdrawn) keeps its status; the user says whether a late interview revives it.
 */
export const BEFORE_INTERVIEWING: readonly ApplicationStatus[] = ['saved', 'applied']

/** How long an interview lasts in the calendar: nobody is asked, and an hour is the common length. */
export const INTERVIEW_MINUTES = 60

/** The window of "soon": interviews starting within it are named by the digest and `jobagent followups`. */
const SOON_HOURS = 48

/** An interview as kept: its start is the wall-clock time in its zone, `2026-12-02T14:00`. */
export const interviewSchema = z.object({
  id: z.int(),
  application_id: z.int(),
  starts_at: z.string(),
  // The IANA zone of `starts_at` (`Europe/Berlin`): the user's zone when it was added unless another was given.
  time_zone: z.string(),
  kind: z.nullable(z.enum(INTERVIEW_KINDS)),
  with: z.string(),
  notes: z.string(),
  created_at: z.string(),
})

export type Interview = z.output<typeof interviewSchema>

/** What an interview is added with, checked. */
export type NewInterview = Omit<Interview, 'id' | 'application_id' | 'created_at'>

/** The fields of its application that lists of interviews show with each (`interviews --json`, the follow-ups). */
export const INTERVIEW_APPLICATION_FIELDS = [
  'id',
  'title',
  'company',
  'url',
  'status',
] as const satisfies readonly (keyof TrackedApplication)[]

/** The application an interview belongs to: what lists of interviews show, and when it last changed. */
type InterviewApplication = Pick<TrackedApplication, (typeof INTERVIEW_APPLICATION_FIELDS)[number] | 'updated_at'>

/** An interview with its application. */
export interface ScheduledInterview extends Interview {
  application: InterviewApplication
}

/** An added interview, with the application before and after it (its status may have moved). */
export interface AddedInterview {
  interview: Interview
  previous: TrackedApplication
  current: TrackedApplication
}

/** What interviews need of storage. */
export interface InterviewStore {
  /**
   * Adds an interview to an application in one write with its history entry (`interview`); an application in one
   * of `moveFrom` moves to `interviewing` in the same write, with a `status` entry. Null when no application has
   * the id.
   */
  add(
    applicationId: number,
    interview: NewInterview,
    options: {at: string; moveFrom: readonly ApplicationStatus[]},
  ): Promise<AddedInterview | null>
  /** The interviews of one application, in the order they were added. */
  ofApplication(applicationId: number): Promise<Interview[]>
  /** Every interview of an application that is not removed, with the application. */
  scheduled(): Promise<ScheduledInterview[]>
}

/** When an interview starts, as an instant. */
export function interviewStart(interview: Pick<Interview, 'starts_at' | 'time_zone'>): number {
  return instantOf(parseWallClock(interview.starts_at), interview.time_zone)
}

/** An interview as `--json` and the API print it: the kept fields and its start in UTC. */
export function interviewRecord(interview: Interview) {
  const {id, application_id, starts_at, time_zone, kind, notes, created_at} = interview
  const startsAtUtc = new Date(interviewStart(interview)).toISOString().replace(/\.\d{3}Z$/, 'Z')
  return {
    id,
    application_id,
    starts_at,
    time_zone,
    starts_at_utc: startsAtUtc,
    kind,
    with: interview.with,
    notes,
    created_at,
  }
}

/** A listed interview with the application it belongs to. */
export function scheduledRecord(interview: ScheduledInterview) {
  return {...interviewRecord(interview), application: picked(interview.application, INTERVIEW_APPLICATION_FIELDS)}
}

/** An interview starting within SOON_HOURS, with when in words (`tomorrow 14:00`). */
interface SoonInterview extends ScheduledInterview {
  when: string
}

/**
 * An application in `interviewing` whose last interview is over and that has not changed since: waiting for the
 * employer's answer.
 */
interface WaitingAfterInterview {
  application: InterviewApplication
  last_interview: Interview
  days_since: number
}

/** What the digest and `jobagent followups` say about interviews. */
export interface InterviewReminders {
  soon: SoonInterview[]
  waiting: WaitingAfterInterview[]
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']

/**
 * When an interview starts in words, seen from `now` in its zone: `today 14:00`, `tomorrow 09:30`, else the
 * weekday and date; the zone is named when it is not `localZone`.
 */
export function whenText(interview: Interview, now: Date, localZone: string): string {
  const start = parseWallClock(interview.starts_at)
  const days = calendarDaysBetween(wallClockAt(now.getTime(), interview.time_zone), start)
  const time = interview.starts_at.slice(11)
  const weekday = WEEKDAYS[new Date(Date.UTC(start.year, start.month - 1, start.day)).getUTCDay()]
  const day = days === 0 ? 'today' : days === 1 ? 'tomorrow' : `${weekday} ${interview.starts_at.slice(0, 10)}`
  return `${day} ${time}${interview.time_zone === localZone ? '' : ` (${interview.time_zone})`}`
}

/**
 * The interviews starting within SOON_HOURS from `now` (soonest first), and the applications waiting after their
 * last interview (longest waiting first): in `interviewing`, unchanged since that interview (or since it was added,
 * when it was added afterwards). `updated_at` and `created_at` are local times of this machine.
 */
export function interviewReminders(
  scheduled: readonly ScheduledInterview[],
  now: Date,
  localZone: string,
): InterviewReminders {
  const at = now.getTime()
  const starts = new Map(scheduled.map((interview) => [interview, interviewStart(interview)]))
  const soon = scheduled
    .filter((interview) => {
      const start = starts.get(interview) ?? 0
      return start >= at && start < at + SOON_HOURS * 3_600_000
    })
    .sort((a, b) => (starts.get(a) ?? 0) - (starts.get(b) ?? 0))
    .map((interview) => ({...interview, when: whenText(interview, now, localZone)}))
  const last = new Map<number, ScheduledInterview>()
  for (const interview of scheduled) {
    const held = last.get(interview.application_id)
    if (!held || (starts.get(held) ?? 0) < (starts.get(interview) ?? 0)) last.set(interview.application_id, interview)
  }
  const waiting = [...last.values()]
    .filter((interview) => {
      const start = starts.get(interview) ?? 0
      const {status, updated_at} = interview.application
      // An interview added after it took place changed the application itself; only later changes count.
      const quietSince = Math.max(start, new Date(interview.created_at).getTime())
      return status === 'interviewing' && start < at && new Date(updated_at).getTime() <= quietSince
    })
    .sort((a, b) => (starts.get(a) ?? 0) - (starts.get(b) ?? 0))
    .map((scheduledInterview) => {
      const {application, ...interview} = scheduledInterview
      const days = Math.floor((at - (starts.get(scheduledInterview) ?? 0)) / 86_400_000)
      return {application, last_interview: interview, days_since: days}
    })
  return {soon, waiting}
}

/** `Interview tomorrow 14:00: Backend Engineer at Acme (#12)`. */
export function soonLine(interview: SoonInterview): string {
  const {title, company, id} = interview.application
  return `Interview ${interview.when}: ${title} at ${company} (#${id})`
}

/** `Waiting after interview: Backend Engineer at Acme (#12), interviewed 3 days ago, no news since`. */
export function waitingLine({application, days_since}: WaitingAfterInterview): string {
  const ago = days_since === 0 ? 'today' : days_since === 1 ? '1 day ago' : `${days_since} days ago`
  return `Waiting after interview: ${application.title} at ${application.company} (#${application.id}), interviewed ${ago}, no news since`
}

/** The reminders as `followups --json` and GET /applications/followups print them. */
export function remindersDocument(reminders: InterviewReminders) {
  return {
    upcoming_interviews: reminders.soon.map((interview) => ({...scheduledRecord(interview), when: interview.when})),
    waiting_after_interview: reminders.waiting.map(({application, last_interview, days_since}) => ({
      application: picked(application, INTERVIEW_APPLICATION_FIELDS),
      last_interview: interviewRecord(last_interview),
      days_since,
    })),
  }
}

/** What an interview is added with, as a front end passes it (flags, a JSON body); checked by the service. */
interface InterviewInput {
  starts_at?: unknown
  at?: unknown
  kind?: unknown
  with?: unknown
  notes?: unknown
  time_zone?: unknown
}

/** Interviews of tracked applications: adding them (the status follows), listing them, reminding of them. */
export class InterviewService {
  private readonly clock: Clock

  constructor(
    private readonly store: InterviewStore,
    private readonly applications: {find(ref: string): Promise<TrackedApplication>},
    private readonly options: {timeZone: string; clock?: Clock},
  ) {
    this.clock = options.clock ?? systemClock
  }

  /** The zone an interview is kept in when none is given. */
  get timeZone(): string {
    return this.options.timeZone
  }

  /**
   * Adds an interview to the application `ref` names (an id or a URL); one that was `saved` or `applied` moves to
   * `interviewing`. The time is read in `time_zone`, the user's zone by default.
   */
  async schedule(ref: string, input: InterviewInput): Promise<AddedInterview> {
    const {interviewInputSchema, issuesToDetails} = await import('./interview-validation.js')
    const result = interviewInputSchema.safeParse(input)
    if (!result.success) {
      const details: ErrorDetail[] = issuesToDetails(result.error.issues)
      throw new ValidationError(`invalid interview: ${details.map((detail) => detail.message).join('; ')}`, {
        details,
        hint: 'e.g. jobagent interview 12 --at "2026-12-02 14:00" --kind video --with "Ann Lee, CTO"',
      })
    }
    const {starts_at, at, kind, notes, time_zone} = result.data
    const application = await this.applications.find(ref)
    if (application.removed_at !== null) {
      throw new ConflictError(`#${application.id} is removed from lists; no interview was added`, {
        hint: `bring it back first with: jobagent remove ${application.id} --undo`,
      })
    }
    const interview: NewInterview = {
      // The schema lets exactly one of the two through, a valid time.
      starts_at: formatWallClock(parseInterviewAt((starts_at ?? at) as string) as WallClock),
      time_zone: time_zone ?? this.options.timeZone,
      kind,
      with: result.data.with,
      notes,
    }
    const now = offsetTimestamp(this.clock.now())
    const added = await this.store.add(application.id, interview, {at: now, moveFrom: BEFORE_INTERVIEWING})
    if (!added) throw new NotFoundError(`no application #${application.id}`)
    return added
  }

  /** The interviews of one application, in the order they were added. */
  of(application: Pick<TrackedApplication, 'id'>): Promise<Interview[]> {
    return this.store.ofApplication(application.id)
  }

  /**
   * Upcoming interviews (starting now or later), soonest first; with `all`, the past ones after them, latest
   * first.
   */
  async list(options: {all?: boolean} = {}): Promise<ScheduledInterview[]> {
    const now = this.clock.now().getTime()
    const timed = (await this.store.scheduled()).map((interview) => ({interview, start: interviewStart(interview)}))
    const upcoming = timed.filter(({start}) => start >= now).sort((a, b) => a.start - b.start)
    const past = options.all ? timed.filter(({start}) => start < now).sort((a, b) => b.start - a.start) : []
    return [...upcoming, ...past].map(({interview}) => interview)
  }

  /** Interviews within SOON_HOURS and applications waiting after their last interview. */
  async reminders(): Promise<InterviewReminders> {
    return interviewReminders(await this.store.scheduled(), this.clock.now(), this.options.timeZone)
  }
}
