import type {GivenVerdict} from '../../core/jobs/job-catalog.js'
import type {JobVerdict} from '../../core/jobs/job-verdicts.js'

/** What `jobs <id> --like`, `--dismiss` and `--undo` say they did, and what to do next. */
export function renderVerdict(given: GivenVerdict | {undone: JobVerdict}): string {
  if ('undone' in given) {
    const {undone} = given
    const what = undone.verdict === 'like' ? 'like' : 'dismissal'
    return `Took back the ${what} of job ${undone.job_id} (${undone.title}, ${undone.company}).`
  }
  const {job, verdict, previous, proposal} = given
  const lines = [
    verdict.verdict === 'like'
      ? `Liked job ${job.id} (${job.title}, ${job.company}): jobs like it now rank higher.`
      : `Dismissed job ${job.id} (${job.title}, ${job.company})${verdict.reason ? ` as "${verdict.reason}"` : ''}: it is hidden and never notified again, and jobs like it rank lower.`,
  ]
  if (previous && previous.verdict !== verdict.verdict)
    lines.push(`It was ${previous.verdict === 'like' ? 'liked' : 'dismissed'} before.`)
  if (proposal) lines.push(`Suggestion: ${proposal}`)
  lines.push(`Take it back with: jobagent jobs ${job.id} --undo`)
  return lines.join('\n')
}
