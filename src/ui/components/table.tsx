import {memo} from 'react'
import {Box} from '../ink.js'
import type {FittedColumn} from '../layout.js'
import {paint, useColour} from '../theme.js'
import {Text} from './text.js'

export type Column<T> = FittedColumn & {
  value: (row: T) => string
  /** The colour of the cell's text; undefined for the default. */
  tone?: (row: T) => string | undefined
}

interface TableProps<T> {
  rows: readonly T[]
  columns: readonly Column<T>[]
  /** The first row of the window; only `height` rows from here are drawn, however long `rows` is. */
  top: number
  height: number
  selected: number
  width: number
  rowKey: (row: T) => string
  empty: string
}

export const MARKER_WIDTH = 2

export function Table<T>({rows, columns, top, height, selected, width, rowKey, empty}: TableProps<T>) {
  const colour = useColour()
  const visible = rows.slice(top, top + height)
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      <Box height={1}>
        <Box width={MARKER_WIDTH} flexShrink={0} />
        {columns.map((column, position) => (
          <Cell key={column.key} width={column.width} last={position === columns.length - 1}>
            <Text bold={colour} wrap="truncate-end">
              {column.header}
            </Text>
          </Cell>
        ))}
      </Box>
      <Box flexDirection="column" height={height} overflow="hidden">
        {visible.length === 0 ? (
          <Text wrap="truncate-end">{`  ${empty}`}</Text>
        ) : (
          visible.map((row, offset) => (
            <Row key={rowKey(row)} row={row} columns={columns} selected={top + offset === selected} colour={colour} />
          ))
        )}
      </Box>
    </Box>
  )
}

function Cell({width, last, children}: {width: number; last: boolean; children: React.ReactNode}) {
  return (
    <Box width={width} marginRight={last ? 0 : 1} flexShrink={0}>
      {children}
    </Box>
  )
}

interface RowProps<T> {
  row: T
  columns: readonly Column<T>[]
  selected: boolean
  colour: boolean
}

// Moving the selection changes two rows; the others keep their props and are not rendered again.
const Row = memo(function Row<T>({row, columns, selected, colour}: RowProps<T>) {
  return (
    <Box height={1} backgroundColor={selected ? paint(colour, 'blue') : undefined}>
      <Box width={MARKER_WIDTH} flexShrink={0}>
        <Text bold={selected && colour}>{selected ? '›' : ' '}</Text>
      </Box>
      {columns.map((column, position) => (
        <Cell key={column.key} width={column.width} last={position === columns.length - 1}>
          <Text
            wrap="truncate-end"
            bold={selected && colour}
            color={selected ? paint(colour, 'whiteBright') : column.tone?.(row)}
          >
            {column.value(row)}
          </Text>
        </Cell>
      ))}
    </Box>
  )
}) as <T>(props: RowProps<T>) => React.ReactElement
