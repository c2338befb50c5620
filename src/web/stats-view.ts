// The Stats tab: GET /stats, loaded each time the tab opens or its period changes.
import {apiJson} from './api.js'
import type {FunnelFigures, FunnelStep, Stats} from './api-types.js'
import {$, cell, el, formatRate, plural, svg} from './dom.js'
import {showError} from './messages.js'

let statsRequest = 0

export async function loadStats(): Promise<void> {
  const request = ++statsRequest
  const since = $<HTMLSelectElement>('stats-since').value
  $('stats-summary').textContent = 'Counting the applications…'
  try {
    const stats = await apiJson<Stats>('GET', since ? `stats?since=${encodeURIComponent(since)}` : 'stats')
    // A slower answer for a period chosen before must not replace the one shown.
    if (request === statsRequest) renderStats(stats)
  } catch (error) {
    if (request !== statsRequest) return
    $('stats-summary').textContent = 'The statistics could not be loaded.'
    showError('Could not load the statistics', error)
  }
}

function renderStats(stats: Stats): void {
  const counted = stats.total > 0
  $('stats-figure').hidden = !counted
  $('stats-groups').hidden = !counted
  if (!counted) {
    $('stats-summary').textContent = $<HTMLSelectElement>('stats-since').value
      ? 'No application was applied for in this period.'
      : 'No applications yet: track a job from the Jobs tab.'
    return
  }
  const median = stats.median_days_to_response
  $('stats-summary').textContent =
    `${plural(stats.total, 'application')}. Response rate ${formatRate(stats.response_rate)} ` +
    `(${stats.responded} of ${stats.applied} applied for moved on, rejections included). ` +
    (typeof median === 'number' ? `Median time to first response: ${median} days.` : 'No response time known yet.')
  $('stats-funnel').replaceChildren(funnelChart(stats.funnel))
  fillGroups($<HTMLTableElement>('stats-sources'), 'Source', stats.by_source, (group) => group.source)
  fillGroups($<HTMLTableElement>('stats-months'), 'Month', stats.by_month, (group) => group.month)
}

const CHART = {width: 640, row: 40, label: 120, bar: 22, trail: 150}

/** The funnel as horizontal bars, one per stage, each as long as its count beside the first stage's. */
function funnelChart(funnel: readonly FunnelStep[]): SVGSVGElement {
  const most = Math.max(1, ...funnel.map((step) => step.count))
  const room = CHART.width - CHART.label - CHART.trail
  const height = funnel.length * CHART.row
  const value = (step: FunnelStep) =>
    step.conversion === null ? String(step.count) : `${step.count} (${formatRate(step.conversion)})`
  return svg(
    'svg',
    {
      viewBox: `0 0 ${CHART.width} ${height}`,
      className: 'funnel-chart',
      role: 'img',
      'aria-label': `Funnel: ${funnel.map((step) => `${step.stage} ${value(step)}`).join(', ')}`,
    },
    ...funnel.map((step, index) => {
      const y = index * CHART.row
      const length = Math.round((step.count / most) * room)
      return svg(
        'g',
        {className: `funnel-step stage-${step.stage}`, 'data-stage': step.stage},
        svg('text', {x: CHART.label - 10, y: y + CHART.row / 2, className: 'funnel-label'}, step.stage),
        svg('rect', {
          x: CHART.label,
          y: y + (CHART.row - CHART.bar) / 2,
          width: length,
          height: CHART.bar,
          rx: 3,
          className: 'funnel-bar',
        }),
        svg('text', {x: CHART.label + length + 8, y: y + CHART.row / 2, className: 'funnel-value'}, value(step)),
      )
    }),
  )
}

function fillGroups<G extends FunnelFigures>(
  table: HTMLTableElement,
  label: string,
  groups: readonly G[],
  key: (group: G) => string,
): void {
  const stage = (group: G, index: number) => String(group.funnel[index]?.count ?? 0)
  table.tBodies[0]!.replaceChildren(
    ...groups.map((group) =>
      el(
        'tr',
        {},
        cell(label, String(key(group))),
        cell('Total', String(group.total)),
        cell('Applied', stage(group, 1)),
        cell('Interviewing', stage(group, 2)),
        cell('Offer', stage(group, 3)),
        cell('Accepted', stage(group, 4)),
        cell('Response rate', formatRate(group.response_rate)),
        cell(
          'Median days to response',
          typeof group.median_days_to_response === 'number' ? String(group.median_days_to_response) : '–',
        ),
      ),
    ),
  )
  table.hidden = groups.length === 0
}
