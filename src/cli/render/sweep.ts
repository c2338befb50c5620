import type {SweepResult} from '../../app/sweep-wiring.js'

/** What a sweep did, in a few lines, and how to see its matches. */
export function renderSweep(result: SweepResult): string {
  const failed = Object.entries(result.failed_by_reason)
    .map(([reason, count]) => `${reason} ${count}`)
    .join(', ')
  const lines = [
    `${result.boards} boards: ${result.answered} answered, ${result.unchanged} unchanged, ${result.dead} dead, ` +
      `${result.resting} resting, ${result.failed} failed${failed ? ` (${failed})` : ''}`,
    `${result.jobs_seen} jobs seen, ${result.candidates} candidates, ${result.matches} matches`,
  ]
  if (result.status === 'interrupted') {
    lines.push('The sweep was stopped; each board done is kept. Continue it with: jobagent sweep')
    return lines.join('\n')
  }
  if (result.followed) {
    const {added, present} = result.followed
    lines.push(`Followed ${added.length} board${added.length === 1 ? '' : 's'} (${present.length} in sources already)`)
  }
  if (result.matches > 0) lines.push('List the matches with: jobagent jobs')
  return lines.join('\n')
}
