import {useEffect, useState} from 'react'
import type {SearchLine} from '../dashboard-state.js'
import {Box} from '../ink.js'
import {paint, useColour} from '../theme.js'
import {Text} from './text.js'

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

/** A live line per board while a search runs: a spinner and the time so far, then the outcome. */
export function SearchPanel({lines, width, height}: {lines: SearchLine[]; width: number; height: number}) {
  const colour = useColour()
  // The clock only ticks while this panel is shown; the rest of the dashboard is not drawn again for it.
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 200)
    return () => clearInterval(timer)
  }, [])
  const frame = FRAMES[Math.floor(now / 100) % FRAMES.length]
  const shown = lines.length > height ? lines.slice(0, height - 1) : lines
  return (
    <Box flexDirection="column" width={width} height={height} flexShrink={0}>
      {lines.length === 0 ? <Text>{`${frame} Starting the search…`}</Text> : null}
      {shown.map((line) => {
        const mark = line.state === 'running' ? frame : line.state === 'done' ? '✔' : '✖'
        const tone = line.state === 'done' ? 'green' : line.state === 'failed' ? 'red' : 'cyan'
        const text = line.state === 'running' ? `${Math.max(0, (now - line.startedAt) / 1000).toFixed(1)} s` : line.text
        return (
          <Text key={line.name} wrap="truncate-end">
            <Text color={paint(colour, tone)}>{mark}</Text>
            {` ${line.name.padEnd(16)} ${text}`}
          </Text>
        )
      })}
      {shown.length < lines.length ? <Text>{`  … and ${lines.length - shown.length} more board(s)`}</Text> : null}
    </Box>
  )
}
