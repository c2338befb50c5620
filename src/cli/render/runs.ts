import type {LedgerRun} from '../../core/jobs/run-ledger.js'
import type {Style} from '../style.js'
import {renderTable} from '../table.js'

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}

/**
 * How the boards fared: a run's sources, how many answered, then each one that failed or looked wrong, and for
 * sources of many boards (`boards_file`) their boards counted as a sweep counts them (counts are in --json).
 */
function boards(run: LedgerRun): string {
  if (run.mode === 'sweep') return boardCounts(run.sources, (name) => name.replace(/^sweep:/, '')) ?? ''
  const ok = run.sources.filter((source) => source.ok).length
  const notes = run.sources.flatMap((source) => {
    if (source.anomaly?.code === 'dead') return [`${source.name} dead (${source.anomaly.runs} runs)`]
    if (!source.ok) return [`${source.name} failed`]
    if (source.anomaly) return [`${source.name} 0 (usually ${source.anomaly.usual_count})`]
    return []
  })
  const many = boardCounts(run.sources.filter((source) => source.ok))
  return [`${ok}/${run.sources.length} ok`, ...(many ? [many] : []), ...notes].join('; ')
}

/**
 * The boards behind sources of many boards: how many of those asked answered (or were unchanged) and were dead,
 * then each source with failed boards (`named` shortens its name); null when no source has boards of its own.
 */
function boardCounts(sources: LedgerRun['sources'], named: (name: string) => string = (name) => name): string | null {
  let asked = 0
  let answered = 0
  let dead = 0
  let any = false
  const notes: string[] = []
  for (const source of sources) {
    const counts = source.boards
    if (!counts) continue
    any = true
    asked += counts.asked
    answered += counts.answered + counts.unchanged
    dead += counts.dead
    if (counts.failed > 0) notes.push(`${named(source.name)} ${counts.failed} failed`)
  }
  return any ? [`${answered}/${asked} boards answered, ${dead} dead`, ...notes].join('; ') : null
}

/** `ok`; `interrupted (SIGINT)` for a run stopped by a signal; `failed: <why>`. */
function status(run: LedgerRun): string {
  if (run.status === 'ok') return 'ok'
  if (run.status === 'interrupted') return `interrupted (${(run.error ?? '').replace(/^interrupted by /, '')})`
  return `failed: ${run.error ?? ''}`
}

export function renderRunTable(runs: readonly LedgerRun[], total: number, style: Style, width?: number): string {
  if (runs.length === 0) return 'No run yet. Search the boards with: jobagent run (or try jobagent run --demo)'
  const table = renderTable(
    runs,
    [
      {header: 'ID', value: (run) => String(run.id)},
      {header: 'STARTED', value: (run) => run.started_at.slice(0, 19).replace('T', ' ')},
      {header: 'TOOK', value: (run) => seconds(run.duration_ms)},
      {header: 'STATUS', value: status, shrinkTo: 20},
      {header: 'FOUND', value: (run) => String(run.jobs_found)},
      {header: 'NEW', value: (run) => String(run.new_jobs)},
      {header: 'NOTIFIED', value: (run) => String(run.notified)},
      {header: 'BOARDS', value: boards, shrinkTo: 30},
    ],
    style.bold,
    {width},
  )
  const more = total > runs.length ? `\n\n${runs.length} of ${total} runs; see more with --limit or --json` : ''
  return `${table}${more}`
}
