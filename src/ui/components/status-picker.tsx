import {APPLICATION_STATUSES} from '../../core/applications/application.js'
import type {Mode} from '../dashboard-state.js'
import {Box} from '../ink.js'
import {scrollTop} from '../layout.js'
import {paint, statusColour, useColour} from '../theme.js'
import {Text} from './text.js'

export function StatusPicker(props: {mode: Extract<Mode, {kind: 'pick-status'}>; width: number; height: number}) {
  const {mode, width, height} = props
  const colour = useColour()
  const current = mode.target.kind === 'application' ? mode.target.status : null
  const title = mode.purpose === 'track' ? `Track ${mode.target.label} as:` : `New status for ${mode.target.label}:`
  // On a short terminal only the statuses around the choice are shown.
  const visible = Math.max(1, height - 1)
  const first = scrollTop(0, mode.choice, visible, APPLICATION_STATUSES.length)
  const statuses = APPLICATION_STATUSES.slice(first, first + visible)
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden" flexShrink={0}>
      <Text wrap="truncate-end" bold={colour}>
        {title}
      </Text>
      {statuses.map((status, offset) => {
        const index = first + offset
        const chosen = index === mode.choice
        return (
          <Text key={status} wrap="truncate-end" inverse={chosen && colour}>
            <Text>{`${chosen ? '›' : ' '} ${index + 1} `}</Text>
            <Text color={chosen ? undefined : statusColour(colour, status)}>{status}</Text>
            {status === current ? <Text color={paint(colour, 'gray')}> (current)</Text> : null}
          </Text>
        )
      })}
    </Box>
  )
}
