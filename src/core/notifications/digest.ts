import {encode} from 'html-entities'
import type {DueFollowUps, FollowUp} from '../applications/follow-ups.js'
import {soonLine, waitingLine} from '../applications/interviews.js'
import {nextActionReminderLine} from '../applications/reminders.js'
import {type JobResponse, toJobResponse} from '../jobs/job.js'
import {shortFacts} from '../jobs/job-facts.js'
import type {Digest, NotifiedJob} from './notifier.js'

/** "1 new job", "7 new jobs". */
function digestTitle(count: number): string {
  return `${count} new ${count === 1 ? 'job' : 'jobs'}`
}

/** "title, company (location), source, link"; the location is left out when the board gave none. */
export function jobLine(job: NotifiedJob): string {
  return `${job.title}, ${jobDetails(job)}, ${job.url}`
}

/** The digest of a run: every new job counts in the title, the first `maxItems` are listed, the rest are "+N more". */
export function buildDigest(
  jobs: readonly ScoredJobResponse[],
  options: {maxItems: number; type?: Digest['type']; followUps?: DueFollowUps},
): Digest {
  const followUps = options.followUps ?? {named: [], total: 0}
  // Stored jobs carry ids and dates of their own; channels (the webhook's jobs array) get the JobResponse fields.
  const listed = jobs.slice(0, Math.max(0, options.maxItems)).map(toNotifiedJob)
  return {
    title: followUps.total === 0 ? digestTitle(jobs.length) : digestTitleWithFollowUps(jobs.length, followUps.total),
    jobs: listed,
    lines: listed.map(jobLine),
    more: jobs.length - listed.length,
    total: jobs.length,
    type: options.type ?? 'new_jobs',
    followUps: followUpLines(followUps),
  }
}

/**
 * The named follow-ups as lines (FollowUps.toRemind names at most `notify.max_items`), then one line for the rest:
 * a backlog of hundreds would otherwise fill every digest. The title counts them all. The interviews of the next
 * 48 hours, the next actions due by tomorrow and the applications waiting after an interview come last.
 */
function followUpLines(followUps: DueFollowUps): string[] {
  const named = followUps.named.map(followUpLine)
  const rest = followUps.total - named.length
  const more = rest === 0 ? [] : [`+${rest} more follow-up${rest === 1 ? '' : 's'}: jobagent followups lists them all`]
  const interviews = followUps.interviews ?? {soon: [], waiting: []}
  const nextActions = followUps.nextActions
  const due = nextActions
    ? nextActions.due.map((application) => nextActionReminderLine(application, nextActions.today))
    : []
  return [...named, ...more, ...interviews.soon.map(soonLine), ...due, ...interviews.waiting.map(waitingLine)]
}

/** "2 new jobs, 1 follow-up due"; "3 follow-ups due" when no job is new. */
function digestTitleWithFollowUps(jobs: number, followUps: number): string {
  const due = `${followUps} ${followUps === 1 ? 'follow-up' : 'follow-ups'} due`
  return jobs === 0 ? due : `${digestTitle(jobs)}, ${due}`
}

/**
 * "Follow up: Backend Engineer at Acme (applied, 9 days without news), https://..."; for one whose posting closed
 * long ago, the suggestion to mark it ghosted and the command that does it.
 */
function followUpLine(application: FollowUp): string {
  const waited = `${application.status}, ${application.days_waiting} days without news`
  const line = `Follow up: ${application.title} at ${application.company} (${waited}), ${application.url}`
  if (!application.suggest_ghosted || application.posting_closed_at === null) return line
  return `${line}; the posting closed on ${application.posting_closed_at.slice(0, 10)}: consider marking it ghosted (jobagent status ${application.id} ghosted)`
}

/** A job as the run hands it over: with its score and reasons when a profile scored it. */
type ScoredJobResponse = JobResponse & {score?: number | null; reasons?: string[]}

function toNotifiedJob(job: ScoredJobResponse): NotifiedJob {
  const {description: _description, ...rest} = toJobResponse(job)
  return job.score === undefined || job.score === null ? rest : {...rest, score: job.score, reasons: job.reasons ?? []}
}

/** What `jobagent notify test` sends: no jobs, one line saying where it came from. */
export function buildTestDigest(): Digest {
  return {
    title: 'jobagent test notification',
    jobs: [],
    lines: ['This is a test from "jobagent notify test": new jobs will be announced on this channel.'],
    more: 0,
    total: 0,
    type: 'test',
    followUps: [],
  }
}

/** How one channel writes a digest; `item` gets the job behind a line when there is one. */
export interface DigestStyle {
  heading?: (title: string) => string
  item: (line: string, job: NotifiedJob | undefined) => string
  more: (count: number) => string
  /** Lines around the items (an HTML list). */
  open?: string
  close?: string
}

interface FitOptions {
  /** The most the rendered text may measure; whole lines are dropped (and counted in "+N more") to fit. */
  limit?: number
  /** How the channel counts (characters by default, UTF-8 bytes for ntfy). */
  measure?: (text: string) => number
}

export const utf8Bytes = (text: string): number => new TextEncoder().encode(text).length

function compose(digest: Digest, style: DigestStyle, items: string[], shown: number): string {
  const hidden = digest.more + (items.length - shown)
  const parts = [
    style.heading?.(digest.title),
    shown > 0 ? style.open : undefined,
    ...items.slice(0, shown),
    shown > 0 ? style.close : undefined,
    hidden > 0 ? style.more(hidden) : undefined,
    ...digest.followUps.map((line) => style.item(line, undefined)),
  ]
  return parts.filter((part): part is string => part !== undefined).join('\n')
}

/**
 * Renders a digest in a channel's style within its limit. Lines are never cut in half: the last ones are
 * dropped and the "+N more" line grows instead; only a heading that alone exceeds the limit is shortened.
 */
export function renderDigest(digest: Digest, style: DigestStyle, options: FitOptions = {}): string {
  const limit = options.limit ?? Number.POSITIVE_INFINITY
  const measure = options.measure ?? ((text: string) => text.length)
  const items = digest.lines.map((line, index) => style.item(line, digest.jobs[index]))
  for (let shown = items.length; shown >= 0; shown--) {
    const text = compose(digest, style, items, shown)
    if (measure(text) <= limit) return text
  }
  let text = compose(digest, style, items, 0)
  while (text.length > 0 && measure(`${text}…`) > limit) text = text.slice(0, -1)
  return `${text}…`
}

export const moreLine = (count: number): string => `+${count} more`

/** Plain text: the title, a blank line, one line per job, "+N more". */
export const TEXT_STYLE: DigestStyle = {heading: (title) => `${title}\n`, item: (line) => line, more: moreLine}

/** Plain text without the title, for channels that carry the title separately (ntfy's Title header). */
export const TEXT_BODY_STYLE: DigestStyle = {item: (line) => line, more: moreLine}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\*_~`|[\]<>]/g, (char) => `\\${char}`)
}

/** A link target that cannot close the `(<...>)` around it. */
function safeTarget(url: string): string {
  return url.replace(/[()<>\s]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
}

/** `score 72 (+ typescript (title))`: the score with its first reason. */
function scoreText(score: number, reasons: readonly string[]): string {
  return reasons[0] ? `score ${score} (${reasons[0]})` : `score ${score}`
}

/**
 * "company (location), salary, type, source": the rest of a job line when the title is the link; the location,
 * salary and type are left out when the board gave none.
 */
export function jobDetails(job: NotifiedJob): string {
  const location = job.location.trim() ? ` (${job.location.trim()})` : ''
  const score = job.score === undefined || job.score === null ? [] : [scoreText(job.score, job.reasons ?? [])]
  return [`${job.company}${location}`, ...shortFacts(job), job.source, ...score].join(', ')
}

/**
 * Markdown as Discord renders it: the title in bold, one list item per job with the job title linking to the
 * posting. `<...>` around the link stops Discord from unfurling a preview for every job.
 */
export const MARKDOWN_STYLE: DigestStyle = {
  heading: (title) => `**${escapeMarkdown(title)}**`,
  item: (line, job) =>
    job
      ? `- [${escapeMarkdown(job.title)}](<${safeTarget(job.url)}>), ${escapeMarkdown(jobDetails(job))}`
      : escapeMarkdown(line),
  more: moreLine,
}

const html = (text: string) => encode(text, {mode: 'specialChars'})

/** HTML for the email's HTML part: a heading, a list of linked job titles, "+N more". */
export const HTML_STYLE: DigestStyle = {
  heading: (title) => `<h2>${html(title)}</h2>`,
  open: '<ul>',
  item: (line, job) =>
    job
      ? `<li><a href="${html(job.url)}">${html(job.title)}</a>, ${html(jobDetails(job))}</li>`
      : `<li>${html(line)}</li>`,
  close: '</ul>',
  more: (count) => `<p>${moreLine(count)}</p>`,
}
