import {escapeControls} from '../core/control-characters.js'

interface Column<T> {
  header: string
  value: (row: T) => string
  /** Longest width before the cell is cut with an ellipsis. */
  max?: number
}

const RUN_OF_SPACE = /\s+/g

function truncateCell(text: string, width: number): string {
  // Most cells hold single spaces only; the regular expression runs only when a cell has other white space.
  // Controls left after that (ESC, C1, bidi) are shown escaped: a cell is outside data and never drives the terminal.
  const flat = escapeControls(/[^\S ]| {2}/.test(text) ? text.replace(RUN_OF_SPACE, ' ') : text)
  return flat.length > width ? `${flat.slice(0, Math.max(0, width - 1))}…` : flat
}

/** A plain-text table: one line per row whatever the content, so it stays readable in a pipe or a cron mail. */
export function renderTable<T>(rows: readonly T[], columns: readonly Column<T>[], bold = (s: string) => s): string {
  const widths = columns.map((column) => column.header.length)
  // One pass: cut every cell and widen its column as it goes, so the rows are walked once.
  const cells = rows.map((row) =>
    columns.map((column, index) => {
      const cell = truncateCell(column.value(row), column.max ?? 60)
      if (cell.length > (widths[index] ?? 0)) widths[index] = cell.length
      return cell
    }),
  )
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
