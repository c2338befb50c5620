import wrapAnsi from 'wrap-ansi'
import type {ListedJob} from '../../core/jobs/job-catalog.js'
import {detailFacts, lifecycleFacts} from '../../core/jobs/job-facts.js'
import type {JobVerdict} from '../../core/jobs/job-verdicts.js'
import type {ScorePart} from '../../core/matching/score.js'
import type {Style} from '../style.js'

/**
 * One job in full, as `jobagent jobs <id>` shows it: the facts, the score and its reasons (every part of it with
 * `explain`), then the description wrapped to `width`.
 */
export function renderJobDetail(
  job: ListedJob & {parts: readonly ScorePart[]; verdict: JobVerdict | null},
  style: Style,
  width: number,
  options: {explain?: boolean; now: Date},
): string {
  const facts: [string, string][] = [
    ['Score', job.score === null ? '' : `${job.score} of 100`],
    ['Company', job.company],
    ['Location', job.location],
    ...detailFacts(job),
    ['Posted', job.posted_date ?? ''],
    ['Source', job.board_id ? `${job.source} (id ${job.board_id})` : job.source],
    ['Seen', `${job.first_seen} to ${job.last_seen}`],
    ...lifecycleFacts(job, options.now),
    ['Tracked', job.tracked_status ? `${job.tracked_status} (${job.tracked_url})` : 'no'],
    ['Verdict', verdictText(job.verdict)],
    ['URL', job.url],
  ]
  const shown = facts.filter(([, value]) => value !== '')
  const label = Math.max(...shown.map(([name]) => name.length)) + 2
  const lines = shown.map(([name, value]) => `${style.dim(`${name}:`.padEnd(label))}${value}`)
  if (options.explain) lines.push('', ...explainLines(job))
  else if (job.reasons.length > 0) lines.push('', ...job.reasons.map((reason) => `  ${reason}`))
  const description = job.description
    ? wrapDescription(job.description, Math.max(20, Math.min(width, 100)))
    : style.dim('No description from the board.')
  const next = job.tracked_status ? [] : ['', `Track it with: jobagent apply ${job.id}`]
  return [style.bold(`${job.id}  ${job.title}`), ...lines, '', description, ...next].join('\n')
}

/**
 * A description wrapped to `width`, line by line: a line keeps its indentation (a list item stays one), the lines
 * it wraps into start at the margin, and no line ends in spaces. wrap-ansi alone either keeps the space it breaks
 * at (a space leading every continuation line and one trailing the line before) or takes indentation away.
 */
function wrapDescription(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => {
      const indent = /^[ \t]*/.exec(line)?.[0] ?? ''
      const rest = line.slice(indent.length).trimEnd()
      if (rest === '') return ''
      return indent + wrapAnsi(rest, Math.max(10, width - indent.length), {hard: true, trim: true})
    })
    .join('\n')
}

/** The person's verdict on the job, as the detail view says it; '' without one. */
function verdictText(verdict: JobVerdict | null): string {
  if (!verdict) return ''
  const what = verdict.verdict === 'like' ? (verdict.given_by === 'tracked' ? 'liked (tracked)' : 'liked') : 'dismissed'
  const why = verdict.reason ? ` as "${verdict.reason}"` : ''
  return `${what}${why} on ${verdict.given_at.slice(0, 10)}; take it back with: jobagent jobs ${verdict.job_id} --undo`
}

/** Every factor of a job's score and what made it, as `jobagent jobs <id> --explain` shows it. */
function explainLines(job: ListedJob & {parts: readonly ScorePart[]}): string[] {
  if (job.score === null) return ['No profile: jobs are not scored (see docs/MATCHING.md).']
  const value = (name: ScorePart['part']) => job.parts.find((part) => part.part === name)?.value ?? 0
  const gates = job.parts.find((part) => part.part === 'gates')?.value ?? 1
  const lines = [
    `Score ${job.score} = 100 x relevance ${value('relevance').toFixed(2)} x (1 + verdicts ${signed(value('verdicts'))})` +
      ` x gates ${gates.toFixed(2)} x (1 + adjustments ${signed(value('adjustments'))}), at most 100`,
  ]
  for (const part of job.parts) {
    const value = part.part === 'verdicts' || part.part === 'adjustments' ? signed(part.value) : part.value.toFixed(2)
    lines.push(`  ${part.part} ${value}`)
    for (const detail of part.detail) lines.push(`    ${detail}`)
  }
  return lines
}

const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(2)}`
