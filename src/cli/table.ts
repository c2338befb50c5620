import {escapeControls} from '../core/control-characters.js'

interface Column<T> {
  header: string
  value: (row: T) => string
  /** Longest width before the cell is cut with an ellipsis. */
  max?: number
  /**
   * The column that takes the room a terminal has left (a URL): cut to the terminal's width when there is one, and
   * never cut off a terminal, where a pipe or a file wants the whole value.
   */
  fill?: boolean
}

/** Where the table goes: a terminal of `width` columns, or (undefined) a pipe or a file. */
export interface TableOptions {
  width?: number | undefined
}

/** The least a fill column gets on a narrow terminal before the line wraps. */
const MIN_FILL = 20

const RUN_OF_SPACE = /\s+/g

function truncateCell(text: string, width: number): string {
  // Most cells hold single spaces only; the regular expression runs only when a cell has other white space.
  // Controls left after that (ESC, C1, bidi) are shown escaped: a cell is outside data and never drives the terminal.
  const flat = escapeControls(/[^\S ]| {2}/.test(text) ? text.replace(RUN_OF_SPACE, ' ') : text)
  return flat.length > width ? `${flat.slice(0, Math.max(0, width - 1))}…` : flat
}

/** A cell on one line, its controls escaped, uncut. */
function flatCell(text: string): string {
  return truncateCell(text, Number.POSITIVE_INFINITY)
}

/** A plain-text table: one line per row whatever the content, so it stays readable in a pipe or a cron mail. */
export function renderTable<T>(
  rows: readonly T[],
  columns: readonly Column<T>[],
  bold = (s: string) => s,
  options: TableOptions = {},
): string {
  const widths = columns.map((column) => column.header.length)
  const fill = columns.findIndex((column) => column.fill)
  // One pass: cut every cell and widen its column as it goes, so the rows are walked once. A fill column's cells
  // are cut afterwards, when the others' widths are known.
  const cells = rows.map((row) =>
    columns.map((column, index) => {
      if (index === fill) return flatCell(column.value(row))
      const cell = truncateCell(column.value(row), column.max ?? 60)
      if (cell.length > (widths[index] ?? 0)) widths[index] = cell.length
      return cell
    }),
  )
  if (fill >= 0) {
    const others = widths.reduce((sum, width, index) => (index === fill ? sum : sum + width + 2), 0)
    const room = options.width === undefined ? Number.POSITIVE_INFINITY : Math.max(MIN_FILL, options.width - others)
    for (const row of cells) {
      const cell = truncateCell(row[fill] ?? '', room)
      row[fill] = cell
      if (cell.length > (widths[fill] ?? 0)) widths[fill] = cell.length
    }
  }
  const last = columns.length - 1
  const line = (values: readonly string[]) => {
    let text = ''
    for (let index = 0; index < last; index++) text += `${(values[index] ?? '').padEnd(widths[index] ?? 0)}  `
    return `${text}${values[last] ?? ''}`.trimEnd()
  }
  const lines = [bold(line(columns.map((column) => column.header)))]
  for (const row of cells) lines.push(line(row))
  return lines.join('\n')
}
