import {memo} from 'react'
import type {ViewName, ViewState} from '../dashboard-state.js'
import {Box} from '../ink.js'
import type {DashboardData} from '../services.js'
import {paint, useColour} from '../theme.js'
import {Text} from './text.js'

interface HeaderProps {
  data: DashboardData | null
  view: ViewName
  filter: ViewState
  shown: number
  width: number
}

function describeFilter(filter: ViewState): string {
  const parts = [filter.text ? `/${filter.text}` : '', filter.status ? `status: ${filter.status}` : '']
  return parts.filter(Boolean).join(' · ')
}

/** Two lines: the views with their sizes and the last run; the counts of the run log and the active filters. */
export const Header = memo(function Header({data, view, filter, shown, width}: HeaderProps) {
  const colour = useColour()
  const tab = (name: ViewName, title: string, size: string) => {
    const active = name === view
    const text = active && !colour ? `[${title} ${size}]` : ` ${title} ${size} `
    return (
      <Text inverse={active && colour} bold={active && colour} color={active ? undefined : paint(colour, 'gray')}>
        {text}
      </Text>
    )
  }
  const run = data?.run
  const lastRun = run ? `last run ${run.started_at.slice(0, 16).replace('T', ' ')} (${run.status})` : 'no run yet'
  const counts = data?.counts
  const filterText = describeFilter(filter)
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      <Box height={1}>
        <Box flexShrink={0}>
          {tab('jobs', 'Jobs', String(data?.jobs.length ?? '…'))}
          <Text> </Text>
          {tab('applications', 'Applications', String(data?.applications.length ?? '…'))}
        </Box>
        <Box flexGrow={1} justifyContent="flex-end" marginLeft={1}>
          <Text wrap="truncate-start" color={paint(colour, 'gray')}>
            {lastRun}
          </Text>
        </Box>
      </Box>
      <Box height={1}>
        <Box flexShrink={0}>
          <Text>
            {counts
              ? `${counts.total} total · ${counts.applied} applied · ${counts.pending} pending · ${data.newJobs} new jobs`
              : 'loading…'}
          </Text>
        </Box>
        <Box flexGrow={1} justifyContent="flex-end" marginLeft={1}>
          <Text wrap="truncate-start" color={paint(colour, 'yellow')}>
            {filterText ? `${filterText} (${shown})` : ''}
          </Text>
        </Box>
      </Box>
    </Box>
  )
})
