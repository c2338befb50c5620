import {Box} from '../ink.js'
import {KEY_HELP} from '../keys.js'
import {paint, useColour} from '../theme.js'
import {Text} from './text.js'

const KEY_WIDTH = Math.max(...KEY_HELP.map((entry) => entry.keys.length)) + 2

export function HelpPanel({width, height}: {width: number; height: number}) {
  const colour = useColour()
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden" flexShrink={0}>
      <Text bold={colour}>Keys</Text>
      {KEY_HELP.map((entry) => (
        <Text key={entry.keys} wrap="truncate-end">
          <Text color={paint(colour, 'cyan')}>{`  ${entry.keys.padEnd(KEY_WIDTH)}`}</Text>
          {entry.description}
        </Text>
      ))}
    </Box>
  )
}
