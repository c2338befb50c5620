import {picked} from '../defined-fields.js'
import {ConflictError, type ErrorDetail, NotFoundError, ValidationError} from '../errors.js'
import {type Clock, offsetTimestamp, systemClock} from '../time.js'
import {
  calendarDaysBetween,
  formatWallClock,
  gapReadingsOf,
  instantOf,
  offsetMinutesAt,
  offsetText,
  parseWallClock,
  readingsOf,
  timeWithOffset,
  type WallClock,
  wallClockAt,
} from '../time-zones.js'
import * as z from '../zod-mini.js'
import type {ApplicationStatus, TrackedApplication} from './application.js'
import {type Contact, sameContactName} from './contact.js'
import {INTERVIEW_KINDS, parseDuration, parseInterviewAt} from './interview-fields.js'

/**
 * The statuses an interview moves to `interviewing`: those before it. An application further on (an offer, a
 * rejection, ghosted, withdrawn) keeps its status; the user says whether a late interview revives it.
 */
export const BEFORE_INTERVIEWING: readonly ApplicationStatus[] = ['saved', 'applied']

/** How long an interview lasts in the calendar: nobody is asked, and an hour is the common length. */
const INTERVIEW_MINUTES = 60

/** The window of "soon": interviews starting within it are named by the digest and `jobagent followups`. */
const SOON_HOURS = 48

/** An interview as kept: its start is the wall-clock time in its zone, `2026-12-02T14:00`. */
export const interviewSchema = z.object({
  id: z.int(),
  application_id: z.int(),
  starts_at: z.string(),
  // The IANA zone of `starts_at` (`Europe/Berlin`): the user's zone when it was added unless another was given.
  time_zone: z.string(),
  // Minutes east of UTC the start was read with: which of two readings of a time that comes twice is meant. Null
  // for one recorded before offsets were kept (read as instantOf reads it).
  utc_offset: z.nullable(z.int()),
  // How long it lasts; an hour unless the person said.
  duration_minutes: z.int(),
  kind: z.nullable(z.enum(INTERVIEW_KINDS)),
  // Who the person meets that is not a contact of the application, as written (`Ann Lee, CTO`); empty when none.
  with: z.string(),
  // The contacts of the application the person meets, by id, in the order given.
  interviewer_ids: z.array(z.int()),
  // Where it takes place (an address, a room), empty when not given; the video link, an http(s) URL or empty.
  place: z.string(),
  link: z.string(),
  notes: z.string(),
  created_at: z.string(),
})

/** A contact met at an interview, as the interview shows them. */
type Interviewer = Pick<Contact, 'id' | 'name' | 'role' | 'reach'>

/** An interview as read: the kept fields, and its interviewer_ids as the contacts they are. */
export type Interview = z.output<typeof interviewSchema> & {interviewers: Interviewer[]}

/** What an interview is added with, checked. */
export type NewInterview = Omit<Interview, 'id' | 'application_id' | 'created_at' | 'interviewers'>

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
  /**
   * Deletes one interview of an application in one write with its history entry (`interview`, `removed`); the
   * application's status stays. Null when the application has no interview with the id.
   */
  remove(applicationId: number, interviewId: number, at: string): Promise<Interview | null>
  /** The interviews of one application, in the order they were added (InterviewService.of orders them). */
  ofApplication(applicationId: number): Promise<Interview[]>
  /** Every interview of an application that is not removed, with the application. */
  scheduled(): Promise<ScheduledInterview[]>
}

/** When an interview starts, as an instant. */
export function interviewStart(interview: Pick<Interview, 'starts_at' | 'time_zone' | 'utc_offset'>): number {
  const clock = parseWallClock(interview.starts_at)
  if (interview.utc_offset === null) return instantOf(clock, interview.time_zone)
  return Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute) - interview.utc_offset * 60_000
}

/** When an interview ends, as an instant. */
export function interviewEnd(
  interview: Pick<Interview, 'starts_at' | 'time_zone' | 'utc_offset' | 'duration_minutes'>,
): number {
  return interviewStart(interview) + interview.duration_minutes * 60_000
}

/** An interview as `--json` and the API print it: the kept fields and its start in UTC. */
export function interviewRecord(interview: Interview) {
  const {id, application_id, starts_at, time_zone, utc_offset, duration_minutes, kind, place, link, notes, created_at} =
    interview
  const utc = (instant: number) => new Date(instant).toISOString().replace(/\.\d{3}Z$/, 'Z')
  return {
    id,
    application_id,
    starts_at,
    time_zone,
    utc_offset,
    starts_at_utc: utc(interviewStart(interview)),
    duration_minutes,
    ends_at_utc: utc(interviewEnd(interview)),
    kind,
    with: interview.with,
    interviewers: interview.interviewers.map(({id, name, role, reach}) => ({id, name, role, reach})),
    place,
    link,
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
 * When an interview starts in words, seen from `now` in `localZone`, the person's: `today 14:00 Europe/Berlin`,
 * `tomorrow 09:30 UTC`, else the weekday and date, all as they are in that zone, which is named (a reminder may be
 * read on a phone set to another); one held in another zone adds its own local time
 * (`tomorrow 13:00 Europe/London (2026-12-02 14:00 Europe/Berlin)`), so today and tomorrow mean the person's days
 * everywhere. `followups`, the digest and `remind` all say it so.
 */
export function whenText(interview: Interview, now: Date, localZone: string): string {
  const local = wallClockAt(interviewStart(interview), localZone)
  const text = formatWallClock(local)
  const days = calendarDaysBetween(wallClockAt(now.getTime(), localZone), local)
  const weekday = WEEKDAYS[new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay()]
  const day = days === 0 ? 'today' : days === 1 ? 'tomorrow' : `${weekday} ${text.slice(0, 10)}`
  const own =
    interview.time_zone === localZone ? '' : ` (${interview.starts_at.replace('T', ' ')} ${interview.time_zone})`
  return `${day} ${text.slice(11)} ${localZone}${own}`
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

/** `Interview tomorrow 14:00 Europe/Berlin: Backend Engineer at Acme (#12)`. */
export function soonLine(interview: {
  when: string
  application: Pick<InterviewApplication, 'title' | 'company' | 'id'>
}): string {
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
  ends_at?: unknown
  duration?: unknown
  place?: unknown
  link?: unknown
  past?: unknown
}

/** `2026-03-29 02:30`: a wall clock as the messages name it. */
const clockWords = (clock: WallClock) => formatWallClock(clock).replace('T', ' ')

/**
 * The one instant a wall clock names in `zone`: with an offset given, the instant of that offset, refused when the
 * zone has another then; without one, the only reading, refused in a gap or an overlap with both readings offered
 * as exact times with their offsets. `field` names the input in the error.
 */
function oneInstantOf(clock: WallClock & {offset?: number}, zone: string, field: string): number {
  const day = formatWallClock(clock).slice(0, 10)
  const time = formatWallClock(clock).slice(11)
  const example = (instant: number) => `${day} ${timeWithOffset(instant, zone)}`
  const refuse = (message: string, readings: number[]) =>
    new ValidationError(message, {
      details: [{field, message}],
      hint: `give the time with its offset, e.g. ${field === 'at' ? '--at' : field} "${example(readings[readings.length - 1] as number)}"`,
    })
  if (clock.offset !== undefined) {
    const instant = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute) - clock.offset * 60_000
    const readings = readingsOf(clock, zone)
    if (!readings.includes(instant)) {
      const offered = readings.length > 0 ? readings : gapReadingsOf(clock, zone)
      throw refuse(
        `${clockWords(clock)}${offsetText(clock.offset)} is not a time of ${zone}: use ${offered.map((one) => timeWithOffset(one, zone)).join(' or ')}`,
        offered,
      )
    }
    return instant
  }
  const readings = readingsOf(clock, zone)
  if (readings.length === 1) return readings[0] as number
  if (readings.length === 0) {
    const gap = gapReadingsOf(clock, zone)
    throw refuse(
      `${time} does not exist on ${day} in ${zone}: use ${gap.map((one) => timeWithOffset(one, zone)).join(' or ')}`,
      gap,
    )
  }
  throw refuse(
    `${time} comes twice on ${day} in ${zone}: use ${readings.map((one) => timeWithOffset(one, zone)).join(' or ')}`,
    readings,
  )
}

/**
 * Who an interview is with, from what the person gave (`--with`, each value one person): a value that is a contact
 * id of the application (`3` or `#3`) or a contact's exact name (case and surrounding spaces ignored, as an import
 * compares names) is that contact; any other text is someone not recorded, kept as written. A number that is no
 * contact's id is refused: it was meant as one.
 */
function resolveInterviewers(
  given: readonly string[],
  contacts: readonly Contact[],
  applicationId: number,
): {interviewer_ids: number[]; with: string} {
  const ids: number[] = []
  const others: string[] = []
  for (const value of given.map((one) => one.trim()).filter(Boolean)) {
    const number = /^#?(\d{1,12})$/.exec(value)?.[1]
    const contact =
      number === undefined
        ? contacts.find((one) => sameContactName(one, {name: value}))
        : contacts.find((one) => one.id === Number(number))
    if (contact) {
      if (!ids.includes(contact.id)) ids.push(contact.id)
    } else if (number !== undefined) {
      throw new NotFoundError(`#${applicationId} has no contact ${number}; no interview was added`, {
        hint: `see its contacts with: jobagent status ${applicationId}; add one with: jobagent contact ${applicationId} --name "Ann Lee"`,
      })
    } else if (!others.includes(value)) {
      others.push(value)
    }
  }
  return {interviewer_ids: ids, with: others.join('; ')}
}

/** Interviews of tracked applications: adding them (the status follows), listing them, reminding of them. */
export class InterviewService {
  private readonly clock: Clock

  constructor(
    private readonly store: InterviewStore,
    private readonly applications: {find(ref: string): Promise<TrackedApplication>},
    /** The contacts of an application (by its id), whom `with` may name. */
    private readonly contacts: {list(ref: string): Promise<Contact[]>},
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
    const {starts_at, at, kind, notes, time_zone, ends_at, duration, place, link, past} = result.data
    const zone = time_zone ?? this.options.timeZone
    // The schema lets exactly one of the two through, a valid time.
    const startField = starts_at === undefined ? 'at' : 'starts_at'
    const clock = parseInterviewAt((starts_at ?? at) as string) as WallClock & {offset?: number}
    const start = oneInstantOf(clock, zone, startField)
    const now = this.clock.now()
    if (start < now.getTime() && !past) {
      throw new ValidationError(`${clockWords(clock)} ${zone} is in the past; no interview was added`, {
        details: [{field: startField, message: 'in the past'}],
        hint: 'to record an interview that took place, add --past (API: "past": true); for a future one, check the date',
      })
    }
    let minutes = duration === undefined ? INTERVIEW_MINUTES : (parseDuration(duration) as number)
    if (ends_at !== undefined) {
      const end = oneInstantOf(parseInterviewAt(ends_at) as WallClock & {offset?: number}, zone, 'ends_at')
      minutes = Math.round((end - start) / 60_000)
      if (minutes < 1 || minutes > 24 * 60) {
        throw new ValidationError(
          `the interview would end ${minutes < 1 ? 'before it starts' : 'more than a day after it starts'}`,
          {
            details: [{field: 'ends_at', message: 'not 1 minute to 24 hours after the start'}],
            hint: 'give the end after the start, or the length with --duration 45m',
          },
        )
      }
    }
    const application = await this.applications.find(ref)
    if (application.removed_at !== null) {
      throw new ConflictError(`#${application.id} is removed from lists; no interview was added`, {
        hint: `bring it back first with: jobagent remove ${application.id} --undo`,
      })
    }
    const given = typeof result.data.with === 'string' ? [result.data.with] : result.data.with
    const who = resolveInterviewers(given, await this.contacts.list(String(application.id)), application.id)
    const interview: NewInterview = {
      starts_at: formatWallClock(clock),
      time_zone: zone,
      utc_offset: offsetMinutesAt(start, zone),
      duration_minutes: minutes,
      kind,
      ...who,
      place,
      link,
      notes,
    }
    const added = await this.store.add(application.id, interview, {
      at: offsetTimestamp(now),
      moveFrom: BEFORE_INTERVIEWING,
    })
    if (!added) throw new NotFoundError(`no application #${application.id}`)
    return added
  }

  /**
   * Removes one interview of the application `ref` names (an id or a URL): one added by mistake, or cancelled. The
   * status stays (say with `jobagent status` whether the application moves back); the history keeps the interview.
   */
  async remove(ref: string, interviewId: number): Promise<Interview> {
    const application = await this.applications.find(ref)
    const removed = await this.store.remove(application.id, interviewId, offsetTimestamp(this.clock.now()))
    if (!removed) {
      throw new NotFoundError(`#${application.id} has no interview ${interviewId}`, {
        hint: `see its interviews with: jobagent status ${application.id}`,
      })
    }
    return removed
  }

  /** The interviews of one application by when they start (in UTC, whatever their zones), the first added first. */
  async of(application: Pick<TrackedApplication, 'id'>): Promise<Interview[]> {
    const interviews = await this.store.ofApplication(application.id)
    return interviews.toSorted((a, b) => interviewStart(a) - interviewStart(b) || a.id - b.id)
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
