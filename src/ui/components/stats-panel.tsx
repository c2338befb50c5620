import type {ApplicationStats, FunnelFigures} from '../../core/applications/stats.js'
import {Box} from '../ink.js'
import {paint, useColour} from '../theme.js'
import {Text} from './text.js'

const LABEL_WIDTH = 16
const TRAIL_WIDTH = 16

function percent(rate: number | null): string {
  return rate === null ? '-' : `${(rate * 100).toFixed(1)}%`
}

/** `lever 2 applied, 50.0% answered` for each source or month, on one line. */
function groupLine(groups: readonly (FunnelFigures & {name: string})[]): string {
  return groups
    .map((group) => `${group.name} ${group.applied} applied, ${percent(group.response_rate)} answered`)
    .join(' · ')
}

/** The funnel as a bar per stage, the response rate and time, and the same in short per source and per month. */
export function StatsPanel({stats, width, height}: {stats: ApplicationStats | null; width: number; height: number}) {
  const colour = useColour()
  if (!stats)
    return (
      <Box height={height}>
        <Text>Loading…</Text>
      </Box>
    )
  if (stats.total === 0) {
    return (
      <Box height={height} width={width}>
        <Text wrap="truncate-end">No applications tracked yet: nothing to count.</Text>
      </Box>
    )
  }
  const barRoom = Math.max(4, width - LABEL_WIDTH - TRAIL_WIDTH - 2)
  const most = Math.max(1, ...stats.funnel.map((step) => step.count))
  const median = stats.median_days_to_response
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden" flexShrink={0}>
      <Text bold={colour}>{`Funnel of ${stats.total} application(s)`}</Text>
      {stats.funnel.map((step) => (
        <Text key={step.stage} wrap="truncate-end">
          {`  ${step.stage.padEnd(LABEL_WIDTH - 2)}`}
          <Text color={paint(colour, 'cyan')}>{'█'.repeat(Math.round((step.count / most) * barRoom))}</Text>
          {` ${step.count}${step.conversion === null ? '' : ` (${percent(step.conversion)})`}`}
        </Text>
      ))}
      <Text wrap="truncate-end">
        {`Response rate ${percent(stats.response_rate)} (${stats.responded} of ${stats.applied} applied for moved on)`}
      </Text>
      <Text wrap="truncate-end">{`Median time to first response: ${median === null ? 'unknown' : `${median} days`}`}</Text>
      <Text wrap="truncate-end">{`By source: ${groupLine(stats.by_source.map((g) => ({...g, name: g.source})))}`}</Text>
      <Text wrap="truncate-end">{`By month: ${groupLine(stats.by_month.map((g) => ({...g, name: g.month})))}`}</Text>
    </Box>
  )
}
