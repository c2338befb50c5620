import type {ApplicationStats, FunnelFigures} from '../../core/applications/stats.js'
import type {Style} from '../style.js'
import {renderTable} from '../table.js'

function percent(rate: number | null): string {
  return rate === null ? '-' : `${(rate * 100).toFixed(1)}%`
}

function days(value: number | null): string {
  return value === null ? '-' : String(value)
}

function stageCount(figures: FunnelFigures, index: number): string {
  return String(figures.funnel[index]?.count ?? 0)
}

/** One row per source or month: how many reached each stage after `saved`, and how they were answered. */
function groupTable<T extends FunnelFigures>(
  groups: readonly T[],
  header: string,
  key: (group: T) => string,
  style: Style,
) {
  return renderTable(
    groups,
    [
      {header, value: key, shrinkTo: 30},
      {header: 'TOTAL', value: (group) => String(group.total)},
      {header: 'APPLIED', value: (group) => stageCount(group, 1)},
      {header: 'INTERVIEWING', value: (group) => stageCount(group, 2)},
      {header: 'OFFER', value: (group) => stageCount(group, 3)},
      {header: 'ACCEPTED', value: (group) => stageCount(group, 4)},
      {header: 'RESPONSE RATE', value: (group) => percent(group.response_rate)},
      {header: 'MEDIAN DAYS TO RESPONSE', value: (group) => days(group.median_days_to_response)},
    ],
    style.bold,
  )
}

export function renderStats(stats: ApplicationStats, style: Style): string {
  const scope = stats.since === null ? '' : ` applied for since ${stats.since.slice(0, 10)}`
  if (stats.total === 0) {
    return `No application${scope} to count. Track one with: jobagent apply <url> --title ..., or import a file with: jobagent import <file>`
  }
  const statuses = Object.entries(stats.by_status)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${status} ${count}`)
    .join(', ')
  const funnel = renderTable(
    stats.funnel,
    [
      {header: 'STAGE', value: (step) => step.stage},
      {header: 'REACHED', value: (step) => String(step.count)},
      {header: 'FROM PREVIOUS', value: (step) => (step.stage === 'saved' ? '' : percent(step.conversion))},
    ],
    style.bold,
  )
  const median = stats.median_days_to_response
  return [
    `Applications${scope}: ${stats.total} (${statuses})`,
    '',
    funnel,
    '',
    `Response rate: ${percent(stats.response_rate)} (${stats.responded} of ${stats.applied} applied for moved on)`,
    `Median time to first response: ${median === null ? 'unknown (no answer recorded yet)' : `${median} days`}`,
    '',
    style.bold('By source'),
    groupTable(stats.by_source, 'SOURCE', (group) => group.source, style),
    '',
    style.bold('By month applied'),
    groupTable(stats.by_month, 'MONTH', (group) => group.month, style),
  ].join('\n')
}
